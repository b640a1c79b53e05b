// DeleteDataset: removes a dataset's entities (with their relations) and
// sources, in batches so that a large dataset does not need one huge
// transaction. Returns how many nodes went.
MATCH (n)
WHERE (n:Entity OR n:Source) AND n.dataset = $dataset
CALL (n) {
  DETACH DELETE n
} IN TRANSACTIONS OF 5000 ROWS
RETURN count(*) AS deleted
