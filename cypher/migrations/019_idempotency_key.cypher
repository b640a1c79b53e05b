// One record a request's key (the caller's id and the request's
// Idempotency-Key), bound to the operation first sent with it: a mutation
// claims it first with MERGE (ClaimIdempotencyKey), which this constraint
// makes wait for, then find, the record of another transaction that holds
// the key.
CREATE CONSTRAINT idempotency_key IF NOT EXISTS
FOR (k:IdempotencyKey) REQUIRE k.key IS UNIQUE
