package dataset_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/dataset"
)

// identifyingLines are NDJSON records with every identifying field, in
// the order and form an export writes them, for a dataset ds.
func identifyingLines(ds string) []string {
	lines := []string{
		`{"type":"source","id":"DS-src","title":"A source","dataset":"DS"}`,
		`{"type":"entity","id":"DS-doc","kind":"Document","name":"A document","language":"ar","dataset":"DS","sourceIds":["DS-src"]}`,
		`{"type":"entity","id":"DS-org","kind":"Organization","name":"An organization","category":"COMPANY","identifiers":[{"type":"REGISTRATION_NUMBER","value":"01234567","issuer":"Companies House"},{"type":"TAX_NUMBER","value":"GB123"}],"address":"1 Strand, London","jurisdiction":"GB","foundingDate":"1981","dissolutionDate":"2016-05","dataset":"DS","sourceIds":["DS-src"]}`,
		`{"type":"entity","id":"DS-person","kind":"Person","name":"A person","nationality":"SY","birthDate":"1970-03","deathDate":"2013-08-21","birthPlace":"Daraa, Syria","gender":"MALE","identifiers":[{"type":"PASSPORT","value":"N0123456","issuer":"SY"},{"type":"NATIONAL_ID","value":"010-99"},{"type":"SERVICE_NUMBER","value":"4471","issuer":"Syrian Arab Army"},{"type":"OTHER","value":"X-1"}],"address":"12 Rue X\nDamascus","dataset":"DS","sourceIds":["DS-src"]}`,
		`{"type":"entity","id":"DS-place","kind":"Place","name":"A place","coordinates":{"latitude":33.513807,"longitude":36.276528},"countryCode":"SY","dataset":"DS","sourceIds":["DS-src"]}`,
	}
	for i, l := range lines {
		lines[i] = strings.ReplaceAll(l, "DS", ds)
	}
	return lines
}

