package graph_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/auth/authtest"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server"
	"github.com/casegraph/casegraph/server/servertest"
)

// TestAccessMatrix runs every kind of operation as every kind of
// principal, against dataset A, and checks each cell's outcome: "ok" (A's
// data is there), "hidden" (an answer without A's data), an error code, or
// 401. Refused writes change nothing.
func TestAccessMatrix(t *testing.T) {
	t.Parallel()
	idp := authtest.New(t)
	tokens := func(role string, datasets []string, ttl time.Duration) string {
		return idp.Token("matrix-"+role, role, datasets, ttl, "")
	}
	h := servertest.New(t, servertest.Options{Config: func(c *server.Config) { c.Tokens = idp.Verifier }})
	a, b := cyphertest.Dataset(t), cyphertest.Dataset(t)
	src := a + ":src"
	h.MustPost(`mutation S($in: SourceInput!) { upsertSource(input: $in) { id } }`, map[string]any{"in": map[string]any{"id": src, "title": "A's source", "dataset": a}})
	for _, e := range []struct{ id, kind, name string }{{"nice", "PERSON", "Sir Geoffrey Nice Matrix"}, {"report", "DOCUMENT", "The Matrix report"}} {
		h.MustPost(upsert, map[string]any{"in": map[string]any{"id": a + ":" + e.id, "kind": e.kind, "name": e.name, "dataset": a, "sourceIds": []string{src}}})
	}
	h.MustPost(link, map[string]any{"in": map[string]any{"id": a + ":authored", "type": "AUTHORED", "from": a + ":nice", "to": a + ":report", "dataset": a, "sourceIds": []string{src}, "startDate": "2014-01"}})
	h.MustPost(`mutation($in: SaveQueryInput!) { saveQuery(input: $in) { name } }`, map[string]any{"in": map[string]any{
		"name": a + "-names", "title": "Names", "document": `query($id: ID!) { entity(id: $id) { name } }`,
		"defaultVariables": map[string]any{"id": a + ":nice"}, "visibility": "DATASETS", "datasets": []string{a}}})
	h.MustPost(`mutation($in: SaveQueryInput!) { saveQuery(input: $in) { name } }`, map[string]any{"in": map[string]any{
		"name": a + "-list", "title": "List", "document": `query($ds: [String!]) { entities(filter: {datasets: $ds}) { edges { node { name } } } }`,
		"defaultVariables": map[string]any{"ds": []string{a}}, "visibility": "DATASETS", "datasets": []string{a}}})

	key := func(name string, role casegraph.Role, ds ...string) string {
		return h.Key(casegraph.NewAPIKey{Name: name, Role: role, Datasets: ds})
	}
	revoked := key("revoked", casegraph.RoleAdmin)
	id, _, _ := casegraph.ParseKeyToken(revoked)
	if _, err := h.Store.RevokeAPIKey(casegraph.AsOperator(t.Context()), id); err != nil {
		t.Fatal(err)
	}
	principals := []struct{ name, token string }{
		{"anonymous", ""},
		{"revoked key", revoked},
		{"expired JWT", tokens("editor", []string{a}, -time.Hour)},
		{"reader A", key("reader A", casegraph.RoleReader, a)},
		{"reader A (JWT)", tokens("reader", []string{a}, time.Hour)},
		{"editor A", key("editor A", casegraph.RoleEditor, a)},
		{"editor B", key("editor B", casegraph.RoleEditor, b)},
		{"admin", h.Token},
	}
	type op struct {
		name, query string // a query, or "GET /path" for an HTTP route
		vars        map[string]any
		shows       string // a string in the answer that only A's data has
	}
	nice := a + ":nice"
	ops := []op{
		{"entity", `query($id: ID!) { entity(id: $id) { name } }`, map[string]any{"id": nice}, "Matrix"},
		{"entities", `query($ds: [String!]) { entities(filter: {datasets: $ds}) { edges { node { name } } } }`, map[string]any{"ds": []string{a}}, "Matrix"},
		{"search", `{ search(text: "Geoffrey Nice Matrix") { edges { node { name } } } }`, nil, "Matrix"},
		{"relations", `query($id: ID!) { entity(id: $id) { relations(first: 5) { totalCount edges { node { id } } } } }`, map[string]any{"id": nice}, ":authored"},
		{"timeline", `query($id: ID!) { timeline(id: $id) { __typename } }`, map[string]any{"id": nice}, "__typename"},
		{"shortestPath", `query($x: ID!, $y: ID!) { shortestPath(from: $x, to: $y) { length } }`, map[string]any{"x": nice, "y": a + ":report"}, `"length":1`},
		{"neighborhood", `query($id: ID!) { neighborhood(id: $id) { nodes { name } } }`, map[string]any{"id": nice}, "Matrix"},
		{"savedQuery", `query($n: String!) { savedQuery(name: $n) { name } }`, map[string]any{"n": a + "-names"}, a + "-names"},
		{"runSavedQuery", `query($n: String!) { runSavedQuery(name: $n) { data } }`, map[string]any{"n": a + "-names"}, "Matrix"},
		{"changes", `query($ds: String) { changes(filter: {dataset: $ds}) { edges { node { operation } } } }`, map[string]any{"ds": a}, "upsertEntity"},
		{"upsertEntity", upsert, map[string]any{"in": map[string]any{"id": nice, "kind": "PERSON", "name": "Sir Geoffrey Nice Matrix", "dataset": a, "sourceIds": []string{src}}}, "Matrix"},
		{"link", link, map[string]any{"in": map[string]any{"id": a + ":authored", "type": "AUTHORED", "from": nice, "to": a + ":report", "dataset": a, "sourceIds": []string{src}, "startDate": "2014-01"}}, ":authored"},
		{"saveQuery", `mutation($in: SaveQueryInput!) { saveQuery(input: $in) { name } }`, map[string]any{"in": map[string]any{"name": a + "-mine", "title": "Mine", "document": "{ __typename }"}}, a + "-mine"},
		{"GET /queries JSON", "GET /queries/" + a + "-names", nil, "Matrix"},
		{"GET /queries CSV", "GET /queries/" + a + "-list?format=csv", nil, "Matrix"},
	}
	const U, OK, H, F, N = "401", "ok", "hidden", "FORBIDDEN", "NOT_FOUND"
	want := map[string][]string{ //  entity entities search relations timeline shortestPath neighborhood savedQuery run changes upsert link saveQuery GET-json GET-csv
		"anonymous":      {U, U, U, U, U, U, U, U, U, U, U, U, U, U, U},
		"revoked key":    {U, U, U, U, U, U, U, U, U, U, U, U, U, U, U},
		"expired JWT":    {U, U, U, U, U, U, U, U, U, U, U, U, U, U, U},
		"reader A":       {OK, OK, OK, OK, OK, OK, OK, OK, OK, F, F, F, F, OK, OK},
		"reader A (JWT)": {OK, OK, OK, OK, OK, OK, OK, OK, OK, F, F, F, F, OK, OK},
		"editor A":       {OK, OK, OK, OK, OK, OK, OK, OK, OK, OK, OK, OK, OK, OK, OK},
		// Editor B: A's entities are not there (paths and lookups by their
		// ids say NOT_FOUND), A's ids and saved query names are taken.
		"editor B": {H, H, H, H, N, N, N, N, N, H, "CONFLICT", N, "CONFLICT", N, N},
		"admin":    {OK, OK, OK, OK, OK, OK, OK, OK, OK, OK, OK, OK, OK, OK, OK},
	}
	before := cyphertest.Snapshot(t, h.Store, a)
	cells := 0
	for _, p := range principals {
		for i, o := range ops {
			cells++
			t.Run(p.name+"/"+o.name, func(t *testing.T) {
				var res servertest.Response
				if path, ok := strings.CutPrefix(o.query, "GET "); ok {
					res = h.GetAs(p.token, path)
				} else {
					res = h.PostAs(p.token, o.query, o.vars)
				}
				got := outcome(res, o.shows)
				if got != want[p.name][i] {
					t.Errorf("got %s, want %s: %s", got, want[p.name][i], res.Raw)
				}
			})
		}
	}
	if after := cyphertest.Snapshot(t, h.Store, a); strings.Join(before, "\n") != strings.Join(after, "\n") {
		t.Errorf("the matrix changed dataset A (its writes only rewrite what is there)")
	}
	if cells < 80 {
		t.Errorf("%d cells, want at least 80", cells)
	}
}

// outcome names what an answer was: 401, an error code, ok (it shows A's
// data) or hidden (it does not).
func outcome(res servertest.Response, shows string) string {
	switch {
	case res.Status == http.StatusUnauthorized:
		return "401"
	case len(res.Errors) > 0:
		return res.Code()
	case strings.Contains(res.Raw, shows):
		return "ok"
	}
	return "hidden"
}
