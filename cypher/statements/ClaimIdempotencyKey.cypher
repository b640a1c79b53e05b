// ClaimIdempotencyKey: the first statement of a mutation sent with an
// idempotency key. The request's key (the caller's id, a space and the
// request's key) is bound to the first operation sent with it: the first
// write under it records the hash of the request's mutation fields
// ($operationHash), and a write of another operation under it is told so
// (sameOperation false), whatever its aliases. Then the field's key (the
// request's key and the field's alias): it finds the change committed
// under the key, or makes this transaction's change (id $id, filled in by
// RecordChange) hold it.
// Each MERGE over its unique constraint (idempotency_key,
// change_idempotency_key) takes the key's lock, always in this order:
// while another transaction holds the key (a concurrent request, or this
// request's own earlier attempt whose commit is still under way), it
// waits for that one to end, then finds what it did or claims the key.
MERGE (r:IdempotencyKey {key: $requestKey})
  ON CREATE SET r.operationHash = $operationHash, r.firstUsedAt = datetime()
WITH r.operationHash = $operationHash AS sameOperation
MERGE (c:Change {idempotencyKey: $idempotencyKey})
  ON CREATE SET c.id = $id
RETURN sameOperation, c.id = $id AS claimed, c.argumentsHash AS argumentsHash, c.outcome AS outcome
