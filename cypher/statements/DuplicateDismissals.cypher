// DuplicateDismissals: the pairs of $dataset dismissed as not the same.
MATCH (d:DuplicateDismissal)
WHERE d.dataset = $dataset
RETURN d.a AS a, d.b AS b
