// A relation id is one relation's, whatever its type: every relation's id
// is also a node of this label (with the relation's type), which the
// write gate finds with one seek (RelationStates) and locks, so that a
// second write of the same id, of any type, waits for the first and then
// finds what it wrote (the per-type relation_id_<type> constraints cannot
// see across types).
CREATE CONSTRAINT relation_id_registry IF NOT EXISTS
FOR (c:RelationId) REQUIRE c.id IS UNIQUE
