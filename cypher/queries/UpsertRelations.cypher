// UpsertRelations: creates or updates relations by id; rows whose content
// hash equals the stored one change nothing. The caller has checked that
// the ends exist and that their kinds suit the type; the type comes from the
// validated vocabulary. A relation it creates (not one it updates) adds one
// to the degree of each end; a self-loop counts once, as COUNT { (e)--() }
// counts it. Rows on the same entity add up: SET reads the degree it
// increments after taking the entity's write lock, and sees the rows before.
// Returns how many rows found both ends, and how many of them changed
// something.
UNWIND $rows AS row
MATCH (a:Entity {id: row.from}), (b:Entity {id: row.to})
MERGE (a)-[r:$(row.type) {id: row.id}]->(b)
  ON CREATE SET r.createdAt = datetime(),
                a.degree = a.degree + 1,
                b.degree = b.degree + CASE WHEN a = b THEN 0 ELSE 1 END
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
