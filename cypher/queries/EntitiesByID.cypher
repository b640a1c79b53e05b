// EntitiesByID: the entities with the given ids, in one round trip. An id
// that was merged into another entity resolves to the survivor; ids that
// match nothing are absent. Every lookup is a unique-index seek.
UNWIND $ids AS key
OPTIONAL MATCH (direct:Entity {id: key})
OPTIONAL MATCH (:MergedEntity {id: key})-[:MERGED_INTO]->(survivor:Entity)
WITH key, coalesce(direct, survivor) AS e
WHERE e IS NOT NULL
RETURN key,
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
