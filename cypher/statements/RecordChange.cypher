// RecordChange: one record of the audit log, written in the transaction of
// the change it records (so that no change lands without one). fields is
// the JSON list of the fields changed, with their old and new values.
// A mutation sent with an idempotency key claimed its record first
// (ClaimIdempotencyKey, with this id) and also stores the hash of its field
// and arguments and its outcome; without one, they are null and not set.
//
// Its number in the change feed (seq) comes from the one counter, whose
// lock this transaction holds until it commits: a change with a higher
// number commits after it, so a watcher that has read up to a number has
// seen every change below it (ChangeFeed). This is the transaction's last
// statement, so the lock is held only for the commit.
// The lock is taken (SET) before the number is read: a read-committed
// increment would otherwise let two transactions read the same number.
MERGE (log:ChangeLog {id: 'changes'})
SET log.locked = true
WITH log
SET log.seq = coalesce(log.seq, 0) + 1
REMOVE log.locked
MERGE (c:Change {id: $id})
SET c.seq = log.seq, c.at = $at, c.principal = $principal, c.operation = $operation,
  c.targets = $targets, c.dataset = $dataset, c.fields = $fields,
  // Every dataset the record names (a link's two ends may be of two),
  // for the gate ("changeReadable"): those the change knows ($datasets)
  // and those of the entities among its targets (unique-index seeks).
  c.datasets = COLLECT {
    UNWIND $datasets + COLLECT { MATCH (e:Entity) WHERE e.id IN $targets RETURN e.dataset } AS d
    WITH DISTINCT d WHERE d IS NOT NULL
    RETURN d ORDER BY d
  },
  // A change of a protected entity (or of a relation of one) is read only
  // by callers with clearance: its fields hold what redaction withholds.
  c.protected = $protected OR EXISTS { MATCH (e:Entity) WHERE e.id IN $targets AND e.protected },
  c.argumentsHash = $argumentsHash, c.outcome = $outcome
