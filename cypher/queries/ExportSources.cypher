// ExportSources: every source of the datasets ($datasets null: all), in id order.
MATCH (s:Source)
WHERE $datasets IS NULL OR s.dataset IN $datasets
RETURN s.id AS id, s.title AS title, s.publisher AS publisher, s.url AS url,
       s.publishedAt AS publishedAt, s.retrievedAt AS retrievedAt, s.dataset AS dataset
ORDER BY id
