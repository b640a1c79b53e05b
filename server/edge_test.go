package server_test

// The HTTP edge's tests: limits, refusals, transports, body size, error
// shape. They run the real handler (servertest.Edge) over a store that
// refuses every call, so a request that reaches the data fails the test,
// and they need no Neo4j (`make test-unit` runs them).

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/server"
	"github.com/casegraph/casegraph/server/servertest"
)

func newEdge(t *testing.T, configure func(*server.Config)) *harness {
	t.Helper()
	return servertest.Edge(t, options{Config: configure})
}

// TestRefusedBeforeTheDatabase: limits apply at parse and validation time,
// so a refused query never reaches the store.
func TestRefusedBeforeTheDatabase(t *testing.T) {
	t.Parallel()
	h := newEdge(t, func(c *server.Config) {
		c.MaxTokens = 300
		c.MaxDepth = 3
		c.MaxComplexity = 20
	})
	tests := []struct {
		name   string
		query  string
		reason string
	}{
		{"token limit", "{ " + strings.Repeat("entity(id: \"x\") { id } ", 40) + "}", "GRAPHQL_PARSE_FAILED"},
		{"too complex, by aliases", "{ " + aliases(20) + " }", "COMPLEXITY_LIMIT_EXCEEDED"},
		{"unknown field", `{ entity(id: "x") { nope } }`, "GRAPHQL_VALIDATION_FAILED"},
		{"wrong argument type", `{ entity(id: 5.5) { id } }`, "GRAPHQL_VALIDATION_FAILED"},
		{"syntax", `{ entity(id: "x" { id } }`, "GRAPHQL_PARSE_FAILED"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := h.Post(tt.query, nil)
			if res.Code() != "BAD_USER_INPUT" || res.Reason() != tt.reason {
				t.Fatalf("got %s, want BAD_USER_INPUT with reason %s", res.Raw, tt.reason)
			}
		})
	}
}

func TestDepthLimit(t *testing.T) {
	t.Parallel()
	limit1 := newEdge(t, func(c *server.Config) { c.MaxDepth = 1 })
	limit2 := newEdge(t, func(c *server.Config) { c.MaxDepth = 2 })
	tests := []struct {
		name  string
		query string
		depth int
	}{
		{"root field only", `{ __typename }`, 1},
		{"field of a field", `{ entity(id: "x") { id } }`, 2},
		{"through fragments", `{ entity(id: "x") { ...A } } fragment A on Entity { ... on Person { id } }`, 2},
		{"introspection does not count", `{ __schema { types { fields { type { ofType { name } } } } } }`, 0},
	}
	for _, h := range []*harness{limit1, limit2} {
		// A query within the limit goes on to the store, which refuses it.
		h.Refusing.Allow("ReadEntities")
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for limit, h := range map[int]*harness{1: limit1, 2: limit2} {
				res := h.Post(tt.query, nil)
				if tt.depth <= limit {
					if len(res.Errors) > 0 && res.Code() != "DATABASE_UNAVAILABLE" {
						t.Errorf("depth %d, limit %d: %s, want it past the limits", tt.depth, limit, res.Raw)
					}
					continue
				}
				if res.Code() != "BAD_USER_INPUT" || res.Reason() != "DEPTH_LIMIT_EXCEEDED" {
					t.Errorf("depth %d, limit %d: got %s, want DEPTH_LIMIT_EXCEEDED", tt.depth, limit, res.Raw)
				}
			}
		})
	}
}

func TestBodyLimits(t *testing.T) {
	t.Parallel()
	h := newEdge(t, func(c *server.Config) { c.MaxBodyBytes = 4096 })

	big := h.Post(`{ entity(id: "`+strings.Repeat("x", 5000)+`") { id } }`, nil)
	if big.Status != http.StatusRequestEntityTooLarge || big.Code() != "BAD_USER_INPUT" {
		t.Errorf("over the limit: status %d, body %s; want 413 BAD_USER_INPUT", big.Status, big.Raw)
	}

	const secret = "s3cr3t-payload"
	bad := h.PostRaw([]byte(`{"query": "{ entity(id: \"` + secret + `\") { id } }"`))
	if bad.Status != http.StatusBadRequest || bad.Code() != "BAD_USER_INPUT" {
		t.Errorf("malformed JSON: status %d, body %s; want 400 BAD_USER_INPUT", bad.Status, bad.Raw)
	}
	if strings.Contains(bad.Raw, secret) {
		t.Errorf("malformed JSON: the response echoes the body: %s", bad.Raw)
	}
}

