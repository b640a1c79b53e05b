package cypher_test

// The mapping of driver errors to coded errors, and of path searches'
// errors.

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
)

func TestMapError(t *testing.T) {
	dbErr := func(code string) error { return &neo4j.Neo4jError{Code: code, Msg: "MATCH (n) secret"} }
	tests := []struct {
		name    string
		err     error
		code    casegraph.Code
		message string
	}{
		{"deadlock", dbErr("Neo.TransientError.Transaction.DeadlockDetected"), casegraph.CodeTimeout, "concurrent writes"},
		// What the driver returns once its retries ran out: the last
		// failure counts, and a deadlock never blames memory.
		{"deadlock after retries", &neo4j.TransactionExecutionLimit{Cause: "timeout", Errors: []error{
			dbErr("Neo.TransientError.General.TransactionMemoryLimit"),
			dbErr("Neo.TransientError.Transaction.DeadlockDetected"),
		}}, casegraph.CodeTimeout, "concurrent writes"},
		{"memory", dbErr("Neo.TransientError.General.TransactionMemoryLimit"), casegraph.CodeTimeout, "more memory"},
		{"constraint", dbErr("Neo.ClientError.Schema.ConstraintValidationFailed"), casegraph.CodeConflict, "conflicts"},
		{"timed out", dbErr("Neo.ClientError.Transaction.TransactionTimedOut"), casegraph.CodeTimeout, "out of time"},
		{"syntax", dbErr("Neo.ClientError.Statement.SyntaxError"), casegraph.CodeInternal, "internal error"},
		// Lucene's limit on a query's clauses, as Neo4j reports it.
		{"too many clauses", &neo4j.Neo4jError{Code: "Neo.ClientError.Procedure.ProcedureCallFailed",
			Msg: "Failed to invoke procedure `db.index.fulltext.queryNodes`: Caused by: org.apache.lucene.search.IndexSearcher$TooManyNestedClauses: Query contains too many nested clauses; maxClauseCount is set to 1024"},
			casegraph.CodeBadUserInput, "too many words"},
		{"another procedure's failure", dbErr("Neo.ClientError.Procedure.ProcedureCallFailed"), casegraph.CodeInternal, "internal error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := cypher.MapError(casegraph.AsOperator(context.Background()), "Statement", tt.err)
			if got := casegraph.ErrorCode(err); got != tt.code {
				t.Errorf("code = %s, want %s", got, tt.code)
			}
			if msg := casegraph.ErrorMessage(err); !strings.Contains(msg, tt.message) || strings.Contains(msg, "secret") {
				t.Errorf("message %q, want one saying %q and no Cypher", msg, tt.message)
			}
		})
	}
}

func TestPathError(t *testing.T) {
	mapped := func(code string) error {
		return cypher.MapError(casegraph.AsOperator(context.Background()), "Paths", &neo4j.Neo4jError{Code: code, Msg: "MATCH (n) secret"})
	}
	tests := []struct {
		name    string
		timeout time.Duration
		err     error
		message string
	}{
		{"out of its budget", 10 * time.Second, mapped("Neo.ClientError.Transaction.TransactionTimedOut"), "ran out of its time budget (10s)"},
		{"no budget set", 0, mapped("Neo.ClientError.Transaction.TransactionTimedOut"), "ran out of time: narrow it"},
		{"out of memory", 10 * time.Second, mapped("Neo.TransientError.General.TransactionMemoryLimit"), "needed more memory than one query may use"},
		{"not a timeout", 10 * time.Second, mapped("Neo.ClientError.Schema.ConstraintValidationFailed"), "conflicts with existing data"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := cypher.PathError(tt.timeout, tt.err)
			if got, want := casegraph.ErrorCode(err), casegraph.ErrorCode(tt.err); got != want {
				t.Errorf("code = %s, want %s", got, want)
			}
			if msg := casegraph.ErrorMessage(err); !strings.Contains(msg, tt.message) || strings.Contains(msg, "secret") {
				t.Errorf("message %q, want one saying %q and no Cypher", msg, tt.message)
			}
		})
	}
}

// TestRetryOperator: an operator's statement (a migration, a dataset's
// delete) that met a deadlock beside other writes is run again, and one
// that failed for good, or was refused before the database, is not.
func TestRetryOperator(t *testing.T) {
	ctx := casegraph.AsOperator(context.Background())
	deadlock := &neo4j.Neo4jError{Code: "Neo.TransientError.Transaction.DeadlockDetected", Msg: "lock"}
	attempts := 0
	err := cypher.RetryOperator(ctx, "Migration", func() error {
		if attempts++; attempts < 3 {
			return deadlock
		}
		return nil
	})
	if err != nil || attempts != 3 {
		t.Errorf("after two deadlocks: err %v, %d attempts, want nil after 3", err, attempts)
	}

	attempts = 0
	err = cypher.RetryOperator(ctx, "Migration", func() error {
		attempts++
		return &neo4j.Neo4jError{Code: "Neo.ClientError.Statement.SyntaxError", Msg: "MATCH secret"}
	})
	if attempts != 1 || casegraph.ErrorCode(err) != casegraph.CodeInternal || strings.Contains(err.Error(), "secret") {
		t.Errorf("a syntax error: %d attempts, err %v; want one attempt and INTERNAL", attempts, err)
	}

	attempts = 0
	var refused error = casegraph.Errorf(casegraph.CodeUnauthenticated, "no caller")
	if err := cypher.RetryOperator(ctx, "Migration", func() error { attempts++; return refused }); err != refused || attempts != 1 {
		t.Errorf("a refusal before the database: %d attempts, err %v; want it as it was", attempts, err)
	}

	cancelled, cancel := context.WithCancel(ctx)
	attempts = 0
	err = cypher.RetryOperator(cancelled, "Migration", func() error { attempts++; cancel(); return deadlock })
	if attempts != 1 || err == nil {
		t.Errorf("cancelled while retrying: %d attempts, err %v; want one attempt and an error", attempts, err)
	}
}
