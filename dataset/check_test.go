package dataset_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/dataset"
)

// checkSpy is the real store, noting the write each CheckWrites is given,
// and the parts of relations it is given after it.
type checkSpy struct {
	*cypher.Store
	checked   []casegraph.Writes
	entities  [][]casegraph.Entity
	relations [][]casegraph.Relation
}

func (s *checkSpy) CheckWrites(ctx context.Context, w casegraph.Writes, more *casegraph.MoreWrites) ([]casegraph.Refusal, error) {
	s.checked = append(s.checked, w)
	if more == nil {
		return s.Store.CheckWrites(ctx, w, more)
	}
	spied := *more
	spied.Entities = func(yield func([]casegraph.Entity) error) error {
		return more.Entities(func(rows []casegraph.Entity) error {
			s.entities = append(s.entities, rows)
			return yield(rows)
		})
	}
	spied.Relations = func(yield func([]casegraph.Relation) error) error {
		return more.Relations(func(rows []casegraph.Relation) error {
			s.relations = append(s.relations, rows)
			return yield(rows)
		})
	}
	return s.Store.CheckWrites(ctx, w, &spied)
}

// TestCheckSendsTheFileItself: Check gives the graph check the batch's
// own rows (no copy of a file's millions of rows), those it refuses itself
// among them, and reports each of those once, as it refuses them (an id
// given twice, a relation whose end is on a bad line), beside what the
// graph check finds of the others, by line.
//
// A file read by ReadFile is checked the same, its entities and relations read again
// from the file.
func TestCheckSendsTheFileItself(t *testing.T) {
	s := cyphertest.Store(t, cypher.Options{})
	for _, inFile := range []bool{false, true} {
		t.Run(map[bool]string{false: "Read", true: "ReadFile"}[inFile], func(t *testing.T) {
			checkSendsTheFileItself(t, &checkSpy{Store: s}, inFile)
		})
	}
}

