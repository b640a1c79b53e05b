package graph_test

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/casegraph/casegraph/server/servertest"
)

// queryName is a saved-query name unique to the test, deleted when it ends
// (saved queries are not scoped to a dataset).
func queryName(t *testing.T, h *servertest.Harness, base string) string {
	t.Helper()
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	name := base + "-" + hex.EncodeToString(b)
	t.Cleanup(func() {
		h.Post(`mutation($n: String!) { deleteSavedQuery(name: $n) { versions } }`, map[string]any{"n": name})
	})
	return name
}

const saveMutation = `mutation Save($in: SaveQueryInput!) { saveQuery(input: $in) { name version title document defaultVariables tags } }`

func TestSaveRunAndVersionQueries(t *testing.T) {
	t.Parallel()
	s := newSeedPaths(t)
	name := queryName(t, s.h, "who-authored")
	doc := `query Authors($id: ID!) { entity(id: $id) { name relations(types: [AUTHORED], direction: INCOMING) { edges { node { from { name } role } } } } }`
	in := map[string]any{"name": name, "title": "Who authored a report", "document": doc,
		"defaultVariables": map[string]any{"id": s.id("caesar-report")}, "tags": []string{"reports"}}
	v1 := s.h.MustPost(saveMutation, map[string]any{"in": in})
	if field(v1, "saveQuery", "version") != float64(1) {
		t.Fatalf("first save: %s", v1.Raw)
	}
	again := s.h.MustPost(saveMutation, map[string]any{"in": in})
	if field(again, "saveQuery", "version") != float64(1) {
		t.Errorf("saving the same query again made version %v", field(again, "saveQuery", "version"))
	}
	in["document"] = strings.Replace(doc, "role", "role startDate", 1)
	v2 := s.h.MustPost(saveMutation, map[string]any{"in": in})
	if field(v2, "saveQuery", "version") != float64(2) {
		t.Errorf("a changed document: version %v, want 2", field(v2, "saveQuery", "version"))
	}
	old := s.h.MustPost(`query($n: String!) { savedQuery(name: $n, version: 1) { version document } }`, map[string]any{"n": name})
	if field(old, "savedQuery", "document") != doc {
		t.Errorf("version 1 changed: %s", old.Raw)
	}

	run := s.h.MustPost(`query($n: String!) { runSavedQuery(name: $n) { query { version } data errors { code message } } }`, map[string]any{"n": name})
	data, _ := field(run, "runSavedQuery", "data").(map[string]any)
	edges := data["entity"].(map[string]any)["relations"].(map[string]any)["edges"].([]any)
	if len(edges) != 3 || field(run, "runSavedQuery", "query", "version") != float64(2) {
		t.Errorf("run: %s", truncate(run.Raw))
	}
	// Variables are merged over the defaults.
	other := s.h.MustPost(`query($n: String!, $v: JSON) { runSavedQuery(name: $n, version: 1, variables: $v) { data errors { code } } }`,
		map[string]any{"n": name, "v": map[string]any{"id": s.id("caesar-photographs")}})
	d2, _ := field(other, "runSavedQuery", "data").(map[string]any)
	if d2["entity"].(map[string]any)["name"] != "Caesar photographs" {
		t.Errorf("run with variables: %s", truncate(other.Raw))
	}
	// An ill-typed variable is an error of the run, with its code.
	bad := s.h.MustPost(`query($n: String!, $v: JSON) { runSavedQuery(name: $n, variables: $v) { data errors { code message } } }`,
		map[string]any{"n": name, "v": map[string]any{"id": []any{1, 2}}})
	errs := field(bad, "runSavedQuery", "errors").([]any)
	if len(errs) == 0 || errs[0].(map[string]any)["code"] != "BAD_USER_INPUT" {
		t.Errorf("ill-typed variable: %s", truncate(bad.Raw))
	}

	list := s.h.MustPost(`query { savedQueries(tag: "reports", first: 100) { edges { node { name version } } } }`, nil)
	found := false
	for _, e := range field(list, "savedQueries", "edges").([]any) {
		n := e.(map[string]any)["node"].(map[string]any)
		if n["name"] == name && n["version"] == float64(2) {
			found = true
		}
	}
	if !found {
		t.Errorf("savedQueries(tag) lacks %s at version 2", name)
	}
}

func TestSavedQueriesNotFound(t *testing.T) {
	t.Parallel()
	s := newSeedPaths(t)
	name := queryName(t, s.h, "refused")
	ok := `query($id: ID!) { entity(id: $id) { name } }`
	// Documents refused before anything is stored: TestSaveQueryRefusedDocuments.
	for _, q := range []string{
		`query { savedQuery(name: "no-such-query-anywhere") { version } }`,
		`query { runSavedQuery(name: "no-such-query-anywhere") { data } }`,
		`mutation { deleteSavedQuery(name: "no-such-query-anywhere") { versions } }`,
	} {
		if res := s.h.Post(q, nil); res.Code() != "NOT_FOUND" {
			t.Errorf("%s: %s, want NOT_FOUND", q, truncate(res.Raw))
		}
	}
	s.h.MustPost(saveMutation, map[string]any{"in": map[string]any{"name": name, "title": "A query", "document": ok}})
	if res := s.h.Post(`query($n: String!) { savedQuery(name: $n, version: 9) { version } }`, map[string]any{"n": name}); res.Code() != "NOT_FOUND" {
		t.Errorf("unknown version: %s, want NOT_FOUND", truncate(res.Raw))
	}
}
