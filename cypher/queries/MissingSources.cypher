// MissingSources: which of the cited source ids have no :Source node.
UNWIND $ids AS id
OPTIONAL MATCH (s:Source {id: id})
WITH id, s
WHERE s IS NULL
RETURN collect(DISTINCT id) AS missing
