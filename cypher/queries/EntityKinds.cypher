// EntityKinds: the kind of each live entity among the ids, and for ids
// that were merged away, the survivor.
UNWIND $ids AS key
OPTIONAL MATCH (e:Entity {id: key})
OPTIONAL MATCH (:MergedEntity {id: key})-[:MERGED_INTO]->(s:Entity)
WITH key, e, s
WHERE e IS NOT NULL OR s IS NOT NULL
RETURN key, [l IN labels(e) WHERE l <> 'Entity'][0] AS kind, s.id AS mergedInto
