package duplicate_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/duplicate"
)

// subjectEntities have every property of a subject's row, on the kinds
// that have them, lists of none, one and several values, and text a
// separator must not split (commas, quotes, non-ASCII letters).
func subjectEntities() []casegraph.Entity {
	return []casegraph.Entity{
		{ID: "p1", Kind: casegraph.KindPerson, Name: "Abdulkarim Khaddour", Aliases: []string{"Abd al-Karim Haddur", "Karim \"H.\""},
			Attributes: casegraph.Attributes{BirthDate: "1961-04-12", DeathDate: "2020", BirthPlace: "Daraa, Syria", Nationality: "SY",
				Gender: casegraph.GenderMale, Address: "12 Baghdad St., Damascus",
				Identifiers: []casegraph.Identifier{{Type: casegraph.IdentifierPassport, Issuer: "SY", Value: "N 0123-456"},
					{Type: casegraph.IdentifierNationalID, Value: "0101"}}}},
		{ID: "p2", Kind: casegraph.KindPerson, Name: "Slobodan Milošević"},
		{ID: "o1", Kind: casegraph.KindOrganization, Name: "Carter-Ruck", Aliases: []string{"Carter Ruck & Partners"},
			Attributes: casegraph.Attributes{Jurisdiction: "GB", FoundingDate: "1981", DissolutionDate: "2099-01", Address: "London"}},
		{ID: "e1", Kind: casegraph.KindEvent, Name: "Geneva II", Attributes: casegraph.Attributes{StartDate: "2014-01-22", EndDate: "2014-01-31"}},
		{ID: "d1", Kind: casegraph.KindDocument, Name: "The Caesar report", Attributes: casegraph.Attributes{PublishedAt: "2014-01"}},
	}
}

// TestSubjectEntity: a subject holds what scoring reads of its entity:
// its entity is the entity's id, kind and SubjectProperties.
func TestSubjectEntity(t *testing.T) {
	for _, e := range subjectEntities() {
		t.Run(e.ID, func(t *testing.T) {
			s := duplicate.NewSubject(e)
			if s.ID != e.ID || s.Kind != e.Kind {
				t.Errorf("subject %q %q, want %q %q", s.ID, s.Kind, e.ID, e.Kind)
			}
			got, err := s.Entity()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(e, got); diff != "" {
				t.Errorf("Entity (-want +got):\n%s", diff)
			}
		})
	}
}

// TestParseSubject: a row a store read becomes the subject NewSubject
// makes of its entity, and a row without every field, or without an id
// or kind, is an error.
func TestParseSubject(t *testing.T) {
	e := subjectEntities()[0]
	want := duplicate.NewSubject(e)
	row := want.Row()
	if !strings.HasPrefix(row, e.ID+duplicate.SubjectSeparator+string(e.Kind)+duplicate.SubjectSeparator+e.Name+duplicate.SubjectSeparator) {
		t.Errorf("row %q: want the id, the kind, then the name first", row)
	}
	got, err := duplicate.ParseSubject(row)
	if err != nil || got != want {
		t.Errorf("ParseSubject: %+v, %v; want %+v", got, err, want)
	}
	_, afterID, _ := strings.Cut(row, duplicate.SubjectSeparator)
	_, afterKind, _ := strings.Cut(afterID, duplicate.SubjectSeparator)
	for _, tc := range []struct{ name, row string }{
		{"no id", duplicate.SubjectSeparator + afterID},
		{"no kind", e.ID + duplicate.SubjectSeparator + duplicate.SubjectSeparator + afterKind},
		{"a field short", row[:strings.LastIndex(row, duplicate.SubjectSeparator)]},
		{"a field more", row + duplicate.SubjectSeparator},
		{"not a row", "Abdulkarim Khaddour"},
		{"empty", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, err := duplicate.ParseSubject(tc.row); err == nil {
				t.Errorf("ParseSubject(%q): %+v, want an error", tc.row, got)
			}
		})
	}
}
