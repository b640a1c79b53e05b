// A merged entity leaves a tombstone with its old id, pointing at the
// survivor, so that the old id still resolves.
CREATE CONSTRAINT merged_entity_id IF NOT EXISTS
FOR (m:MergedEntity) REQUIRE m.id IS UNIQUE
