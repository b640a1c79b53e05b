package graph_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/graph/generated"
	"github.com/casegraph/casegraph/oidc/oidctest"
	"github.com/casegraph/casegraph/server"
	"github.com/casegraph/casegraph/server/servertest"
	"github.com/casegraph/casegraph/watch"
)

// The generated access matrix: every root field of the schema (queries,
// mutations, subscriptions) and every route of the server, enumerated from
// the schema and the route table, as every kind of caller, over a fixture
// of two datasets with relations crossing them and a protected person in
// each. A field or route without a cell fails the test. Each cell checks
//   - its outcome (an answer that shows what the caller may read, or the
//     refusal the caller should get);
//   - that nothing the caller may not read appears anywhere in the body:
//     names, aliases, real ids, quotes, roles, dataset names, also inside
//     base64 cursors and ids (the request's own values are taken out first:
//     an error may repeat what the caller sent);
//   - for a write that is refused, that it changed nothing, the audit log
//     included.

// matrixCaller is a kind of caller and what it may do.
type matrixCaller struct {
	name           string
	token          string
	readA, readB   bool
	writeA, writeB bool
	cleared, admin bool
	signedOut      bool // its credentials are refused (401)
}

func (c matrixCaller) writer() bool { return c.writeA || c.writeB }

// matrixFixture is the fixture's ids and the markers of what each part of
// it shows.
type matrixFixture struct {
	h                     *servertest.Harness
	a, b                  string // the datasets
	srcA, srcB            string
	nice, report, org     string // A's person and document, B's organization
	protA, protB          string // the protected people (real ids)
	authored, cross, relB string // relations: A's, A's to B's org, B's to its witness
	savedA                string
	view                  string // a public view of both datasets (accessmatrix_view_test.go)
	feedStart             string // a watch cursor before the fixture
	// markers by what may read them
	markA, markB, markCross, markProtA, markProtB []string
}

// forbidden lists the markers caller c may not see.
func (f matrixFixture) forbidden(c matrixCaller) []string {
	var out []string
	if !c.readA {
		out = append(out, f.markA...)
		out = append(out, f.markProtA...)
	}
	if !c.readB {
		out = append(out, f.markB...)
		out = append(out, f.markProtB...)
	}
	if !c.readA || !c.readB {
		out = append(out, f.markCross...)
	}
	if !c.cleared {
		out = append(out, f.markProtA...)
		out = append(out, f.markProtB...)
	}
	return out
}

