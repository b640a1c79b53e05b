// UpsertSources: creates or updates sources by id (idempotent).
UNWIND $rows AS row
MERGE (s:Source {id: row.id})
SET s.title = row.title,
    s.publisher = row.publisher,
    s.url = row.url,
    s.publishedAt = row.publishedAt,
    s.retrievedAt = row.retrievedAt,
    s.dataset = row.dataset
