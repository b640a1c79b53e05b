package server_test

// Saved queries run over HTTP (GET and POST /queries/{name}), as JSON and
// tables.

import (
	"crypto/rand"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server/servertest"
)

func saveQuery(t *testing.T, h *servertest.Harness, doc string, defaults map[string]any) string {
	t.Helper()
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	name := "http-test-" + hex.EncodeToString(b)
	h.MustPost(`mutation($in: SaveQueryInput!) { saveQuery(input: $in) { version } }`, map[string]any{"in": map[string]any{
		"name": name, "title": "A query", "document": doc, "defaultVariables": defaults}})
	t.Cleanup(func() {
		h.Post(`mutation($n: String!) { deleteSavedQuery(name: $n) { versions } }`, map[string]any{"n": name})
	})
	return name
}

func get(t *testing.T, h *servertest.Harness, path string) (*http.Response, string) {
	t.Helper()
	res, err := h.Client().Get(h.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res, string(body)
}

func TestQueriesOverHTTP(t *testing.T) {
	t.Parallel()
	h := servertest.New(t, servertest.Options{})
	ds, id := cyphertest.LoadSeed(t, h.Store)
	_ = ds
	name := saveQuery(t, h, `query Authors($id: ID!, $types: [RelationType!], $n: Int = 10) {
  entity(id: $id) {
    name
    relations(types: $types, direction: INCOMING, first: $n) {
      edges { node { type role from { name aliases } sources { id } } }
    }
  }
}`, map[string]any{"id": id("caesar-report"), "types": []string{"AUTHORED"}})

	res, body := get(t, h, "/queries/"+name+"?format=csv")
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/csv") ||
		!strings.Contains(res.Header.Get("Content-Disposition"), `filename="`+name+`-v1.csv"`) {
		t.Fatalf("csv: %d %v\n%s", res.StatusCode, res.Header, body)
	}
	rows, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	wantHeader := "entity.relations.edges#,entity.name,node.type,node.role,node.from.name,node.from.aliases,node.sources.id"
	if strings.Join(rows[0], ",") != wantHeader || len(rows) != 4 {
		t.Errorf("csv:\n%s\nwant header %s and 3 rows", body, wantHeader)
	}
	if rows[1][0] != "1" || !strings.HasPrefix(rows[1][1], "Report into") || rows[1][2] != "AUTHORED" || rows[1][4] != "Sir Desmond de Silva" ||
		rows[1][5] != `["Desmond de Silva"]` {
		t.Errorf("first row %v", rows[1])
	}
	// TSV, and a byte-order mark for Excel.
	res, body = get(t, h, "/queries/"+name+"?format=tsv&bom=1")
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/tab-separated-values") ||
		!strings.HasPrefix(body, "\ufeffentity.relations.edges#\tentity.name\t") || strings.Count(body, "\n") != 4 {
		t.Errorf("tsv: %d %v\n%q", res.StatusCode, res.Header, body)
	}

	// Variables from the query string, coerced to their declared types.
	res, body = get(t, h, "/queries/"+name+"?types=COMMISSIONED&types=OBTAINED&n=5&format=csv")
	if res.StatusCode != 200 || strings.Count(body, "\n") != 3 {
		t.Errorf("two types: %d\n%s", res.StatusCode, body)
	}
	res, body = get(t, h, "/queries/"+name+"?id="+url.QueryEscape(id("caesar")))
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") || !strings.Contains(body, `"name":"Caesar"`) {
		t.Errorf("json: %d %s", res.StatusCode, body)
	}
	post, err := h.Client().Post(h.URL+"/queries/"+name+"?format=csv", "application/json", strings.NewReader(`{"types": ["OBTAINED"]}`))
	if err != nil {
		t.Fatal(err)
	}
	pb, _ := io.ReadAll(post.Body)
	post.Body.Close()
	if post.StatusCode != 200 || !strings.Contains(string(pb), "The Guardian") || strings.Count(string(pb), "\n") != 2 {
		t.Errorf("POST: %d %s", post.StatusCode, pb)
	}

	for _, tt := range []struct {
		path   string
		status int
		msg    string
	}{
		{"/queries/" + name + "?n=abc", 400, `is not an Int`},
		{"/queries/" + name + "?n=1&n=2", 400, "not a list"},
		{"/queries/" + name + "?nope=1", 400, "declares no variable $nope"},
		{"/queries/" + name + "?format=xml", 400, "json, csv or tsv"},
		{"/queries/" + name + "?format=csv&rows=entity.nope", 400, "lists it selects: entity.relations.edges, "},
		{"/queries/" + name + "?version=7", 404, "at version 7"},
		{"/queries/" + name + "?version=x", 400, "whole number"},
		{"/queries/no-such-saved-query", 404, "no saved query"},
		{"/queries/Not_A_Slug", 400, "not a valid name"},
		{"/queries/" + name + "?types=LOVES", 400, "LOVES"}, // an error of the run, with no data
		{"/queries/" + name + "?n=NaN", 400, "is not an Int"},
	} {
		res, body := get(t, h, tt.path)
		if res.StatusCode != tt.status || !strings.Contains(body, tt.msg) {
			t.Errorf("%s: %d %s, want %d with %q", tt.path, res.StatusCode, body, tt.status, tt.msg)
		}
	}

	// The complexity limit holds for a run's own variables, not only the
	// defaults the query was checked with when saved.
	heavy := saveQuery(t, h, `query Heavy($n: Int!) { entities(first: $n) { edges { node { relations(first: $n) { edges { node { from { id } to { id } } } } } } } }`,
		map[string]any{"n": 5})
	if res, body := get(t, h, "/queries/"+heavy+"?n=100"); res.StatusCode != 400 || !strings.Contains(body, "COMPLEXITY_LIMIT_EXCEEDED") {
		t.Errorf("a run over the complexity limit: %d %s", res.StatusCode, body)
	}
	floats := saveQuery(t, h, `query F($c: Float) { shortestPath(from: "a", to: "a", filter: {minConfidence: $c}) { length } }`, nil)
	for _, v := range []string{"NaN", "Inf", "-Inf", "x"} {
		if res, body := get(t, h, "/queries/"+floats+"?c="+v); res.StatusCode != 400 || !strings.Contains(body, "finite Float") {
			t.Errorf("c=%s: %d %s", v, res.StatusCode, body)
		}
	}

	// Without a list the first root field is the one row; a missing entity
	// is the header alone, with 200.
	noList := saveQuery(t, h, `query One($id: ID!) { entity(id: $id) { name } }`, map[string]any{"id": id("caesar")})
	if res, body = get(t, h, "/queries/"+noList+"?format=csv"); res.StatusCode != 200 || body != "name\nCaesar\n" {
		t.Errorf("csv of a result without a list: %d %q", res.StatusCode, body)
	}
	if res, body = get(t, h, "/queries/"+noList+"?format=csv&id=nobody"); res.StatusCode != 200 || body != "name\n" {
		t.Errorf("csv of a missing entity: %d %q, want the header alone", res.StatusCode, body)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
