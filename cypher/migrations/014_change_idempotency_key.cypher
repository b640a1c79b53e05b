// One committed change a key (the caller's id, the request's
// Idempotency-Key and the mutation field's alias): of two writes sent
// with the same key, the second to commit fails on this constraint and
// answers the first's outcome. Changes without a key are not indexed.
CREATE CONSTRAINT change_idempotency_key IF NOT EXISTS
FOR (c:Change) REQUIRE c.idempotencyKey IS UNIQUE
