package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/rs/zerolog"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/graph"
	"github.com/casegraph/casegraph/server"
)

// harness is a real server over the real Neo4j, through the real handler.
type harness struct {
	t      *testing.T
	url    string
	store  *cypher.Store
	logs   *syncBuffer
	client *http.Client
}

type options struct {
	cfg   func(*server.Config)
	store func(graph.Store) graph.Store // wrap the store the resolvers see
	neo4j neo4j.DriverWithContext       // another database (default: the test one)
}

func newHarness(t *testing.T, opts options) *harness {
	t.Helper()
	cfg := server.DefaultConfig()
	if opts.cfg != nil {
		opts.cfg(&cfg)
	}
	logs := &syncBuffer{}
	log := zerolog.New(logs)
	metrics := server.NewMetrics()
	driver := opts.neo4j
	if driver == nil {
		driver = cyphertest.Driver(t)
	}
	store, err := cypher.NewStore(driver, cypher.Options{Logger: log, Observer: metrics})
	if err != nil {
		t.Fatal(err)
	}
	var resolverStore graph.Store = store
	if opts.store != nil {
		resolverStore = opts.store(store)
	}
	deps := server.Deps{Schema: graph.NewSchema(resolverStore), Loaders: store, DB: store}
	ts := httptest.NewServer(server.New(cfg, log, metrics, deps))
	t.Cleanup(ts.Close)
	return &harness{t: t, url: ts.URL, store: store, logs: logs, client: ts.Client()}
}

// response is a GraphQL response as clients see it.
type response struct {
	status int
	Data   map[string]any `json:"data"`
	Errors []struct {
		Message    string         `json:"message"`
		Extensions map[string]any `json:"extensions"`
	} `json:"errors"`
	raw string
}

func (r response) code() string {
	if len(r.Errors) == 0 {
		return ""
	}
	c, _ := r.Errors[0].Extensions["code"].(string)
	return c
}

func (h *harness) do(req *http.Request) response {
	h.t.Helper()
	res, err := h.client.Do(req)
	if err != nil {
		h.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		h.t.Fatal(err)
	}
	out := response{status: res.StatusCode, raw: string(body)}
	if err := json.Unmarshal(body, &out); err != nil && strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		h.t.Fatalf("response is not JSON: %v\n%s", err, body)
	}
	return out
}

func (h *harness) post(query string, vars map[string]any) response {
	h.t.Helper()
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		h.t.Fatal(err)
	}
	return h.postRaw(body)
}

func (h *harness) postRaw(body []byte) response {
	h.t.Helper()
	req, err := http.NewRequest(http.MethodPost, h.url+"/graphql", bytes.NewReader(body))
	if err != nil {
		h.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	return h.do(req)
}

func (h *harness) get(path string) response {
	h.t.Helper()
	req, err := http.NewRequest(http.MethodGet, h.url+path, nil)
	if err != nil {
		h.t.Fatal(err)
	}
	return h.do(req)
}

type syncBuffer struct {
	mu  chan struct{}
	buf bytes.Buffer
}

func (b *syncBuffer) lock() {
	if b.mu == nil {
		b.mu = make(chan struct{}, 1)
	}
	b.mu <- struct{}{}
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.lock()
	defer func() { <-b.mu }()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.lock()
	defer func() { <-b.mu }()
	return b.buf.String()
}

func seedOne(t *testing.T, store *cypher.Store) (ds string, id string) {
	t.Helper()
	ds = cyphertest.Dataset(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	src := casegraph.Source{ID: ds + "-src", Title: "The article", Dataset: ds}
	id = ds + "-caesar"
	err := store.WriteBatch(ctx, []casegraph.Source{src}, []casegraph.Entity{{
		ID: id, Kind: casegraph.KindPerson, Name: "Caesar", Aliases: []string{"قيصر"},
		Dataset: ds, SourceIDs: []string{src.ID}, Nationality: "SY",
	}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ds, id
}

func TestEntityOverPOSTAndGET(t *testing.T) {
	t.Parallel()
	h := newHarness(t, options{})
	_, id := seedOne(t, h.store)
	const q = `query One($id: ID!) { entity(id: $id) { id kind name aliases ... on Person { nationality } } }`

	post := h.post(q, map[string]any{"id": id})
	vars, _ := json.Marshal(map[string]any{"id": id})
	get := h.get("/graphql?query=" + url.QueryEscape(q) + "&variables=" + url.QueryEscape(string(vars)))
	for name, res := range map[string]response{"POST": post, "GET": get} {
		if res.status != http.StatusOK || len(res.Errors) > 0 {
			t.Fatalf("%s: status %d, body %s", name, res.status, res.raw)
		}
		want := map[string]any{"id": id, "kind": "PERSON", "name": "Caesar", "aliases": []any{"قيصر"}, "nationality": "SY"}
		if diff := cmp.Diff(want, res.Data["entity"]); diff != "" {
			t.Errorf("%s: entity (-want +got):\n%s", name, diff)
		}
	}

	missing := h.post(q, map[string]any{"id": "no-such-entity"})
	if missing.Data["entity"] != nil || len(missing.Errors) > 0 {
		t.Errorf("unknown id: got %s, want entity null and no error", missing.raw)
	}
}

// TestRefusedBeforeTheDatabase: limits apply at parse and validation time,
// so a refused query costs no Cypher round trip.
func TestRefusedBeforeTheDatabase(t *testing.T) {
	t.Parallel()
	h := newHarness(t, options{cfg: func(c *server.Config) {
		c.MaxTokens = 300
		c.MaxDepth = 3
		c.MaxComplexity = 20
	}})
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
			before := h.store.RoundTrips()
			res := h.post(tt.query, nil)
			if res.code() != "BAD_USER_INPUT" || res.Errors[0].Extensions["reason"] != tt.reason {
				t.Fatalf("got %s, want BAD_USER_INPUT with reason %s", res.raw, tt.reason)
			}
			if got := h.store.RoundTrips() - before; got != 0 {
				t.Errorf("%d Cypher round trips for a refused query, want 0", got)
			}
		})
	}
}

func aliases(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString("a")
		b.WriteString(strings.Repeat("x", i%5))
		b.WriteString(string(rune('a' + i%26)))
		b.WriteString(": entity(id: \"x\") { id name } ")
	}
	return b.String()
}

