// RecordChange: one record of the audit log, written in the transaction of
// the change it records (so that no change lands without one). fields is
// the JSON list of the fields changed, with their old and new values.
// A mutation sent with an idempotency key claimed its record first
// (ClaimIdempotencyKey, with this id) and also stores the hash of its field
// and arguments and its outcome; without one, they are null and not set.
MERGE (c:Change {id: $id})
SET c.at = $at, c.principal = $principal, c.operation = $operation,
  c.targets = $targets, c.dataset = $dataset, c.fields = $fields,
  // A change of a protected entity (or of a relation of one) is read only
  // by callers with clearance: its fields hold what redaction withholds.
  c.protected = $protected OR EXISTS { MATCH (e:Entity) WHERE e.id IN $targets AND e.protected },
  c.argumentsHash = $argumentsHash, c.outcome = $outcome
