// Entities in the order of their last change: entities(orderBy:
// UPDATED_AT) reads them from this index in order instead of sorting
// every entity.
CREATE INDEX entity_updated_at IF NOT EXISTS
FOR (e:Entity) ON (e.updatedAt)