func TestMutationOverGETIsRefused(t *testing.T) {
	t.Parallel()
	h := newEdge(t, nil)
	res := h.Get("/graphql?query=" + url.QueryEscape(`mutation M { __typename }`))
	if res.Status == http.StatusOK || res.Code() != "BAD_USER_INPUT" {
		t.Errorf("mutation over GET: status %d, body %s; want a refusal with BAD_USER_INPUT", res.Status, res.Raw)
	}
	raw, err := h.Client().Get(h.URL + "/graphql?query=" + url.QueryEscape(`mutation M { __typename }`))
	if err != nil {
		t.Fatal(err)
	}
	raw.Body.Close()
	if raw.StatusCode != http.StatusMethodNotAllowed || raw.Header.Get("Allow") != "POST" {
		t.Errorf("mutation over GET: %d with Allow %q, want 405 with Allow: POST", raw.StatusCode, raw.Header.Get("Allow"))
	}
}

// panicky makes the store panic, to prove recovery.
type panicky struct{ server.Store }

func (p panicky) Entities(ctx context.Context, q casegraph.EntitiesRequest) ([]casegraph.Entity, []string, bool, error) {
	if q.Filter.NameContains == "boom" {
		panic("boom")
	}
	return p.Store.Entities(ctx, q)
}

func TestPanicIsInternalAndServingGoesOn(t *testing.T) {
	t.Parallel()
	h := servertest.Edge(t, options{Store: func(s server.Store) server.Store { return panicky{s} }})

	res := h.Post(`{ entities(filter: {nameContains: "boom"}) { edges { node { id } } } }`, nil)
	if res.Code() != "INTERNAL" || res.Errors[0].Message != "internal error" {
		t.Fatalf("panic: got %s, want INTERNAL", res.Raw)
	}
	if strings.Contains(res.Raw, "goroutine") || strings.Contains(res.Raw, "boom") {
		t.Errorf("panic details reach the client: %s", res.Raw)
	}
	if !strings.Contains(h.Logs.String(), `"req_id"`) || !strings.Contains(h.Logs.String(), "panic in resolver") {
		t.Errorf("the panic is not logged with its request id:\n%s", h.Logs.String())
	}
	next := h.Post(`query N { __typename }`, nil)
	if len(next.Errors) > 0 || next.Data["__typename"] != "Query" {
		t.Fatalf("the request after a panic failed: %s", next.Raw)
	}
}

