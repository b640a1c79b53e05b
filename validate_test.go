package casegraph_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	casegraph "github.com/casegraph/casegraph"
)

func TestEntityValidate(t *testing.T) {
	valid := func() casegraph.Entity {
		return casegraph.Entity{ID: "geoffrey-nice", Kind: casegraph.KindPerson, Name: "Sir Geoffrey Nice",
			Dataset: "caesar-report", SourceIDs: []string{"article"}}
	}
	tests := []struct {
		name   string
		change func(*casegraph.Entity)
		want   string // part of the message; "" means valid
	}{
		{"valid", func(*casegraph.Entity) {}, ""},
		{"Cypher and Lucene text is only text", func(e *casegraph.Entity) { e.Name = `x"}) DETACH DELETE n // name:(a* OR b~)` }, ""},
		{"right-to-left name", func(e *casegraph.Entity) { e.Name = "بشار الأسد" }, ""},
		{"multiline description", func(e *casegraph.Entity) { e.Description = "one\ntwo\tthree" }, ""},
		{"missing id", func(e *casegraph.Entity) { e.ID = "" }, "id is required"},
		{"id with spaces", func(e *casegraph.Entity) { e.ID = "a b" }, "not a valid id"},
		{"unknown kind", func(e *casegraph.Entity) { e.Kind = "Spaceship" }, `unknown entity kind "Spaceship"`},
		{"blank name", func(e *casegraph.Entity) { e.Name = " \t " }, "name contains the control character"},
		{"spaces-only name", func(e *casegraph.Entity) { e.Name = "   " }, "name is blank"},
		{"NUL in name", func(e *casegraph.Entity) { e.Name = "a\x00b" }, "control character U+0000"},
		{"newline in name", func(e *casegraph.Entity) { e.Name = "a\nb" }, "control character U+000A"},
		{"invalid UTF-8", func(e *casegraph.Entity) { e.Name = "a\xffb" }, "not valid UTF-8"},
		{"1 MB name", func(e *casegraph.Entity) { e.Name = strings.Repeat("x", 1_000_000) }, "the limit is 500"},
		{"no source", func(e *casegraph.Entity) { e.SourceIDs = nil }, "cite at least one source"},
		{"bad source id", func(e *casegraph.Entity) { e.SourceIDs = []string{"../x"} }, "sourceIds[0]"},
		{"too many aliases", func(e *casegraph.Entity) { e.Aliases = make([]string, 101) }, "101 aliases"},
		{"empty alias", func(e *casegraph.Entity) { e.Aliases = []string{""} }, "aliases[0] is required"},
		// The attributes (the property table's rules).
		{"nationality", func(e *casegraph.Entity) { e.Nationality = "GB" }, ""},
		{"document with every attribute", func(e *casegraph.Entity) {
			e.Kind, e.Category, e.PublishedAt, e.PageCount, e.URL = casegraph.KindDocument, "REPORT", "2014-01", 31, "https://example.org/r"
		}, ""},
		{"event with dates", func(e *casegraph.Entity) { e.Kind, e.StartDate, e.EndDate = casegraph.KindEvent, "2011", "2013" }, ""},
		{"place with a nationality", func(e *casegraph.Entity) { e.Kind, e.Nationality = casegraph.KindPlace, "GB" },
			"a Place has no nationality (a property of Person)"},
		{"person with a category", func(e *casegraph.Entity) { e.Category = "OTHER" },
			"a Person has no category (a property of Organization, Event or Document)"},
		{"person with a page count", func(e *casegraph.Entity) { e.PageCount = 3 }, "a Person has no pageCount"},
		{"document with an end date", func(e *casegraph.Entity) { e.Kind, e.EndDate = casegraph.KindDocument, "2011" }, "a Document has no endDate"},
		{"category of another kind", func(e *casegraph.Entity) { e.Kind, e.Category = casegraph.KindOrganization, "REPORT" }, `unknown Organization category "REPORT" (one of GOVERNMENT,`},
		{"end before start", func(e *casegraph.Entity) { e.Kind, e.StartDate, e.EndDate = casegraph.KindEvent, "2014", "2013" }, "is before"},
		{"bad publishedAt", func(e *casegraph.Entity) { e.Kind, e.PublishedAt = casegraph.KindDocument, "2014-13" }, "no month 13"},
		{"negative page count", func(e *casegraph.Entity) { e.Kind, e.PageCount = casegraph.KindDocument, -1 }, "not between 0 and 1000000"},
		{"url not http", func(e *casegraph.Entity) { e.Kind, e.URL = casegraph.KindDocument, "javascript:alert(1)" }, "http"},
		{"nationality not a code", func(e *casegraph.Entity) { e.Nationality = "British" }, "ISO 3166"},
		// The identifying fields.
		{"person with every identifying field", func(e *casegraph.Entity) {
			e.BirthDate, e.DeathDate, e.BirthPlace, e.Gender, e.Address = "1970-03", "2013", "Daraa, Syria", casegraph.GenderMale, "12 Rue X"
			e.Identifiers = []casegraph.Identifier{{Type: casegraph.IdentifierPassport, Value: "N0123", Issuer: "SY"},
				{Type: casegraph.IdentifierServiceNo, Value: "4471"}}
		}, ""},
		{"organization with every identifying field", func(e *casegraph.Entity) {
			e.Kind, e.Jurisdiction, e.FoundingDate, e.DissolutionDate = casegraph.KindOrganization, "SY", "1971", "2011-05-02"
			e.Identifiers = []casegraph.Identifier{{Type: casegraph.IdentifierRegistration, Value: "HRB 1", Issuer: "Damascus registry"}}
		}, ""},
		{"place with coordinates", func(e *casegraph.Entity) {
			e.Kind, e.Coordinates, e.CountryCode = casegraph.KindPlace, &casegraph.Coordinates{Latitude: 33.51, Longitude: 36.29}, "SY"
		}, ""},
		{"document language", func(e *casegraph.Entity) { e.Kind, e.Language = casegraph.KindDocument, "ar" }, ""},
		{"death before birth", func(e *casegraph.Entity) { e.BirthDate, e.DeathDate = "1970", "1969" }, "is before"},
		{"birth date not a date", func(e *casegraph.Entity) { e.BirthDate = "1970-02-30" }, "birthDate"},
		{"unknown gender", func(e *casegraph.Entity) { e.Gender = "man" }, `unknown gender "man"; did you mean "MALE"? (one of MALE, FEMALE, OTHER)`},
		{"place with a birth date", func(e *casegraph.Entity) { e.Kind, e.BirthDate = casegraph.KindPlace, "1970" }, "a Place has no birthDate"},
		{"unknown identifier type", func(e *casegraph.Entity) {
			e.Identifiers = []casegraph.Identifier{{Type: "DNA", Value: "x"}}
		}, `identifiers[0]: unknown identifier type "DNA" (one of PASSPORT,`},
		{"identifier without a value", func(e *casegraph.Entity) {
			e.Identifiers = []casegraph.Identifier{{Type: casegraph.IdentifierPassport}}
		}, "identifiers[0].value is required"},
		{"identifier repeated", func(e *casegraph.Entity) {
			id := casegraph.Identifier{Type: casegraph.IdentifierPassport, Value: "N1"}
			e.Identifiers = []casegraph.Identifier{id, id}
		}, "identifiers[1] repeats PASSPORT"},
		{"identifier of 100 characters, issuer of 100 non-Latin ones", func(e *casegraph.Entity) {
			e.Identifiers = []casegraph.Identifier{{Type: casegraph.IdentifierNationalID, Value: strings.Repeat("٣", 100), Issuer: strings.Repeat("د", 100)}}
		}, ""},
		{"issuer of 101 characters", func(e *casegraph.Entity) {
			e.Identifiers = []casegraph.Identifier{{Type: casegraph.IdentifierPassport, Value: "N1", Issuer: strings.Repeat("d", 101)}}
		}, "identifiers[0].issuer"},
		{"too many identifiers", func(e *casegraph.Entity) {
			for i := range 21 {
				e.Identifiers = append(e.Identifiers, casegraph.Identifier{Type: casegraph.IdentifierOther, Value: fmt.Sprint(i)})
			}
		}, "21 identifiers; the limit is 20"},
		{"place with identifiers", func(e *casegraph.Entity) {
			e.Kind, e.Identifiers = casegraph.KindPlace, []casegraph.Identifier{{Type: casegraph.IdentifierOther, Value: "x"}}
		}, "a Place has no identifiers (a property of Person or Organization)"},
		{"jurisdiction not a code", func(e *casegraph.Entity) { e.Kind, e.Jurisdiction = casegraph.KindOrganization, "Syria" }, "jurisdiction"},
		{"dissolved before founded", func(e *casegraph.Entity) {
			e.Kind, e.FoundingDate, e.DissolutionDate = casegraph.KindOrganization, "2000", "1999"
		}, "is before"},
		{"latitude out of range", func(e *casegraph.Entity) {
			e.Kind, e.Coordinates = casegraph.KindPlace, &casegraph.Coordinates{Latitude: 91}
		}, "coordinates.latitude 91 is not between -90 and 90"},
		{"longitude NaN", func(e *casegraph.Entity) {
			e.Kind, e.Coordinates = casegraph.KindPlace, &casegraph.Coordinates{Longitude: math.NaN()}
		}, "coordinates.longitude NaN"},
		{"country code lower case", func(e *casegraph.Entity) { e.Kind, e.CountryCode = casegraph.KindPlace, "sy" }, "countryCode"},
		{"language not a code", func(e *casegraph.Entity) { e.Kind, e.Language = casegraph.KindDocument, "Arabic" }, "ISO 639-1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := valid()
			tt.change(&e)
			err := e.Validate()
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Validate() = %v, want an error containing %q", err, tt.want)
			}
			if got := casegraph.ErrorCode(err); got != casegraph.CodeBadUserInput {
				t.Errorf("code = %s, want BAD_USER_INPUT", got)
			}
		})
	}
}

