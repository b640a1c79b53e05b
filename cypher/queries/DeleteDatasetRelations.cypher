// DeleteDatasetRelations: removes every relation of a dataset's entities,
// 10000 relationships a transaction, so that a hub's relations are spread
// over many small transactions instead of one huge one. A relation is
// deleted from its start node, or from its end node when its start is
// outside the dataset, so each is matched once. Tombstones' MERGED_INTO
// links stay for DeleteDatasetNodes, which removes them with the tombstones.
MATCH (n:Entity)
WHERE n.dataset = $dataset
MATCH (n)-[r]-(:Entity)
WHERE startNode(r) = n OR coalesce(startNode(r).dataset, '') <> $dataset
CALL (r) {
  DELETE r
} IN TRANSACTIONS OF 10000 ROWS
RETURN count(*) AS deleted
