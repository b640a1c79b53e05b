package graph_test

// Arguments refused before the database: the real handler over a store that
// refuses every call (servertest.Edge), so a refusal that reaches the data
// fails the test. They need no Neo4j (`make test-unit` runs them).

import (
	"fmt"
	"strings"
	"testing"

	"github.com/casegraph/casegraph/server/servertest"
)

func TestPathArgumentsRefused(t *testing.T) {
	t.Parallel()
	h := servertest.Edge(t, servertest.Options{})
	var eleven []string
	for i := range 11 {
		eleven = append(eleven, fmt.Sprintf("e%d", i))
	}
	tests := []struct {
		name, query string
		vars        map[string]any
	}{
		{"maxDepth 0", pathQuery, map[string]any{"from": "caesar", "to": "qatar", "filter": map[string]any{"maxDepth": 0}}},
		{"maxDepth 50", pathQuery, map[string]any{"from": "caesar", "to": "qatar", "filter": map[string]any{"maxDepth": 50}}},
		{"bad validAt", pathQuery, map[string]any{"from": "caesar", "to": "qatar", "filter": map[string]any{"validAt": "2013-02-30"}}},
		{"confidence 2", pathQuery, map[string]any{"from": "caesar", "to": "qatar", "filter": map[string]any{"minConfidence": 2}}},
		{"k 0", `query($a: ID!) { paths(from: $a, to: $a, k: 0) { length } }`, map[string]any{"a": "caesar"}},
		{"k 1000", `query($a: ID!) { paths(from: $a, to: $a, k: 1000) { length } }`, map[string]any{"a": "caesar"}},
		{"connections of 1", `query($a: ID!) { connections(ids: [$a]) { truncated } }`, map[string]any{"a": "caesar"}},
		{"connections of 11", `query($ids: [ID!]!) { connections(ids: $ids) { truncated } }`, map[string]any{"ids": eleven}},
		{"connections twice the same", `query($a: ID!) { connections(ids: [$a, $a]) { truncated } }`, map[string]any{"a": "caesar"}},
		{"depth 4", `query($a: ID!) { neighborhood(id: $a, depth: 4) { truncated } }`, map[string]any{"a": "caesar"}},
		{"depth 0", `query($a: ID!) { neighborhood(id: $a, depth: 0) { truncated } }`, map[string]any{"a": "caesar"}},
		{"limit 0", `query($a: ID!) { neighborhood(id: $a, limit: 0) { truncated } }`, map[string]any{"a": "caesar"}},
		{"commonNeighbors of 1", `query($a: ID!) { commonNeighbors(ids: [$a]) { entity { id } } }`, map[string]any{"a": "caesar"}},
		{"commonNeighbors of 11", `query($ids: [ID!]!) { commonNeighbors(ids: $ids) { entity { id } } }`, map[string]any{"ids": eleven}},
		{"commonNeighbors twice the same", `query($a: ID!) { commonNeighbors(ids: [$a, "b", $a]) { entity { id } } }`, map[string]any{"a": "caesar"}},
		{"commonNeighbors maxDepth", `query { commonNeighbors(ids: ["a", "b"], filter: {maxDepth: 2}) { entity { id } } }`, nil},
		{"commonNeighbors outgoing", `query { commonNeighbors(ids: ["a", "b"], filter: {direction: OUTGOING}) { entity { id } } }`, nil},
		{"commonNeighbors limit 0", `query { commonNeighbors(ids: ["a", "b"], limit: 0) { entity { id } } }`, nil},
		{"commonNeighbors limit 1001", `query { commonNeighbors(ids: ["a", "b"], limit: 1001) { entity { id } } }`, nil},
		{"commonNeighbors confidence 2", `query { commonNeighbors(ids: ["a", "b"], filter: {minConfidence: 2}) { entity { id } } }`, nil},
		{"bad id", pathQuery, map[string]any{"from": "a b", "to": "caesar"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if res := h.Post(tt.query, tt.vars); res.Code() != "BAD_USER_INPUT" {
				t.Errorf("got %s, want BAD_USER_INPUT", truncate(res.Raw))
			}
		})
	}
}