// TestHealthAndMetricsShape: /healthz answers without the database,
// /readyz says 503 with a reason when the database refuses, and /metrics
// counts requests by route, operation and code.
func TestHealthAndMetricsShape(t *testing.T) {
	t.Parallel()
	h := newEdge(t, nil)
	h.Refusing.Allow("Ping", "SchemaApplied")
	if res := h.Get("/healthz"); res.Status != http.StatusOK || strings.TrimSpace(res.Raw) != `{"status":"ok"}` {
		t.Errorf("/healthz: %d %s", res.Status, res.Raw)
	}
	if res := h.Get("/readyz"); res.Status != http.StatusServiceUnavailable ||
		!strings.HasPrefix(res.Raw, `{"status":"unavailable","error":"the database is unavailable`) {
		t.Errorf("/readyz without a database: %d %s, want 503 unavailable with a reason", res.Status, res.Raw)
	}
	h.Post(`query Named { __typename }`, nil)
	res := h.Get("/metrics")
	for _, want := range []string{
		`casegraph_http_requests_total{code="200",operation="Named",route="/graphql"}`,
		`casegraph_http_request_duration_seconds_bucket{operation="Named",route="/graphql"`,
		`casegraph_http_requests_total{code="503",operation="",route="/readyz"}`,
	} {
		if !strings.Contains(res.Raw, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

func TestIntrospectionCanBeTurnedOff(t *testing.T) {
	t.Parallel()
	on := newEdge(t, nil)
	off := newEdge(t, func(c *server.Config) { c.Introspection = false })
	const q = `{ __schema { queryType { name } } }`
	if res := on.Post(q, nil); len(res.Errors) > 0 {
		t.Errorf("introspection on: %s", res.Raw)
	}
	for _, q := range []string{q, `{ entity(id: "x") { id } ...F } fragment F on Query { __schema { types { name } } }`, `{ __type(name: "Query") { name } }`} {
		if res := off.Post(q, nil); res.Code() != "FORBIDDEN" {
			t.Errorf("introspection off: %s: got %s, want FORBIDDEN", q, res.Raw)
		}
	}
	if res := off.Post(`{ __typename }`, nil); len(res.Errors) > 0 {
		t.Errorf("introspection off: __typename is refused: %s", res.Raw)
	}
}

// TestTransports: what each method and content type gets at /graphql,
// with the default configuration (no CORS origins: OPTIONS is not routed).
func TestTransports(t *testing.T) {
	t.Parallel()
	h := newEdge(t, nil)
	const doc = `{"query": "query T { __typename }"}`
	tests := []httpCase{
		{"POST JSON", http.MethodPost, "/graphql", "application/json", doc, 200, "", ""},
		{"POST JSON with a charset", http.MethodPost, "/graphql", "application/json; charset=utf-8", doc, 200, "", ""},
		{"GET", http.MethodGet, "/graphql?query=" + url.QueryEscape(`query T { __typename }`), "", "", 200, "", ""},
		{"GET with bad variables", http.MethodGet, "/graphql?query=" + url.QueryEscape(`query T { __typename }`) + "&variables=nope", "", "", 400, "BAD_USER_INPUT", "INVALID_REQUEST"},
		{"POST of plain text", http.MethodPost, "/graphql", "text/plain", doc, 415, "BAD_USER_INPUT", "UNSUPPORTED_MEDIA_TYPE"},
		{"POST without a query", http.MethodPost, "/graphql", "application/json", `{}`, 400, "BAD_USER_INPUT", "GRAPHQL_VALIDATION_FAILED"},
		// No CORS origins by default, so no preflight is answered; cors_test.go has them.
		{"OPTIONS preflight without CORS origins", http.MethodOptions, "/graphql", "", "", 405, "BAD_USER_INPUT", "METHOD_NOT_ALLOWED"},
		{"PUT", http.MethodPut, "/graphql", "application/json", doc, 405, "BAD_USER_INPUT", "METHOD_NOT_ALLOWED"},
		{"unknown route", http.MethodGet, "/nope", "", "", 404, "NOT_FOUND", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := tt.check(t, h)
			if tt.status == 200 && res.Data["__typename"] != "Query" {
				t.Errorf("data %v, want __typename Query", res.Data)
			}
		})
	}
}

// TestSavedQueryRouteRefusals: GET /queries/{name} refuses a bad format,
// name or version before it reads the saved query.
func TestSavedQueryRouteRefusals(t *testing.T) {
	t.Parallel()
	h := newEdge(t, nil)
	for _, tt := range []struct {
		path   string
		status int
		msg    string
	}{
		{"/queries/some-query?format=xml", 400, "json, csv or tsv"},
		{"/queries/some-query?format=csv&bom=2", 400, "bom must be 1 or 0"},
		{"/queries/some-query?version=x", 400, "whole number"},
		{"/queries/some-query?version=0", 400, "whole number"},
		{"/queries/Not_A_Slug", 400, "not a valid name"},
	} {
		res, body := get(t, h, tt.path)
		if res.StatusCode != tt.status || !strings.Contains(body, tt.msg) || !strings.Contains(body, `"code":"BAD_USER_INPUT"`) {
			t.Errorf("%s: %d %s, want %d BAD_USER_INPUT with %q", tt.path, res.StatusCode, body, tt.status, tt.msg)
		}
	}
}

// TestRequestShapeRefused: a body that is JSON but not a GraphQL request
// gets BAD_USER_INPUT with a reason, before anything else runs (these were
// INTERNAL, logged with the whole body).
func TestRequestShapeRefused(t *testing.T) {
	t.Parallel()
	h := newEdge(t, nil)
	tests := []struct {
		name, body, reason string
	}{
		{"a batch", `[{"query": "{ __typename }"}]`, "BATCHING_NOT_SUPPORTED"},
		{"a number as the query", `{"query": 123}`, "INVALID_REQUEST"},
		{"variables as a string", `{"query": "{ __typename }", "variables": "{}"}`, "INVALID_REQUEST"},
		{"variables as a list", `{"query": "{ __typename }", "variables": []}`, "INVALID_REQUEST"},
		{"a number as the operation name", `{"query": "{ __typename }", "operationName": 5}`, "INVALID_REQUEST"},
		{"extensions as a string", `{"query": "{ __typename }", "extensions": "x"}`, "INVALID_REQUEST"},
		{"a JSON string", `"{ __typename }"`, "INVALID_REQUEST"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := h.PostRaw([]byte(tt.body))
			if res.Status != http.StatusBadRequest || res.Code() != "BAD_USER_INPUT" || res.Reason() != tt.reason {
				t.Errorf("got %d %s, want 400 BAD_USER_INPUT %s", res.Status, res.Raw, tt.reason)
			}
		})
	}
	if res := h.PostRaw([]byte(`{"query": "{ __typename }", "variables": null, "operationName": null}`)); res.Status != http.StatusOK || len(res.Errors) > 0 {
		t.Errorf("nulls where values may be: %d %s", res.Status, res.Raw)
	}
	if calls := h.Refusing.Calls(); len(calls) > 0 {
		t.Errorf("refused bodies reached the store: %v", calls)
	}
}
