package graph_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"sort"
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
	h := servertest.New(t, servertest.Options{
		Key: &casegraph.NewAPIKey{Name: "matrix admin", Role: casegraph.RoleAdmin, Cleared: true},
		Config: func(c *server.Config) {
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
	h.MustPost(`mutation($in: SaveQueryInput!) { saveQuery(input: $in) { name } }`, map[string]any{"in": map[string]any{
		"name": f.savedA, "title": "Names", "document": `query($id: ID!) { entity(id: $id) { name } }`,
		"defaultVariables": map[string]any{"id": f.nice}, "visibility": "DATASETS", "datasets": []string{a},
		"tags": []string{f.savedA}}})
	f.view = saveMatrixView(t, f)
	return f
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

// Outcome rules.
func readsA(c matrixCaller) string {
	if c.readA {
		return "ok"
	}
	return "hidden"
}

func findsA(c matrixCaller) string {
	if c.readA {
		return "ok"
	}
	return "NOT_FOUND"
}

func everyone(matrixCaller) string { return "ok" }

// writesA: readers are refused before anything is looked up; a writer of
// other datasets finds nothing of A's (or may not write into A).
func writesA(c matrixCaller) string {
	switch {
	case c.writeA:
		return "ok"
	case c.writer():
		return "FORBIDDEN|NOT_FOUND"
	}
	return "FORBIDDEN"
}

func editorsOfA(c matrixCaller) string {
	switch {
	case c.writeA:
		return "ok"
	case c.writer():
		return "NOT_FOUND|FORBIDDEN"
	}
	return "FORBIDDEN"
}

func admins(c matrixCaller) string {
	if c.admin {
		return "ok"
	}
	return "FORBIDDEN"
}

func gql(query string, vars map[string]any) func(*testing.T, matrixCaller, int) matrixRequest {
	return func(*testing.T, matrixCaller, int) matrixRequest { return matrixRequest{query: query, vars: vars} }
}

// matrixFields are the cells of the schema's root fields, by
// "Type.field".
func matrixFields(t *testing.T, f matrixFixture) map[string]matrixOp {
	h := f.h
	op := casegraph.AsOperator(t.Context())
	exists := func(id string) bool {
		found, err := h.Store.EntitiesByID(op, []string{id})
		if err != nil {
			t.Fatal(err)
		}
		return found[id].ID == id
	}
	// victim makes an entity of A for cell i to write to.
	victim := func(name string, i int) string {
		id := fmt.Sprintf("%s:victim-%s-%d", f.a, name, i)
		h.MustPost(upsert, map[string]any{"in": map[string]any{"id": id, "kind": "PERSON", "name": "Victim " + name, "dataset": f.a, "sourceIds": []string{f.srcA}}})
		return id
	}
	victims := map[int]string{} // the datasets of deleteDataset's cells
	victimID := func(name string, i int) string { return fmt.Sprintf("%s:victim-%s-%d", f.a, name, i) }
	ends := `id name aliases description ... on Entity { dataset }`
	rel := `id type role quote from { ` + ends + ` } to { ` + ends + ` }`
	around := `nodes { ` + ends + ` } relations { ` + rel + ` }`
	path := `length nodes { ` + ends + ` } steps { relation { ` + rel + ` } }`
	filterAll := map[string]any{"from": f.nice, "to": f.report}
	return map[string]matrixOp{
		"Query.entity":          {send: gql(`query($id: ID!) { entity(id: $id) { `+ends+` createdAt updatedAt relations(first: 10) { totalCount edges { cursor node { `+rel+` } } } } }`, map[string]any{"id": f.nice}), want: readsA, shows: "Nyx Alphanice"},
		"Query.entities":        {send: gql(`query($ds: [String!]) { entities(filter: {datasets: $ds}, first: 50) { totalCount edges { cursor node { `+ends+` } } } }`, map[string]any{"ds": []string{f.a}}), want: readsA, shows: "Nyx Alphanice"},
		"Query.search":          {send: gql(`{ search(text: "alphanice bravorg alphawitness bravowitness", first: 20) { edges { cursor node { `+ends+` } } } }`, nil), want: readsA, shows: "Nyx Alphanice"},
		"Query.suggest":         {send: gql(`{ suggest(prefix: "Nyx", first: 10) { text entity { name } } a: suggest(prefix: "Ysolde") { text entity { name } } b: suggest(prefix: "The Brav") { text entity { name } } }`, nil), want: readsA, shows: "Nyx Alphanice"},
		"Query.node":            {send: gql(`query($id: ID!) { node(id: $id) { id ... on Entity { name } } }`, map[string]any{"id": f.nice}), want: readsA, shows: "Nyx Alphanice"},
		"Query.nodes":           {send: gql(`query($ids: [ID!]!) { nodes(ids: $ids) { id ... on Entity { name } } }`, map[string]any{"ids": []string{f.nice, f.org, f.protA, f.protB}}), want: readsA, shows: "Nyx Alphanice"},
		"Query.relation":        {send: gql(`query($id: ID!) { relation(id: $id) { `+rel+` } }`, map[string]any{"id": f.authored}), want: readsA, shows: "alphaquote"},
		"Query.relationTypes":   {send: gql(`{ relationTypes { type label } }`, nil), want: everyone, shows: "AUTHORED"},
		"Query.timeline":        {send: gql(`query($id: ID!) { timeline(id: $id) { start end relation { `+rel+` } } }`, map[string]any{"id": f.nice}), want: findsA},
		"Query.datasetTimeline": {send: gql(`query($ds: [String!]!) { datasetTimeline(datasets: $ds, from: "2000", to: "2030") { __typename } }`, map[string]any{"ds": []string{f.a}}), want: func(matrixCaller) string { return "ok|NOT_FOUND" }},
		"Query.commandChain": {send: gql(`query($id: ID!) { commandChain(unitId: $id, at: "2014") { unit { unit { `+ends+` } commanders { entity { `+ends+` } relation { `+rel+` } } superiors { entity { `+ends+` } relation { `+rel+` } } } levels { units { unit { `+ends+` } } } } }`, map[string]any{"id": f.org}), want: func(c matrixCaller) string {
			if c.readB {
				return "ok"
			}
			return "NOT_FOUND"
		}, shows: "Bravorg"},
		// The fixture has no incident: A's document is not one, which only
		// a reader of A may learn.
		"Query.whoWasInCommand": {send: gql(`query($id: ID!) { whoWasInCommand(incidentId: $id) { incident { `+ends+` } units { unit { `+ends+` } } people { person { `+ends+` } } } }`, map[string]any{"id": f.report}), want: func(c matrixCaller) string {
			if c.readA {
				return "BAD_USER_INPUT"
			}
			return "NOT_FOUND"
		}},
		"Query.shortestPath":    {send: gql(`query($from: ID!, $to: ID!) { shortestPath(from: $from, to: $to) { `+path+` } }`, filterAll), want: findsA, shows: "alphaquote"},
		"Query.paths":           {send: gql(`query($from: ID!, $to: ID!) { paths(from: $from, to: $to, k: 3) { `+path+` } }`, filterAll), want: findsA, shows: "alphaquote"},
		"Query.pathExplanation": {send: gql(`query($from: ID!, $to: ID!) { pathExplanation(from: $from, to: $to) { __typename } }`, filterAll), want: findsA},
		"Query.neighborhood":    {send: gql(`query($id: ID!) { neighborhood(id: $id, depth: 2) { `+around+` } }`, map[string]any{"id": f.report}), want: findsA, shows: "Nyx Alphanice"},
		"Query.connections":     {send: gql(`query($ids: [ID!]!) { connections(ids: $ids) { `+around+` } }`, map[string]any{"ids": []string{f.nice, f.report}}), want: findsA, shows: "Nyx Alphanice"},
		"Query.commonNeighbors": {send: gql(`query($ids: [ID!]!) { commonNeighbors(ids: $ids) { entity { `+ends+` } relations { `+rel+` } } }`, map[string]any{"ids": []string{f.nice, f.report}}), want: findsA},
		"Query.source":          {send: gql(`query($id: ID!) { source(id: $id) { id title dataset } }`, map[string]any{"id": f.srcA}), want: readsA, shows: "Source of"},
		// Other tests' sources may come first: what it shows is checked by
		// Query.source, what it must not show here.
		"Query.sources":    {send: gql(`{ sources(first: 100) { edges { cursor node { id title dataset } } } }`, nil), want: everyone},
		"Query.datasets":   {send: gql(`{ datasets { name entities relations sources } }`, nil), want: readsA, shows: f.a},
		"Query.savedQuery": {send: gql(`query($n: String!) { savedQuery(name: $n) { name document defaultVariables } }`, map[string]any{"n": f.savedA}), want: findsA, shows: f.savedA},
		// By the fixture's own tag: the shared database holds more saved
		// queries than a page.
		"Query.savedQueries":       {send: gql(`query($t: String!) { savedQueries(tag: $t, first: 100) { edges { cursor node { name defaultVariables } } } }`, map[string]any{"t": f.savedA}), want: readsA, shows: f.savedA},
		"Query.savedQueryVersions": {send: gql(`query($n: String!) { savedQueryVersions(name: $n) { name version defaultVariables } }`, map[string]any{"n": f.savedA}), want: findsA, shows: f.savedA},
		"Query.runSavedQuery":      {send: gql(`query($n: String!) { runSavedQuery(name: $n) { data } }`, map[string]any{"n": f.savedA}), want: findsA, shows: "Nyx Alphanice"},
		"Query.changes": {send: gql(`query($ds: String) { changes(filter: {dataset: $ds}, first: 100) { totalCount edges { cursor node { operation targets dataset fields { field old new } } } } }`, map[string]any{"ds": f.a}), want: func(c matrixCaller) string {
			if c.writer() && c.readA {
				return "ok"
			}
			if c.writer() {
				return "hidden"
			}
			return "FORBIDDEN"
		}, shows: f.srcA}, // the first change: the matrix's own writes follow
		"Query.duplicateCandidates": {send: gql(`query($ds: String!) { duplicateCandidates(dataset: $ds, first: 20) { edges { node { __typename } } } }`, map[string]any{"ds": f.a}), want: findsA},
		"Query.apiKeys":             {send: gql(`{ apiKeys { name datasets } }`, nil), want: admins, shows: "matrix reader A"},
		"Query.__schema":            {send: gql(`{ __schema { queryType { name } } }`, nil), want: everyone},
		"Query.__type":              {send: gql(`{ __type(name: "Entity") { name } }`, nil), want: everyone},

		"Mutation.upsertEntity": {send: gql(upsert, map[string]any{"in": map[string]any{"id": f.nice, "kind": "PERSON", "name": "Nyx Alphanice", "dataset": f.a, "sourceIds": []string{f.srcA}}}), want: writesA, write: true},
		"Mutation.link":         {send: gql(link, map[string]any{"in": map[string]any{"id": f.authored, "type": "AUTHORED", "from": f.nice, "to": f.report, "dataset": f.a, "sourceIds": []string{f.srcA}, "role": "alpharole", "quote": "alphaquote", "startDate": "2014-01"}}), want: writesA, write: true},
		"Mutation.upsertSource": {send: gql(`mutation S($in: SourceInput!) { upsertSource(input: $in) { id } }`, map[string]any{"in": map[string]any{"id": f.srcA, "title": "Source of " + f.a, "dataset": f.a}}), want: writesA, write: true},
		"Mutation.deleteEntity": {send: func(t *testing.T, c matrixCaller, i int) matrixRequest {
			return matrixRequest{query: `mutation($id: ID!) { deleteEntity(id: $id) { __typename } }`, vars: map[string]any{"id": victim("delete", i)}}
		}, want: editorsOfA, write: true, kept: func(t *testing.T, i int) bool { return exists(victimID("delete", i)) }},
		"Mutation.mergeEntities": {send: func(t *testing.T, c matrixCaller, i int) matrixRequest {
			return matrixRequest{query: `mutation($into: ID!, $from: [ID!]!) { mergeEntities(into: $into, from: $from) { id } }`, vars: map[string]any{"into": victim("into", i), "from": []string{victim("merged", i)}}}
		}, want: editorsOfA, write: true, kept: func(t *testing.T, i int) bool { return exists(victimID("merged", i)) }},
		"Mutation.unlink": {send: func(t *testing.T, c matrixCaller, i int) matrixRequest {
			id := fmt.Sprintf("%s:victim-link-%d", f.a, i)
			h.MustPost(link, map[string]any{"in": map[string]any{"id": id, "type": "AUTHORED", "from": victim("author", i), "to": f.report, "dataset": f.a, "sourceIds": []string{f.srcA}}})
			return matrixRequest{query: `mutation($id: ID!) { unlink(id: $id) { id } }`, vars: map[string]any{"id": id}}
		}, want: editorsOfA, write: true},
		"Mutation.deleteSource": {send: func(t *testing.T, c matrixCaller, i int) matrixRequest {
			id := fmt.Sprintf("%s:victim-src-%d", f.a, i)
			h.MustPost(`mutation S($in: SourceInput!) { upsertSource(input: $in) { id } }`, map[string]any{"in": map[string]any{"id": id, "title": "Victim", "dataset": f.a}})
			return matrixRequest{query: `mutation($id: ID!) { deleteSource(id: $id) { id } }`, vars: map[string]any{"id": id}}
		}, want: editorsOfA, write: true},
		"Mutation.dismissDuplicate": {send: func(t *testing.T, c matrixCaller, i int) matrixRequest {
			return matrixRequest{query: `mutation($a: ID!, $b: ID!) { dismissDuplicate(a: $a, b: $b) { __typename } }`, vars: map[string]any{"a": victim("twin1", i), "b": victim("twin2", i)}}
		}, want: editorsOfA, write: true},
		"Mutation.undismissDuplicate": {send: gql(`mutation($a: ID!, $b: ID!) { undismissDuplicate(a: $a, b: $b) }`, map[string]any{"a": f.nice, "b": f.report}), want: editorsOfA, write: true},
		"Mutation.saveQuery": {send: func(t *testing.T, c matrixCaller, i int) matrixRequest {
			return matrixRequest{query: `mutation($in: SaveQueryInput!) { saveQuery(input: $in) { name } }`, vars: map[string]any{"in": map[string]any{"name": fmt.Sprintf("%s-mine-%d", f.a, i), "title": "Mine", "document": "{ __typename }", "visibility": "DATASETS", "datasets": []string{f.a}}}}
		}, want: writesA, write: true},
		"Mutation.deleteSavedQuery": {send: func(t *testing.T, c matrixCaller, i int) matrixRequest {
			name := fmt.Sprintf("%s-victim-%d", f.a, i)
			h.MustPost(`mutation($in: SaveQueryInput!) { saveQuery(input: $in) { name } }`, map[string]any{"in": map[string]any{"name": name, "title": "Victim", "document": "{ __typename }", "visibility": "DATASETS", "datasets": []string{f.a}}})
			return matrixRequest{query: `mutation($n: String!) { deleteSavedQuery(name: $n) { __typename } }`, vars: map[string]any{"n": name}}
		}, want: func(c matrixCaller) string {
			switch {
			case c.admin:
				return "ok"
			case c.writer():
				return "FORBIDDEN|NOT_FOUND" // not its query
			}
			return "FORBIDDEN"
		}, write: true},
		"Mutation.deleteDataset": {send: func(t *testing.T, c matrixCaller, i int) matrixRequest {
			// A dataset of the cell's own: deleting A would end the matrix.
			ds := cyphertest.Dataset(t)
			victims[i] = ds
			h.MustPost(`mutation S($in: SourceInput!) { upsertSource(input: $in) { id } }`, map[string]any{"in": map[string]any{"id": ds + ":src", "title": "Victim", "dataset": ds}})
			return matrixRequest{query: `mutation($n: String!) { deleteDataset(name: $n) { __typename } }`, vars: map[string]any{"n": ds}}
		}, want: admins, write: true, kept: func(t *testing.T, i int) bool {
			found, err := h.Store.Datasets(op, victims[i])
			if err != nil {
				t.Fatal(err)
			}
			return len(found) == 1
		}},
		"Mutation.createApiKey": {send: func(t *testing.T, c matrixCaller, i int) matrixRequest {
			return matrixRequest{query: `mutation($in: ApiKeyInput!) { createApiKey(input: $in) { key { id } } }`, vars: map[string]any{"in": map[string]any{"name": fmt.Sprintf("matrix made %d", i), "role": "READER", "datasets": []string{f.a}}}}
		}, want: admins, write: true},
		"Mutation.revokeApiKey": {send: func(t *testing.T, c matrixCaller, i int) matrixRequest {
			token := h.Key(casegraph.NewAPIKey{Name: fmt.Sprintf("matrix victim %d", i), Role: casegraph.RoleReader, Datasets: []string{f.a}})
			id, _, _ := casegraph.ParseKeyToken(token)
			return matrixRequest{query: `mutation($id: ID!) { revokeApiKey(id: $id) { id } }`, vars: map[string]any{"id": id}}
		}, want: admins, write: true},

		"Subscription.changes": {send: func(t *testing.T, c matrixCaller, i int) matrixRequest {
			return matrixRequest{query: `subscription($ds: [String!], $after: String) { changes(datasets: $ds, after: $after) { cursor change { operation targets dataset fields { field old new } } } }`, vars: map[string]any{"ds": []string{f.a}, "after": f.feedStart}}
		}, want: func(c matrixCaller) string {
			switch {
			case c.writer() && c.readA:
				return "ok"
			case c.writer():
				return "NOT_FOUND"
			}
			return "FORBIDDEN"
		}, shows: "Nyx Alphanice"},
		"Subscription.changes (every dataset)": {send: func(t *testing.T, c matrixCaller, i int) matrixRequest {
			return matrixRequest{query: `subscription($after: String) { changes(after: $after) { cursor change { operation targets dataset fields { field old new } } } }`, vars: map[string]any{"after": f.feedStart}}
		}, want: func(c matrixCaller) string {
			if c.writer() {
				return "ok"
			}
			return "FORBIDDEN"
		}},
		"Subscription.watchPath": {send: gql(`subscription($from: ID!, $to: ID!) { watchPath(from: $from, to: $to) { kind path { `+path+` } } }`, filterAll), want: findsA, shows: "alphaquote"},
	}
}

// matrixRoutes are the cells of the server's routes, by "METHOD pattern".
func matrixRoutes(f matrixFixture) map[string]matrixOp {
	get := func(path string) func(*testing.T, matrixCaller, int) matrixRequest {
		return func(*testing.T, matrixCaller, int) matrixRequest {
			return matrixRequest{method: http.MethodGet, path: path}
		}
	}
	entity := url.QueryEscape(`query($id: ID!) { entity(id: $id) { name } }`)
	vars := url.QueryEscape(fmt.Sprintf(`{"id": %q}`, f.nice))
	importLine := fmt.Sprintf(`{"type":"entity","id":%q,"kind":"Person","name":"Nyx Alphanice","dataset":%q,"sourceIds":[%q]}`+"\n", f.nice, f.a, f.srcA)
	return map[string]matrixOp{
		"POST /graphql":       {send: gql(`query($id: ID!) { entity(id: $id) { name } }`, map[string]any{"id": f.nice}), want: readsA, shows: "Nyx Alphanice"},
		"GET /graphql":        {send: get("/graphql?query=" + entity + "&variables=" + vars), want: readsA, shows: "Nyx Alphanice"},
		"GET /queries/{name}": {send: get("/queries/" + f.savedA), want: findsA, shows: "Nyx Alphanice"},
		"POST /queries/{name}": {send: func(*testing.T, matrixCaller, int) matrixRequest {
			return matrixRequest{method: http.MethodPost, path: "/queries/" + f.savedA, body: `{}`}
		}, want: findsA, shows: "Nyx Alphanice"},
		"GET /datasets/{name}/export":       {send: get("/datasets/" + f.a + "/export"), want: findsA, shows: "Nyx Alphanice", transfer: true},
		"GET /datasets/{name}/export (FtM)": {send: get("/datasets/" + f.a + "/export?format=ftm"), want: findsA, shows: "Nyx Alphanice", transfer: true},
		"POST /datasets/{name}/import": {send: func(*testing.T, matrixCaller, int) matrixRequest {
			return matrixRequest{method: http.MethodPost, path: "/datasets/" + f.a + "/import", body: importLine}
		}, want: writesA, write: true},
		"GET /healthz":       {send: get("/healthz"), want: everyone, open: true},
		"GET /readyz":        {send: get("/readyz"), want: everyone, open: true},
		"GET /metrics":       {send: get("/metrics"), want: everyone, open: true},
		"GET /{$}":           {send: get("/"), want: everyone, open: true},
		"GET /graphiql":      {send: get("/graphiql"), want: everyone, open: true},
		"GET /assets/{file}": {send: get("/assets/nothing-here.js"), want: func(matrixCaller) string { return "NOT_FOUND" }, open: true},
		"OPTIONS /graphql": {send: func(*testing.T, matrixCaller, int) matrixRequest {
			return matrixRequest{method: http.MethodOptions, path: "/graphql"}
		}, want: everyone, open: true},
		"OPTIONS /queries/{name}": {send: func(*testing.T, matrixCaller, int) matrixRequest {
			return matrixRequest{method: http.MethodOptions, path: "/queries/" + f.savedA}
		}, want: everyone, open: true},
	}
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
				got := cellOutcome(status, body, o.shows)
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

// sendCell sends a cell's request as its caller and returns the status
// and the body (for a subscription, the events that arrived within a
// short wait).
func sendCell(t *testing.T, h *servertest.Harness, c matrixCaller, r matrixRequest) (int, string) {
	t.Helper()
	method, path, body := r.method, r.path, []byte(r.body)
	header := http.Header{}
	if r.query != "" {
		method, path = http.MethodPost, "/graphql"
		var err error
		if body, err = json.Marshal(map[string]any{"query": r.query, "variables": r.vars}); err != nil {
			t.Fatal(err)
		}
		header.Set("Content-Type", "application/json")
	}
	if strings.HasPrefix(r.query, "subscription") {
		header.Set("Accept", "text/event-stream")
	}
	if method == http.MethodOptions {
		header.Set("Origin", "https://elsewhere.example")
		header.Set("Access-Control-Request-Method", "POST")
	}
	auth := " " // sent but empty: the harness's client adds no key
	if c.token != "" {
		auth = "Bearer " + c.token
	}
	header.Set("Authorization", auth)
	req, err := http.NewRequestWithContext(t.Context(), method, h.URL+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header
	client := &http.Client{Timeout: 30 * time.Second}
	res, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	if res.Header.Get("Content-Type") != "text/event-stream" {
		var b bytes.Buffer
		if _, err := b.ReadFrom(res.Body); err != nil {
			t.Fatal(err)
		}
		return res.StatusCode, b.String()
	}
	// Events: every subscription of the matrix answers at once with a
	// first event (a path now, the feed's replay, or an error), which may
	// wait for a statement's first planning under load: up to the
	// client's 30 s for it; then what arrives within a second and a half
	// of the last.
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	quiet := func(seen int) time.Duration {
		if seen == 0 {
			return 30 * time.Second
		}
		return 1500 * time.Millisecond
	}
	var events []string
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				return res.StatusCode, "[" + strings.Join(events, ",") + "]"
			}
			if data, ok := strings.CutPrefix(l, "data: "); ok {
				events = append(events, data)
			}
		case <-time.After(quiet(len(events))):
			return res.StatusCode, "[" + strings.Join(events, ",") + "]"
		}
	}
}

// cellOutcome names what an answer was: "401", "404", an error code, "ok"
// (it shows the marker, when one is given) or "hidden".
func cellOutcome(status int, body, shows string) string {
	switch status {
	case http.StatusUnauthorized:
		return "401"
	case http.StatusNotFound:
		if !strings.Contains(body, `"code"`) {
			return "404"
		}
	}
	if code := firstCode(body); code != "" {
		return code
	}
	if status >= 400 {
		return fmt.Sprint(status)
	}
	if shows == "" || strings.Contains(body, shows) {
		return "ok"
	}
	return "hidden"
}

var codeRE = regexp.MustCompile(`"code":\s*"([A-Z_]+)"`)

// firstCode is the first error code in a body (a JSON answer, or the
// events of a stream).
func firstCode(body string) string {
	if m := codeRE.FindStringSubmatch(body); m != nil {
		return m[1]
	}
	return ""
}

var base64RE = regexp.MustCompile(`[A-Za-z0-9+/_-]{12,}={0,2}`)

// leaks returns the markers found in body, or in what decodes from base64
// within it, after taking out the values the request itself sent.
func leaks(body string, r matrixRequest, markers []string) []string {
	var sent []string
	var collect func(v any)
	collect = func(v any) {
		switch x := v.(type) {
		case string:
			sent = append(sent, x)
		case []string:
			sent = append(sent, x...)
		case []any:
			for _, e := range x {
				collect(e)
			}
		case map[string]any:
			for _, e := range x {
				collect(e)
			}
		}
	}
	collect(r.vars)
	if r.path != "" {
		if u, err := url.Parse(r.path); err == nil {
			sent = append(sent, strings.Split(strings.Trim(u.Path, "/"), "/")...)
			for _, vs := range u.Query() {
				sent = append(sent, vs...)
			}
		}
	}
	if r.body != "" {
		sent = append(sent, r.body)
	}
	// Longest first, so an id is taken out before a part of it.
	sort.Slice(sent, func(i, j int) bool { return len(sent[i]) > len(sent[j]) })
	text := body
	for _, m := range base64RE.FindAllString(body, -1) {
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
			if b, err := enc.DecodeString(m); err == nil {
				text += "\n" + string(b)
				break
			}
		}
	}
	for _, s := range sent {
		if len(s) > 3 {
			text = strings.ReplaceAll(text, s, "")
		}
	}
	var found []string
	for _, m := range markers {
		if strings.Contains(text, m) {
			found = append(found, m)
		}
	}
	return found
}
