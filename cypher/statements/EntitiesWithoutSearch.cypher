// EntitiesWithoutSearch: the next batch, in id order after $after, of
// entities written before the search fields existed (or before the texts
// a search ranks by, rankName and the others, or by another tool),
// for BackfillSearch to complete. The id range walks the entity_id index,
// so each batch reads on from where the last one stopped.
MATCH (e:Entity)
WHERE e.id > $after AND (e.searchScope IS NULL OR e.rankName IS NULL)
RETURN e.id AS id, [l IN labels(e) WHERE l <> 'Entity'][0] AS kind, e.dataset AS dataset, e.name AS name, coalesce(e.aliases, []) AS aliases, e.description AS description,
       coalesce(e.identifiers, []) AS identifiers
ORDER BY e.id
LIMIT $limit
