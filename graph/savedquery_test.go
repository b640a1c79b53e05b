package graph_test

// Saved queries over the API: saved, run and versioned, not found, and
// their variables.

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
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

// TestSavedQueryVersions: a version is its document and default
// variables: a new title, description or tags, white space at the ends of
// lines or variables in another order update the latest version in place;
// a new document adds a version with its author and note, and the versions
// are listed newest first.
func TestSavedQueryVersions(t *testing.T) {
	t.Parallel()
	s := newSeedPaths(t)
	name := queryName(t, s.h, "versions")
	const save = `mutation Save($in: SaveQueryInput!) { saveQuery(input: $in) { version title description author note } }`
	doc := "query One($id: ID!, $depth: Int) {\n  entity(id: $id) { name relations(first: $depth) { totalCount } }\n}"
	in := map[string]any{"name": name, "title": "One", "document": doc, "note": "the first",
		"defaultVariables": map[string]any{"id": s.id("caesar"), "depth": 1}}
	v1 := s.h.MustPost(save, map[string]any{"in": in})
	author, _ := field(v1, "saveQuery", "author").(string)
	if field(v1, "saveQuery", "version") != float64(1) || !strings.HasPrefix(author, "key:") || field(v1, "saveQuery", "note") != "the first" {
		t.Fatalf("first save: %s", v1.Raw)
	}
	for _, change := range []struct {
		name string
		set  func(map[string]any)
	}{
		{"a new title", func(m map[string]any) { m["title"] = "One entity" }},
		{"a description", func(m map[string]any) { m["description"] = "Its name" }},
		{"tags", func(m map[string]any) { m["tags"] = []string{"names"} }},
		{"trailing white space", func(m map[string]any) { m["document"] = strings.ReplaceAll(doc, "\n", "  \n") + "\n\n" }},
		{"variables in another order", func(m map[string]any) {
			m["defaultVariables"] = map[string]any{"depth": 1, "id": s.id("caesar")}
		}},
	} {
		change.set(in)
		res := s.h.MustPost(save, map[string]any{"in": in})
		if field(res, "saveQuery", "version") != float64(1) {
			t.Errorf("%s made version %v, want 1 updated in place", change.name, field(res, "saveQuery", "version"))
		}
	}
	latest := s.h.MustPost(`query($n: String!) { savedQuery(name: $n) { version title description tags note } }`, map[string]any{"n": name})
	if field(latest, "savedQuery", "title") != "One entity" || field(latest, "savedQuery", "description") != "Its name" ||
		field(latest, "savedQuery", "note") != "the first" {
		t.Errorf("in place: %s", latest.Raw)
	}

	in["document"] = strings.Replace(doc, "{ name ", "{ name aliases ", 1)
	in["note"] = "adds aliases"
	v2 := s.h.MustPost(save, map[string]any{"in": in})
	if field(v2, "saveQuery", "version") != float64(2) || field(v2, "saveQuery", "note") != "adds aliases" {
		t.Errorf("a new document: %s", v2.Raw)
	}
	in["defaultVariables"] = map[string]any{"id": s.id("qatar"), "depth": 1}
	in["note"] = nil
	if v3 := s.h.MustPost(save, map[string]any{"in": in}); field(v3, "saveQuery", "version") != float64(3) || field(v3, "saveQuery", "note") != nil {
		t.Errorf("new defaults: %s", v3.Raw)
	}

	list := s.h.MustPost(`query($n: String!) { savedQueryVersions(name: $n) { version author note createdAt } }`, map[string]any{"n": name})
	versions, _ := list.Data["savedQueryVersions"].([]any)
	var got []float64
	for _, v := range versions {
		got = append(got, v.(map[string]any)["version"].(float64))
		if v.(map[string]any)["author"] != author || v.(map[string]any)["createdAt"] == "" {
			t.Errorf("version without its author or time: %v", v)
		}
	}
	if len(got) != 3 || got[0] != 3 || got[2] != 1 {
		t.Errorf("versions %v, want 3, 2, 1", got)
	}
	one := s.h.MustPost(`query($n: String!) { savedQueryVersions(name: $n, first: 1) { version } }`, map[string]any{"n": name})
	if n := len(one.Data["savedQueryVersions"].([]any)); n != 1 {
		t.Errorf("first: 1 gave %d versions", n)
	}
	for _, tt := range []struct {
		vars map[string]any
		code string
	}{
		{map[string]any{"n": name, "f": 0}, "BAD_USER_INPUT"},
		{map[string]any{"n": name, "f": 1001}, "BAD_USER_INPUT"},
		{map[string]any{"n": "Not A Slug", "f": 1}, "BAD_USER_INPUT"},
		{map[string]any{"n": "no-such-query-at-all", "f": 1}, "NOT_FOUND"},
	} {
		res := s.h.Post(`query($n: String!, $f: Int) { savedQueryVersions(name: $n, first: $f) { version } }`, tt.vars)
		if len(res.Errors) != 1 || res.Errors[0].Extensions["code"] != tt.code {
			t.Errorf("%v: %s, want %s", tt.vars, res.Raw, tt.code)
		}
	}
}

// TestRunSavedQueryRefusesUndeclaredVariables: a misspelt variable is
// refused over GraphQL as GET and POST /queries refuse it, never ignored.
func TestRunSavedQueryRefusesUndeclaredVariables(t *testing.T) {
	t.Parallel()
	s := newSeedPaths(t)
	name := queryName(t, s.h, "declared")
	s.h.MustPost(saveMutation, map[string]any{"in": map[string]any{"name": name, "title": "One",
		"document": `query One($id: ID!) { entity(id: $id) { name } }`, "defaultVariables": map[string]any{"id": s.id("caesar")}}})
	res := s.h.Post(`query($n: String!, $v: JSON) { runSavedQuery(name: $n, variables: $v) { data } }`,
		map[string]any{"n": name, "v": map[string]any{"idd": s.id("qatar")}})
	if len(res.Errors) != 1 || res.Errors[0].Extensions["code"] != "BAD_USER_INPUT" || !strings.Contains(res.Errors[0].Message, "idd: the query declares no variable $idd") {
		t.Errorf("runSavedQuery with $idd: %s", res.Raw)
	}
	for _, req := range []struct {
		method, path, body string
	}{
		{"GET", "/queries/" + name + "?idd=x", ""},
		{"POST", "/queries/" + name, `{"idd": "x"}`},
	} {
		r, err := http.NewRequest(req.method, s.h.URL+req.path, strings.NewReader(req.body))
		if err != nil {
			t.Fatal(err)
		}
		r.Header.Set("Content-Type", "application/json")
		got := s.h.Do(r)
		if got.Status != 400 || !strings.Contains(got.Raw, "idd: the query declares no variable $idd") {
			t.Errorf("%s %s: %d %s", req.method, req.path, got.Status, got.Raw)
		}
	}
}
