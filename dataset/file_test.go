package dataset_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/dataset"
)

// generated writes a generated graph of dataset ds to a file and returns
// its path and its lines.
func generated(t *testing.T, ds string, entities, relations int) (string, []string) {
	t.Helper()
	var buf bytes.Buffer
	enc := dataset.NewEncoder(&buf)
	if err := dataset.Generate(dataset.GenOptions{Entities: entities, Relations: relations, Seed: 11, Dataset: ds}, enc.Encode); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "g.ndjson")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return path, strings.Split(strings.TrimSpace(buf.String()), "\n")
}

// TestReadFileImports: a file read by ReadFile (and touched since), its entities and relations left in it,
// is checked and written whole, in small batches by several writers, as
// the file says (its export gives the file back), with every degree kept.
func TestReadFileImports(t *testing.T) {
	s := cyphertest.Store(t, cypher.Options{})
	ds := cyphertest.Dataset(t)
	path, lines := generated(t, ds, 80, 400)
	b, err := dataset.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Entities) != 0 || len(b.Relations) != 0 || b.EntityCount() != 80 || b.RelationCount() != 400 {
		t.Fatalf("ReadFile held %d entities and %d relations and counted %d and %d, want none held, 80 and 400 counted",
			len(b.Entities), len(b.Relations), b.EntityCount(), b.RelationCount())
	}
	if c := b.ByDataset()[ds]; c.Relations != 400 || c.Entities != 80 {
		t.Errorf("counts by dataset: %+v, want 80 entities and 400 relations", c)
	}
	// Touched, its bytes as they were: nothing changed.
	if err := os.Chtimes(path, time.Now().Add(time.Hour), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 2*time.Minute)
	defer cancel()
	var told []int
	st, err := dataset.Import(ctx, b, s, dataset.Options{BatchSize: 7, Writers: 3, Progress: func(done, total int) {
		if total != len(lines) {
			t.Errorf("progress of %d rows, want %d", total, len(lines))
		}
		told = append(told, done)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if st.Relations != 400 || st.RelationsChanged != 400 || st.Entities != 80 {
		t.Errorf("stats %+v, want 80 entities and 400 relations written, all new", st)
	}
	if len(told) == 0 || told[len(told)-1] != len(lines) {
		t.Errorf("progress told %v, want it to end at %d", told, len(lines))
	}
	var out bytes.Buffer
	if err := s.Export(ctx, []string{ds}, dataset.NewEncoder(&out).Sink()); err != nil {
		t.Fatal(err)
	}
	if got, want := cyphertest.NormalizedNDJSON(t, out.String()), cyphertest.NormalizedNDJSON(t, strings.Join(lines, "\n")); !slices.Equal(got, want) {
		t.Errorf("the export differs from the file: %d lines out, %d in", len(got), len(want))
	}
	cyphertest.CheckDegrees(t, s, ds)
}

// TestReadFileRefusesAFileChanged: a file changed between its reading and
// its import (grown, or edited in place with its time of modification put
// back) stops the import before anything is written, and says so.
func TestReadFileRefusesAFileChanged(t *testing.T) {
	s := cyphertest.Store(t, cypher.Options{})
	ds := cyphertest.Dataset(t)
	for _, change := range []string{"grown", "edited in place", "an entity edited in place", "its id kept"} {
		t.Run(change, func(t *testing.T) {
			path, lines := generated(t, ds, 20, 40)
			b, err := dataset.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			info, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			last := len(lines) - 1 // a relation: they come last
			if change == "an entity edited in place" {
				last = slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, `"type":"entity"`) })
			}
			switch change {
			case "grown":
				lines = append(lines, lines[last])
			case "its id kept": // another confidence, of the same length
				at := strings.Index(lines[last], `"confidence":0.`) + len(`"confidence":0.`)
				if at < len(`"confidence":0.`) {
					t.Fatalf("no confidence to change in %s", lines[last])
				}
				digit := byte('1')
				if lines[last][at] == '1' {
					digit = '2'
				}
				lines[last] = lines[last][:at] + string(digit) + lines[last][at+1:]
			default:
				var rec map[string]any
				if err := json.Unmarshal([]byte(lines[last]), &rec); err != nil {
					t.Fatal(err)
				}
				id := rec["id"].(string)
				lines[last] = strings.Replace(lines[last], `"`+id+`"`, `"`+id[:len(id)-1]+"Z"+`"`, 1)
			}
			if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if change != "grown" {
				if err := os.Chtimes(path, info.ModTime(), info.ModTime()); err != nil {
					t.Fatal(err)
				}
				if now, _ := os.Stat(path); now.Size() != info.Size() {
					t.Fatalf("the edit changed the size: %d, was %d", now.Size(), info.Size())
				}
			}
			ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), time.Minute)
			defer cancel()
			_, err = dataset.Import(ctx, b, s, dataset.Options{BatchSize: 5})
			if err == nil || !strings.Contains(err.Error(), "changed since it was read") {
				t.Fatalf("Import of a changed file: %v, want it refused as changed", err)
			}
			if got := cyphertest.Snapshot(t, s, ds); len(got) != 0 {
				t.Errorf("%d records written", len(got))
			}
		})
	}
}

// TestImportAgainChangesNothing: a file imported again, every row of it
// stored as it is, changes nothing, however many of its relations one
// statement finds: the gate's look-up of 3,000 stored relations in one
// statement once took Neo4j more than a transaction's 512 MB
// (neo4j-local/neo4j.conf: db.memory.transaction.max), and the import was
// refused.
func TestImportAgainChangesNothing(t *testing.T) {
	s := cyphertest.Store(t, cypher.Options{})
	ds := cyphertest.Dataset(t)
	path, _ := generated(t, ds, 600, 3000)
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 5*time.Minute)
	defer cancel()
	for round, want := range []int{3000, 0} {
		b, err := dataset.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		st, err := dataset.Import(ctx, b, s, dataset.Options{BatchSize: 5000})
		if err != nil {
			t.Fatalf("import %d: %v", round+1, err)
		}
		if st.Relations != 3000 || st.RelationsChanged != want || (round == 1 && st.EntitiesChanged+st.SourcesChanged != 0) {
			t.Errorf("import %d: %+v, want 3000 relations, %d of them changed", round+1, st, want)
		}
	}
}
