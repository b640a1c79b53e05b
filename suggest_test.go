package casegraph_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	casegraph "github.com/casegraph/casegraph"
)

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"", "abc", 3}, {"abc", "", 3}, {"kitten", "sitting", 3},
		{"PERSN", "PERSON", 1}, {"ÉTÉ", "ETE", 2}, {"same", "same", 0}, {"ab", "ba", 2},
	} {
		if got := casegraph.EditDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestNearest(t *testing.T) {
	kinds := []string{"PERSON", "ORGANIZATION", "EVENT", "DOCUMENT", "PLACE"}
	grades := []string{"A", "B", "C", "D", "E", "F"}
	types := []string{"EMPLOYED_BY", "MEMBER_OF", "HELD_POSITION", "ARMS"}
	for _, tc := range []struct {
		name, s string
		values  []string
		want    string
	}{
		{"one letter missing", "Persn", kinds, "PERSON"},
		{"British spelling", "organisation", kinds, "ORGANIZATION"},
		{"case alone", "place", kinds, "PLACE"},
		{"spaces for underscores", "member of", types, "MEMBER_OF"},
		{"a word short", "EMPLOYED", types, "EMPLOYED_BY"},
		{"nothing near", "SPACESHIP", kinds, ""},
		{"one letter is near every grade: no suggestion", "G", grades, ""},
		{"empty", "", kinds, ""},
		{"too long to be any", strings.Repeat("PERSON", 20), kinds, ""},
		{"the first of a tie", "ARM", []string{"ARMS", "ARMY"}, "ARMS"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := casegraph.Nearest(tc.s, tc.values); got != tc.want {
				t.Errorf("Nearest(%q) = %q, want %q", tc.s, got, tc.want)
			}
		})
	}
}

func TestUnknownValue(t *testing.T) {
	_, err := casegraph.ParseKind("Persn")
	var e *casegraph.Error
	if !errors.As(err, &e) {
		t.Fatalf("ParseKind: %v, want a *casegraph.Error", err)
	}
	want := &casegraph.Error{Code: casegraph.CodeBadUserInput, Field: "kind", Suggestion: "PERSON",
		Accepted: []string{"PERSON", "ORGANIZATION", "EVENT", "DOCUMENT", "PLACE"},
		Message:  `unknown entity kind "Persn"; did you mean "PERSON"? (one of PERSON, ORGANIZATION, EVENT, DOCUMENT, PLACE)`}
	if diff := cmp.Diff(want, e); diff != "" {
		t.Errorf("ParseKind(Persn) (-want +got):\n%s", diff)
	}
}

func TestCanonical(t *testing.T) {
	for _, s := range []casegraph.Kind{"person", "PERSON", "Person", "pErSoN"} {
		if got := casegraph.Canonical(s, casegraph.Kinds()); got != casegraph.KindPerson {
			t.Errorf("Canonical(%q) = %q, want Person", s, got)
		}
	}
	if got := casegraph.Canonical(casegraph.Kind("Persn"), casegraph.Kinds()); got != "Persn" {
		t.Errorf("Canonical(Persn) = %q, want it unchanged for the check to refuse", got)
	}
}

// An entity and a relation report every problem at once, each with its
// field, and read their enums in any case.
func TestValidateReportsEveryProblem(t *testing.T) {
	e := casegraph.Entity{ID: "bad id!", Kind: "Persn", Name: "", Dataset: "d", SourceIDs: []string{"s"}}
	got := fields(casegraph.Problems(e.Normalize()))
	if diff := cmp.Diff([]string{"id", "kind", "name"}, got); diff != "" {
		t.Errorf("entity problems' fields (-want +got):\n%s", diff)
	}
	err := e.Normalize()
	if casegraph.ErrorCode(err) != casegraph.CodeBadUserInput || !strings.Contains(err.Error(), `did you mean "PERSON"`) {
		t.Errorf("entity error %v: want BAD_USER_INPUT with every problem in its message", err)
	}

	r := casegraph.Relation{ID: "r", Type: "EMPLOYED", FromID: "a", ToID: "b", Status: "rumoured", Dataset: "d", SourceIDs: []string{"s"},
		StartDate: "2011-13"}
	got = fields(casegraph.Problems(r.Normalize()))
	if diff := cmp.Diff([]string{"type", "startDate", "status"}, got); diff != "" {
		t.Errorf("relation problems' fields (-want +got):\n%s", diff)
	}

	ok := casegraph.Relation{ID: "r", Type: "employed_by", FromID: "a", ToID: "b", Status: "confirmed", Dataset: "d", SourceIDs: []string{"s"}}
	if err := ok.Normalize(); err != nil || ok.Type != "EMPLOYED_BY" || ok.Status != casegraph.StatusConfirmed {
		t.Errorf("lower-case relation: %v, %s %s; want EMPLOYED_BY CONFIRMED", err, ok.Type, ok.Status)
	}
	en := casegraph.Entity{ID: "o", Kind: "organization", Name: "O", Dataset: "d", SourceIDs: []string{"s"},
		Attributes: casegraph.Attributes{Category: "armed_group"}}
	if err := en.Normalize(); err != nil || en.Kind != casegraph.KindOrganization || en.Category != "ARMED_GROUP" {
		t.Errorf("lower-case entity: %v, %s %s; want Organization ARMED_GROUP", err, en.Kind, en.Category)
	}
}

func fields(ps []*casegraph.Error) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Field)
	}
	return out
}