func newMatrixFixture(t *testing.T, idp *oidctest.Provider) matrixFixture {
	t.Helper()
	a, b := cyphertest.Dataset(t), cyphertest.Dataset(t)
	// Budgets of minutes, not the server's 10 s a path search and 15 s a
	// request: each field's first cell asks its statement for the first
	// time on a fresh database, and under CI's load the planning of some
	// (datasetTimeline's, of a branch a relation type) ran past 15 s. The
	// matrix is about who is shown what, not how fast.
	//
	// The store pages from the :RelationId registry every entity of more
	// than matrixHubDegree relations, as it pages a hub of thousands: the
	// fixture's entities of two relations (A's person and document, B's
	// organization) are read that way, those of one (the protected
	// witnesses) by the expansion, so that each cell reads both.
	h := servertest.New(t, servertest.Options{
		Key:         &casegraph.NewAPIKey{Name: "matrix admin", Role: casegraph.RoleAdmin, Cleared: true},
		PathTimeout: 2 * time.Minute,
		HubDegree:   matrixHubDegree,
		Config: func(c *server.Config) {
			c.RequestTimeout = 3 * time.Minute
			c.Tokens = idp.Verifier
			c.Anonymous = []string{a}
			// So that the route table holds the CORS preflights too.
			c.CORSOrigins = []string{"https://explorer.example.org"}
		},
	})
	head, err := h.Store.ChangeHead(casegraph.AsOperator(t.Context()))
	if err != nil {
		t.Fatal(err)
	}
	f := matrixFixture{h: h, a: a, b: b, srcA: a + ":src", srcB: b + ":src",
		nice: a + ":nice", report: a + ":report", org: b + ":org",
		protA: a + ":qz-alpha-witness", protB: b + ":qz-bravo-witness",
		authored: a + ":authored", cross: a + ":cross", relB: b + ":employs",
		savedA: a + "-names", feedStart: watch.Cursor(head)}
	f.markA = []string{a, "Nyx Alphanice", "Alphareport", "alphaquote", "alpharole"}
	f.markB = []string{b, "Bravorg", "bravoquote", "bravorole"}
	f.markCross = []string{"crossquote", "crossrole"}
	f.markProtA = []string{"qz-alpha-witness", "Ysolde Alphawitness", "Kestrel Alpha", "alphawitnessbio", "alphawitnessquote"}
	f.markProtB = []string{"qz-bravo-witness", "Oriel Bravowitness", "Heron Bravo", "bravowitnessbio", "bravowitnessquote"}

	for _, s := range []struct{ id, ds string }{{f.srcA, a}, {f.srcB, b}} {
		h.MustPost(`mutation S($in: SourceInput!) { upsertSource(input: $in) { id } }`, map[string]any{"in": map[string]any{"id": s.id, "title": "Source of " + s.ds, "dataset": s.ds}})
	}
	for _, e := range []map[string]any{
		{"id": f.nice, "kind": "PERSON", "name": "Nyx Alphanice", "dataset": a, "sourceIds": []string{f.srcA}},
		{"id": f.report, "kind": "DOCUMENT", "name": "The Alphareport", "dataset": a, "sourceIds": []string{f.srcA}},
		{"id": f.protA, "kind": "PERSON", "name": "Ysolde Alphawitness", "aliases": []string{"Kestrel Alpha"}, "description": "alphawitnessbio", "protected": true, "dataset": a, "sourceIds": []string{f.srcA}},
		{"id": f.org, "kind": "ORGANIZATION", "name": "The Bravorg", "dataset": b, "sourceIds": []string{f.srcB}},
		{"id": f.protB, "kind": "PERSON", "name": "Oriel Bravowitness", "aliases": []string{"Heron Bravo"}, "description": "bravowitnessbio", "protected": true, "dataset": b, "sourceIds": []string{f.srcB}},
	} {
		h.MustPost(upsert, map[string]any{"in": e})
	}
	for _, r := range []map[string]any{
		{"id": f.authored, "type": "AUTHORED", "from": f.nice, "to": f.report, "dataset": a, "sourceIds": []string{f.srcA}, "role": "alpharole", "quote": "alphaquote", "startDate": "2014-01"},
		{"id": a + ":witness", "type": "AUTHORED", "from": f.protA, "to": f.report, "dataset": a, "sourceIds": []string{f.srcA}, "quote": "alphawitnessquote"},
		{"id": f.cross, "type": "MEMBER_OF", "from": f.nice, "to": f.org, "dataset": a, "sourceIds": []string{f.srcA}, "role": "crossrole", "quote": "crossquote"},
		{"id": f.relB, "type": "EMPLOYED_BY", "from": f.protB, "to": f.org, "dataset": b, "sourceIds": []string{f.srcB}, "role": "bravorole", "quote": "bravowitnessquote"},
	} {
		h.MustPost(link, map[string]any{"in": r})
	}
	checkHubs(t, h, map[string]bool{f.nice: true, f.report: true, f.org: true, f.protA: false, f.protB: false})
	h.MustPost(`mutation($in: SaveQueryInput!) { saveQuery(input: $in) { name } }`, map[string]any{"in": map[string]any{
		"name": f.savedA, "title": "Names", "document": `query($id: ID!) { entity(id: $id) { name } }`,
		"defaultVariables": map[string]any{"id": f.nice}, "visibility": "DATASETS", "datasets": []string{a},
		"tags": []string{f.savedA}}})
	f.view = saveMatrixView(t, f)
	return f
}

// matrixHubDegree is the matrix store's hub degree (newMatrixFixture).
const matrixHubDegree = 1