func TestSearchArgumentsRefused(t *testing.T) {
	t.Parallel()
	h := servertest.Edge(t, servertest.Options{})
	for _, text := range []string{"", "a", " é ", strings.Repeat("x", 201), `"*?~`} {
		for _, q := range []string{searchQuery, facetQuery} {
			if res := h.Post(q, map[string]any{"text": text}); res.Code() != "BAD_USER_INPUT" {
				t.Errorf("%q: %s, want BAD_USER_INPUT", text, truncate(res.Raw))
			}
		}
	}
	for _, first := range []int{0, -1, 1000000000} {
		if res := h.Post(searchQuery, map[string]any{"text": "caesar", "first": first}); res.Code() != "BAD_USER_INPUT" {
			t.Errorf("first %d: %s, want BAD_USER_INPUT", first, truncate(res.Raw))
		}
	}
}

// TestSaveQueryRefusedDocuments: saveQuery checks a document against the
// schema and the limits before it stores anything (the refusing store
// fails the test on any call, SaveQuery included).
func TestSaveQueryRefusedDocuments(t *testing.T) {
	t.Parallel()
	h := servertest.Edge(t, servertest.Options{})
	ok := `query($id: ID!) { entity(id: $id) { name } }`
	tests := []struct {
		name string
		in   map[string]any
		msg  string
	}{
		{"invalid slug", map[string]any{"name": "Not A Slug", "document": ok}, "not a valid name"},
		{"syntax error", map[string]any{"document": `query { entity(id: "x" { name } }`}, "document"},
		{"unknown field", map[string]any{"document": `query { entity(id: "x") { nope } }`}, "Cannot query field"},
		{"a mutation", map[string]any{"document": `mutation { deleteEntity(id: "x") { id } }`}, "only queries"},
		{"a subscription", map[string]any{"document": `subscription { x }`}, "document"},
		{"two operations", map[string]any{"document": `query A { relationTypes { type } } query B { relationTypes { label } }`}, "2 operations"},
		{"undeclared variable", map[string]any{"document": `query { entity(id: $id) { name } }`}, "Variable \"$id\" is not defined"},
		{"default of an undeclared variable", map[string]any{"document": ok, "defaultVariables": map[string]any{"other": 1}}, "$other is not declared"},
		{"ill-typed default", map[string]any{"document": ok, "defaultVariables": map[string]any{"id": map[string]any{"a": 1}}}, "defaultVariables"},
		{"defaults not an object", map[string]any{"document": ok, "defaultVariables": []any{1}}, "JSON object"},
		{"too deep", map[string]any{"document": `query { entities { edges { node { relations { edges { node { from { relations { edges { node { to { relations { edges { node { id } } } } } } } } } } } } } } }`}, "deeper than"},
		{"too complex", map[string]any{"document": `query { entities(first: 100) { edges { node { relations(first: 100) { edges { node { from { id } to { id } } } } } } } }`}, "complexity"},
		{"running a saved query", map[string]any{"document": `query { runSavedQuery(name: "x") { data } }`}, "cannot select runSavedQuery"},
		{"running a saved query from a fragment", map[string]any{"document": `query { ...on Query { a: runSavedQuery(name: "x") { data } } }`}, "cannot select runSavedQuery"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := map[string]any{"name": "refused", "title": "A query", "document": ok}
			for k, v := range tt.in {
				in[k] = v
			}
			res := h.Post(saveMutation, map[string]any{"in": in})
			if res.Code() != "BAD_USER_INPUT" || !strings.Contains(res.Errors[0].Message, tt.msg) {
				t.Errorf("got %s, want BAD_USER_INPUT saying %q", truncate(res.Raw), tt.msg)
			}
		})
	}
}
