// UpsertSources: creates or updates sources by id. A row whose content hash
// equals the stored one changes nothing, so loading the same data twice is
// a no-op. Returns how many rows changed something.
UNWIND $rows AS row
MERGE (s:Source {id: row.id})
WITH s, row WHERE s.contentHash IS NULL OR s.contentHash <> row.hash
SET s.contentHash = row.hash,
    s.title = row.title,
    s.publisher = row.publisher,
    s.url = row.url,
    s.publishedAt = row.publishedAt,
    s.retrievedAt = row.retrievedAt,
    s.dataset = row.dataset
RETURN count(*) AS changed
