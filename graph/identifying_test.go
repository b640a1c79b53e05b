package graph_test

// The identifying fields of people, organizations, places and documents
// (issue 25): written and read back through GraphQL, refused when bad,
// searched by identifier, and places listed by distance.

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const identifyingFields = `id kind name
  ... on Person { nationality birthDate deathDate birthPlace gender identifiers { type value issuer } address }
  ... on Organization { category jurisdiction foundingDate dissolutionDate identifiers { type value issuer } address }
  ... on Place { coordinates { latitude longitude } countryCode }
  ... on Document { language }`

// TestIdentifyingFields: every identifying field of each kind that
// carries it is written by upsertEntity and read back by entity as it was
// written; a second upsert without them clears them.
func TestIdentifyingFields(t *testing.T) {
	t.Parallel()
	f := newBareFixture(t)
	inputs := []map[string]any{
		{"id": f.id("person"), "kind": "PERSON", "name": "A person", "nationality": "SY",
			"birthDate": "1970-03", "deathDate": "2013-08-21", "birthPlace": "Daraa, Syria", "gender": "MALE",
			"identifiers": []any{
				map[string]any{"type": "PASSPORT", "value": "N0123456", "issuer": "SY"},
				map[string]any{"type": "SERVICE_NUMBER", "value": "4471", "issuer": nil},
			},
			"address": "12 Rue X\nDamascus"},
		{"id": f.id("org"), "kind": "ORGANIZATION", "name": "An organization", "category": "COMPANY",
			"jurisdiction": "GB", "foundingDate": "1981", "dissolutionDate": "2016-05",
			"identifiers": []any{map[string]any{"type": "REGISTRATION_NUMBER", "value": "01234567", "issuer": "Companies House"}},
			"address":     "1 Strand, London"},
		{"id": f.id("place"), "kind": "PLACE", "name": "A place", "coordinates": map[string]any{"latitude": 46.2044, "longitude": 6.1432},
			"countryCode": "CH"},
		{"id": f.id("doc"), "kind": "DOCUMENT", "name": "A document", "language": "ar"},
	}
	read := `query($id: ID!) { entity(id: $id) { ` + identifyingFields + ` } }`
	for _, in := range inputs {
		res := f.h.Post(`mutation($in: EntityInput!) { upsertEntity(input: $in) { `+identifyingFields+` } }`,
			map[string]any{"in": withSource(f, in)})
		if len(res.Errors) > 0 {
			t.Fatalf("upsert %s: %s", in["id"], res.Raw)
		}
		got := f.h.MustPost(read, map[string]any{"id": in["id"]}).Data["entity"].(map[string]any)
		for k, want := range in {
			if k == "dataset" || k == "sourceIds" {
				continue
			}
			if diff := cmp.Diff(want, got[k]); diff != "" {
				t.Errorf("%s.%s read back (-written +read):\n%s", in["id"], k, diff)
			}
		}
	}
	// Upsert sends the whole entity: left out, the fields are cleared.
	res := f.upsert(t, map[string]any{"id": f.id("person"), "kind": "PERSON", "name": "A person"})
	if len(res.Errors) > 0 {
		t.Fatal(res.Raw)
	}
	got := f.h.MustPost(read, map[string]any{"id": f.id("person")}).Data["entity"].(map[string]any)
	for _, k := range []string{"birthDate", "deathDate", "birthPlace", "gender", "address"} {
		if got[k] != nil {
			t.Errorf("%s = %v after an upsert without it, want null", k, got[k])
		}
	}
	if ids := got["identifiers"].([]any); len(ids) != 0 {
		t.Errorf("identifiers = %v after an upsert without them, want []", ids)
	}
}

func withSource(f fixture, in map[string]any) map[string]any {
	out := map[string]any{"dataset": f.ds, "sourceIds": []string{f.src}}
	for k, v := range in {
		out[k] = v
	}
	return out
}

