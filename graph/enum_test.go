package graph

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	casegraph "github.com/casegraph/casegraph"
)

// The schema's enums spell the domain's closed lists; a value added to one
// and not the other would be refused by one layer and let through by the
// other. No database needed: the schema is read as the server serves it.
func TestSchemaEnumsEqualDomainLists(t *testing.T) {
	schema := NewSchema(Stores{}, nil, nil).Schema()
	enum := func(name string) []string {
		def := schema.Types[name]
		if def == nil {
			t.Fatalf("the schema has no type %s", name)
		}
		var out []string
		for _, v := range def.EnumValues {
			out = append(out, v.Name)
		}
		return out
	}
	var kinds, categories, types, statuses []string
	for _, k := range casegraph.Kinds() {
		kinds = append(kinds, strings.ToUpper(string(k)))
		categories = append(categories, casegraph.Categories(k)...)
	}
	for _, rt := range casegraph.RelationTypes() {
		types = append(types, string(rt))
	}
	for _, s := range casegraph.Statuses() {
		statuses = append(statuses, string(s))
	}
	sorted := func(s []string) []string { s = slices.Clone(s); slices.Sort(s); return slices.Compact(s) }
	tests := []struct {
		enum string
		want []string
		// ordered: the schema lists the values in the domain's order (a
		// UI shows them so); Category is the union of three kinds' lists.
		ordered bool
	}{
		{"EntityKind", kinds, true},
		{"RelationType", types, true},
		{"RelationStatus", statuses, true},
		{"Category", categories, false},
		{"Direction", []string{string(casegraph.DirectionBoth), string(casegraph.DirectionOutgoing), string(casegraph.DirectionIncoming)}, true},
	}
	for _, tt := range tests {
		t.Run(tt.enum, func(t *testing.T) {
			got, want := enum(tt.enum), tt.want
			if !tt.ordered {
				got, want = sorted(got), sorted(want)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("enum %s (-domain +schema):\n%s", tt.enum, diff)
			}
		})
	}
}
