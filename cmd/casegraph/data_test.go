package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/rs/zerolog"
)

func neo4jVars(t *testing.T) map[string]string {
	t.Helper()
	cyphertest.Driver(t) // fails, never skips, when Neo4j is not there
	return map[string]string{"NEO4J_URI": cyphertest.URI(), "CASEGRAPH_LOG_LEVEL": "warn"}
}

// normalized re-encodes NDJSON lines in one canonical form, sorted.
func normalized(t *testing.T, ndjson string) []string {
	t.Helper()
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(ndjson), "\n") {
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		b, _ := json.Marshal(v)
		out = append(out, string(b))
	}
	slices.Sort(out)
	return out
}

func TestGenImportExportRoundTrip(t *testing.T) {
	vars := neo4jVars(t)
	ds := cyphertest.Dataset(t)
	file := filepath.Join(t.TempDir(), "g.ndjson")
	if _, errOut, err := runWith(t, []string{"gen", "--entities", "300", "--relations", "1200", "--seed", "7", "--dataset", ds, "-o", file}, nil); err != nil {
		t.Fatalf("gen: %v %s", err, errOut)
	}
	for range 2 { // the second import writes nothing new
		out, errOut, err := runWith(t, []string{"import", "--batch-size", "500", file}, vars)
		if err != nil {
			t.Fatalf("import: %v\n%s", err, errOut)
		}
		if !strings.Contains(out, "imported 3 sources, 300 entities, 1200 relations") {
			t.Errorf("import said %q", out)
		}
	}
	exported, errOut, err := runWith(t, []string{"export", "--dataset", ds}, vars)
	if err != nil {
		t.Fatalf("export: %v\n%s", err, errOut)
	}
	generated, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := normalized(t, exported), normalized(t, string(generated)); !slices.Equal(got, want) {
		t.Errorf("export differs from what was imported: %d lines out, %d in", len(got), len(want))
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Errorf("first difference:\n got %s\nwant %s", got[i], want[i])
				break
			}
		}
	}
}

func TestImportRefusesABadFileWhole(t *testing.T) {
	vars := neo4jVars(t)
	ds := cyphertest.Dataset(t)
	lines := []string{
		`{"type":"source","id":"` + ds + `:s","title":"A source","dataset":"` + ds + `"}`,
		`{"type":"entity","id":"` + ds + `:a","kind":"Person","name":"A","dataset":"` + ds + `","sourceIds":["` + ds + `:s"]}`,
		`{"type":"entity","id":"` + ds + `:b","kind":"Place","name":"B","dataset":"` + ds + `","sourceIds":["` + ds + `:s"]}`,
		`{"type":"relation","id":"` + ds + `:r1","relationType":"AUTHORED","from":"` + ds + `:b","to":"` + ds + `:a","dataset":"` + ds + `","sourceIds":["` + ds + `:s"]}`,
		`{"type":"relation","id":"` + ds + `:r2","relationType":"LOCATED_IN","from":"` + ds + `:a","to":"` + ds + `:ghost","dataset":"` + ds + `","sourceIds":["` + ds + `:s"]}`,
		`{"type":"entity","id":"` + ds + `:c","kind":"Place","name":"C","dataset":"` + ds + `","sourceIds":["` + ds + `:nope"]}`,
		`{"type":"entity","id":"` + ds + `:a","kind":"Place","name":"A again","dataset":"` + ds + `","sourceIds":["` + ds + `:s"]}`,
		`{"type":"relation","id":"` + ds + `:r3","relationType":"LOCATED_IN","from":"` + ds + `:a","to":"` + ds + `:b","dataset":"` + ds + `","startDate":"2013-02-30","sourceIds":["` + ds + `:s"]}`,
	}
	file := filepath.Join(t.TempDir(), "bad.ndjson")
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := runWith(t, []string{"import", file}, vars)
	if err == nil {
		t.Fatal("a bad file was imported")
	}
	// The line that fails validation is reported first, alone: checks
	// against the graph run once every line reads well.
	if !strings.Contains(err.Error(), "line 8:") || !strings.Contains(err.Error(), "has 28 days") {
		t.Errorf("error: %v", err)
	}

	if err := os.WriteFile(file, []byte(strings.Join(lines[:7], "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = runWith(t, []string{"import", file}, vars)
	if err == nil {
		t.Fatal("a bad file was imported")
	}
	for _, want := range []string{
		"line 4: relation", "cannot go from a Place to a Person",
		`line 5: relation "` + ds + `:r2": to: no entity`,
		`line 6: cites source "` + ds + `:nope"`,
		`line 7: entity "` + ds + `:a" is given twice`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	store, serr := cypher.NewStore(cyphertest.Driver(t), cypher.Options{Logger: zerolog.Nop()})
	if serr != nil {
		t.Fatal(serr)
	}
	if snap := cyphertest.Snapshot(t, store, ds); len(snap) != 0 {
		t.Errorf("a refused import wrote %d items", len(snap))
	}
}
