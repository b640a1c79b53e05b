package server_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/casegraph/casegraph/server"
)

// TestMediaTypes: a request error (nothing executed) gets the status the
// GraphQL-over-HTTP spec asks of the media type the client accepts: 200
// under application/json (the default), 4xx under
// application/graphql-response+json; a body without "data" under both; a
// request with no document 400 under both; a mutation over GET 405 under
// both. An executed request keeps "data".
func TestMediaTypes(t *testing.T) {
	t.Parallel()
	h := newEdge(t, func(c *server.Config) {
		c.MaxDepth = 2
		c.Introspection = false
	})
	const (
		legacy = "application/json"
		gql    = "application/graphql-response+json"
	)
	type want struct {
		Status      int
		ContentType string
		Reason      string
		HasData     bool
	}
	tests := []struct {
		name, method, accept, body string
		want                       want
	}{
		{"answer, no Accept", "POST", "", `{"query": "{ __typename }"}`, want{200, legacy, "", true}},
		{"answer", "POST", gql, `{"query": "{ __typename }"}`, want{200, gql, "", true}},
		{"parse failure, no Accept", "POST", "", `{"query": "{"}`, want{200, legacy, "GRAPHQL_PARSE_FAILED", false}},
		{"parse failure", "POST", legacy, `{"query": "{"}`, want{200, legacy, "GRAPHQL_PARSE_FAILED", false}},
		{"parse failure", "POST", gql, `{"query": "{"}`, want{400, gql, "GRAPHQL_PARSE_FAILED", false}},
		{"validation failure", "POST", legacy, `{"query": "{ nope }"}`, want{200, legacy, "GRAPHQL_VALIDATION_FAILED", false}},
		{"validation failure", "POST", gql, `{"query": "{ nope }"}`, want{400, gql, "GRAPHQL_VALIDATION_FAILED", false}},
		{"coercion failure", "POST", legacy, `{"query": "query Q($id: ID!) { entity(id: $id) { id } }", "variables": {"id": {"a": 1}}}`, want{200, legacy, "GRAPHQL_VALIDATION_FAILED", false}},
		{"coercion failure", "POST", gql, `{"query": "query Q($id: ID!) { entity(id: $id) { id } }", "variables": {"id": {"a": 1}}}`, want{400, gql, "GRAPHQL_VALIDATION_FAILED", false}},
		{"over the depth limit", "POST", legacy, `{"query": "{ entity(id: \"x\") { relations { edges { node { id } } } } }"}`, want{200, legacy, "DEPTH_LIMIT_EXCEEDED", false}},
		{"over the depth limit", "POST", gql, `{"query": "{ entity(id: \"x\") { relations { edges { node { id } } } } }"}`, want{400, gql, "DEPTH_LIMIT_EXCEEDED", false}},
		{"introspection off", "POST", legacy, `{"query": "{ __schema { queryType { name } } }"}`, want{200, legacy, "INTROSPECTION_DISABLED", false}},
		{"introspection off", "POST", gql, `{"query": "{ __schema { queryType { name } } }"}`, want{403, gql, "INTROSPECTION_DISABLED", false}},
		{"no document", "POST", legacy, `{}`, want{400, legacy, "GRAPHQL_VALIDATION_FAILED", false}},
		{"no document", "POST", gql, `{"variables": {}}`, want{400, gql, "GRAPHQL_VALIDATION_FAILED", false}},
		{"mutation over GET", "GET", legacy, `mutation M { __typename }`, want{405, legacy, "METHOD_NOT_ALLOWED", false}},
		{"mutation over GET", "GET", gql, `mutation M { __typename }`, want{405, gql, "METHOD_NOT_ALLOWED", false}},
		{"GET answer", "GET", gql, `{ __typename }`, want{200, gql, "", true}},
		{"GET validation failure", "GET", gql, `{ nope }`, want{400, gql, "GRAPHQL_VALIDATION_FAILED", false}},
		{"GET validation failure", "GET", legacy, `{ nope }`, want{200, legacy, "GRAPHQL_VALIDATION_FAILED", false}},
	}
	for _, tt := range tests {
		t.Run(tt.name+" as "+tt.accept, func(t *testing.T) {
			var req *http.Request
			var err error
			if tt.method == "GET" {
				req, err = http.NewRequest("GET", h.URL+"/graphql?query="+url.QueryEscape(tt.body), nil)
			} else {
				req, err = http.NewRequest("POST", h.URL+"/graphql", strings.NewReader(tt.body))
				req.Header.Set("Content-Type", "application/json")
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.accept != "" {
				req.Header.Set("Accept", tt.accept)
			}
			res := h.Do(req)
			var top map[string]json.RawMessage
			if err := json.Unmarshal([]byte(res.Raw), &top); err != nil {
				t.Fatalf("body %q: %v", res.Raw, err)
			}
			_, hasData := top["data"]
			got := want{res.Status, res.Header.Get("Content-Type"), res.Reason(), hasData}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s\nbody %s", diff, res.Raw)
			}
		})
	}
}
