// UpsertEntities: creates or updates entities by id (idempotent). The kind
// label comes from the validated vocabulary, never from free text. An
// existing entity of another kind is not touched: its id comes back in
// kindConflicts and the caller rolls the transaction back.
UNWIND $rows AS row
MERGE (e:Entity {id: row.id})
  ON CREATE SET e:$(row.kind), e.createdAt = datetime()
WITH e, row, row.kind IN labels(e) AS sameKind
CALL (e, row, sameKind) {
  WITH e, row WHERE sameKind
  SET e.name = row.name,
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
      e.updatedAt = datetime()
}
RETURN count(*) AS written,
       [x IN collect(CASE WHEN sameKind THEN null ELSE row.id END) WHERE x IS NOT NULL] AS kindConflicts
