// UpsertRelation: creates the relation, or updates the one with the same
// id, type and ends (the caller has checked that an existing id has the
// same type and ends). The type comes from the validated vocabulary. The
// import's content hash goes, so that importing the relation again writes.
// A relation it creates adds one to the degree of each end.
//
// Both ends are locked first, in id order. Creating a relationship takes
// only a shared lock on a dense node (a hub), and two links to one hub that
// each hold it and then need the exclusive lock of SET degree deadlock;
// exclusive locks taken up front, in one order, queue them instead.
MATCH (a:Entity {id: $from}), (b:Entity {id: $to})
CALL (a, b) {
  UNWIND CASE WHEN a.id < b.id THEN [a, b] ELSE [b, a] END AS n
  SET n._lock = true
  REMOVE n._lock
}
MERGE (a)-[r:$($type) {id: $id}]->(b)
  ON CREATE SET r.createdAt = datetime(),
                a.degree = a.degree + 1,
                b.degree = b.degree + CASE WHEN a = b THEN 0 ELSE 1 END
SET r.role = $role,
    r.startDate = $startDate,
    r.endDate = $endDate,
    r.status = $status,
    r.confidence = $confidence,
    r.quote = $quote,
    r.sourceIds = $sourceIds,
    r.dataset = $dataset,
    r.updatedAt = datetime()
REMOVE r.contentHash
RETURN r {
  .id, .role, .startDate, .endDate, .status, .confidence, .quote, .sourceIds, .dataset,
  type: type(r), from: a.id, to: b.id
} AS relation
