// CountEntities: how many entities match the filter of Entities.
MATCH (e:Entity)
WHERE ($kinds IS NULL OR any(k IN $kinds WHERE k IN labels(e)))
  AND ($datasets IS NULL OR e.dataset IN $datasets)
  AND ($category IS NULL OR e.category = $category)
  AND ($nameContains IS NULL OR toLower(e.name) CONTAINS $nameContains)
RETURN count(e) AS total
