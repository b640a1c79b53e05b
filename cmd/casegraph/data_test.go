package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
)

func neo4jVars(t *testing.T) map[string]string {
	t.Helper()
	cyphertest.Driver(t) // fails, never skips, when Neo4j is not there
	return map[string]string{"NEO4J_URI": cyphertest.URI(), "CASEGRAPH_LOG_LEVEL": "warn"}
}

func TestGenImportExportRoundTrip(t *testing.T) {
	t.Parallel()
	vars := neo4jVars(t)
	ds := cyphertest.Dataset(t)
	file := filepath.Join(t.TempDir(), "g.ndjson")
	if _, errOut, err := runWith(t, []string{"gen", "--entities", "300", "--relations", "1200", "--seed", "7", "--dataset", ds, "--out", file}, nil); err != nil {
		t.Fatalf("gen: %v %s", err, errOut)
	}
	for i, want := range []string{ // the second import changes nothing, and says so
		"  new or changed: 3 sources, 300 entities, 1200 relations\n  unchanged:      0 sources, 0 entities, 0 relations\n",
		"  new or changed: 0 sources, 0 entities, 0 relations\n  unchanged:      3 sources, 300 entities, 1200 relations\n" +
			"  nothing changed: the graph already held every row as it is in the file\n",
	} {
		out, errOut, err := runWith(t, []string{"import", "--batch-size", "500", file}, vars)
		if err != nil {
			t.Fatalf("import: %v\n%s", err, errOut)
		}
		if !strings.HasPrefix(out, "imported 3 sources, 300 entities, 1200 relations") || !strings.HasSuffix(out, want) {
			t.Errorf("import %d said %q, want it to end %q", i+1, out, want)
		}
	}
	// The first import is in the audit log (for watchers of the change
	// feed); the second, which changed nothing, is not.
	store := cyphertest.Store(t, cypher.Options{})
	changes, _, err := store.Changes(casegraph.AsOperator(context.Background()), casegraph.ChangeFilter{Dataset: ds}, casegraph.Page{First: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 1 || changes[0].Operation != "import" || changes[0].Principal != casegraph.OperatorID || changes[0].Seq == 0 {
		t.Errorf("audit records of the imports: %+v; want one import by the operator, in the feed", changes)
	}
	exported, errOut, err := runWith(t, []string{"export", "--dataset", ds}, vars)
	if err != nil {
		t.Fatalf("export: %v\n%s", err, errOut)
	}
	generated, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := cyphertest.NormalizedNDJSON(t, exported), cyphertest.NormalizedNDJSON(t, string(generated)); !slices.Equal(got, want) {
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
	t.Parallel()
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
	lines = append(lines,
		`{"type":"relation","id":"`+ds+`:r4","relationType":"LOCATED_IN","from":"`+ds+`:d","to":"`+ds+`:b","dataset":"`+ds+`","sourceIds":["`+ds+`:s"]}`,
		`{"type":"entity","id":"`+ds+`:d","kind":"Plase","name":"","dataset":"`+ds+`","sourceIds":["`+ds+`:s"]}`,
		`not json`,
	)
	// A named file's entities and relations are left in it and read
	// again; a pipe's are held (dataset.ReadFile, Read): both report the
	// same.
	for _, through := range []string{"a file", "a pipe"} {
		t.Run(through, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "bad.ndjson")
			if through == "a pipe" {
				if err := syscall.Mkfifo(file, 0o600); err != nil {
					t.Fatal(err)
				}
				go func() {
					if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
						t.Error(err)
					}
				}()
			} else if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
				t.Fatal(err)
			}
			_, stderr, err := runWith(t, []string{"import", file}, vars)
			checkBadFileRefused(t, ds, stderr, err)
		})
	}
}

