package cypher

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
)

// A write answers what happened to it, never more: an error before its
// COMMIT was sent means it was not executed (safe to retry: TIMEOUT,
// DATABASE_UNAVAILABLE, ...); an error while or after the COMMIT was on
// the way (the connection broke, the deadline passed) means it may have
// committed (OUTCOME_UNKNOWN). The driver's ExecuteWrite cannot tell the
// two apart for us, and retries on its own, so a write runs in an explicit
// transaction with its own retries of what failed before the commit.

// Statements of this file (statements/NAME.cypher).
const stmtClaimIdempotencyKey statement = "ClaimIdempotencyKey"

// writeUngated: the statements of this file that return no graph data to a
// caller, and why (see ungated): every other goes through the gate.
func writeUngated() ungated {
	return ungated{
		stmtClaimIdempotencyKey: "a write's claim of its idempotency key, the caller's own, in its transaction",
	}
}

// writeRetryBudget bounds the retries of a write that failed before its
// commit on something passing (a lost connection, a deadlock, a leader
// switch), as the driver's MaxTransactionRetryTime did for ExecuteWrite,
// from its first failure: a slow first attempt still gets its retry.
const writeRetryBudget = time.Second

// keyedWrite is what mutate tells transact about a write with an
// idempotency key, whose retry cannot write twice: its first statement
// claims the key, after any earlier attempt's transaction has ended.
type keyedWrite struct {
	// claimed says that the attempt holds the key, so no earlier
	// attempt committed under it: whatever its commit did is known.
	claimed bool
}

type keyedWriteKey struct{}

// mutate runs a mutation in one write transaction, as inWrite does, and
// makes it once per idempotency key: with a key (casegraph.WriteKeyFrom),
// the transaction first claims the key, and when a change was committed
// under it, fills out from that change's outcome and writes nothing (or
// refuses other arguments with CONFLICT IDEMPOTENCY_KEY_REUSED); otherwise
// fn runs and its change is recorded with the key and *out as the outcome.
// out points to what fn sets and the method returns, as JSON.
func (s *Store) mutate(ctx context.Context, name string, out any, fn func(run txRunner) (change, error)) error {
	wk, keyed := casegraph.WriteKeyFrom(ctx)
	var state *keyedWrite
	var key string
	if keyed {
		state = &keyedWrite{}
		ctx = context.WithValue(ctx, keyedWriteKey{}, state)
		key = casegraph.Actor(ctx) + " " + wk.Key // keys are the caller's own
	}
	request, operation := wk.Request, wk.Operation
	if request == "" {
		request, operation = wk.Key, wk.Hash
	}
	return s.inWrite(ctx, name, func(run txRunner) error {
		var k *idempotentChange
		if keyed {
			k = &idempotentChange{id: casegraph.NewChangeID(time.Now().UTC()), key: key, hash: wk.Hash,
				request: casegraph.Actor(ctx) + " " + request, operation: operation}
			replayed, err := claim(run, k, out)
			if err != nil || replayed {
				return err
			}
			state.claimed = true
		}
		c, err := fn(run)
		if err != nil {
			return err
		}
		if keyed {
			b, err := json.Marshal(out)
			if err != nil {
				return internalError(name, err)
			}
			k.outcome = string(b)
		}
		return recordChange(ctx, run, c, k)
	})
}

// claim makes this transaction's change (k.id) hold k's key, or, when a
// change was committed under it, reads its outcome into out and says so;
// a key first sent with another operation, or with another field or
// arguments, is CONFLICT IDEMPOTENCY_KEY_REUSED.
func claim(run txRunner, k *idempotentChange, out any) (replayed bool, err error) {
	recs, err := run(stmtClaimIdempotencyKey, map[string]any{
		"requestKey": k.request, "operationHash": k.operation, "idempotencyKey": k.key, "id": k.id,
	})
	if err != nil {
		return false, err
	}
	if len(recs) != 1 {
		return false, internalError(stmtClaimIdempotencyKey, errNoRow)
	}
	sameOperation, _, err := neo4j.GetRecordValue[bool](recs[0], "sameOperation")
	if err != nil {
		return false, internalError(stmtClaimIdempotencyKey, err)
	}
	claimed, _, err := neo4j.GetRecordValue[bool](recs[0], "claimed")
	if err != nil {
		return false, internalError(stmtClaimIdempotencyKey, err)
	}
	stored := k.hash
	if !claimed {
		if stored, err = getString(recs[0], "argumentsHash"); err != nil {
			return false, internalError(stmtClaimIdempotencyKey, err)
		}
	}
	if !sameOperation || stored != k.hash {
		return false, casegraph.Errorf(casegraph.CodeConflict,
			"this Idempotency-Key was first sent with another mutation or other arguments; send a new key with a new write").
			WithReason(casegraph.ReasonIdempotencyKeyReused)
	}
	if claimed {
		return false, nil
	}
	outcome, err := getString(recs[0], "outcome")
	if err == nil {
		err = json.Unmarshal([]byte(outcome), out)
	}
	if err != nil {
		return false, internalError(stmtClaimIdempotencyKey, err)
	}
	return true, nil
}

