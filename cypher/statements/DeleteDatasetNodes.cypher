// DeleteDatasetNodes: removes a dataset's entities and sources (their
// relations are gone already), with the tombstones of entities merged into
// them, and its dismissed duplicate pairs, 5000 nodes a transaction. Each
// label is matched on its own, so that the entity and source lookups are
// dataset-index seeks (dismissals too). A relation linked to one of them
// since DeleteDatasetRelations ran goes with it (and its id with the
// :RelationId registry), and its end in another dataset loses the degree
// it added.
CALL {
  MATCH (n:Entity) WHERE n.dataset = $dataset RETURN n
  UNION ALL
  MATCH (n:Source) WHERE n.dataset = $dataset RETURN n
  UNION ALL
  MATCH (n:DuplicateDismissal) WHERE n.dataset = $dataset RETURN n
}
CALL (n) {
  CALL (n) {
    MATCH (n)--(o:Entity)
    WHERE coalesce(o.dataset, '') <> $dataset
    WITH o, count(*) AS lost
    SET o.degree = o.degree - lost
  }
  CALL (n) {
    MATCH (n)-[r]-(:Entity)
    MATCH (c:RelationId {id: r.id})
    DELETE c
  }
  OPTIONAL MATCH (m:MergedEntity)-[:MERGED_INTO]->(n)
  DETACH DELETE m, n
} IN TRANSACTIONS OF 5000 ROWS
RETURN count(*) AS deleted
