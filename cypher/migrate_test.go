package cypher

import "testing"

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
	stmts, err := loadStatements(queryFiles, "queries")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"EntitiesByID", "UpsertEntities", "UpsertSources", "MissingSources", "SchemaState",
		"DeleteDatasetRelations", "DeleteDatasetNodes", "Entities/name/desc/all", "Entities/degree/asc/datasets", "CountEntities/all", "ExportRelations/datasets",
		"RelationsByID", "Search", "Timeline"} {
		if stmts[name] == "" {
			t.Errorf("statement %s is missing", name)
		}
	}
}
