package cypher

// Driver errors as coded errors whose message is safe for a client
// (TIMEOUT, BUSY, DATABASE_UNAVAILABLE ...); the driver's own message is
// kept only as the cause.

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
)

// mapError turns a driver error into a coded error whose message is safe to
// show a client. The driver's own message (which may quote Cypher) is kept
// only as the cause, for the log.
func mapError(ctx context.Context, name string, err error) error {
	cause := fmt.Errorf("cypher %s: %w", name, err)
	coded := func(code casegraph.Code, msg string) error {
		return &casegraph.Error{Code: code, Message: msg, Cause: cause}
	}

	if ended := casegraph.Ended(ctx, err, cause); ended != nil {
		return ended
	}

	// The driver gave up retrying: what counts is the last failure.
	var limit *neo4j.TransactionExecutionLimit
	if errors.As(err, &limit) && len(limit.Errors) > 0 {
		err = limit.Errors[len(limit.Errors)-1]
	}
	var dbErr *neo4j.Neo4jError
	if errors.As(err, &dbErr) {
		switch dbErr.Code {
		case "Neo.ClientError.Transaction.TransactionTimedOut",
			"Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration",
			"Neo.TransientError.Transaction.Terminated",
			"Neo.ClientError.Transaction.Terminated":
			return coded(casegraph.CodeTimeout, "the query ran out of time")
		case constraintViolation:
			return coded(casegraph.CodeConflict, "the change conflicts with existing data")
		case memoryLimitCodes[0], memoryLimitCodes[1]:
			return coded(casegraph.CodeTimeout, "the query needed more memory than it may use; narrow it")
		case "Neo.TransientError.Transaction.DeadlockDetected":
			// Retried by the driver until its retry budget ran out.
			return coded(casegraph.CodeTimeout, "the write kept meeting concurrent writes to the same entities; try it again")
		case "Neo.ClientError.Procedure.ProcedureCallFailed":
			// The full-text index refuses a query that Lucene rewrites
			// into more clauses than it allows (1,024): a long text whose
			// words each match many terms. LuceneSearch keeps the texts
			// tried below that (maxTypoWords), scoped to the 50 datasets
			// and every kind a search may name too; should another still
			// pass it, this is the answer, not INTERNAL.
			if strings.Contains(dbErr.Msg, "TooManyNestedClauses") || strings.Contains(dbErr.Msg, "TooManyClauses") {
				return coded(casegraph.CodeBadUserInput, "the search text has too many words to search at once: use fewer words")
			}
		case "Neo.ClientError.Database.DatabaseNotFound",
			"Neo.TransientError.General.DatabaseUnavailable",
			"Neo.TransientError.Database.DatabaseUnavailable",
			"Neo.ClientError.Security.Unauthorized",
			"Neo.ClientError.Security.AuthenticationRateLimit",
			"Neo.ClientError.Cluster.NotALeader":
			return coded(casegraph.CodeDatabaseUnavailable, "the database is unavailable")
		}
		return coded(casegraph.CodeInternal, "internal error")
	}
	if neo4j.IsUsageError(err) {
		return coded(casegraph.CodeInternal, "internal error")
	}
	// What is left comes from below the server: refused or broken
	// connections, pool timeouts, retries given up on.
	return coded(casegraph.CodeDatabaseUnavailable, "the database is unavailable")
}

// memoryLimitCodes are Neo4j's refusals of a transaction that needed more
// memory than it may use (db.memory.transaction.max and the global pool).
var memoryLimitCodes = [...]string{"Neo.TransientError.General.MemoryPoolOutOfMemoryError", "Neo.TransientError.General.TransactionMemoryLimit"}

// isMemoryLimit reports whether err (mapped or not) is such a refusal.
func isMemoryLimit(err error) bool {
	var limit *neo4j.TransactionExecutionLimit
	if errors.As(err, &limit) && len(limit.Errors) > 0 {
		err = limit.Errors[len(limit.Errors)-1]
	}
	var dbErr *neo4j.Neo4jError
	return errors.As(err, &dbErr) && (dbErr.Code == memoryLimitCodes[0] || dbErr.Code == memoryLimitCodes[1])
}

// internalError reports a record that does not have the shape its statement
// promises: a bug, logged with its cause and shown to clients as INTERNAL.
func internalError[N ~string](name N, err error) error {
	return &casegraph.Error{Code: casegraph.CodeInternal, Message: "internal error", Cause: fmt.Errorf("cypher %s: %w", name, err)}
}

var errNoRow = errors.New("the statement returned no row")

// constraintViolation is the code of Neo4j's refusal of a write that a
// uniqueness constraint forbids.
const constraintViolation = "Neo.ClientError.Schema.ConstraintValidationFailed"

// violatesConstraint says whether err, as a statement in a transaction
// returns it (before mapError), is Neo4j's refusal of a write that a
// uniqueness constraint forbids: an id another write has taken since the
// write gate looked.
func violatesConstraint(err error) bool {
	var dbErr *neo4j.Neo4jError
	return errors.As(err, &dbErr) && dbErr.Code == constraintViolation
}
