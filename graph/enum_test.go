package graph

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/vektah/gqlparser/v2/ast"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/duplicate"
	"github.com/casegraph/casegraph/watch"
)

// The schema's enums spell the domain's closed lists; a value added to one
// and not the other would be refused by one layer and let through by the
// other. Every enum of the executable schema is listed here with the
// domain's list it spells: a new enum without one fails. No database
// needed: the schema is read as the server serves it.
func TestSchemaEnumsEqualDomainLists(t *testing.T) {
	schema := NewSchema(Stores{}, nil, nil).Schema()
	var kinds, categories, roles []string
	for _, k := range casegraph.Kinds() {
		kinds = append(kinds, strings.ToUpper(string(k)))
		categories = append(categories, casegraph.Categories(k)...)
	}
	for _, r := range casegraph.Roles() {
		roles = append(roles, strings.ToUpper(string(r)))
	}
	// ordered: the schema lists the values in the domain's order (a UI
	// shows them so); Category is the union of three kinds' lists.
	type list struct {
		values  []string
		ordered bool
	}
	domain := map[string]list{
		"EntityKind":          {kinds, true},
		"Category":            {categories, false},
		"RelationType":        {names(casegraph.RelationTypes()), true},
		"RelationStatus":      {names(casegraph.Statuses()), true},
		"FamilyRelationship":  {names(casegraph.FamilyRelationships()), true},
		"Direction":           {names(casegraph.Directions()), true},
		"PathDirection":       {names(casegraph.PathDirections()), true},
		"EntityOrderField":    {names(casegraph.EntityOrderFields()), true},
		"OrderDirection":      {[]string{casegraph.EntityOrder{}.Direction(), casegraph.EntityOrder{Desc: true}.Direction()}, true},
		"MatchField":          {names(casegraph.MatchFields()), true},
		"Role":                {roles, true},
		"QueryVisibility":     {names(casegraph.Visibilities()), true},
		"DuplicateReasonKind": {names(duplicate.ReasonKinds()), true},
		"PathWatchKind":       {names(watch.PathKinds()), true},
		"Gender":              {names(casegraph.Genders()), true},
		"IdentifierType":      {names(casegraph.IdentifierTypes()), true},
		"SourceKind":          {names(casegraph.SourceKinds()), true},
		"Reliability":         {names(casegraph.Reliabilities()), true},
		"DateOverlap":         {[]string{casegraph.OverlapNone.String(), casegraph.OverlapPossible.String(), casegraph.OverlapCertain.String()}, true},
		"CommandRecord":       {names(casegraph.Records()), true},
		"IncidentTieKind":     {names(casegraph.TieKinds()), true},
		"ViewNoteTarget":      {upper(casegraph.ViewNoteTargets()), true},
	}
	sorted := func(s []string) []string { s = slices.Clone(s); slices.Sort(s); return slices.Compact(s) }
	for name, def := range schema.Types {
		if def.Kind != ast.Enum || def.BuiltIn {
			continue
		}
		t.Run(name, func(t *testing.T) {
			want, ok := domain[name]
			if !ok {
				t.Fatalf("the schema's enum %s spells no domain list: list it here with the domain's function or constants", name)
			}
			var got []string
			for _, v := range def.EnumValues {
				got = append(got, v.Name)
			}
			w := want.values
			if !want.ordered {
				got, w = sorted(got), sorted(w)
			}
			if diff := cmp.Diff(w, got); diff != "" {
				t.Errorf("enum %s (-domain +schema):\n%s", name, diff)
			}
		})
	}
	for name := range domain {
		if def := schema.Types[name]; def == nil || def.Kind != ast.Enum {
			t.Errorf("%s: listed with a domain list, but the schema has no such enum", name)
		}
	}
}

// upper is values as the schema spells them (EnumName).
func upper[T ~string](values []T) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = casegraph.EnumName(v)
	}
	return out
}

func names[T ~string](values []T) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return out
}
