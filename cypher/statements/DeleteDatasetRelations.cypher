// DeleteDatasetRelations: removes every relation of a dataset's entities,
// 1000 relationships a transaction, so that a hub's relations are spread
// over many small transactions instead of one huge one. Small, because
// each registry seek in a transaction that has deleted nodes copies the
// set of them (Neo4j's index cursor merges it into its own set of
// removed entries): at 10000 a transaction the deletion was quadratic,
// the whole deletion of a dataset of 100,000 relations 27 s against
// 13-15 s at 1000. A relation is deleted from its start node, or from
// its end node when its start is outside the dataset, so each is matched
// once. Tombstones' MERGED_INTO links stay for DeleteDatasetNodes, which
// removes them with the tombstones. Their ids leave the :RelationId
// registry (RelationStates). An end in another dataset loses one degree;
// the dataset's own entities are deleted next, so their degrees are left
// as they are.
MATCH (n:Entity)
WHERE n.dataset = $dataset
MATCH (n)-[r]-(:Entity)
WHERE startNode(r) = n OR coalesce(startNode(r).dataset, '') <> $dataset
CALL (r) {
  WITH r, [x IN [startNode(r), endNode(r)] WHERE coalesce(x.dataset, '') <> $dataset] AS others
  OPTIONAL MATCH (c:RelationId {id: r.id})
  DELETE r, c
  FOREACH (x IN others | SET x.degree = x.degree - 1)
} IN TRANSACTIONS OF 1000 ROWS
RETURN count(*) AS deleted
