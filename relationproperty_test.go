package casegraph_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	casegraph "github.com/casegraph/casegraph"
)

// relationOf is a valid relation of the type with the attributes.
func relationOf(t casegraph.RelationType, a casegraph.RelationAttributes) casegraph.Relation {
	return casegraph.Relation{ID: "r", Type: t, FromID: "a", ToID: "b", Status: casegraph.DefaultStatus,
		Dataset: "d", SourceIDs: []string{"s"}, RelationAttributes: a}
}

// TestRelationPropertyRules: each type-specific property's rule, on a type
// that carries it.
func TestRelationPropertyRules(t *testing.T) {
	for _, tc := range []struct {
		name string
		typ  casegraph.RelationType
		a    casegraph.RelationAttributes
		want string // "" for valid
	}{
		{"a whole share", "OWNS", casegraph.RelationAttributes{Share: ptr(100.0)}, ""},
		{"a small share", "OWNS", casegraph.RelationAttributes{Share: ptr(0.01)}, ""},
		{"no share", "OWNS", casegraph.RelationAttributes{Share: ptr(0.0)}, "share 0 is not a percentage above 0 and at most 100"},
		{"a negative share", "OWNS", casegraph.RelationAttributes{Share: ptr(-5.0)}, "share -5 is not"},
		{"more than all", "OWNS", casegraph.RelationAttributes{Share: ptr(100.5)}, "share 100.5 is not"},
		{"a share of NaN", "OWNS", casegraph.RelationAttributes{Share: ptr(math.NaN())}, "share NaN is not"},
		{"an amount and its currency", "PAID", casegraph.RelationAttributes{Amount: ptr(2.5e6), Currency: "USD"}, ""},
		{"an amount alone", "FUNDS", casegraph.RelationAttributes{Amount: ptr(1000.0)}, ""},
		{"nothing paid", "PAID", casegraph.RelationAttributes{Amount: ptr(0.0), Currency: "EUR"}, ""},
		{"a negative amount", "PAID", casegraph.RelationAttributes{Amount: ptr(-1.0)}, "amount -1 is not a number of at least 0"},
		{"an infinite amount", "PAID", casegraph.RelationAttributes{Amount: ptr(math.Inf(1))}, "amount +Inf is not"},
		{"a currency alone", "PAID", casegraph.RelationAttributes{Currency: "USD"}, "currency USD without an amount"},
		{"a currency in lower case", "PAID", casegraph.RelationAttributes{Amount: ptr(1.0), Currency: "usd"}, `currency "usd" is not an ISO 4217 code`},
		{"a currency of four letters", "FUNDS", casegraph.RelationAttributes{Amount: ptr(1.0), Currency: "USDT"}, `currency "USDT" is not`},
		{"a currency's sign", "FUNDS", casegraph.RelationAttributes{Amount: ptr(1.0), Currency: "$"}, `currency "$" is not`},
		{"a parent", "FAMILY_OF", casegraph.RelationAttributes{Relationship: casegraph.FamilyParent}, ""},
		{"an unknown relationship", "FAMILY_OF", casegraph.RelationAttributes{Relationship: "MOTHER"}, `unknown family relationship "MOTHER"; did you mean "OTHER"? (one of PARENT, CHILD,`},
		{"a post and a rank", "COMMANDS", casegraph.RelationAttributes{Post: "commander, 4th Division", Rank: "major general"}, ""},
		{"a held position's", "HELD_POSITION", casegraph.RelationAttributes{Post: "chief prosecutor", Rank: "colonel"}, ""},
		{"a director's post", "DIRECTOR_OF", casegraph.RelationAttributes{Post: "chair of the board"}, ""},
		{"a long post", "COMMANDS", casegraph.RelationAttributes{Post: strings.Repeat("p", casegraph.MaxPostLength+1)}, "post is 201 characters long; the limit is 200"},
		{"a long rank", "COMMANDS", casegraph.RelationAttributes{Rank: strings.Repeat("r", casegraph.MaxRankLength+1)}, "rank is 101 characters long; the limit is 100"},
		{"a post of two lines", "COMMANDS", casegraph.RelationAttributes{Post: "a\nb"}, "post contains the control character U+000A"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := relationOf(tc.typ, tc.a).Validate()
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && err == nil:
				t.Errorf("accepted, want %q", tc.want)
			case tc.want != "" && !strings.Contains(err.Error(), tc.want):
				t.Errorf("error %q, want it to say %q", err, tc.want)
			case err != nil && casegraph.ErrorCode(err) != casegraph.CodeBadUserInput:
				t.Errorf("code %s, want BAD_USER_INPUT", casegraph.ErrorCode(err))
			}
		})
	}
}

