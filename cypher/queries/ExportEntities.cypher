// ExportEntities: every entity of the datasets ($datasets null: all), in id order.
MATCH (e:Entity)
WHERE $datasets IS NULL OR e.dataset IN $datasets
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
ORDER BY id
