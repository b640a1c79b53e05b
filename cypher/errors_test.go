package cypher_test

import (
	"context"
	"strings"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
)

func TestMapError(t *testing.T) {
	tests := []struct {
		neo4jCode string
		code      casegraph.Code
		message   string
	}{
		{"Neo.TransientError.Transaction.DeadlockDetected", casegraph.CodeTimeout, "concurrent writes"},
		{"Neo.TransientError.General.TransactionMemoryLimit", casegraph.CodeTimeout, "more memory"},
		{"Neo.ClientError.Schema.ConstraintValidationFailed", casegraph.CodeConflict, "conflicts"},
		{"Neo.ClientError.Transaction.TransactionTimedOut", casegraph.CodeTimeout, "out of time"},
		{"Neo.ClientError.Statement.SyntaxError", casegraph.CodeInternal, "internal error"},
	}
	for _, tt := range tests {
		t.Run(tt.neo4jCode, func(t *testing.T) {
			err := cypher.MapError(context.Background(), "Statement", &neo4j.Neo4jError{Code: tt.neo4jCode, Msg: "MATCH (n) secret"})
			if got := casegraph.ErrorCode(err); got != tt.code {
				t.Errorf("code = %s, want %s", got, tt.code)
			}
			if msg := casegraph.ErrorMessage(err); !strings.Contains(msg, tt.message) || strings.Contains(msg, "secret") {
				t.Errorf("message %q, want one saying %q and no Cypher", msg, tt.message)
			}
		})
	}
}