// TestIdentifyingFieldsRefused: a bad value of each field is refused with
// BAD_USER_INPUT and a message that names it, and writes nothing.
func TestIdentifyingFieldsRefused(t *testing.T) {
	t.Parallel()
	f := newBareFixture(t)
	person := func(k string, v any) map[string]any {
		return map[string]any{"id": f.id("refused"), "kind": "PERSON", "name": "Refused", k: v}
	}
	for _, tt := range []struct {
		name string
		in   map[string]any
		want string
	}{
		{"death before birth", map[string]any{"id": f.id("refused"), "kind": "PERSON", "name": "Refused",
			"birthDate": "1970", "deathDate": "1969"}, "is before"},
		{"birth date not a date", person("birthDate", "1970-02-30"), "1970-02-30"},
		// GraphQL's enums take the exact name; another case is bad input
		// that lists the values and suggests the nearest, for every enum.
		{"gender in lower case", person("gender", "male"), `unknown Gender \"male\"; did you mean \"MALE\"? (one of MALE, FEMALE, OTHER)","path":["upsertEntity","input","gender"],"extensions":{"accepted":["MALE","FEMALE","OTHER"],"code":"BAD_USER_INPUT","field":"gender","suggestion":"MALE"}`},
		{"kind in lower case", person("kind", "person"), `unknown EntityKind \"person\"; did you mean \"PERSON\"? (one of PERSON, ORGANIZATION, EVENT, DOCUMENT, PLACE)`},
		{"identifier type unknown", person("identifiers", []any{map[string]any{"type": "DNA", "value": "x"}}), `IdentifierType`},
		{"identifier type unknown, at its field", person("identifiers", []any{map[string]any{"type": "DNA", "value": "x"}}), `"field":"identifiers[0].type"`},
		{"identifier without a value", person("identifiers", []any{map[string]any{"type": "PASSPORT", "value": ""}}),
			"identifiers[0].value is required"},
		{"identifier repeated", person("identifiers", []any{map[string]any{"type": "PASSPORT", "value": "N1"},
			map[string]any{"type": "PASSPORT", "value": "N1"}}), "identifiers[1] repeats PASSPORT"},
		{"identifiers on a place", map[string]any{"id": f.id("refused"), "kind": "PLACE", "name": "Refused",
			"identifiers": []any{map[string]any{"type": "OTHER", "value": "x"}}}, "a Place has no identifiers"},
		{"coordinates on a person", person("coordinates", map[string]any{"latitude": 1, "longitude": 2}), "a Person has no coordinates"},
		{"latitude out of range", map[string]any{"id": f.id("refused"), "kind": "PLACE", "name": "Refused",
			"coordinates": map[string]any{"latitude": 91.0, "longitude": 0.0}}, "coordinates.latitude 91 is not between -90 and 90"},
		{"jurisdiction not a code", map[string]any{"id": f.id("refused"), "kind": "ORGANIZATION", "name": "Refused",
			"jurisdiction": "Syria"}, "jurisdiction"},
		{"language not a code", map[string]any{"id": f.id("refused"), "kind": "DOCUMENT", "name": "Refused",
			"language": "Arabic"}, "ISO 639-1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := f.upsert(t, tt.in)
			if len(res.Errors) == 0 || !strings.Contains(res.Raw, "BAD_USER_INPUT") && !strings.Contains(res.Raw, "GRAPHQL_VALIDATION_FAILED") ||
				!strings.Contains(res.Raw, tt.want) {
				t.Errorf("got %s, want a refusal that says %q", res.Raw, tt.want)
			}
		})
	}
	if got := f.h.MustPost(`query($id: ID!) { entity(id: $id) { id } }`, map[string]any{"id": f.id("refused")}).Data["entity"]; got != nil {
		t.Errorf("a refused write wrote %v", got)
	}
}

// TestSearchByIdentifier: a passport number finds its person, ranked first
// and matched on the identifier, before an entity whose description
// mentions it; a registry number of two words finds its organization.
func TestSearchByIdentifier(t *testing.T) {
	t.Parallel()
	f := newBareFixture(t)
	for _, in := range []map[string]any{
		{"id": f.id("holder"), "kind": "PERSON", "name": "Samir Haddad",
			"identifiers": []any{map[string]any{"type": "PASSPORT", "value": "N0123456", "issuer": "SY"}}},
		{"id": f.id("mention"), "kind": "DOCUMENT", "name": "A list of passports", "description": "Mentions N0123456 twice: N0123456."},
		{"id": f.id("company"), "kind": "ORGANIZATION", "name": "Levant Trading",
			"identifiers": []any{map[string]any{"type": "REGISTRATION_NUMBER", "value": "HRB 98765"}}},
	} {
		if res := f.upsert(t, in); len(res.Errors) > 0 {
			t.Fatal(res.Raw)
		}
	}
	search := `query($text: String!, $ds: String!) { search(text: $text, datasets: [$ds]) { edges { matchedField node { id } } } }`
	for text, want := range map[string][]string{
		"N0123456":  {f.id("holder") + " IDENTIFIER", f.id("mention") + " DESCRIPTION"},
		"n0123456":  {f.id("holder") + " IDENTIFIER", f.id("mention") + " DESCRIPTION"},
		"HRB 98765": {f.id("company") + " IDENTIFIER"},
	} {
		data := f.h.MustPost(search, map[string]any{"text": text, "ds": f.ds}).Data
		var got []string
		for _, e := range data["search"].(map[string]any)["edges"].([]any) {
			edge := e.(map[string]any)
			got = append(got, edge["node"].(map[string]any)["id"].(string)+" "+edge["matchedField"].(string))
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("search %q (-want +got):\n%s", text, diff)
		}
	}
}

