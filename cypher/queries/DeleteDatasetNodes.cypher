// DeleteDatasetNodes: removes a dataset's entities and sources (their
// relations are gone already), with the tombstones of entities merged into
// them, 5000 nodes a transaction.
MATCH (n)
WHERE (n:Entity OR n:Source) AND n.dataset = $dataset
CALL (n) {
  OPTIONAL MATCH (m:MergedEntity)-[:MERGED_INTO]->(n)
  DETACH DELETE m, n
} IN TRANSACTIONS OF 5000 ROWS
RETURN count(*) AS deleted
