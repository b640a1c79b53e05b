// Sources: one page of sources in id order, after the cursor's id.
MATCH (s:Source)
WHERE s.id > $after
WITH s
ORDER BY s.id
LIMIT $limit
RETURN s.id AS id, s.title AS title, s.publisher AS publisher, s.url AS url,
       s.publishedAt AS publishedAt, s.retrievedAt AS retrievedAt, s.dataset AS dataset
