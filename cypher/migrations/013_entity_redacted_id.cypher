// A protected entity's opaque id, which callers without clearance see
// and name it by, is unique and found by an index seek.
CREATE CONSTRAINT entity_redacted_id IF NOT EXISTS
FOR (e:Entity) REQUIRE e.redactedId IS UNIQUE
