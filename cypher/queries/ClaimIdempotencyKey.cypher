// ClaimIdempotencyKey: the first statement of a mutation sent with an
// idempotency key (the caller's id, a space, the request's key and the
// field's alias). It finds the change committed under the key, or makes
// this transaction's change (id $id, filled in by RecordChange) hold it.
// MERGE over the unique constraint change_idempotency_key takes the key's
// lock: while another transaction holds the key (a concurrent request, or
// this request's own earlier attempt whose commit is still under way), it
// waits for that one to end, then finds its change or claims the key.
MERGE (c:Change {idempotencyKey: $idempotencyKey})
  ON CREATE SET c.id = $id
RETURN c.id = $id AS claimed, c.argumentsHash AS argumentsHash, c.outcome AS outcome
