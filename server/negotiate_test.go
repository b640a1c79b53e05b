package server_test

import (
	"encoding/json"
	"mime"
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

// TestNegotiation: each client's Accept gets the media type it ranks best
// for its operation: urql's default (JSON types first, then
// text/event-stream) a JSON answer for a query and a stream for a
// subscription; graphql-sse's a stream for any operation; an Accept the
// server can send nothing for, 406 (NOT_ACCEPTABLE, naming what it
// sends), before gqlgen; a subscription or @defer its client accepts no
// stream or multipart for, 406 with the reason. None reaches the store.
const gqlResponseJSON = "application/graphql-response+json"

func TestNegotiation(t *testing.T) {
	t.Parallel()
	h := newEdge(t, nil)
	const (
		urql       = "application/graphql-response+json, application/graphql+json, application/json, text/event-stream, multipart/mixed"
		query      = `{ __typename }`
		deferred   = `query D { ... @defer { __typename } }`
		subscribed = `subscription S { watchPath(from: "a", to: "b", filter: {maxDepth: 99}) { kind } }`
	)
	type want struct {
		Status      int
		ContentType string
		Has         string // in the body
	}
	tests := []struct {
		name, method, accept, query string
		want                        want
	}{
		{"urql's query", "POST", urql, query, want{200, gqlResponseJSON, `"__typename":"Query"`}},
		{"urql's mutation", "POST", urql, `mutation { __typename }`, want{200, gqlResponseJSON, `"__typename":"Mutation"`}},
		{"urql's subscription", "POST", urql, subscribed, want{200, "text/event-stream", `"BAD_USER_INPUT"`}},
		{"urql's @defer", "POST", urql, deferred, want{200, "multipart/mixed", `"__typename":"Query"`}},
		{"urql's subscription exchange, a query", "POST", "text/event-stream, multipart/mixed", query, want{200, "text/event-stream", `data: {"data":{"__typename":"Query"}}`}},
		{"graphql-sse's query", "POST", "text/event-stream", query, want{200, "text/event-stream", `data: {"data":{"__typename":"Query"}}`}},
		{"q-values first", "POST", "application/json;q=0.5, application/graphql-response+json", query, want{200, gqlResponseJSON, `"Query"`}},
		{"order on a tie", "POST", "application/json, application/graphql-response+json", query, want{200, "application/json", `"Query"`}},
		{"a wildcard", "POST", "text/html, */*;q=0.1", query, want{200, "application/json", `"Query"`}},
		{"a stream refused by q=0", "POST", "text/event-stream;q=0, application/json", query, want{200, "application/json", `"Query"`}},
		{"nothing acceptable", "POST", "text/html", query, want{406, "application/json", `"NOT_ACCEPTABLE"`}},
		{"nothing acceptable names what is", "POST", "text/*", query, want{406, "application/json", `text/event-stream`}},
		{"nothing acceptable over GET", "GET", "text/event-stream", query, want{406, "application/json", `"NOT_ACCEPTABLE"`}},
		{"a subscription as JSON", "POST", "application/json", subscribed, want{406, "application/json", `"SUBSCRIPTION_NEEDS_STREAM"`}},
		{"a subscription as graphql-response+json", "POST", gqlResponseJSON, subscribed, want{406, gqlResponseJSON, `"SUBSCRIPTION_NEEDS_STREAM"`}},
		{"@defer as JSON", "POST", "application/json", deferred, want{406, "application/json", `"DEFER_NEEDS_MULTIPART"`}},
		{"@defer over GET", "GET", "multipart/mixed, application/json", deferred, want{406, "application/json", `"DEFER_NEEDS_MULTIPART"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var req *http.Request
			var err error
			if tt.method == "GET" {
				req, err = http.NewRequest("GET", h.URL+"/graphql?query="+url.QueryEscape(tt.query), nil)
			} else {
				body, _ := json.Marshal(map[string]string{"query": tt.query})
				req, err = http.NewRequest("POST", h.URL+"/graphql", strings.NewReader(string(body)))
				req.Header.Set("Content-Type", "application/json")
			}
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Accept", tt.accept)
			res := h.Do(req)
			media, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type"))
			got := want{res.Status, media, tt.want.Has}
			if !strings.Contains(res.Raw, tt.want.Has) {
				got.Has = res.Raw
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if calls := h.Refusing.Calls(); len(calls) > 0 {
		t.Errorf("the store was called: %v", calls)
	}
}
