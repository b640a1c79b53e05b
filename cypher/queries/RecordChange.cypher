// RecordChange: one record of the audit log, written in the transaction of
// the change it records (so that no change lands without one). fields is
// the JSON list of the fields changed, with their old and new values.
// A mutation sent with an Idempotency-Key also stores the key (unique:
// change_idempotency_key), the hash of its field and arguments and its
// outcome; without one they are null, and CREATE sets no property.
CREATE (:Change {
  id: $id, at: $at, principal: $principal, operation: $operation,
  targets: $targets, dataset: $dataset, fields: $fields,
  // A change of a protected entity (or of a relation of one) is read only
  // by callers with clearance: its fields hold what redaction withholds.
  protected: $protected OR EXISTS { MATCH (e:Entity) WHERE e.id IN $targets AND e.protected },
  idempotencyKey: $idempotencyKey, argumentsHash: $argumentsHash, outcome: $outcome
})
