package casegraph_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	casegraph "github.com/casegraph/casegraph"
)

func TestPlanMerge(t *testing.T) {
	person := func(id, name string, aliases, sources []string) casegraph.Entity {
		return casegraph.Entity{ID: id, Kind: casegraph.KindPerson, Name: name, Aliases: aliases, SourceIDs: sources}
	}
	many := make([]string, casegraph.MaxAliases)
	for i := range many {
		many[i] = fmt.Sprintf("alias %d", i)
	}
	tests := []struct {
		name     string
		survivor casegraph.Entity
		merged   []casegraph.Entity
		want     casegraph.MergePlan
		wantErr  string
	}{
		{
			name:     "names and aliases become aliases, in order",
			survivor: person("a", "Geoffrey Nice", []string{"Sir Geoffrey"}, []string{"s1"}),
			merged: []casegraph.Entity{
				person("b", "G. Nice", []string{"Nice"}, []string{"s2"}),
				person("c", "Geoffrey Nice QC", nil, []string{"s3", "s1"}),
			},
			want: casegraph.MergePlan{
				Aliases:   []string{"Sir Geoffrey", "G. Nice", "Nice", "Geoffrey Nice QC"},
				SourceIDs: []string{"s1", "s2", "s3"},
			},
		},
		{
			name:     "the survivor's name and repeats are dropped",
			survivor: person("a", "Caesar", []string{"the photographer"}, []string{"s1"}),
			merged: []casegraph.Entity{
				person("b", "Caesar", []string{"the photographer", "Qaysar"}, []string{"s1"}),
				person("c", "Qaysar", []string{"Caesar"}, nil),
			},
			want: casegraph.MergePlan{Aliases: []string{"the photographer", "Qaysar"}, SourceIDs: []string{"s1"}},
		},
		{
			name:     "a survivor without aliases",
			survivor: person("a", "Hague", nil, []string{"s1"}),
			merged:   []casegraph.Entity{person("b", "William Hague", nil, []string{"s2"})},
			want:     casegraph.MergePlan{Aliases: []string{"William Hague"}, SourceIDs: []string{"s1", "s2"}},
		},
		{
			name:     "entities of different kinds",
			survivor: person("a", "Geneva", nil, []string{"s1"}),
			merged:   []casegraph.Entity{{ID: "b", Kind: casegraph.KindPlace, Name: "Geneva", SourceIDs: []string{"s1"}}},
			wantErr:  `cannot merge Place "b" into Person "a": entities of different kinds`,
		},
		{
			name:     "too many aliases",
			survivor: person("a", "A", many, []string{"s1"}),
			merged:   []casegraph.Entity{person("b", "B", nil, nil)},
			wantErr:  "the merged entity would have 101 aliases; the limit is 100",
		},
		{
			name:     "the survivor's aliases are not changed in place",
			survivor: person("a", "A", []string{"x"}, []string{"s1"}),
			merged:   []casegraph.Entity{person("b", "x", nil, nil)},
			want:     casegraph.MergePlan{Aliases: []string{"x"}, SourceIDs: []string{"s1"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := tt.survivor.Aliases
			got, err := casegraph.PlanMerge(tt.survivor, tt.merged)
			checkErr(t, err, tt.wantErr)
			if tt.wantErr != "" {
				return
			}
			want := tt.want // cited the old way: each source once (TestPlanMergeKeepsCitations has the rest)
			want.Citations = casegraph.CitationsOf(want.SourceIDs, "")
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("plan (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, tt.survivor.Aliases); diff != "" {
				t.Errorf("survivor's aliases changed (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPlanMergeKeepsProtection: a protected entity merges only into a
// protected one, where its names stay withheld.
func TestPlanMergeKeepsProtection(t *testing.T) {
	witness := casegraph.Entity{ID: "w", Kind: casegraph.KindPerson, Name: "Witness", Attributes: casegraph.Attributes{Protected: true}}
	open := casegraph.Entity{ID: "o", Kind: casegraph.KindPerson, Name: "Open"}
	if _, err := casegraph.PlanMerge(open, []casegraph.Entity{witness}); casegraph.ErrorCode(err) != casegraph.CodeBadUserInput {
		t.Errorf("protected into unprotected: got %v, want BAD_USER_INPUT", err)
	}
	if _, err := casegraph.PlanMerge(witness, []casegraph.Entity{open}); err != nil {
		t.Errorf("unprotected into protected: %v", err)
	}
}
