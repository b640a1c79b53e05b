// DeleteDatasetNodes: removes a dataset's entities and sources (their
// relations are gone already), with the tombstones of entities merged into
// them, 5000 nodes a transaction. Each label is matched on its own, so that
// both lookups are dataset-index seeks.
CALL {
  MATCH (n:Entity) WHERE n.dataset = $dataset RETURN n
  UNION ALL
  MATCH (n:Source) WHERE n.dataset = $dataset RETURN n
}
CALL (n) {
  OPTIONAL MATCH (m:MergedEntity)-[:MERGED_INTO]->(n)
  DETACH DELETE m, n
} IN TRANSACTIONS OF 5000 ROWS
RETURN count(*) AS deleted
