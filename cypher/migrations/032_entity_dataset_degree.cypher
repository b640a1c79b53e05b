// Entities of one dataset in the order of their degree: a caller limited
// to some datasets (or a filter by datasets) reads the most connected of
// each of them from this index in order (Entities' seek variant), where
// the degree index alone would pass every entity of the other datasets
// first (83-102 ms for the explorer's first screen on 100k entities of
// another dataset, and growing with them).
CREATE INDEX entity_dataset_degree IF NOT EXISTS
FOR (e:Entity) ON (e.dataset, e.degree)
