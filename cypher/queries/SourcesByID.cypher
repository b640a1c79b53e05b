// SourcesByID: the sources with the given ids, in one round trip.
UNWIND $ids AS key
MATCH (s:Source {id: key})
RETURN s.id AS id, s.title AS title, s.publisher AS publisher, s.url AS url,
       s.publishedAt AS publishedAt, s.retrievedAt AS retrievedAt, s.dataset AS dataset
