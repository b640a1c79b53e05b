// Queries limited to an investigation's dataset, and test clean-up.
CREATE INDEX entity_dataset IF NOT EXISTS
FOR (e:Entity) ON (e.dataset)
