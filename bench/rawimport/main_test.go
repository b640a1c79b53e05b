package main

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/dataset"
)

// generated writes `casegraph gen`'s file of a small graph in dataset ds
// and returns its path.
func generated(t *testing.T, ds string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "graph.ndjson")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	enc := dataset.NewEncoder(w)
	if err := dataset.Generate(dataset.GenOptions{Entities: 200, Relations: 1000, Seed: 3, Dataset: ds}, enc.Encode); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return path
}

// registry counts the relations of dataset ds and those whose :RelationId
// node says what CreateRelations makes it say: the type, the ends, the
// page key (the id: no end is protected) and the relationship.
func registry(t *testing.T, driver neo4j.DriverWithContext, ds string) (relations, registered int64) {
	t.Helper()
	res, err := neo4j.ExecuteQuery(context.Background(), driver, `
MATCH (a:Entity {dataset: $ds})-[r]->(b:Entity)
OPTIONAL MATCH (c:RelationId {id: r.id})
RETURN count(r) AS relations,
       count(CASE WHEN c.type = type(r) AND c.fromId = a.id AND c.toId = b.id
                   AND c.pageKey = r.id AND c.rel = elementId(r) THEN 1 END) AS registered`,
		map[string]any{"ds": ds}, neo4j.EagerResultTransformer)
	if err != nil {
		t.Fatal(err)
	}
	rec := res.Records[0]
	relations, _, err = neo4j.GetRecordValue[int64](rec, "relations")
	if err != nil {
		t.Fatal(err)
	}
	registered, _, err = neo4j.GetRecordValue[int64](rec, "registered")
	if err != nil {
		t.Fatal(err)
	}
	return relations, registered
}

// TestModelWritesWhatAnImportKeeps: with -model, the relations come with
// the registry nodes and the degrees a Casegraph import keeps (so the
// figure it gives is the limit for the same writes); without, with
// neither.
func TestModelWritesWhatAnImportKeeps(t *testing.T) {
	store := cyphertest.Store(t, cypher.Options{}) // migrated: the same indexes as an import meets
	driver := cyphertest.Driver(t)
	getenv := func(k string) string {
		if k == "NEO4J_URI" {
			return cyphertest.URI()
		}
		return os.Getenv(k)
	}
	for _, model := range []bool{true, false} {
		ds := cyphertest.Dataset(t)
		args := []string{"-file", generated(t, ds), "-prefix=", "-batch", "300"}
		if model {
			args = append(args, "-model")
		}
		var out strings.Builder
		if err := run(context.Background(), args, getenv, &out); err != nil {
			t.Fatalf("model %v: %v", model, err)
		}
		if !strings.Contains(out.String(), "relations      1000 rows") {
			t.Errorf("model %v: the report does not count 1000 relations:\n%s", model, out.String())
		}
		relations, registered := registry(t, driver, ds)
		if relations != 1000 {
			t.Errorf("model %v: %d relations written, want 1000", model, relations)
		}
		if model {
			if registered != relations {
				t.Errorf("-model: %d of %d relations registered as CreateRelations registers them", registered, relations)
			}
			cyphertest.CheckDegrees(t, store, ds)
		} else if registered != 0 {
			t.Errorf("without -model: %d relations registered, want none", registered)
		}
	}
}
