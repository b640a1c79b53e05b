package graph_test

import (
	"strings"
	"testing"

	"github.com/casegraph/casegraph/server"
	"github.com/casegraph/casegraph/server/servertest"
)

// TestSavedRunsShareTheLimit: a saved query run inside a request gets what
// the request leaves of the complexity limit, and a request runs at most
// one saved query, so that aliasing runs cannot escape the limit.
func TestSavedRunsShareTheLimit(t *testing.T) {
	t.Parallel()
	h := servertest.New(t, servertest.Options{Config: func(c *server.Config) { c.MaxComplexity = 150 }})
	name := "budget-" + strings.ToLower(strings.ReplaceAll(t.Name(), "/", "-"))
	h.MustPost(`mutation($in: SaveQueryInput!) { saveQuery(input: $in) { name } }`, map[string]any{"in": map[string]any{
		"name": name, "title": "Fifty ids", "document": `{ entities(first: 20) { edges { node { id } } } }`}})
	t.Cleanup(func() {
		h.Post(`mutation($n: String!) { deleteSavedQuery(name: $n) { versions } }`, map[string]any{"n": name})
	})

	alone := h.Post(`query($n: String!) { runSavedQuery(name: $n) { errors { message } } }`, map[string]any{"n": name})
	if len(alone.Errors) > 0 || strings.Contains(alone.Raw, "complexity") {
		t.Errorf("a run alone: %s", alone.Raw)
	}
	withMore := h.Post(`query($n: String!) { r: runSavedQuery(name: $n) { errors { message } } e: entities(first: 50) { edges { node { id } } } }`, map[string]any{"n": name})
	if !strings.Contains(withMore.Raw, "exceeds the limit") {
		t.Errorf("a run beside a list that takes most of the limit: %s, want its run refused for complexity", withMore.Raw)
	}
	twice := h.Post(`query($n: String!) { a: runSavedQuery(name: $n) { data } b: runSavedQuery(name: $n) { data } }`, map[string]any{"n": name})
	if twice.Code() != "BAD_USER_INPUT" || twice.Reason() != "ONE_SAVED_QUERY" {
		t.Errorf("two runs in one request: %s, want BAD_USER_INPUT ONE_SAVED_QUERY", twice.Raw)
	}
}