// checkHubs fails the test unless each entity's degree is over
// matrixHubDegree when want says it is a hub, and not otherwise.
func checkHubs(t *testing.T, h *servertest.Harness, want map[string]bool) {
	t.Helper()
	for id, hub := range want {
		res := h.MustPost(`query($id: ID!) { entity(id: $id) { relations { totalCount } } }`, map[string]any{"id": id})
		entity, _ := res.Data["entity"].(map[string]any)
		relations, _ := entity["relations"].(map[string]any)
		n, _ := relations["totalCount"].(float64)
		if (int(n) > matrixHubDegree) != hub {
			t.Fatalf("%s has %v relations: read as a hub (over %d) %t, want %t", id, n, matrixHubDegree, !hub, hub)
		}
	}
}

func matrixCallers(t *testing.T, f matrixFixture, idp *oidctest.Provider) []matrixCaller {
	t.Helper()
	h := f.h
	key := func(name string, role casegraph.Role, cleared bool, ds ...string) string {
		return h.Key(casegraph.NewAPIKey{Name: "matrix " + name, Role: role, Datasets: ds, Cleared: cleared})
	}
	revoked := key("revoked", casegraph.RoleReader, false, f.a)
	id, _, _ := casegraph.ParseKeyToken(revoked)
	if _, err := h.Store.RevokeAPIKey(casegraph.AsOperator(t.Context()), id); err != nil {
		t.Fatal(err)
	}
	return []matrixCaller{
		{name: "anonymous (reads A)", readA: true},
		{name: "revoked key", token: revoked, signedOut: true},
		{name: "expired JWT", token: idp.Token("matrix-expired", "editor", []string{f.a}, -time.Hour, ""), signedOut: true},
		{name: "reader A", token: key("reader A", casegraph.RoleReader, false, f.a), readA: true},
		{name: "reader A (JWT)", token: idp.Token("matrix-reader", "reader", []string{f.a}, time.Hour, ""), readA: true},
		{name: "editor A", token: key("editor A", casegraph.RoleEditor, false, f.a), readA: true, writeA: true},
		{name: "cleared editor A", token: key("cleared editor A", casegraph.RoleEditor, true, f.a), readA: true, writeA: true, cleared: true},
		{name: "reader B", token: key("reader B", casegraph.RoleReader, false, f.b), readB: true},
		{name: "editor B", token: key("editor B", casegraph.RoleEditor, false, f.b), readB: true, writeB: true},
		{name: "reader of all", token: key("reader all", casegraph.RoleReader, false, casegraph.AllDatasets), readA: true, readB: true},
		{name: "uncleared admin", token: key("uncleared admin", casegraph.RoleAdmin, false), readA: true, readB: true, writeA: true, writeB: true, admin: true, cleared: true},
		{name: "cleared admin", token: h.Token, readA: true, readB: true, writeA: true, writeB: true, admin: true, cleared: true},
	}
}

// matrixRequest is what a cell sends.
type matrixRequest struct {
	query  string         // a GraphQL document (POST /graphql), or
	method string         // an HTTP request to path
	path   string         //
	body   string         //
	vars   map[string]any // the document's variables
}

// matrixOp is one cell's row: what to send as caller c, and what c must get.
type matrixOp struct {
	send func(t *testing.T, c matrixCaller, i int) matrixRequest
	// want is the outcome c must get: "ok" (no error, and shows in the
	// body when set), "hidden" (no error, shows absent), or an error code
	// (several may be allowed, "|"-separated).
	want  func(c matrixCaller) string
	shows string
	// showsFor, when set, is the marker for caller c in place of shows:
	// what an answer about the caller itself must say of it.
	showsFor func(c matrixCaller) string
	// write says a refused cell must leave both datasets and the audit
	// log as they were; kept, when set, checks what the cell targeted
	// (a victim made for it) is still there after a refusal.
	write bool
	kept  func(t *testing.T, i int) bool
	// open says the route needs no principal: credentials that would be
	// refused elsewhere are not even read.
	open bool
	// transfer says the server runs only a few at once (an export):
	// the cell runs alone, or it would be BUSY beside another.
	transfer bool
}

