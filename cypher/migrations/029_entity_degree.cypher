// Entities in the order of their degree (the count every write keeps):
// the explorer's first screen lists the most connected first, and reads
// them from this index in order instead of sorting every entity.
CREATE INDEX entity_degree IF NOT EXISTS
FOR (e:Entity) ON (e.degree)
