package cypher

// Migrations: named for what they create, loaded, and the errors of
// migrations run at once.

import (
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

func TestMigrationsAreNamedForWhatTheyCreate(t *testing.T) {
	ms, err := Migrations()
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) == 0 {
		t.Fatal("no migrations")
	}
	seen := map[string]bool{}
	for _, m := range ms {
		if seen[m.Name] {
			t.Errorf("two migrations create %s", m.Name)
		}
		seen[m.Name] = true
	}
}

func TestStatementsLoad(t *testing.T) {
	stmts, err := loadStatements()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"EntitiesByID", "UpsertEntities", "UpsertSources", "EntityStates/write", "RelationStates/check", "SchemaState",
		"DeleteDatasetRelations", "DeleteDatasetNodes", "Entities/name/desc/all", "Entities/degree/asc/datasets", "CountEntities/all", "ExportRelations/datasets",
		"RelationsByID", "Search/full", "Search/brief", "Suggest", "Timeline"} {
		if stmts[statement(name)] == "" {
			t.Errorf("statement %s is missing", name)
		}
	}
}

// Processes that migrate a fresh database at once collide: Neo4j refuses
// the loser's IF NOT EXISTS with "already exists", or reports a deadlock,
// possibly after the driver's own retries gave up. The first is success,
// the second worth retrying; anything else is an error.
func TestConcurrentMigrationErrors(t *testing.T) {
	deadlock := &neo4j.Neo4jError{Code: "Neo.TransientError.Transaction.DeadlockDetected"}
	exists := &neo4j.Neo4jError{Code: "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists"}
	syntax := &neo4j.Neo4jError{Code: "Neo.ClientError.Statement.SyntaxError"}
	gaveUp := func(err error) error {
		return &neo4j.TransactionExecutionLimit{Cause: "timeout", Errors: []error{err}}
	}
	tests := []struct {
		name             string
		err              error
		exists, canRetry bool
	}{
		{"deadlock", deadlock, false, true},
		{"deadlock after the driver's retries", gaveUp(deadlock), false, true},
		{"created by another process", exists, true, false},
		{"created by another process, after retries", gaveUp(exists), true, false},
		{"a bad statement", syntax, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := alreadyExists(tt.err); got != tt.exists {
				t.Errorf("alreadyExists = %t, want %t", got, tt.exists)
			}
			if got := retryable(tt.err); got != tt.canRetry {
				t.Errorf("retryable = %t, want %t", got, tt.canRetry)
			}
		})
	}
}
