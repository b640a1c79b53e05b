// One change a key (the caller's id, the request's Idempotency-Key and the
// mutation field's alias): a mutation claims its key first with MERGE
// (ClaimIdempotencyKey), which this constraint makes wait for, then find,
// the change of another transaction that holds the key. Changes without a
// key are not indexed.
CREATE CONSTRAINT change_idempotency_key IF NOT EXISTS
FOR (c:Change) REQUIRE c.idempotencyKey IS UNIQUE