func TestDepthLimit(t *testing.T) {
	t.Parallel()
	limit1 := newHarness(t, options{cfg: func(c *server.Config) { c.MaxDepth = 1 }})
	limit2 := newHarness(t, options{cfg: func(c *server.Config) { c.MaxDepth = 2 }})
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
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for limit, h := range map[int]*harness{1: limit1, 2: limit2} {
				before := h.store.RoundTrips()
				res := h.post(tt.query, nil)
				if tt.depth <= limit {
					if len(res.Errors) > 0 {
						t.Errorf("depth %d, limit %d: %s", tt.depth, limit, res.raw)
					}
					continue
				}
				if res.code() != "BAD_USER_INPUT" || res.Errors[0].Extensions["reason"] != "DEPTH_LIMIT_EXCEEDED" {
					t.Errorf("depth %d, limit %d: got %s, want DEPTH_LIMIT_EXCEEDED", tt.depth, limit, res.raw)
				}
				if got := h.store.RoundTrips() - before; got != 0 {
					t.Errorf("%d round trips for a refused query", got)
				}
			}
		})
	}
}

func TestBodyLimits(t *testing.T) {
	t.Parallel()
	h := newHarness(t, options{cfg: func(c *server.Config) { c.MaxBodyBytes = 4096 }})

	big := h.post(`{ entity(id: "`+strings.Repeat("x", 5000)+`") { id } }`, nil)
	if big.status != http.StatusRequestEntityTooLarge || big.code() != "BAD_USER_INPUT" {
		t.Errorf("over the limit: status %d, body %s; want 413 BAD_USER_INPUT", big.status, big.raw)
	}

	const secret = "s3cr3t-payload"
	bad := h.postRaw([]byte(`{"query": "{ entity(id: \"` + secret + `\") { id } }"`))
	if bad.status != http.StatusBadRequest || bad.code() != "BAD_USER_INPUT" {
		t.Errorf("malformed JSON: status %d, body %s; want 400 BAD_USER_INPUT", bad.status, bad.raw)
	}
	if strings.Contains(bad.raw, secret) {
		t.Errorf("malformed JSON: the response echoes the body: %s", bad.raw)
	}
}

func TestMutationOverGETIsRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t, options{})
	res := h.get("/graphql?query=" + url.QueryEscape(`mutation M { __typename }`))
	if res.status == http.StatusOK || res.code() != "BAD_USER_INPUT" {
		t.Errorf("mutation over GET: status %d, body %s; want a refusal with BAD_USER_INPUT", res.status, res.raw)
	}
}

// panicky makes the resolvers' store panic, to prove recovery.
type panicky struct{ graph.Store }

func (p panicky) Entities(ctx context.Context, f casegraph.EntityFilter, page casegraph.Page) ([]casegraph.Entity, bool, error) {
	if f.NameContains == "boom" {
		panic("boom")
	}
	return p.Store.Entities(ctx, f, page)
}

func TestPanicIsInternalAndServingGoesOn(t *testing.T) {
	t.Parallel()
	h := newHarness(t, options{store: func(s graph.Store) graph.Store { return panicky{s} }})
	_, id := seedOne(t, h.store)

	res := h.post(`{ entities(filter: {nameContains: "boom"}) { edges { node { id } } } }`, nil)
	if res.code() != "INTERNAL" || res.Errors[0].Message != "internal error" {
		t.Fatalf("panic: got %s, want INTERNAL", res.raw)
	}
	if strings.Contains(res.raw, "goroutine") || strings.Contains(res.raw, "boom") {
		t.Errorf("panic details reach the client: %s", res.raw)
	}
	if !strings.Contains(h.logs.String(), `"req_id"`) || !strings.Contains(h.logs.String(), "panic in resolver") {
		t.Errorf("the panic is not logged with its request id:\n%s", h.logs.String())
	}
	next := h.post(`query N($id: ID!) { entity(id: $id) { id } }`, map[string]any{"id": id})
	if len(next.Errors) > 0 {
		t.Fatalf("the request after a panic failed: %s", next.raw)
	}
}

