// UpsertSources: creates or updates sources by id, after the write gate
// (cypher/gate.go) has judged every row against what is stored. A row
// whose content hash equals the stored one changes nothing, so loading the
// same data twice is a no-op. A row whose id the gate found free
// (row.stored false) but that another write has taken since is not
// touched: its id comes back in raced and the caller rolls back. Returns
// how many rows changed something.
UNWIND $rows AS row
MERGE (s:Source {id: row.id})
  ON CREATE SET s._created = true
WITH s, row, coalesce(s._created, false) AS created
REMOVE s._created
WITH s, row, NOT created AND NOT row.stored AS raced
WITH s, row, raced, NOT raced AND (s.contentHash IS NULL OR s.contentHash <> row.hash) AS changes
CALL (s, row, changes) {
  WITH s, row WHERE changes
  SET s.contentHash = row.hash,
      s.title = row.title,
      s.publisher = row.publisher,
      s.url = row.url,
      s.publishedAt = row.publishedAt,
      s.retrievedAt = row.retrievedAt,
      s.dataset = row.dataset,
      s.kind = row.kind,
      s.language = row.language,
      s.archivedUrl = row.archivedUrl,
      s.sha256 = row.sha256,
      s.reliability = row.reliability
}
RETURN count(CASE WHEN changes THEN 1 END) AS changed,
       [x IN collect(CASE WHEN raced THEN row.id END) WHERE x IS NOT NULL] AS raced
