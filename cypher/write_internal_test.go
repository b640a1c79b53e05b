package cypher

// What a write's error means by the phase it came in, and a commit's
// unknown outcome kept over later failures.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
)

// TestWriteErrorByPhase: what a write's error means depends on when it
// came. Before the COMMIT was sent, nothing was written (retry what may
// pass, answer TIMEOUT, DATABASE_UNAVAILABLE, ...); once it was sent, only
// the server's own answer settles it, and anything else (a broken
// connection, a deadline) is OUTCOME_UNKNOWN, which a write without an
// idempotency key answers as it is and a keyed one retries to settle.
// The driver errors are the kinds the driver returns (neo4j.ConnectivityError
// wraps I/O and pool failures; a server refusal is a *neo4j.Neo4jError).
func TestWriteErrorByPhase(t *testing.T) {
	t.Parallel()
	dbErr := func(code string) error { return &neo4j.Neo4jError{Code: code, Msg: "MATCH (n) secret"} }
	broken := &neo4j.ConnectivityError{Inner: io.ErrUnexpectedEOF}
	reset := &neo4j.ConnectivityError{Inner: &net.OpError{Op: "read", Net: "tcp", Err: fmt.Errorf("connection reset by peer")}}
	tests := []struct {
		name                 string
		err                  error
		committing           bool
		wantRetry            bool
		wantMayHaveCommitted bool
		wantCode             casegraph.Code // as answered, when it is not retried
		wantReason           string
	}{
		{"a refusal of ours", casegraph.Errorf(casegraph.CodeConflict, "stale"), false, false, false, casegraph.CodeConflict, ""},
		{"connection lost before the commit", broken, false, true, false, casegraph.CodeDatabaseUnavailable, ""},
		{"deadlock before the commit", dbErr("Neo.TransientError.Transaction.DeadlockDetected"), false, true, false, casegraph.CodeTimeout, ""},
		{"not a leader", dbErr("Neo.ClientError.Cluster.NotALeader"), false, true, false, casegraph.CodeDatabaseUnavailable, ""},
		{"deadline before the commit", context.DeadlineExceeded, false, false, false, casegraph.CodeTimeout, ""},
		{"constraint before the commit", dbErr("Neo.ClientError.Schema.ConstraintValidationFailed"), false, false, false, casegraph.CodeConflict, ""},
		{"connection lost during the commit", broken, true, false, true, casegraph.CodeOutcomeUnknown, ""},
		{"connection reset during the commit", reset, true, false, true, casegraph.CodeOutcomeUnknown, ""},
		{"deadline during the commit", context.DeadlineExceeded, true, false, true, casegraph.CodeOutcomeUnknown, ""},
		{"cancelled during the commit", context.Canceled, true, false, true, casegraph.CodeOutcomeUnknown, ""},
		{"the server refused the commit, passing", dbErr("Neo.TransientError.General.DatabaseUnavailable"), true, true, false, casegraph.CodeDatabaseUnavailable, ""},
		{"the server refused the commit", dbErr("Neo.ClientError.Transaction.TransactionTimedOut"), true, false, false, casegraph.CodeTimeout, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			retry, may := classifyWriteError(tt.err, tt.committing)
			if retry != tt.wantRetry || may != tt.wantMayHaveCommitted {
				t.Errorf("classifyWriteError = retry %v, may have committed %v; want %v, %v", retry, may, tt.wantRetry, tt.wantMayHaveCommitted)
			}
			var unknown error
			if may {
				unknown = tt.err
			}
			got := writeError(casegraph.AsOperator(context.Background()), "Test", tt.err, unknown)
			if code := casegraph.ErrorCode(got); code != tt.wantCode {
				t.Errorf("answered %s (%v), want %s", code, got, tt.wantCode)
			}
			var coded *casegraph.Error
			if errors.As(got, &coded) && coded.Reason != tt.wantReason {
				t.Errorf("reason %q, want %q", coded.Reason, tt.wantReason)
			}
		})
	}
}

// TestUnknownCommitOutlivesLaterFailures: once a commit's outcome is
// unknown, a later attempt that fails before reading the key cannot say
// "not executed".
func TestUnknownCommitOutlivesLaterFailures(t *testing.T) {
	t.Parallel()
	lost := &neo4j.ConnectivityError{Inner: io.ErrUnexpectedEOF}
	got := writeError(casegraph.AsOperator(context.Background()), "Test", &neo4j.ConnectivityError{Inner: io.EOF}, lost)
	if code := casegraph.ErrorCode(got); code != casegraph.CodeOutcomeUnknown {
		t.Errorf("answered %s, want OUTCOME_UNKNOWN", code)
	}
}

// TestJudgedStaleIsTriedAgain: a write whose gate judged a source that
// changed before the write held it (holdSources) is tried again, where
// the same CONFLICT without the mark is the write's own refusal, final.
func TestJudgedStaleIsTriedAgain(t *testing.T) {
	t.Parallel()
	conflict := casegraph.Errorf(casegraph.CodeConflict, "source %q changed while this write was written: send it again", "s")
	if retry, _ := classifyWriteError(fmt.Errorf("cypher WriteBatch: %w", staleJudgement{conflict}), false); !retry {
		t.Error("a stale judgement is not tried again")
	}
	if retry, _ := classifyWriteError(conflict, false); retry {
		t.Error("a refusal is tried again")
	}
	err := writeError(context.Background(), "WriteBatch", staleJudgement{conflict}, nil)
	if casegraph.ErrorCode(err) != casegraph.CodeConflict || err.Error() != conflict.Error() {
		t.Errorf("a stale judgement out of retries answers %v, want %v", err, conflict)
	}
}

// TestViolatesConstraint: a statement's error is a uniqueness
// constraint's refusal only as the driver returns it, by its code.
func TestViolatesConstraint(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		err  error
		want bool
	}{
		{&neo4j.Neo4jError{Code: constraintViolation}, true},
		{fmt.Errorf("cypher CreateEntities: %w", &neo4j.Neo4jError{Code: constraintViolation}), true},
		{&neo4j.Neo4jError{Code: "Neo.TransientError.Transaction.DeadlockDetected"}, false},
		{casegraph.Errorf(casegraph.CodeConflict, "taken"), false},
		{nil, false},
	} {
		if got := violatesConstraint(c.err); got != c.want {
			t.Errorf("violatesConstraint(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