// importIdentifying imports identifyingLines into ds, and returns them.
func importIdentifying(t *testing.T, store *cypher.Store, ds string) []string {
	t.Helper()
	lines := identifyingLines(ds)
	b, err := dataset.Read(strings.NewReader(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	importBatch(t, store, b)
	return lines
}

// TestIdentifyingFieldsNDJSON: a file with every identifying field
// imports and exports as it was written (identifiers as objects,
// coordinates as {latitude, longitude}).
func TestIdentifyingFieldsNDJSON(t *testing.T) {
	store := cyphertest.Store(t, cypher.Options{})
	ds := cyphertest.Dataset(t)
	want := importIdentifying(t, store, ds)
	slices.Sort(want) // as records sorts them
	if diff := cmp.Diff(want, records(t, store, ds, "", ds)); diff != "" {
		t.Errorf("exported (-imported +exported):\n%s", diff)
	}
}

// TestIdentifyingFieldsBadLines: each bad identifying value is refused
// with its line and what is wrong, and the good lines still read.
func TestIdentifyingFieldsBadLines(t *testing.T) {
	entity := func(kind, fields string) string {
		return `{"type":"entity","id":"e","kind":"` + kind + `","name":"x","dataset":"d","sourceIds":["s"],` + fields + `}`
	}
	in := []string{
		`{"type":"source","id":"s","title":"ok","dataset":"d"}`,
		entity("Place", `"coordinates":"33.5,36.3"`),
		entity("Place", `"coordinates":{"longitude":36.3}`),
		entity("Place", `"coordinates":{"latitude":91,"longitude":0}`),
		entity("Place", `"coordinates":{"lat":1,"longitude":0}`),
		entity("Person", `"gender":"man"`),
		entity("Person", `"identifiers":[{"type":"DNA","value":"x"}]`),
		entity("Person", `"identifiers":[{"type":"PASSPORT","number":"x"}]`),
		entity("Person", `"identifiers":"N0123456"`),
		entity("Person", `"birthDate":"1970-13"`),
		entity("Organization", `"jurisdiction":"gb"`),
		entity("Document", `"language":"arabic"`),
		entity("Place", `"birthDate":"1970"`),
		entity("Place", `"countryCode":"CH","coordinates":{"latitude":46.2,"longitude":6.1}`),
	}
	b, err := dataset.Read(strings.NewReader(strings.Join(in, "\n")))
	if err == nil {
		t.Fatal("Read accepted bad lines")
	}
	if len(b.Entities) != 1 || b.EntityLines[0] != 14 {
		t.Errorf("good entities %+v at lines %v, want the one of line 14", b.Entities, b.EntityLines)
	}
	for _, want := range []string{
		"12 bad lines",
		"line 2: not a valid record: coordinates: want {\"latitude\": degrees, \"longitude\": degrees}",
		"line 3: not a valid record: coordinates: want both latitude and longitude",
		"line 4: coordinates.latitude 91 is not between -90 and 90",
		`line 5: not a valid record: coordinates: want {"latitude": degrees, "longitude": degrees}: json: unknown field "lat"`,
		`line 6: unknown gender "man"; did you mean "MALE"? (one of MALE, FEMALE, OTHER)`,
		`line 7: identifiers[0]: unknown identifier type "DNA" (one of PASSPORT,`,
		`line 8: not a valid record: json: unknown field "number"`,
		"line 9: not a valid record: json: cannot unmarshal string",
		"line 10: birthDate",
		`line 11: jurisdiction "gb" is not an ISO 3166-1 alpha-2 code`,
		`line 12: language "arabic" is not an ISO 639-1 language code`,
		"line 13: a Place has no birthDate",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}

// TestFtMIdentifyingFields: a dataset with every identifying field,
// exported as FtM, is valid for followthemoney (each identifier its
// holder's property and an Identification; a place's latitude, longitude
// and country; a document's language in ISO 639-3), and read back into
// another dataset it exports as the same NDJSON: nothing is lost.
func TestFtMIdentifyingFields(t *testing.T) {
	store := cyphertest.Store(t, cypher.Options{})
	ds := cyphertest.Dataset(t)
	importIdentifying(t, store, ds)
	out, w := exportFtM(t, store, ds)
	checkWithFtM(t, out.Bytes())
	if w.Report.Identifications != 6 {
		t.Errorf("%d Identifications, want 6", w.Report.Identifications)
	}
	byID := ftmByID(t, out.String())
	for id, want := range map[string]map[string][]string{
		ds + "-person": {"birthDate": {"1970-03"}, "deathDate": {"2013-08-21"}, "birthPlace": {"Daraa, Syria"}, "gender": {"male"},
			"passportNumber": {"N0123456"}, "idNumber": {"010-99", "4471", "X-1"}, "address": {"12 Rue X\nDamascus"}},
		ds + "-org": {"jurisdiction": {"gb"}, "incorporationDate": {"1981"}, "dissolutionDate": {"2016-05"},
			"registrationNumber": {"01234567"}, "taxNumber": {"GB123"}, "address": {"1 Strand, London"}},
		ds + "-place": {"latitude": {"33.513807"}, "longitude": {"36.276528"}, "country": {"sy"}},
		ds + "-doc":   {"language": {"ara"}},
	} {
		e := byID[dataset.FtMID(id)]
		for prop, values := range want {
			if diff := cmp.Diff(values, e.Properties[prop]); diff != "" {
				t.Errorf("%s.%s (-want +got):\n%s", id, prop, diff)
			}
		}
	}

	checkFtMRoundTrip(t, store, ds, out)
}

// TestFtMIdentifyingFieldsOfOthers: FtM from another tool, with numbers as
// properties only, an Identification of another type and a Passport, a
// language in ISO 639-3 and one Casegraph has no code for.
func TestFtMIdentifyingFieldsOfOthers(t *testing.T) {
	in := strings.Join([]string{
		`{"id":"p1","schema":"Person","properties":{"name":["Anna Novak"],"gender":["female"],"birthDate":["1970-03-04T00:00:00"],"idNumber":["HR-1"],"passportNumber":["P1","P2"],"taxNumber":["T1"]}}`,
		`{"id":"i1","schema":"Identification","properties":{"holder":["p1"],"number":["D-9"],"type":["Driving licence"],"country":["hr"]}}`,
		`{"id":"i2","schema":"Passport","properties":{"holder":["p1"],"number":["P2"],"authority":["Ministry of the Interior"]}}`,
		`{"id":"i3","schema":"Identification","properties":{"holder":["nobody"],"number":["X"]}}`,
		`{"id":"d1","schema":"Document","properties":{"title":["Zapisnik"],"language":["hrv"]}}`,
		`{"id":"d2","schema":"Document","properties":{"title":["Old text"],"language":["ang"]}}`,
		`{"id":"a1","schema":"Address","properties":{"full":["Zagreb"],"latitude":["45.815"],"longitude":["15.9819"],"country":["hr"]}}`,
	}, "\n")
	b, notes, err := dataset.ReadFtM(strings.NewReader(in), dataset.FtMReadOptions{Dataset: "d"})
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != 1 || !strings.Contains(notes[0].String(), `line 4: skipped: Identification i3: its holder "nobody"`) {
		t.Errorf("notes %v, want one for i3", notes)
	}
	got := map[string]casegraph.Attributes{}
	for _, e := range b.Entities {
		got[e.ID] = e.Attributes
	}
	want := map[string]casegraph.Attributes{
		"p1": {Gender: casegraph.GenderFemale, BirthDate: "1970-03-04", Identifiers: []casegraph.Identifier{
			{Type: casegraph.IdentifierOther, Value: "D-9", Issuer: "HR"},
			{Type: casegraph.IdentifierPassport, Value: "P2", Issuer: "Ministry of the Interior"},
			{Type: casegraph.IdentifierPassport, Value: "P1"},
			{Type: casegraph.IdentifierOther, Value: "HR-1"},
			{Type: casegraph.IdentifierTax, Value: "T1"},
		}},
		"d1": {Language: "hr"},
		"d2": {},
		"a1": {Coordinates: &casegraph.Coordinates{Latitude: 45.815, Longitude: 15.9819}, CountryCode: "HR"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("attributes read (-want +got):\n%s", diff)
	}
	for _, e := range b.Entities {
		if err := e.Validate(); err != nil {
			t.Errorf("%s: %v", e.ID, err)
		}
	}
}
