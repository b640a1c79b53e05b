package dataset_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/dataset"
)

// TestReadReportsEveryProblem: one run of Read lists every problem of
// every line, each with its line, field, code, and for enums and kinds
// the accepted values and the nearest; the summary counts the lines read
// and refused.
func TestReadReportsEveryProblem(t *testing.T) {
	in := strings.Join([]string{
		`{"type":"source","id":"s","title":"ok","dataset":"d"}`,
		`{"type":"entity","id":"e1","kind":"Persn","name":"","dataset":"d","sourceIds":["s"]}`,
		`{"type":"entity","id":"e2","kind":"organization","name":"Armed","category":"armed_group","dataset":"d","sourceIds":["s"]}`,
		`{"type":"relation","id":"r1","relationType":"EMPLOYED","from":"e2","to":"e3","status":"rumoured","dataset":"d","sourceIds":["s"]}`,
		`{"type":"relation","id":"r2","relationType":"member_of","from":"e3","to":"e2","status":"confirmed","dataset":"d","sourceIds":["s"]}`,
		`{"type":"entity","id":"e3","kind":"PERSON","name":"Anna","gender":"female","dataset":"d","sourceIds":["s"]}`,
		`{"type":"Relation","id":"r3","relationType":"MEMBER_OF","from":"e3","to":"e2","confidence":"high","dataset":"d","sourceIds":["s"]}`,
		`{"type":"planet","id":"p"}`,
	}, "\n")
	b, err := dataset.Read(strings.NewReader(in))
	var bad *dataset.LinesError
	if !errors.As(err, &bad) {
		t.Fatalf("Read: %v, want a *LinesError", err)
	}
	list, omitted := bad.Problems()
	kinds := []string{"PERSON", "ORGANIZATION", "EVENT", "DOCUMENT", "PLACE"}
	statuses := []string{"ALLEGED", "REPORTED", "CONFIRMED", "DISPUTED"}
	want := []dataset.Problem{
		{Line: 2, Field: "kind", Code: casegraph.CodeBadUserInput, Accepted: kinds, Suggestion: "PERSON",
			Message: `unknown entity kind "Persn"; did you mean "PERSON"? (one of PERSON, ORGANIZATION, EVENT, DOCUMENT, PLACE)`},
		{Line: 2, Field: "name", Code: casegraph.CodeBadUserInput, Message: "name is required"},
		{Line: 4, Field: "relationType", Code: casegraph.CodeBadUserInput, Accepted: enumNames(casegraph.RelationTypes()), Suggestion: "EMPLOYED_BY"},
		{Line: 4, Field: "status", Code: casegraph.CodeBadUserInput, Accepted: statuses,
			Message: `unknown status "rumoured" (one of ALLEGED, REPORTED, CONFIRMED, DISPUTED)`},
		{Line: 7, Field: "confidence", Code: casegraph.CodeBadUserInput},
		{Line: 8, Field: "type", Code: casegraph.CodeBadUserInput, Accepted: []string{"source", "entity", "relation"},
			Message: `unknown record type "planet" (want source, entity or relation)`},
	}
	// The long messages are checked by their start.
	for i := range list {
		if i < len(want) && want[i].Message == "" {
			if !strings.HasPrefix(list[i].Message, map[int]string{2: `unknown relation type "EMPLOYED"; did you mean "EMPLOYED_BY"?`,
				4: "not a valid record: json: cannot unmarshal string"}[i]) {
				t.Errorf("problem %d: message %q", i, list[i].Message)
			}
			list[i].Message = ""
		}
	}
	if diff := cmp.Diff(want, list); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if omitted != 0 {
		t.Errorf("%d omitted, want 0", omitted)
	}
	// Every enum in any case: organization, armed_group, member_of,
	// confirmed, PERSON, female and the record type Relation are taken.
	if len(b.Entities) != 2 || b.Entities[0].Kind != casegraph.KindOrganization || b.Entities[0].Category != "ARMED_GROUP" ||
		b.Entities[1].Kind != casegraph.KindPerson || b.Entities[1].Gender != casegraph.GenderFemale {
		t.Errorf("entities %+v: want the organization ARMED_GROUP and the person FEMALE", b.Entities)
	}
	if len(b.Relations) != 1 || b.Relations[0].Type != "MEMBER_OF" || b.Relations[0].Status != casegraph.StatusConfirmed {
		t.Errorf("relations %+v: want r2, MEMBER_OF CONFIRMED", b.Relations)
	}
	if got, want := dataset.Summarize(b, err).String(), "read 8 lines: 1 source, 2 entities, 1 relation; refused 4 lines with 6 errors"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	if !strings.HasPrefix(err.Error(), "4 bad lines with 6 errors:\n  line 2: unknown entity kind") {
		t.Errorf("error:\n%v", err)
	}
}

// TestReadBoundsTheList: a file of many bad lines lists the first 100
// problems and counts the rest, and still reads every line.
func TestReadBoundsTheList(t *testing.T) {
	var lines []string
	for i := range 150 {
		lines = append(lines, fmt.Sprintf(`{"type":"entity","id":"e%d","kind":"Spaceship","name":"","dataset":"d","sourceIds":["s"]}`, i))
	}
	lines = append(lines, `{"type":"source","id":"s","title":"ok","dataset":"d"}`)
	b, err := dataset.Read(strings.NewReader(strings.Join(lines, "\n")))
	var bad *dataset.LinesError
	if !errors.As(err, &bad) {
		t.Fatalf("Read: %v, want a *LinesError", err)
	}
	list, omitted := bad.Problems()
	if len(list) != 100 || omitted != 200 || list[99].Line != 50 {
		t.Errorf("%d problems listed (the last of line %d), %d omitted; want 100 (to line 50) and 200", len(list), list[len(list)-1].Line, omitted)
	}
	if len(b.Sources) != 1 {
		t.Errorf("the good line after the bad ones: %d sources, want 1", len(b.Sources))
	}
	if got, want := dataset.Summarize(b, err).String(), "read 151 lines: 1 source, 0 entities, 0 relations; refused 150 lines with 300 errors"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	if !strings.HasSuffix(err.Error(), "\n  and 200 more errors") {
		t.Errorf("error does not count the rest:\n%s", err.Error()[len(err.Error())-200:])
	}
}

func enumNames[T ~string](vs []T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = casegraph.EnumName(v)
	}
	return out
}
