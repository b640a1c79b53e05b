package casegraph

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestDiff(t *testing.T) {
	conf := 0.8
	before := &Entity{ID: "caesar", Kind: KindPerson, Name: "Caesar", Dataset: "d", SourceIDs: []string{"s1"}, Version: 1}
	after := &Entity{ID: "caesar", Kind: KindPerson, Name: "“Caesar”", Aliases: []string{"قيصر"}, Dataset: "d", SourceIDs: []string{"s1"}, Version: 2, UpdatedAt: time.Now()}
	tests := []struct {
		name          string
		before, after any
		want          []FieldChange
	}{
		{"an update lists what changed, not the version", before, after, []FieldChange{
			{"name", `"Caesar"`, `"“Caesar”"`}, {"aliases", "null", `["قيصر"]`}}},
		{"nothing changed", before, before, nil},
		{"a kind-specific field", before, &Entity{ID: "caesar", Kind: KindPerson, Name: "Caesar", Dataset: "d", SourceIDs: []string{"s1"}, Attributes: Attributes{Nationality: "SY"}},
			[]FieldChange{{"nationality", "null", `"SY"`}}},
		{"a creation", (*Entity)(nil), &Entity{ID: "x", Kind: KindPlace, Name: "Geneva", Dataset: "d"}, []FieldChange{
			{"id", "null", `"x"`}, {"kind", "null", `"Place"`}, {"name", "null", `"Geneva"`}, {"dataset", "null", `"d"`}}},
		{"a deletion of a relation", &Relation{ID: "r", Type: "AUTHORED", FromID: "a", ToID: "b", Confidence: &conf}, (*Relation)(nil), []FieldChange{
			{"id", `"r"`, "null"}, {"type", `"AUTHORED"`, "null"}, {"from", `"a"`, "null"}, {"to", `"b"`, "null"}, {"confidence", "0.8", "null"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Diff(tt.before, tt.after)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestNewChangeIDSortsByTime(t *testing.T) {
	a := NewChangeID(time.Date(2026, 11, 30, 9, 0, 0, 5, time.UTC))
	b := NewChangeID(time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC))
	if !(a < b) || !strings.HasPrefix(a, "20261130T090000.000000005Z-") {
		t.Errorf("ids %q and %q do not sort by time", a, b)
	}
}
