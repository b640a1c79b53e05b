// MergeEntity: folds entity $from into entity $into: moves every relation
// of $from to $into (relations between the two are dropped, they would
// join $into to itself, and their ids leave the :RelationId registry),
// sets the aliases and citations the caller computed ($citations: sourceIds
// and the other parallel lists of citations, graded), leaves a tombstone so
// the old id resolves to $into (and repoints older tombstones), then
// deletes $from. A moved relation's protectedEnd is its new ends' (relationKey), and so
// are its registry node's ends, page key and relationship (rel). The content hash goes: the entity no
// longer holds what it hashed, and the next upsert must write.
//
// Degrees: a neighbour keeps its count (its relation with $from is now one
// with $into), so only $into's changes: it is counted again once the
// relations have moved. The caller has locked both entities (LockEntity),
// so a link or unlink of $into that commits meanwhile is either in the count
// or adjusts it afterwards.
MATCH (into:Entity {id: $into}), (f:Entity {id: $from})
CALL (into, f) {
  MATCH (f)-[r]-(into)
  OPTIONAL MATCH (c:RelationId {id: r.id})
  DELETE r, c
}
CALL (into, f) {
  MATCH (f)-[r]->(o:Entity)
  WITH r, o, type(r) AS t, properties(r) AS p
  DELETE r
  CREATE (into)-[n:$(t)]->(o)
  SET n = p, n.protectedEnd = coalesce(into.protected, false) OR coalesce(o.protected, false)
  WITH n, o, into
  OPTIONAL MATCH (c:RelationId {id: n.id})
  SET c.fromId = into.id, c.toId = o.id, c.pageKey = CASE WHEN n.protectedEnd THEN n.redactedId ELSE n.id END, c.rel = elementId(n)
}
CALL (into, f) {
  MATCH (o:Entity)-[r]->(f)
  WITH r, o, type(r) AS t, properties(r) AS p
  DELETE r
  CREATE (o)-[n:$(t)]->(into)
  SET n = p, n.protectedEnd = coalesce(o.protected, false) OR coalesce(into.protected, false)
  WITH n, o, into
  OPTIONAL MATCH (c:RelationId {id: n.id})
  SET c.fromId = o.id, c.toId = into.id, c.pageKey = CASE WHEN n.protectedEnd THEN n.redactedId ELSE n.id END, c.rel = elementId(n)
}
CALL (into, f) {
  MATCH (t:MergedEntity)-[x:MERGED_INTO]->(f)
  DELETE x
  CREATE (t)-[:MERGED_INTO]->(into)
}
CREATE (:MergedEntity {id: f.id, name: f.name, mergedAt: datetime()})-[:MERGED_INTO]->(into)
REMOVE into.contentHash
SET into.aliases = $aliases,
    into.searchAliases = $searchAliases,
    into.rankAliases = $rankAliases,
    into += $citations,
    into.version = coalesce(into.version, 0) + 1,
    into.updatedAt = datetime(),
    into.degree = COUNT { (into)--(:Entity) }
WITH f
DETACH DELETE f
RETURN count(*) AS merged
