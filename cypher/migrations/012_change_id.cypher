// One audit record an id; ids sort as the changes happened, so the log is
// read newest first from this index.
CREATE CONSTRAINT change_id IF NOT EXISTS
FOR (c:Change) REQUIRE c.id IS UNIQUE
