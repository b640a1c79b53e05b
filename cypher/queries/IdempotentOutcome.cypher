// IdempotentOutcome: the change that a mutation with this idempotency key
// (the caller's id, a space, the request's key and the field's alias)
// committed, if one did: the hash of its field and arguments, and its
// outcome as JSON, to answer a retry with instead of writing again.
MATCH (c:Change {idempotencyKey: $idempotencyKey})
RETURN c.argumentsHash AS argumentsHash, c.outcome AS outcome
