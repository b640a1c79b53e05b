// Entities: one page of entities in id order, after the cursor's id ('' for
// the first page). The range on e.id lets the planner walk the entity_id
// index in order and stop at the limit.
MATCH (e:Entity)
WHERE e.id > $after
  AND ($kinds IS NULL OR any(k IN $kinds WHERE k IN labels(e)))
  AND ($datasets IS NULL OR e.dataset IN $datasets)
  AND ($category IS NULL OR e.category = $category)
  AND ($nameContains IS NULL OR toLower(e.name) CONTAINS $nameContains)
WITH e
ORDER BY e.id
LIMIT $limit
RETURN e.id AS key,
       e.id AS id,
       [l IN labels(e) WHERE l <> 'Entity'][0] AS kind,
       e.name AS name,
       coalesce(e.aliases, []) AS aliases,
       e.description AS description,
       e.dataset AS dataset,
       coalesce(e.sourceIds, []) AS sourceIds,
       e.category AS category,
       e.startDate AS startDate,
       e.endDate AS endDate,
       e.publishedAt AS publishedAt,
       e.pageCount AS pageCount,
       e.url AS url,
       e.nationality AS nationality,
       coalesce(e.version, 1) AS version,
       e.createdAt AS createdAt,
       e.updatedAt AS updatedAt