// TestEntitiesNear: the near filter lists the places within its radius
// (and counts them), of the filter's datasets and kinds, and refuses a
// radius or point out of range.
func TestEntitiesNear(t *testing.T) {
	t.Parallel()
	f := newBareFixture(t)
	for _, in := range []map[string]any{
		{"id": f.id("geneva"), "kind": "PLACE", "name": "Geneva", "coordinates": map[string]any{"latitude": 46.2044, "longitude": 6.1432}},
		{"id": f.id("lausanne"), "kind": "PLACE", "name": "Lausanne", "coordinates": map[string]any{"latitude": 46.5197, "longitude": 6.6323}},
		{"id": f.id("the-hague"), "kind": "PLACE", "name": "The Hague", "coordinates": map[string]any{"latitude": 52.0705, "longitude": 4.3007}},
		{"id": f.id("nowhere"), "kind": "PLACE", "name": "A place without coordinates"},
		{"id": f.id("person"), "kind": "PERSON", "name": "A person"},
	} {
		if res := f.upsert(t, in); len(res.Errors) > 0 {
			t.Fatal(res.Raw)
		}
	}
	list := `query($near: NearInput!, $ds: String!, $kinds: [EntityKind!]) {
  entities(filter: {datasets: [$ds], near: $near, kinds: $kinds}, orderBy: {field: NAME}) { totalCount edges { node { id } } } }`
	near := func(km float64) map[string]any {
		return map[string]any{"latitude": 46.2044, "longitude": 6.1432, "kilometres": km}
	}
	for _, tt := range []struct {
		name  string
		near  map[string]any
		kinds []string
		want  []string
	}{
		{"10 km of Geneva", near(10), nil, []string{f.id("geneva")}},
		{"100 km of Geneva", near(100), nil, []string{f.id("geneva"), f.id("lausanne")}},
		{"1000 km of Geneva", near(1000), nil, []string{f.id("geneva"), f.id("lausanne"), f.id("the-hague")}},
		{"people only", near(1000), []string{"PERSON"}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			data := f.h.MustPost(list, map[string]any{"near": tt.near, "ds": f.ds, "kinds": tt.kinds}).Data
			conn := data["entities"].(map[string]any)
			var got []string
			for _, e := range conn["edges"].([]any) {
				got = append(got, e.(map[string]any)["node"].(map[string]any)["id"].(string))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if n := conn["totalCount"].(float64); int(n) != len(tt.want) {
				t.Errorf("totalCount %v, want %d", n, len(tt.want))
			}
		})
	}
	for _, tt := range []struct {
		near map[string]any
		want string
	}{
		{near(0), "filter.near.kilometres 0 is not above 0 and at most 1000"},
		{near(1001), "filter.near.kilometres 1001 is not above 0 and at most 1000"},
		{map[string]any{"latitude": 95.0, "longitude": 0.0, "kilometres": 1.0}, "filter.near.latitude 95 is not between -90 and 90"},
		{map[string]any{"latitude": 0.0, "longitude": -181.0, "kilometres": 1.0}, "filter.near.longitude -181 is not between -180 and 180"},
	} {
		res := f.h.Post(list, map[string]any{"near": tt.near, "ds": f.ds})
		if !strings.Contains(res.Raw, "BAD_USER_INPUT") || !strings.Contains(res.Raw, tt.want) {
			t.Errorf("near %v: %s, want BAD_USER_INPUT %q", tt.near, res.Raw, tt.want)
		}
	}
}