func TestTextRuleCheck(t *testing.T) {
	tests := []struct {
		name string
		rule casegraph.TextRule
		text string
		want string // part of the message; "" means valid
	}{
		{"optional and empty", casegraph.TextRule{Max: 5}, "", ""},
		{"required and empty", casegraph.TextRule{Max: 5, Required: true}, "", "f is required"},
		{"required and blank", casegraph.TextRule{Max: 5, Required: true}, "  ", "f is blank"},
		{"at the limit", casegraph.TextRule{Max: 5}, "héllo", ""},
		{"over the limit", casegraph.TextRule{Max: 5}, "hello!", "the limit is 5"},
		{"newline in one line", casegraph.TextRule{Max: 5}, "a\nb", "control character U+000A"},
		{"newline in multiline", casegraph.TextRule{Max: 5, Multiline: true}, "a\nb", ""},
		{"NUL in multiline", casegraph.TextRule{Max: 5, Multiline: true}, "a\x00b", "control character U+0000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.rule.Check("f", tt.text)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Check() = %v, want nil", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Check() = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// TestNormalizeComposes: a write's text is stored in NFC, however its
// accents were typed.
func TestNormalizeComposes(t *testing.T) {
	const decomposed, composed = "Cafe\u0301 de l'Ope\u0301ra", "Caf\u00e9 de l'Op\u00e9ra"
	e := casegraph.Entity{ID: "cafe", Kind: casegraph.KindPlace, Name: decomposed, Aliases: []string{decomposed},
		Description: decomposed, Dataset: "d", SourceIDs: []string{"s"}}
	s := casegraph.Source{ID: "s", Title: decomposed, Publisher: decomposed, Dataset: "d"}
	r := casegraph.Relation{ID: "r", Type: casegraph.RelationType("LOCATED_IN"), FromID: "a", ToID: "b", Role: decomposed,
		Quote: decomposed, Status: casegraph.StatusReported, Dataset: "d", SourceIDs: []string{"s"}}
	for name, err := range map[string]error{"entity": e.Normalize(), "source": s.Normalize(), "relation": r.Normalize()} {
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	got := []string{e.Name, e.Aliases[0], e.Description, s.Title, s.Publisher, r.Role, r.Quote}
	want := []string{composed, composed, composed, composed, composed, composed, composed}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entity name, alias, description, source title, publisher, relation role, quote (-want +got):\n%s", diff)
	}
	bad := casegraph.Entity{ID: "x", Kind: casegraph.KindPlace, Name: "", Dataset: "d", SourceIDs: []string{"s"}}
	if err := bad.Normalize(); err == nil {
		t.Error("Normalize of an entity without a name: no error, want Validate's")
	}
}
