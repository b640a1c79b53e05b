// DeleteEntity: removes an entity with its relations, and the tombstones of
// entities merged into it. Returns how many relations went with it (no row
// when there is no such entity).
MATCH (e:Entity {id: $id})
CALL (e) {
  OPTIONAL MATCH (m:MergedEntity)-[:MERGED_INTO]->(e)
  DETACH DELETE m
}
WITH e, COUNT { (e)--(:Entity) } AS relations
DETACH DELETE e
RETURN relations