// checkBadFileRefused checks what TestImportRefusesABadFileWhole's
// import of its file said, and that it wrote nothing.
func checkBadFileRefused(t *testing.T, ds, stderr string, err error) {
	t.Helper()
	if err == nil {
		t.Fatal("a bad file was imported")
	}
	// Every error of every bad line in one run, one a line on stderr, in
	// line order: those that do not read (8, 10 with two, 11) and those
	// the graph check finds (4 to 7, 9).
	msg := stderr
	last := -1
	for _, want := range []string{
		"line 4: relation", "cannot go from a Place to a Person",
		`line 5: relation "` + ds + `:r2": to: no entity`,
		`line 6: citations[0].sourceId: no source with id "` + ds + `:nope"`,
		`line 7: entity "` + ds + `:a" is given twice`,
		"line 8:", "has 28 days",
		`line 9: relation "` + ds + `:r4": from: entity "` + ds + `:d" is on bad line 10`,
		`line 10: unknown entity kind "Plase"; did you mean "PLACE"? (one of PERSON, ORGANIZATION, EVENT, DOCUMENT, PLACE)`,
		"\nline 10: name is required\n", "\nline 11: not a valid record",
	} {
		i := strings.Index(msg, want)
		if i < 0 {
			t.Errorf("error lacks %q:\n%v", want, msg)
			continue
		}
		if i < last {
			t.Errorf("%q is out of line order:\n%v", want, msg)
		}
		last = i
	}
	if want := "read 11 lines: 1 source, 2 entities, 0 relations; refused 8 lines with 9 errors; nothing was imported"; err.Error() != want {
		t.Errorf("error %q, want the summary %q", err, want)
	}
	store, serr := cypher.NewStore(cyphertest.Driver(t), cypher.Options{})
	if serr != nil {
		t.Fatal(serr)
	}
	if snap := cyphertest.Snapshot(t, store, ds); len(snap) != 0 {
		t.Errorf("a refused import wrote %d items", len(snap))
	}
}

func TestExportOfAnUnknownDatasetFails(t *testing.T) {
	t.Parallel()
	vars := neo4jVars(t)
	ds := cyphertest.Dataset(t) // nothing is written to it
	out, _, err := runWith(t, []string{"export", "--dataset", ds}, vars)
	if err == nil {
		t.Fatalf("export of an empty dataset succeeded: %q", out)
	}
	var uerr usageError
	if errors.As(err, &uerr) {
		t.Errorf("err = %v: a usage error (exit 2), want a failure (exit 1)", err)
	}
	if want := `no dataset "` + ds + `" in the graph`; !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want it to contain %q", err, want)
	}
	if out != "" {
		t.Errorf("a refused export wrote %d bytes", len(out))
	}
}

// TestFtMCommands: the seed exported as FtM by the command line imports
// back into a dataset of its own.
func TestFtMCommands(t *testing.T) {
	t.Parallel()
	vars := neo4jVars(t)
	store := cyphertest.Store(t, cypher.Options{})
	ds, _ := cyphertest.LoadSeed(t, store)
	out, errOut, err := runWith(t, []string{"export", "--format", "ftm", "--dataset", ds}, vars)
	if err != nil || !strings.Contains(errOut, "ftm: 1 sources (as Document), 30 entities, 42 relations") {
		t.Fatalf("export: %v\n%s", err, errOut)
	}
	file := filepath.Join(t.TempDir(), "seed.ftm.json")
	if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	back := cyphertest.Dataset(t)
	if _, _, err := runWith(t, []string{"import", "--format", "ftm", file}, vars); err == nil || !strings.Contains(err.Error(), "needs --dataset") {
		t.Errorf("ftm without a dataset: %v", err)
	}
	out, errOut, err = runWith(t, []string{"import", "--format", "ftm", "--dataset", back, "--id-prefix", "rt-", file}, vars)
	if err != nil || strings.Contains(errOut, "ftm: line") {
		t.Fatalf("import: %v\n%s\n%s", err, out, errOut)
	}
	found, err := store.Datasets(casegraph.AsOperator(context.Background()), back)
	if err != nil || len(found) != 1 || found[0].Entities != 30 || found[0].Relations != 42 || found[0].Sources != 1 {
		t.Errorf("imported %+v, %v; want the seed's 30 entities, 42 relations and 1 source", found, err)
	}
}
