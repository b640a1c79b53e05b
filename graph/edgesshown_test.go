package graph_test

// A page of relations builds an edge's cursor and node only when the
// selection shows them (graph.edgesShownAt): whichever way a client
// selects them (fragments, inline fragments with a type condition,
// aliases, directives), they are there and the same.

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server/servertest"
)

// shownEdges is what a page of relations showed: the page's cursors and
// each edge's cursor, node id and neighbor id, under the response keys
// given (a variant may alias them).
type shownEdges struct {
	Start, End                  any
	Cursors, Nodes, Types, Ends []any
}

func shownEdgesOf(t *testing.T, res servertest.Response, keys map[string]string) shownEdges {
	t.Helper()
	if len(res.Errors) > 0 {
		t.Fatalf("errors: %s", truncate(res.Raw))
	}
	key := func(k string) string {
		if a, ok := keys[k]; ok {
			return a
		}
		return k
	}
	conn, _ := field(res, "entity", "relations").(map[string]any)
	var s shownEdges
	if info, ok := conn[key("pageInfo")].(map[string]any); ok {
		s.Start, s.End = info[key("startCursor")], info[key("endCursor")]
	}
	edges, _ := conn[key("edges")].([]any)
	for _, e := range edges {
		e, _ := e.(map[string]any)
		s.Cursors = append(s.Cursors, e[key("cursor")])
		if n, ok := e[key("node")].(map[string]any); ok {
			s.Nodes, s.Types = append(s.Nodes, n["id"]), append(s.Types, n["type"])
		} else {
			s.Nodes, s.Types = append(s.Nodes, nil), append(s.Types, nil)
		}
		if n, ok := e["neighbor"].(map[string]any); ok {
			s.Ends = append(s.Ends, n["id"])
		}
	}
	return s
}

func TestRelationEdgesShowWhatIsSelected(t *testing.T) {
	t.Parallel()
	h := servertest.New(t, servertest.Options{})
	_, id := cyphertest.LoadSeed(t, h.Store)
	vars := map[string]any{"id": id("caesar"), "yes": true, "no": false}
	const plain = `query($id: ID!) { entity(id: $id) { relations(first: 3) {
	  pageInfo { startCursor endCursor } edges { cursor node { id type } neighbor { id } } } } }`
	want := shownEdgesOf(t, h.Post(plain, vars), nil)
	if len(want.Cursors) != 3 || want.Start == nil || want.Cursors[0] == "" || want.Nodes[0] == nil {
		t.Fatalf("the plain selection showed %+v", want)
	}

	for _, c := range []struct {
		name, query string
		keys        map[string]string
	}{
		{"fragment spreads", `query($id: ID!) { entity(id: $id) { relations(first: 3) { ...C } } }
		  fragment C on RelationConnection { pageInfo { startCursor endCursor } edges { ...E } }
		  fragment E on RelationEdge { cursor node { id type } neighbor { id } }`, nil},
		{"inline fragments and aliases", `query($id: ID!) { entity(id: $id) { relations(first: 3) {
		  p: pageInfo { ... on PageInfo { s: startCursor e: endCursor } }
		  es: edges { ... on RelationEdge { c: cursor n: node { id type } } neighbor { id } } } } }`,
			map[string]string{"pageInfo": "p", "startCursor": "s", "endCursor": "e", "edges": "es", "cursor": "c", "node": "n"}},
		{"directives", `query($id: ID!, $yes: Boolean!, $no: Boolean!) { entity(id: $id) { relations(first: 3) {
		  pageInfo { startCursor @include(if: $yes) endCursor @skip(if: $no) }
		  edges { cursor @include(if: $yes) node @skip(if: $no) { id type } neighbor { id } } } } }`, nil},
		{"the same field twice, the second with what is shown", `query($id: ID!) { entity(id: $id) { relations(first: 3) {
		  edges { neighbor { id } } pageInfo { startCursor } edges { cursor node { id type } } pageInfo { endCursor } } } }`, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := shownEdgesOf(t, h.Post(c.query, vars), c.keys)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}

	// The page's last cursor alone still pages on: the next page after it
	// is the one after the plain selection's.
	t.Run("the end cursor alone", func(t *testing.T) {
		res := h.Post(`query($id: ID!) { entity(id: $id) { relations(first: 3) { pageInfo { endCursor } edges { neighbor { id } } } } }`, vars)
		got := shownEdgesOf(t, res, nil)
		if got.End != want.End || got.Start != nil {
			t.Fatalf("end cursor %v (start %v), want %v", got.End, got.Start, want.End)
		}
		const next = `query($id: ID!, $after: String) { entity(id: $id) { relations(first: 3, after: $after) { edges { node { id } } } } }`
		after := map[string]any{"id": id("caesar"), "after": got.End}
		if a, b := h.Post(next, after), h.Post(next, map[string]any{"id": id("caesar"), "after": want.End}); a.Raw != b.Raw || len(a.Errors) > 0 {
			t.Errorf("the next page: %s, want %s", truncate(a.Raw), truncate(b.Raw))
		}
	})
	// Neither shown: the neighbours are the same.
	t.Run("neighbours alone", func(t *testing.T) {
		got := shownEdgesOf(t, h.Post(`query($id: ID!) { entity(id: $id) { relations(first: 3) { edges { neighbor { id } } } } }`, vars), nil)
		if diff := cmp.Diff(want.Ends, got.Ends); diff != "" {
			t.Errorf("neighbours (-want +got):\n%s", diff)
		}
	})
}
