// WrongDegrees: the entities of $datasets whose degree is missing or is not
// the number of their relations (tombstones' MERGED_INTO links do not
// count: they join a :MergedEntity, not an :Entity). A consistency check,
// for tests and for operators.
MATCH (e:Entity)
WHERE e.dataset IN $datasets
WITH e, COUNT { (e)--(:Entity) } AS counted
WHERE e.degree IS NULL OR e.degree <> counted
RETURN e.id AS id, e.degree AS degree, counted
ORDER BY id