func checkSendsTheFileItself(t *testing.T, store *checkSpy, inFile bool) {
	ds := cyphertest.Dataset(t)
	rec := func(format string, args ...any) string {
		return strings.ReplaceAll(fmt.Sprintf(format, args...), "DS", ds)
	}
	lines := []string{
		rec(`{"type":"source","id":"DS:s","title":"A source","dataset":"DS"}`),
		rec(`{"type":"source","id":"DS:s","title":"The source again","dataset":"DS"}`),
		rec(`{"type":"entity","id":"DS:a","kind":"Person","name":"A","dataset":"DS","sourceIds":["DS:s"]}`),
		rec(`{"type":"entity","id":"DS:b","kind":"Place","name":"B","dataset":"DS","sourceIds":["DS:s"]}`),
		rec(`{"type":"entity","id":"DS:a","kind":"Place","name":"A again, a place","dataset":"DS","sourceIds":["DS:s"]}`),
		rec(`{"type":"entity","id":"DS:d","kind":"Plase","name":"D","dataset":"DS","sourceIds":["DS:s"]}`),
		rec(`{"type":"relation","id":"DS:r1","relationType":"LOCATED_IN","from":"DS:a","to":"DS:b","dataset":"DS","sourceIds":["DS:s"]}`),
		rec(`{"type":"relation","id":"DS:r1","relationType":"LOCATED_IN","from":"DS:b","to":"DS:a","dataset":"DS","sourceIds":["DS:s"]}`),
		rec(`{"type":"relation","id":"DS:r2","relationType":"LOCATED_IN","from":"DS:d","to":"DS:b","dataset":"DS","sourceIds":["DS:s"]}`),
		rec(`{"type":"relation","id":"DS:r3","relationType":"LOCATED_IN","from":"DS:a","to":"DS:d","dataset":"DS","sourceIds":["DS:s"]}`),
		rec(`{"type":"relation","id":"DS:r4","relationType":"LOCATED_IN","from":"DS:a","to":"DS:ghost","dataset":"DS","sourceIds":["DS:s"]}`),
		rec(`{"type":"relation","id":"DS:r5","relationType":"LOCATED_IN","from":"DS:a","to":"DS:b","dataset":"DS","sourceIds":["DS:nope"]}`),
	}
	b, err := dataset.Read(strings.NewReader(strings.Join(lines, "\n")))
	if inFile {
		path := filepath.Join(t.TempDir(), "data.ndjson")
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o600); err != nil {
			t.Fatal(err)
		}
		b, err = dataset.ReadFile(path)
		if len(b.Entities) != 0 || b.EntityCount() != 3 || len(b.Relations) != 0 || b.RelationCount() != 6 {
			t.Fatalf("ReadFile held %d entities and %d relations, counted %d and %d; want none held, 3 and 6 counted",
				len(b.Entities), len(b.Relations), b.EntityCount(), b.RelationCount())
		}
	}
	var bad *dataset.LinesError
	if !errors.As(err, &bad) || len(bad.Lines) != 1 || bad.Lines[0].Line != 6 {
		t.Fatalf("Read: %v, want line 6 refused", err)
	}
	err = dataset.Check(casegraph.AsOperator(context.Background()), b, store, dataset.Options{})
	if !errors.As(err, &bad) {
		t.Fatalf("Check: %v, want the bad lines", err)
	}
	got := lineErrors(bad)
	want := []string{
		rec(`line 2: source "DS:s" is given twice`),
		rec(`line 5: entity "DS:a" is given twice`),
		rec(`line 6: unknown entity kind "Plase"; did you mean "PLACE"? (one of PERSON, ORGANIZATION, EVENT, DOCUMENT, PLACE)`),
		rec(`line 8: relation "DS:r1" is given twice`),
		rec(`line 9: relation "DS:r2": from: entity "DS:d" is on bad line 6`),
		rec(`line 10: relation "DS:r3": to: entity "DS:d" is on bad line 6`),
		rec(`line 11: relation "DS:r4": to: no entity with id "DS:ghost"`),
		rec(`line 12: relation "DS:r5": citations[0].sourceId: no source with id "DS:nope" (create it first)`),
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Check reported\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if bad.Refused != len(want) || bad.Errors != len(want) {
		t.Errorf("%d lines refused with %d errors, want %d and %d", bad.Refused, bad.Errors, len(want), len(want))
	}
	if len(store.checked) != 1 {
		t.Fatalf("%d graph checks, want 1", len(store.checked))
	}
	w := store.checked[0]
	if len(w.Sources) != len(b.Sources) || unsafe.SliceData(w.Sources) != unsafe.SliceData(b.Sources) || len(w.Entities) != 0 || len(w.Relations) != 0 {
		t.Errorf("the graph check was given a copy of the sources (%d sources, %d entities, %d relations), not the batch's (%d, and its entities and relations in parts)",
			len(w.Sources), len(w.Entities), len(w.Relations), len(b.Sources))
	}
	// The rows Check refuses itself are not judged again: the second a,
	// the second r1, r2 and r3.
	var judged []string
	for _, part := range store.entities {
		for _, e := range part {
			judged = append(judged, strings.TrimPrefix(e.ID, ds+":"))
		}
	}
	for _, part := range store.relations {
		for _, r := range part {
			judged = append(judged, strings.TrimPrefix(r.ID, ds+":"))
		}
	}
	if strings.Join(judged, " ") != "a b r1 r4 r5" {
		t.Errorf("the graph check judged %v, want a b r1 r4 r5", judged)
	}
	if !inFile && (b.Relations[1].FromID != ds+":b" || b.Entities[0].Protected) {
		t.Errorf("Check changed the batch's rows: %+v, %+v", b.Relations[1], b.Entities[0])
	}
}

// lineErrors is each listed line's error, as the command line prints it.
func lineErrors(e *dataset.LinesError) []string {
	var out []string
	for _, l := range e.Lines {
		out = append(out, l.Error())
	}
	return out
}
