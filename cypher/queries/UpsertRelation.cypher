// UpsertRelation: creates the relation, or updates the one with the same
// id, type and ends (the caller has checked that an existing id has the
// same type and ends). The type comes from the validated vocabulary. The
// import's content hash goes, so that importing the relation again writes.
MATCH (a:Entity {id: $from}), (b:Entity {id: $to})
MERGE (a)-[r:$($type) {id: $id}]->(b)
  ON CREATE SET r.createdAt = datetime()
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
