// UpsertEntities: creates or updates entities by id, counting versions from
// 1. A row whose content hash equals the stored one changes nothing (not
// even the version), so loading the same data twice is a no-op. The kind
// label comes from the validated vocabulary, never from free text. An
// existing entity of another kind is not touched: its id comes back in
// kindConflicts and the caller rolls back. A new entity has no relations
// yet: its degree starts at 0 (the writes of relations keep it). Returns how
// many rows changed something.
UNWIND $rows AS row
MERGE (e:Entity {id: row.id})
  ON CREATE SET e:$(row.kind), e.createdAt = datetime(), e.version = 0, e.degree = 0
WITH e, row, row.kind IN labels(e) AS sameKind
WITH e, row, sameKind, sameKind AND (e.contentHash IS NULL OR e.contentHash <> row.hash) AS changes
CALL (e, row, changes) {
  WITH e, row WHERE changes
  SET e.contentHash = row.hash,
      e.name = row.name,
      e.aliases = row.aliases,
      e.description = row.description,
      e.dataset = row.dataset,
      e.sourceIds = row.sourceIds,
      e.category = row.category,
      e.startDate = row.startDate,
      e.endDate = row.endDate,
      e.publishedAt = row.publishedAt,
      e.pageCount = row.pageCount,
      e.url = row.url,
      e.nationality = row.nationality,
      e.searchName = row.searchName,
      e.searchAliases = row.searchAliases,
      e.searchDescription = row.searchDescription,
      e.searchScope = row.searchScope,
      e.version = coalesce(e.version, 0) + 1,
      e.updatedAt = datetime()
}
RETURN count(*) AS written,
       count(CASE WHEN changes THEN 1 END) AS changed,
       [x IN collect(CASE WHEN sameKind THEN null ELSE row.id END) WHERE x IS NOT NULL] AS kindConflicts
