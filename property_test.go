package casegraph_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	casegraph "github.com/casegraph/casegraph"
)

// TestAttributesMatchTable checks that every field of Attributes has a row
// of the property table under its JSON name (the data files' key) whose
// accessors reach that field, and that every row reaches its own field.
func TestAttributesMatchTable(t *testing.T) {
	rows := map[string]casegraph.EntityProperty{}
	for p := range casegraph.EntityPropertyRows() {
		if _, dup := rows[p.Name]; dup {
			t.Errorf("property %q is in the table twice", p.Name)
		}
		rows[p.Name] = p
	}
	typ := reflect.TypeFor[casegraph.Attributes]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		p, ok := rows[name]
		if !ok {
			t.Errorf("Attributes.%s: no property %q in the table", f.Name, name)
			continue
		}
		var e casegraph.Entity
		want := map[casegraph.PropertyType]any{casegraph.PropertyString: "x", casegraph.PropertyInt: 7,
			casegraph.PropertyList: []string{"x"}, casegraph.PropertyBool: true,
			casegraph.PropertyPoint: &casegraph.Coordinates{Latitude: 33.5, Longitude: 36.3}}[p.Type()]
		if name == "identifiers" { // stored encoded
			want = []string{casegraph.EncodeIdentifier(casegraph.Identifier{Type: casegraph.IdentifierPassport, Value: "N1"})}
		}
		if err := p.Set(&e, want); err != nil {
			t.Fatalf("%s: Set: %v", name, err)
		}
		if reflect.ValueOf(e.Attributes).Field(i).IsZero() {
			t.Errorf("property %s leaves Attributes.%s unset", name, f.Name)
		}
		if got := p.Value(e); !reflect.DeepEqual(got, want) || !p.IsSet(e) {
			t.Errorf("property %s reads %v (set %t), want %v", name, got, p.IsSet(e), want)
		}
	}
	for p := range casegraph.EntityPropertyRows() {
		if err := p.Set(&casegraph.Entity{}, struct{}{}); err == nil {
			t.Errorf("property %s: Set of a struct succeeded", p.Name)
		}
	}
}

// TestCategoryKinds checks that the kinds that may carry a category are the
// kinds that have categories.
func TestCategoryKinds(t *testing.T) {
	for p := range casegraph.EntityPropertyRows() {
		if p.Name != "category" {
			continue
		}
		for _, k := range casegraph.Kinds() {
			if got, want := slices.Contains(p.Kinds, k), casegraph.Categories(k) != nil; got != want {
				t.Errorf("%s may carry a category: %t in the table, %t in Categories", k, got, want)
			}
		}
	}
}

// TestIdentifierEncoding: the longest identifiers a write accepts read back
// as written, whatever JSON makes of their characters (a '<' is six bytes
// escaped, an Arabic letter two).
func TestIdentifierEncoding(t *testing.T) {
	for _, id := range []casegraph.Identifier{
		{Type: casegraph.IdentifierPassport, Value: "N0123456", Issuer: "SY"},
		{Type: casegraph.IdentifierOther, Value: strings.Repeat("<", casegraph.MaxIdentifierLength), Issuer: strings.Repeat("د", casegraph.MaxIdentifierLength)},
		{Type: casegraph.IdentifierNationalID, Value: `a"b\\c]`},
	} {
		got, err := casegraph.DecodeIdentifier(casegraph.EncodeIdentifier(id))
		if err != nil || got != id {
			t.Errorf("DecodeIdentifier(EncodeIdentifier(%+v)) = %+v, %v", id, got, err)
		}
	}
	if _, err := casegraph.DecodeIdentifier(`["PASSPORT","SY"]`); err == nil {
		t.Error("DecodeIdentifier of two parts succeeded")
	}
}