func TestGeneratedAccessMatrix(t *testing.T) {
	t.Parallel()
	idp := oidctest.New(t)
	f := newMatrixFixture(t, idp)
	callers := matrixCallers(t, f, idp)
	schema := generated.NewExecutableSchema(generated.Config{}).Schema()
	fields, routes := withViewCells(t, schema, withEdgeCells(t, schema, matrixFields(t, f), f), f), matrixRoutes(f)
	// Every root field of the schema has a cell; every cell a field.
	covered := map[string]bool{}
	for _, root := range []string{"Query", "Mutation", "Subscription"} {
		for _, fd := range schema.Types[root].Fields {
			name := root + "." + fd.Name
			covered[name] = true
			if _, ok := fields[name]; !ok {
				t.Errorf("%s has no cell in the access matrix: add it to matrixFields", name)
			}
		}
	}
	for name := range fields {
		if base, _, _ := strings.Cut(name, " ("); !covered[base] {
			t.Errorf("matrix cell %s names no field of the schema", name)
		}
	}
	// Every route of the server's table has a cell.
	routeNames := map[string]bool{}
	for _, r := range f.h.Routes {
		name := r.Method + " " + r.Pattern
		routeNames[name] = true
		if _, ok := routes[name]; !ok {
			t.Errorf("route %s has no cell in the access matrix: add it to matrixRoutes", name)
		}
	}
	for name := range routes {
		if base, _, _ := strings.Cut(name, " ("); !routeNames[base] {
			t.Errorf("matrix cell %s names no route of the server", name)
		}
	}
	if t.Failed() {
		return
	}

	names := slices.Sorted(func(yield func(string) bool) {
		for n := range fields {
			if !yield(n) {
				return
			}
		}
		for n := range routes {
			if !yield(n) {
				return
			}
		}
	})
	op := casegraph.AsOperator(t.Context())
	state := func() string {
		var b strings.Builder
		for _, ds := range []string{f.a, f.b} {
			b.WriteString(strings.Join(cyphertest.Snapshot(t, f.h.Store, ds), "\n"))
			n, err := f.h.Store.CountChanges(op, casegraph.ChangeFilter{Dataset: ds})
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "\nchanges of %s: %d\n", ds, n)
		}
		return b.String()
	}
	cells := 0
	for i, name := range names {
		o, ok := fields[name]
		if !ok {
			o = routes[name]
		}
		for j, c := range callers {
			cells++
			cell := i*len(callers) + j
			t.Run(name+"/"+c.name, func(t *testing.T) {
				// A writing cell runs alone (its refusal check sees no other
				// cell's writes), as does a transfer; the others, side by
				// side after them.
				if !o.write && !o.transfer {
					t.Parallel()
				}
				req := o.send(t, c, cell)
				var before string
				if o.write {
					before = state()
				}
				status, body := sendCell(t, f.h, c, req)
				shows := o.shows
				if o.showsFor != nil {
					shows = o.showsFor(c)
				}
				got := cellOutcome(status, body, shows)
				want := "401"
				if !c.signedOut || o.open {
					want = o.want(c)
				}
				if !slices.Contains(strings.Split(want, "|"), got) {
					t.Errorf("got %s, want %s: %.600s", got, want, body)
				}
				if leaked := leaks(body, req, f.forbidden(c)); len(leaked) > 0 {
					t.Errorf("the answer shows what %s may not read: %q in %.600s", c.name, leaked, body)
				}
				if o.write && got != "ok" {
					if after := state(); after != before {
						t.Errorf("a refused write (%s) changed the graph or the audit log", got)
					}
					if o.kept != nil && !o.kept(t, cell) {
						t.Errorf("a refused write (%s) removed what it targeted", got)
					}
				}
			})
		}
	}
	t.Logf("%d cells: %d fields and routes x %d callers", cells, len(names), len(callers))
}
