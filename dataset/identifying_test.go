package dataset_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

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

// TestIdentifyingFieldsNDJSON: a file with every identifying field
// imports and exports as it was written (identifiers as objects,
// coordinates as {latitude, longitude}).
func TestIdentifyingFieldsNDJSON(t *testing.T) {
	store := cyphertest.Store(t, cypher.Options{})
	ds := cyphertest.Dataset(t)
	want := identifyingLines(ds)
	b, err := dataset.Read(strings.NewReader(strings.Join(want, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), time.Minute)
	defer cancel()
	if _, err := dataset.Import(ctx, b, store, dataset.Options{}); err != nil {
		t.Fatal(err)
	}
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
		entity("Person", `"gender":"male"`),
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
		`line 6: gender "male" is not one of [MALE FEMALE OTHER]`,
		`line 7: identifiers[0].type "DNA" is not one of`,
		`line 8: not a valid record: json: unknown field "number"`,
		"line 9: not a valid record: json: cannot unmarshal string",
		"line 10: birthDate",
		`line 11: jurisdiction "gb" is not an ISO 3166-1 alpha-2 code`,
		`line 12: language "arabic" is not an ISO 639-1 code`,
		"line 13: a Place has no birthDate",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}
