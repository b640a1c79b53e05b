package dataset_test

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/dataset"
)

func TestSeedIsValid(t *testing.T) {
	b, err := dataset.Read(dataset.Seed())
	if err != nil {
		t.Fatalf("seed: %v", err)
	}
	if len(b.Sources) == 0 {
		t.Fatal("seed has no source")
	}
	kinds := map[casegraph.Kind]int{}
	ids := map[string]bool{}
	for _, e := range b.Entities {
		kinds[e.Kind]++
		if ids[e.ID] {
			t.Errorf("duplicate id %s", e.ID)
		}
		ids[e.ID] = true
		if e.Dataset != dataset.SeedName {
			t.Errorf("%s: dataset %q, want %q", e.ID, e.Dataset, dataset.SeedName)
		}
	}
	for _, k := range casegraph.Kinds() {
		if kinds[k] == 0 {
			t.Errorf("seed has no %s", k)
		}
	}
	for _, id := range []string{"desmond-de-silva", "david-crane", "geoffrey-nice", "caesar", "bashar-al-assad",
		"william-hague", "syrian-government", "qatar-government", "the-guardian", "special-court-sierra-leone",
		"icty", "uk-foreign-office", "geneva-ii-conference", "caesar-report", "the-hague"} {
		if !ids[id] {
			t.Errorf("seed lacks %s", id)
		}
	}
}

func TestReadReportsEveryBadLine(t *testing.T) {
	in := strings.Join([]string{
		`{"type":"source","id":"s1","title":"ok","dataset":"d"}`,
		`{"type":"entity","id":"e1","kind":"Spaceship","name":"x","dataset":"d","sourceIds":["s1"]}`,
		``,
		`not json`,
		`{"type":"entity","id":"e2","kind":"Place","name":"x","dataset":"d","sourceIds":["s1"],"colour":"red"}`,
		`{"type":"planet","id":"p"}`,
		`{"type":"entity","id":"e3","kind":"Place","name":"ok","dataset":"d","sourceIds":["s1"]}`,
	}, "\n")
	b, err := dataset.Read(strings.NewReader(in))
	if err == nil {
		t.Fatal("Read accepted bad lines")
	}
	// The good lines come back too, for the graph check to look at, and
	// the bad ones with them, for Check to report in the same list.
	if len(b.Sources) != 1 || len(b.Entities) != 1 || b.Entities[0].ID != "e3" || b.EntityLines[0] != 7 {
		t.Errorf("good lines: %d sources, entities %+v at lines %v; want s1 and e3 (line 7)", len(b.Sources), b.Entities, b.EntityLines)
	}
	if len(b.Bad.Lines) != 4 {
		t.Errorf("batch lists %d bad lines, want 4", len(b.Bad.Lines))
	}
	for _, want := range []string{"4 bad lines with 4 errors", "line 2: unknown entity kind", "line 4: not a valid record",
		`line 5: not a valid record: json: unknown field "colour"`, `line 6: unknown record type "planet"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), "line 7") || strings.Contains(err.Error(), "line 1:") {
		t.Errorf("error blames a good line:\n%v", err)
	}
}

// TestLinesErrorCode: a file's bad lines answer as one coded error (the
// HTTP import's status), with every line in its message: the code the
// lines share, BAD_USER_INPUT when they differ, never INTERNAL.
func TestLinesErrorCode(t *testing.T) {
	line := func(n int, code casegraph.Code) *dataset.LineError {
		return &dataset.LineError{Line: n, Err: casegraph.Errorf(code, "mistake %d", n)}
	}
	for _, tt := range []struct {
		name  string
		lines []*dataset.LineError
		want  casegraph.Code
	}{
		{"one code", []*dataset.LineError{line(1, casegraph.CodeConflict), line(2, casegraph.CodeConflict)}, casegraph.CodeConflict},
		{"not found", []*dataset.LineError{line(3, casegraph.CodeNotFound)}, casegraph.CodeNotFound},
		{"codes that differ", []*dataset.LineError{line(1, casegraph.CodeForbidden), line(2, casegraph.CodeNotFound)}, casegraph.CodeBadUserInput},
		{"an uncoded line", []*dataset.LineError{{Line: 4, Err: io.ErrUnexpectedEOF}}, casegraph.CodeBadUserInput},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := error(&dataset.LinesError{Lines: tt.lines})
			if got := casegraph.ErrorCode(err); got != tt.want {
				t.Errorf("code %s, want %s", got, tt.want)
			}
			for _, l := range tt.lines {
				if msg := casegraph.ErrorMessage(err); !strings.Contains(msg, fmt.Sprintf("line %d: ", l.Line)) {
					t.Errorf("the message lacks line %d: %s", l.Line, msg)
				}
			}
		})
	}
}

// TestSeedSavedQueriesNameNoProtectedPerson: a saved query's defaults are
// shown to everyone it is shared with, clearance or not, so the seed's
// (public) queries never name a protected person by his real id.
func TestSeedSavedQueriesNameNoProtectedPerson(t *testing.T) {
	batch, err := dataset.Read(dataset.Seed())
	if err != nil {
		t.Fatal(err)
	}
	protected := map[string]bool{}
	for _, e := range batch.Entities {
		if e.Protected {
			protected[e.ID] = true
		}
	}
	if len(protected) == 0 {
		t.Fatal("the seed protects nobody: the test would prove nothing")
	}
	queries, err := dataset.SeedSavedQueries()
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range queries {
		var defaults map[string]any
		if len(q.DefaultVariables) > 0 {
			if err := json.Unmarshal(q.DefaultVariables, &defaults); err != nil {
				t.Fatalf("%s: defaults: %v", q.Name, err)
			}
		}
		for name, v := range defaults {
			if s, ok := v.(string); ok && protected[s] {
				t.Errorf("saved query %s: default $%s names the protected %q", q.Name, name, s)
			}
		}
	}
}