func TestHealthReadyMetrics(t *testing.T) {
	t.Parallel()
	h := newHarness(t, options{})
	if res := h.get("/healthz"); res.status != http.StatusOK {
		t.Errorf("/healthz: %d %s", res.status, res.raw)
	}
	if res := h.get("/readyz"); res.status != http.StatusOK {
		t.Errorf("/readyz: %d %s", res.status, res.raw)
	}
	h.post(`query Named { entity(id: "x") { id } }`, nil)
	res := h.get("/metrics")
	for _, want := range []string{
		`casegraph_cypher_queries_total{query="EntitiesByID"}`,
		`casegraph_http_requests_total{code="200",operation="Named",route="/graphql"}`,
		`casegraph_http_request_duration_seconds_bucket{operation="Named",route="/graphql"`,
	} {
		if !strings.Contains(res.raw, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

func TestIntrospectionCanBeTurnedOff(t *testing.T) {
	t.Parallel()
	on := newHarness(t, options{})
	off := newHarness(t, options{cfg: func(c *server.Config) { c.Introspection = false }})
	const q = `{ __schema { queryType { name } } }`
	if res := on.post(q, nil); len(res.Errors) > 0 {
		t.Errorf("introspection on: %s", res.raw)
	}
	for _, q := range []string{q, `{ entity(id: "x") { id } ...F } fragment F on Query { __schema { types { name } } }`, `{ __type(name: "Query") { name } }`} {
		if res := off.post(q, nil); res.code() != "FORBIDDEN" {
			t.Errorf("introspection off: %s: got %s, want FORBIDDEN", q, res.raw)
		}
	}
	if res := off.post(`{ __typename }`, nil); len(res.Errors) > 0 {
		t.Errorf("introspection off: __typename is refused: %s", res.raw)
	}
}

// gate is a TCP proxy to Neo4j that refuses connections until opened: a
// database that is down, then comes up.
type gate struct {
	ln   net.Listener
	open atomic.Bool
}

func newGate(t *testing.T, target string) *gate {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g := &gate{ln: ln}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			if !g.open.Load() {
				c.Close()
				continue
			}
			go func() {
				defer c.Close()
				up, err := net.Dial("tcp", target)
				if err != nil {
					return
				}
				defer up.Close()
				go io.Copy(up, c)
				io.Copy(c, up)
			}()
		}
	}()
	return g
}

func TestDatabaseDownThenUp(t *testing.T) {
	t.Parallel()
	target := strings.TrimPrefix(strings.TrimPrefix(cyphertest.URI(), "bolt://"), "neo4j://")
	g := newGate(t, target)
	h := newHarness(t, options{neo4j: driverTo(t, g.ln.Addr().String())})

	if res := h.get("/readyz"); res.status != http.StatusServiceUnavailable {
		t.Errorf("/readyz while down: %d %s, want 503", res.status, res.raw)
	}
	start := time.Now()
	res := h.post(`{ entity(id: "x") { id } }`, nil)
	took := time.Since(start)
	if res.code() != "DATABASE_UNAVAILABLE" {
		t.Errorf("query while down: got %s, want DATABASE_UNAVAILABLE", res.raw)
	}
	// Not a speed figure: the driver's own defaults would take 30 s here.
	if took > 5*time.Second {
		t.Errorf("DATABASE_UNAVAILABLE took %s, want under 5s", took)
	}

	g.open.Store(true)
	deadline := time.Now().Add(15 * time.Second)
	for {
		res := h.get("/readyz")
		if res.status == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz after the database came up: %d %s", res.status, res.raw)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if res := h.post(`{ entity(id: "x") { id } }`, nil); len(res.Errors) > 0 {
		t.Errorf("query after the database came up: %s", res.raw)
	}
}

func TestClosedPortIsUnavailable(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	h := newHarness(t, options{neo4j: driverTo(t, addr)})
	if res := h.get("/readyz"); res.status != http.StatusServiceUnavailable {
		t.Errorf("/readyz: %d %s, want 503", res.status, res.raw)
	}
	start := time.Now()
	res := h.post(`{ entity(id: "x") { id } }`, nil)
	if res.code() != "DATABASE_UNAVAILABLE" || time.Since(start) > 5*time.Second {
		t.Errorf("got %s after %s, want DATABASE_UNAVAILABLE under 5s", res.raw, time.Since(start))
	}
	if strings.Contains(strings.ToLower(res.raw), "bolt") || strings.Contains(res.raw, addr) {
		t.Errorf("driver details reach the client: %s", res.raw)
	}
}

// driverTo is a driver for a Bolt server at addr, closed when the test ends.
func driverTo(t *testing.T, addr string) neo4j.DriverWithContext {
	t.Helper()
	driver, err := neo4j.NewDriverWithContext("bolt://"+addr, neo4j.NoAuth(), cypher.DriverConfig)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { driver.Close(context.Background()) })
	return driver
}
