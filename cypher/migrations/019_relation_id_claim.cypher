// A relation id is one relation's, whatever its type: a write claims the
// ids of the relations it writes (RelationStates/claim) by a node of this
// label, made and deleted in its transaction, which this constraint makes
// a second claim of the same id wait for.
CREATE CONSTRAINT relation_id_claim IF NOT EXISTS
FOR (c:RelationIdClaim) REQUIRE c.id IS UNIQUE
