package server_test

// @defer: refused without multipart, served over it.

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server/servertest"
)

const multipartAccept = "multipart/mixed; deferSpec=20220824, application/json"

// TestDeferRefusedWithoutMultipart: @defer anywhere in an operation
// (inline, on a spread, inside a fragment) is refused before it runs
// unless the request is a POST that accepts multipart/mixed: the other
// transports would send the first part alone.
func TestDeferRefusedWithoutMultipart(t *testing.T) {
	t.Parallel()
	h := newEdge(t, nil)
	for _, tt := range []struct {
		name, method, accept, query string
	}{
		{"inline, POST JSON", "POST", "application/json", `{ entity(id: "x") { id ... @defer { name } } }`},
		{"inline, POST graphql-response+json", "POST", "application/graphql-response+json", `{ entity(id: "x") { id ... @defer { name } } }`},
		{"on a spread", "POST", "", `{ entity(id: "x") { id ...N @defer } } fragment N on Entity { name }`},
		{"inside a fragment", "POST", "", `{ entity(id: "x") { ...N } } fragment N on Entity { id ... @defer { name } }`},
		{"GET, even accepting multipart", "GET", multipartAccept, `{ entity(id: "x") { id ... @defer { name } } }`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			header := map[string]string{}
			if tt.accept != "" {
				header["Accept"] = tt.accept
			}
			var res rawResponse
			if tt.method == "GET" {
				res = fetch(t, h, "GET", "/graphql?query="+url.QueryEscape(tt.query), header, "")
			} else {
				body, _ := json.Marshal(map[string]string{"query": tt.query})
				res = fetch(t, h, "POST", "/graphql", header, string(body))
			}
			var got struct {
				Errors []struct {
					Extensions map[string]any `json:"extensions"`
				} `json:"errors"`
			}
			if err := json.Unmarshal(res.body, &got); err != nil || len(got.Errors) != 1 || got.Errors[0].Extensions["reason"] != "DEFER_NEEDS_MULTIPART" {
				t.Errorf("got %d %s, want the reason DEFER_NEEDS_MULTIPART", res.status, res.body)
			}
		})
	}
}

// TestDeferOverMultipart: a POST that accepts multipart/mixed gets the
// answer in parts, the deferred fields after the rest, compressed or not.
func TestDeferOverMultipart(t *testing.T) {
	t.Parallel()
	h := servertest.New(t, servertest.Options{})
	_, id := cyphertest.LoadSeed(t, h.Store)
	body, _ := json.Marshal(map[string]string{"query": `{ entity(id: "` + id("caesar") + `") { name ... @defer(label: "later") { relations(first: 2) { edges { node { type } } } } } }`})
	want := []string{
		`{"data":{"entity":{"name":"Caesar","relations":null}},"hasNext":true}`,
		`{"incremental":[{"data":{"relations":{"edges":[{"node":{"type":"EMPLOYED_BY"}},{"node":{"type":"WORKED_WITH"}}]}},"label":"later","path":["entity"],"hasNext":false}],"hasNext":false}`,
	}
	saved := h.Post(`mutation($in: SaveQueryInput!) { saveQuery(input: $in) { version } }`, map[string]any{"in": map[string]any{
		"name": "defer-refused", "title": "deferred", "document": `{ entity(id: "x") { id ... @defer { name } } }`}})
	if saved.Code() != "BAD_USER_INPUT" || !strings.Contains(saved.Raw, "@defer") {
		t.Errorf("saving a query with @defer: %s, want BAD_USER_INPUT about @defer", saved.Raw)
	}
	for _, enc := range []string{"identity", "gzip"} {
		res := fetch(t, h, "POST", "/graphql", map[string]string{"Accept": multipartAccept, "Accept-Encoding": enc}, string(body))
		media, params, err := mime.ParseMediaType(res.header.Get("Content-Type"))
		if res.status != 200 || err != nil || media != "multipart/mixed" {
			t.Fatalf("%s: %d %s %s", enc, res.status, res.header.Get("Content-Type"), res.body)
		}
		var parts []string
		mr := multipart.NewReader(bytes.NewReader(decoded(t, res)), params["boundary"])
		for {
			p, err := mr.NextPart()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: part %d: %v", enc, len(parts), err)
			}
			b, _ := io.ReadAll(p)
			parts = append(parts, string(b))
		}
		if diff := cmp.Diff(want, parts); diff != "" {
			t.Errorf("%s: parts (-want +got):\n%s", enc, diff)
		}
	}
}
