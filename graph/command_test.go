package graph_test

import (
	"strings"
	"testing"

	casegraph "github.com/casegraph/casegraph"
)

// TestCommandNarrowSelection: whoWasInCommand, asked for names only by a
// caller without clearance, reads its answer in one statement, with no
// sources when none are selected and the sources when they are (of the
// relations only, or of the entities too), and the
// protected commander redacted as everywhere: neither his name nor his
// id, post or rank shows.
func TestCommandNarrowSelection(t *testing.T) {
	t.Parallel()
	f := newProtectedFixture(t)
	for _, in := range []map[string]any{
		{"id": f.id("c1-qx7-witness-zulu"), "type": "COMMANDS", "from": f.witness, "to": f.id("agency"), "dataset": f.ds,
			"post": "handler-post-qx7", "rank": "field-rank-qx7", "startDate": "2010"},
		{"id": f.id("c2"), "type": "PARTICIPATED_IN", "from": f.id("agency"), "to": f.id("camp"), "dataset": f.ds, "startDate": "2012"},
	} {
		if res := f.link(t, in); len(res.Errors) > 0 {
			t.Fatal(res.Raw)
		}
	}
	reader := f.h.Key(casegraph.NewAPIKey{Name: "reader", Role: casegraph.RoleReader, Datasets: []string{f.ds}})
	const narrow = `query($id: ID!) { whoWasInCommand(incidentId: $id) { people { person { id name } }
  units { unit { id name } chain { unit { commanders { entity { id name redacted } relation { id from { id } post rank role } } } } } } }`
	const cited = `query($id: ID!) { whoWasInCommand(incidentId: $id) { units { chain { unit {
  commanders { entity { id name sources { id } } relation { id sources { id title } } } } } } } }`
	vars := map[string]any{"id": f.id("camp")}
	f.h.PostAs(reader, `{ relationTypes { type } }`, nil) // the key, looked up once
	trips := func(doc string) (int64, string) {
		before := f.h.Store.RoundTrips()
		res := f.h.PostAs(reader, doc, vars)
		if len(res.Errors) > 0 {
			t.Fatalf("%s", res.Raw)
		}
		return f.h.Store.RoundTrips() - before, string(res.Raw)
	}
	n, raw := trips(narrow)
	for _, secret := range f.secrets {
		if strings.Contains(raw, secret) {
			t.Errorf("the narrow answer shows %q: %s", secret, raw)
		}
	}
	if !strings.Contains(raw, `"name":"`+casegraph.RedactedName+`","redacted":true`) || !strings.Contains(raw, `"post":null,"rank":null`) {
		t.Errorf("the commander is not redacted as everywhere: %s", raw)
	}
	m, raw := trips(cited)
	if !strings.Contains(raw, `"title":"The article"`) {
		t.Errorf("the sources selected are missing: %s", raw)
	}
	const hops = `query($id: ID!) { whoWasInCommand(incidentId: $id) { units { chain { unit {
  commanders { entity { id name } relation { id sources { id title } } } } } } } }`
	k, raw := trips(hops)
	if !strings.Contains(raw, `"title":"The article"`) {
		t.Errorf("the relations' sources are missing: %s", raw)
	}
	if n != 1 || m != 1 || k != 1 {
		t.Errorf("round trips: %d without sources, %d with them, %d with the relations' only; want one statement each", n, m, k)
	}
}
