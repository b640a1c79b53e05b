// DeleteSource: deletes the source $id unless an entity or a relation
// (of any dataset: sources may be cited across datasets) cites it, and
// says which happened. The citations are looked for in the whole graph,
// stopping at the first: a source cited is never deleted.
MATCH (s:Source {id: $id})
CALL (s) {
  OPTIONAL MATCH (e:Entity) WHERE s.id IN e.sourceIds
  WITH e LIMIT 1
  RETURN e.id AS citingEntity
}
CALL (s) {
  OPTIONAL MATCH ()-[r]->() WHERE s.id IN r.sourceIds
  WITH r LIMIT 1
  RETURN r.id AS citingRelation
}
WITH s, citingEntity, citingRelation, s {.*} AS before
CALL (s, citingEntity, citingRelation) {
  WITH s WHERE citingEntity IS NULL AND citingRelation IS NULL
  DELETE s
}
RETURN before AS source, citingEntity, citingRelation