// transact runs fn in an explicit write transaction and commits it,
// trying again within writeRetryBudget (and ctx) when it failed before the
// commit on something passing. When the commit's outcome is unknown, a
// write with an idempotency key tries again too (its lookup settles what
// the commit did); any other write answers OUTCOME_UNKNOWN, since running
// it again might run it twice.
func (s *Store) transact(ctx context.Context, name string, fn func(run txRunner) error) error {
	keyed, _ := ctx.Value(keyedWriteKey{}).(*keyedWrite)
	session, err := s.session(ctx, neo4j.AccessModeWrite)
	if err != nil {
		return err
	}
	defer session.Close(ctx)

	var failed time.Time // the first failure: the retry budget counts from it
	var unknown error    // the last commit whose outcome nobody has settled
	for backoff := 25 * time.Millisecond; ; backoff = min(2*backoff, 250*time.Millisecond) {
		if keyed != nil {
			keyed.claimed = false
		}
		committing, err := s.attempt(ctx, session, fn)
		if err == nil {
			s.committed()
			return nil
		}
		if keyed != nil && keyed.claimed {
			unknown = nil // this attempt held the key: no earlier commit happened
		}
		retry, mayHaveCommitted := classifyWriteError(err, committing)
		if mayHaveCommitted {
			unknown = err
			retry = keyed != nil
		}
		if failed.IsZero() {
			failed = time.Now()
		}
		if !retry || ctx.Err() != nil || time.Since(failed)+backoff > writeRetryBudget {
			return writeError(ctx, name, err, unknown)
		}
		select {
		case <-ctx.Done():
			return writeError(ctx, name, ctx.Err(), unknown)
		case <-time.After(backoff):
		}
	}
}

// attempt runs fn and commits, once; committing says that the error came
// from the commit.
func (s *Store) attempt(ctx context.Context, session neo4j.SessionWithContext, fn func(run txRunner) error) (committing bool, err error) {
	tx, err := session.BeginTransaction(ctx, neo4j.WithTxTimeout(remaining(ctx)))
	if err != nil {
		return false, err
	}
	err = fn(s.inTx(ctx, tx))
	if err == nil && ctx.Err() != nil {
		// Out of time before the commit was sent: not executed.
		err = ctx.Err()
	}
	if err != nil {
		_ = tx.Rollback(ctx) // a failed or abandoned transaction rolls back on the server anyway
		return false, err
	}
	return true, tx.Commit(ctx)
}

// inTx runs statements in a transaction of the Store's own (a write's,
// the write gate's check). They read what is stored, whoever asks: the
// write gate judges the caller's rights against that in Go (writegate.go), so
// that an id in a dataset the caller cannot read is found taken, not
// overwritten.
func (s *Store) inTx(ctx context.Context, tx neo4j.ExplicitTransaction) txRunner {
	return func(stmt statement, params map[string]any) ([]*neo4j.Record, error) {
		done := s.roundTrip(ctx, string(stmt))
		res, err := tx.Run(ctx, s.statement(stmt), scopeParams(casegraph.FullScope, params))
		var recs []*neo4j.Record
		if err == nil {
			recs, err = res.Collect(ctx)
		}
		done(err)
		return recs, err
	}
}

// classifyWriteError says what an error of a write transaction means:
// whether the same write may succeed if tried again, and whether it may
// have committed. Only an answer from the server settles a commit: a
// commit that failed below it (a broken connection, a deadline, a
// cancellation) may have been applied before the answer was lost.
func classifyWriteError(err error, committing bool) (retry, mayHaveCommitted bool) {
	var coded *casegraph.Error
	var stale staleJudgement
	switch {
	case errors.As(err, &stale):
		return true, false // judged again when tried again
	case errors.As(err, &coded):
		return false, false // the write's own refusal, before the commit
	case committing:
		var dbErr *neo4j.Neo4jError
		if errors.As(err, &dbErr) {
			return neo4j.IsRetryable(err), false // the server refused the commit
		}
		return false, true
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return false, false
	}
	return neo4j.IsRetryable(err), false
}

// writeError is the error a write answers: OUTCOME_UNKNOWN while a commit
// of it may have happened, else err as a coded error.
func writeError(ctx context.Context, name string, err, unknown error) error {
	if unknown != nil {
		return &casegraph.Error{Code: casegraph.CodeOutcomeUnknown,
			Message: "the write may or may not have been applied: the connection to the database failed during its commit; " +
				"send it again with the same Idempotency-Key to learn which",
			Cause: fmt.Errorf("cypher %s: commit: %w (last: %w)", name, unknown, err)}
	}
	var coded *casegraph.Error
	if errors.As(err, &coded) {
		return err
	}
	return mapError(ctx, name, err)
}