// TestRelationPropertyOnWrongType: every property of the table, on every
// type that does not carry it, is refused with BAD_USER_INPUT, naming the
// property and the types that do; on every type that does, a valid value
// passes.
func TestRelationPropertyOnWrongType(t *testing.T) {
	valid := map[string]casegraph.RelationAttributes{
		"share":        {Share: ptr(51.0)},
		"amount":       {Amount: ptr(10.0)},
		"currency":     {Amount: ptr(10.0), Currency: "GBP"},
		"relationship": {Relationship: casegraph.FamilySibling},
		"post":         {Post: "a post"},
		"rank":         {Rank: "a rank"},
	}
	want := map[string]string{
		"share":        "only OWNS relations carry it",
		"amount":       "only FUNDS or PAID relations carry it",
		"currency":     "only FUNDS or PAID relations carry it",
		"relationship": "only FAMILY_OF relations carry it",
		"post":         "only HELD_POSITION, COMMANDS or DIRECTOR_OF relations carry it",
		"rank":         "only HELD_POSITION or COMMANDS relations carry it",
	}
	for _, p := range casegraph.RelationPropertyTable() {
		a, ok := valid[p.Name]
		if !ok {
			t.Fatalf("%s: no valid value in this test: add one", p.Name)
		}
		for _, spec := range casegraph.Vocabulary() {
			// The kinds are the store's to check; from and to are only ids here.
			err := relationOf(spec.Type, a).Validate()
			carries := slices.Contains(spec.Properties, p.Name)
			if carries {
				if err != nil {
					t.Errorf("%s on %s: %v", p.Name, spec.Type, err)
				}
				continue
			}
			if err == nil {
				t.Errorf("%s on %s: accepted", p.Name, spec.Type)
				continue
			}
			// currency comes with an amount, which is refused first where
			// it is not carried; the same types carry both.
			name := p.Name
			if name == "currency" {
				name = "amount"
			}
			msg := "a relation of type " + string(spec.Type) + " has no " + name + ": " + want[name]
			if casegraph.ErrorCode(err) != casegraph.CodeBadUserInput || err.Error() != msg {
				t.Errorf("%s on %s: %s %q, want BAD_USER_INPUT %q", p.Name, spec.Type, casegraph.ErrorCode(err), err, msg)
			}
		}
	}
}

// TestVocabularyProperties: the vocabulary's Properties column names only
// properties of the table, and every property of the table is carried by
// some type.
func TestVocabularyProperties(t *testing.T) {
	var names []string
	for _, p := range casegraph.RelationPropertyTable() {
		names = append(names, p.Name)
		if len(p.Types()) == 0 {
			t.Errorf("%s: no type carries it", p.Name)
		}
		if !slices.Contains(casegraph.RelationProperties, p.Name) {
			t.Errorf("%s: not among the properties a read may return", p.Name)
		}
	}
	for _, s := range casegraph.Vocabulary() {
		for _, p := range s.Properties {
			if !slices.Contains(names, p) {
				t.Errorf("%s carries %s, which the table of relation properties lacks", s.Type, p)
			}
		}
	}
}

func TestFamilyRelationshipInverse(t *testing.T) {
	for _, f := range casegraph.FamilyRelationships() {
		if got := f.Inverse().Inverse(); got != f {
			t.Errorf("%s read the other way and back is %s", f, got)
		}
		if !slices.Contains(casegraph.FamilyRelationships(), f.Inverse()) {
			t.Errorf("%s's inverse %s is not a relationship", f, f.Inverse())
		}
	}
	for f, want := range map[casegraph.FamilyRelationship]casegraph.FamilyRelationship{
		casegraph.FamilyParent: casegraph.FamilyChild, casegraph.FamilyNephewOrNiece: casegraph.FamilyUncleOrAunt,
		casegraph.FamilySpouse: casegraph.FamilySpouse, casegraph.FamilyGrandchild: casegraph.FamilyGrandparent,
	} {
		if got := f.Inverse(); got != want {
			t.Errorf("%s.Inverse() = %s, want %s", f, got, want)
		}
	}
}

// TestRelationPropertyValues: each property's stored value reads back.
func TestRelationPropertyValues(t *testing.T) {
	in := casegraph.RelationAttributes{Share: ptr(12.5), Amount: ptr(3.0), Currency: "CHF",
		Relationship: casegraph.FamilyCousin, Post: "post", Rank: "rank"}
	var out casegraph.RelationAttributes
	for _, p := range casegraph.RelationPropertyTable() {
		if err := p.Set(&out, p.Value(in)); err != nil {
			t.Fatal(err)
		}
	}
	if out.Share == nil || *out.Share != 12.5 || *out.Amount != 3 || out.Currency != "CHF" ||
		out.Relationship != casegraph.FamilyCousin || out.Post != "post" || out.Rank != "rank" {
		t.Errorf("read back %+v", out)
	}
	var none casegraph.RelationAttributes
	for _, p := range casegraph.RelationPropertyTable() {
		if v := p.Value(none); v != nil {
			t.Errorf("%s of nothing is %v, want nil", p.Name, v)
		}
		if err := p.Set(&none, int64(7)); p.Name == "share" && (err != nil || *none.Share != 7) {
			t.Errorf("a whole share stored by another writer: %v", err)
		}
	}
}
