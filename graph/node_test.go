package graph_test

import (
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	casegraph "github.com/casegraph/casegraph"
)

const nodesQuery = `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id
	... on Entity { name relations(first: 1) { totalCount } }
	... on Relation { type from { id } }
	... on Source { title }
	... on SavedQuery { name version } } }`

// TestNodes: every id an answer shows refetches its node by node(id) and
// nodes(ids), whichever type it is, in one request (a statement per type;
// the entities of aliased node, nodes and entity fields together in one);
// a source and a document of the seed that share an id are told apart;
// an id with nothing behind it, or with something the caller may not
// read, is null in its place and takes nothing from the others.
func TestNodes(t *testing.T) {
	t.Parallel()
	s := newSeedPaths(t)
	h := s.h
	name := queryName(t, h, "node")
	h.MustPost(saveMutation, map[string]any{"in": map[string]any{"name": name, "title": "t",
		"document": `query { relationTypes { type } }`, "visibility": "PRIVATE"}})
	// The ids as answers show them.
	res := h.MustPost(`query($id: ID!, $n: String!) { entity(id: $id) { id relations(first: 1) { edges { node { id } } } sources { id } }
		savedQuery(name: $n) { id } }`, map[string]any{"id": s.id("caesar-report-article"), "n": name})
	entityID := field(res, "entity", "id").(string)
	relationID := field(res, "entity", "relations", "edges").([]any)[0].(map[string]any)["node"].(map[string]any)["id"].(string)
	sourceID := field(res, "entity", "sources").([]any)[0].(map[string]any)["id"].(string)
	queryID := field(res, "savedQuery", "id").(string)
	if sourceID != casegraph.NodeID(casegraph.NodeSource, entityID) {
		t.Fatalf("the seed's article and its entity: source %q, entity %q", sourceID, entityID)
	}
	ghost := s.id("nobody")
	ids := []string{entityID, relationID, sourceID, queryID, ghost, "relation~" + ghost, "source~" + ghost, "savedQuery~" + name + "~9"}
	got := h.MustPost(nodesQuery, map[string]any{"ids": ids}).Data["nodes"].([]any)
	types := make([]any, len(got))
	for i, n := range got {
		if n != nil {
			m := n.(map[string]any)
			types[i] = m["__typename"]
			if m["id"] != ids[i] {
				t.Errorf("nodes[%d].id = %v, want %q", i, m["id"], ids[i])
			}
		}
	}
	if diff := cmp.Diff([]any{"Document", "Relation", "Source", "SavedQuery", nil, nil, nil, nil}, types); diff != "" {
		t.Errorf("nodes' types (-want +got):\n%s", diff)
	}
	for i, id := range ids[:4] {
		one := h.MustPost(`query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": id})
		if got := field(one, "node", "id"); got != id {
			t.Errorf("node(%q) = %v (refetch %d)", id, got, i)
		}
	}
	// Entities asked for by node, nodes and entity fields, under aliases,
	// are read by one statement, with what each selects; at 1 client and
	// at 16 at once alike.
	aliased := `query($a: ID!, $b: ID!, $c: ID!) {
		x: node(id: $a) { ... on Entity { name } }
		y: node(id: $b) { ... on Person { name sources { title } } }
		z: nodes(ids: [$a, $c]) { id ... on Entity { relations(first: 2) { totalCount } } }
		w: entity(id: $c) { name } }`
	vars := map[string]any{"a": entityID, "b": s.id("caesar"), "c": s.id("qatar")}
	for _, clients := range []int{1, 16} {
		before := h.Store.RoundTrips()
		var wg sync.WaitGroup
		for range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if res := h.Post(aliased, vars); len(res.Errors) > 0 || field(res, "w", "name") == nil || field(res, "y", "sources") == nil {
					t.Errorf("aliased node fields: %s", res.Raw)
				}
			}()
		}
		wg.Wait()
		if n := h.Store.RoundTrips() - before; n != int64(clients) {
			t.Errorf("%d clients asking for 4 aliased node, nodes and entity fields: %d statements, want %d (one each)", clients, n, clients)
		}
	}

	// Bare relation and source ids still work where arguments took them.
	bare := h.MustPost(`query($r: ID!, $s: ID!) { relation(id: $r) { id } source(id: $s) { id } }`,
		map[string]any{"r": relationID[len("relation~"):], "s": sourceID[len("source~"):]})
	if field(bare, "relation", "id") != relationID || field(bare, "source", "id") != sourceID {
		t.Errorf("bare ids: %s", bare.Raw)
	}

	// Another caller: a reader of another dataset sees none of it, and a
	// private saved query is its owner's.
	other := h.Key(casegraph.NewAPIKey{Name: "elsewhere", Role: casegraph.RoleReader, Datasets: []string{"elsewhere"}})
	res = h.PostAs(other, nodesQuery, map[string]any{"ids": ids[:4]})
	if diff := cmp.Diff(map[string]any{"nodes": []any{nil, nil, nil, nil}}, res.Data); diff != "" || len(res.Errors) > 0 {
		t.Errorf("a reader elsewhere (-want +got):\n%s%s", diff, res.Raw)
	}

	for name, ids := range map[string][]string{
		"no ids":         {},
		"101 ids":        make([]string, 101),
		"not an id":      {"a b"},
		"unknown prefix": {"thing~x"},
		"bad version":    {"savedQuery~" + name + "~0"},
	} {
		if name == "101 ids" {
			for i := range ids {
				ids[i] = entityID
			}
		}
		if res := h.Post(nodesQuery, map[string]any{"ids": ids}); res.Code() != "BAD_USER_INPUT" {
			t.Errorf("%s: %s, want BAD_USER_INPUT", name, truncate(res.Raw))
		}
	}
	if res := h.Post(`query($id: ID!) { relation(id: $id) { id } }`, map[string]any{"id": sourceID}); res.Code() != "BAD_USER_INPUT" {
		t.Errorf("relation(a source's node id): %s, want BAD_USER_INPUT", truncate(res.Raw))
	}
}
