// UpsertRelations: creates or updates relations by id; rows whose content
// hash equals the stored one change nothing. The caller has checked that
// the ends exist and that their kinds suit the type; the type comes from the
// validated vocabulary. Returns how many rows found both ends, and how many
// of them changed something.
UNWIND $rows AS row
MATCH (a:Entity {id: row.from}), (b:Entity {id: row.to})
MERGE (a)-[r:$(row.type) {id: row.id}]->(b)
  ON CREATE SET r.createdAt = datetime()
WITH r, row, (r.contentHash IS NULL OR r.contentHash <> row.hash) AS changes
CALL (r, row, changes) {
  WITH r, row WHERE changes
  SET r.contentHash = row.hash,
      r.role = row.role,
      r.startDate = row.startDate,
      r.endDate = row.endDate,
      r.status = row.status,
      r.confidence = row.confidence,
      r.quote = row.quote,
      r.sourceIds = row.sourceIds,
      r.dataset = row.dataset,
      r.updatedAt = datetime()
}
RETURN count(*) AS written, count(CASE WHEN changes THEN 1 END) AS changed
