// DeleteEntity: removes an entity with its relations, and the tombstones of
// entities merged into it; each neighbour loses one degree for every
// relation it had with the entity; their ids leave the :RelationId
// registry (RelationStates). Returns how many relations went with it
// (no row when there is no such entity).
MATCH (e:Entity {id: $id})
CALL (e) {
  OPTIONAL MATCH (m:MergedEntity)-[:MERGED_INTO]->(e)
  DETACH DELETE m
}
CALL (e) {
  MATCH (e)--(o:Entity)
  WHERE o <> e
  WITH o, count(*) AS lost
  SET o.degree = o.degree - lost
}
CALL (e) {
  MATCH (e)-[r]-(:Entity)
  MATCH (c:RelationId {id: r.id})
  DELETE c
}
WITH e, COUNT { (e)--(:Entity) } AS relations
DETACH DELETE e
RETURN relations
