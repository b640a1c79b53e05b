// EntitiesByID: the entities with the given ids, in one round trip; ids
// that match nothing are simply absent. Each lookup is a unique-index seek.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
RETURN e.id AS id,
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
       e.nationality AS nationality
