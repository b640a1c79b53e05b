// ForgetDegrees (tests only): makes the entities of $dataset look as if
// they were written before degrees were kept.
MATCH (e:Entity)
WHERE e.dataset = $dataset
REMOVE e.degree
