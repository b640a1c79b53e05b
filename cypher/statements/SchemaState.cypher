// SchemaState: which of the named indexes and constraints exist and are
// online (a uniqueness constraint is backed by an index of the same name).
SHOW INDEXES YIELD name, state
WHERE name IN $names
RETURN name, state
