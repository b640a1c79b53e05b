package main

import (
	"bufio"
	"fmt"
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
// (1,000 relations), with two entities and two relations more that the
// generator never makes: a relation of an entity with itself and one with
// a protected person, and returns its path.
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
	for _, line := range []string{
		`{"type":"entity","id":"DS:loop","kind":"Person","name":"Loop","dataset":"DS"}`,
		`{"type":"entity","id":"DS:protected","kind":"Person","name":"Protected","protected":true,"dataset":"DS"}`,
		`{"type":"relation","id":"DS:rel-loop","relationType":"ASSOCIATE_OF","from":"DS:loop","to":"DS:loop","dataset":"DS"}`,
		`{"type":"relation","id":"DS:rel-protected","relationType":"ASSOCIATE_OF","from":"DS:loop","to":"DS:protected","dataset":"DS"}`,
	} {
		if _, err := fmt.Fprintln(w, strings.ReplaceAll(line, "DS", ds)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return path
}

// registry counts the relations of dataset ds, those with a protected
// end, and those whose :RelationId node says what CreateRelations makes it
// say: the type, the ends, the page key (the redacted id when an end is
// protected, else the id) and the relationship, its protectedEnd its
// ends'.
func registry(t *testing.T, driver neo4j.DriverWithContext, ds string) (relations, protected, registered int64) {
	t.Helper()
	res, err := neo4j.ExecuteQuery(t.Context(), driver, `
MATCH (a:Entity {dataset: $ds})-[r]->(b:Entity)
OPTIONAL MATCH (c:RelationId {id: r.id})
RETURN count(r) AS relations, count(CASE WHEN r.protectedEnd THEN 1 END) AS protected,
       count(CASE WHEN c.type = type(r) AND c.fromId = a.id AND c.toId = b.id
                   AND r.protectedEnd = (coalesce(a.protected, false) OR coalesce(b.protected, false))
                   AND c.pageKey = CASE WHEN r.protectedEnd THEN r.redactedId ELSE r.id END
                   AND c.rel = elementId(r) THEN 1 END) AS registered`,
		map[string]any{"ds": ds}, neo4j.EagerResultTransformer)
	if err != nil {
		t.Fatal(err)
	}
	rec := res.Records[0]
	get := func(key string) int64 {
		n, _, err := neo4j.GetRecordValue[int64](rec, key)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	return get("relations"), get("protected"), get("registered")
}

// TestModelWritesWhatAnImportKeeps: with -model, the relations come with
// the registry nodes and the degrees a Casegraph import keeps (so the
// figure it gives is the limit for the same writes), a relation of an
// entity with itself and one with a protected person among them; without
// -model, with no registry.
func TestModelWritesWhatAnImportKeeps(t *testing.T) {
	store := cyphertest.Store(t, cypher.Options{}) // migrated: the same indexes as an import meets
	driver := cyphertest.Driver(t)
	getenv := func(k string) string {
		if k == "NEO4J_URI" {
			return cyphertest.URI()
		}
		return os.Getenv(k)
	}
	write := func(t *testing.T, model bool) string {
		ds := cyphertest.Dataset(t)
		args := []string{"-file", generated(t, ds), "-prefix=", "-batch", "300"}
		if model {
			args = append(args, "-model")
		}
		var out strings.Builder
		if err := run(t.Context(), args, getenv, &out); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "relations      1002 rows") {
			t.Errorf("the report does not count 1002 relations:\n%s", out.String())
		}
		return ds
	}
	t.Run("model", func(t *testing.T) {
		ds := write(t, true)
		relations, protected, registered := registry(t, driver, ds)
		if relations != 1002 || protected != 1 {
			t.Errorf("%d relations, %d with a protected end; want 1002, 1", relations, protected)
		}
		if registered != relations {
			t.Errorf("%d of %d relations registered as CreateRelations registers them", registered, relations)
		}
		cyphertest.CheckDegrees(t, store, ds)
	})
	t.Run("rows alone", func(t *testing.T) {
		ds := write(t, false)
		relations, _, registered := registry(t, driver, ds)
		if relations != 1002 || registered != 0 {
			t.Errorf("%d relations, %d registered; want 1002, none", relations, registered)
		}
	})
}
