package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/graph"
	"github.com/casegraph/casegraph/server"
	"github.com/casegraph/casegraph/server/servertest"
)

type harness = servertest.Harness
type response = servertest.Response
type options = servertest.Options

func newHarness(t *testing.T, opts options) *harness {
	t.Helper()
	return servertest.New(t, opts)
}

func seedOne(t *testing.T, store *cypher.Store) (ds string, id string) {
	t.Helper()
	ds = cyphertest.Dataset(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	src := casegraph.Source{ID: ds + "-src", Title: "The article", Dataset: ds}
	id = ds + "-caesar"
	_, err := store.WriteBatch(ctx, []casegraph.Source{src}, []casegraph.Entity{{
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
	_, id := seedOne(t, h.Store)
	const q = `query One($id: ID!) { entity(id: $id) { id kind name aliases ... on Person { nationality } } }`

	post := h.Post(q, map[string]any{"id": id})
	vars, _ := json.Marshal(map[string]any{"id": id})
	get := h.Get("/graphql?query=" + url.QueryEscape(q) + "&variables=" + url.QueryEscape(string(vars)))
	for name, res := range map[string]response{"POST": post, "GET": get} {
		if res.Status != http.StatusOK || len(res.Errors) > 0 {
			t.Fatalf("%s: status %d, body %s", name, res.Status, res.Raw)
		}
		want := map[string]any{"id": id, "kind": "PERSON", "name": "Caesar", "aliases": []any{"قيصر"}, "nationality": "SY"}
		if diff := cmp.Diff(want, res.Data["entity"]); diff != "" {
			t.Errorf("%s: entity (-want +got):\n%s", name, diff)
		}
	}

	missing := h.Post(q, map[string]any{"id": "no-such-entity"})
	if missing.Data["entity"] != nil || len(missing.Errors) > 0 {
		t.Errorf("unknown id: got %s, want entity null and no error", missing.Raw)
	}
}

// TestRefusedBeforeTheDatabase: limits apply at parse and validation time,
// so a refused query costs no Cypher round trip.
func TestRefusedBeforeTheDatabase(t *testing.T) {
	t.Parallel()
	h := newHarness(t, options{Config: func(c *server.Config) {
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
			before := h.Store.RoundTrips()
			res := h.Post(tt.query, nil)
			if res.Code() != "BAD_USER_INPUT" || res.Errors[0].Extensions["reason"] != tt.reason {
				t.Fatalf("got %s, want BAD_USER_INPUT with reason %s", res.Raw, tt.reason)
			}
			if got := h.Store.RoundTrips() - before; got != 0 {
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
	limit1 := newHarness(t, options{Config: func(c *server.Config) { c.MaxDepth = 1 }})
	limit2 := newHarness(t, options{Config: func(c *server.Config) { c.MaxDepth = 2 }})
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
				before := h.Store.RoundTrips()
				res := h.Post(tt.query, nil)
				if tt.depth <= limit {
					if len(res.Errors) > 0 {
						t.Errorf("depth %d, limit %d: %s", tt.depth, limit, res.Raw)
					}
					continue
				}
				if res.Code() != "BAD_USER_INPUT" || res.Errors[0].Extensions["reason"] != "DEPTH_LIMIT_EXCEEDED" {
					t.Errorf("depth %d, limit %d: got %s, want DEPTH_LIMIT_EXCEEDED", tt.depth, limit, res.Raw)
				}
				if got := h.Store.RoundTrips() - before; got != 0 {
					t.Errorf("%d round trips for a refused query", got)
				}
			}
		})
	}
}

func TestBodyLimits(t *testing.T) {
	t.Parallel()
	h := newHarness(t, options{Config: func(c *server.Config) { c.MaxBodyBytes = 4096 }})

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
	h := newHarness(t, options{})
	res := h.Get("/graphql?query=" + url.QueryEscape(`mutation M { __typename }`))
	if res.Status == http.StatusOK || res.Code() != "BAD_USER_INPUT" {
		t.Errorf("mutation over GET: status %d, body %s; want a refusal with BAD_USER_INPUT", res.Status, res.Raw)
	}
}

// panicky makes the resolvers' store panic, to prove recovery.
type panicky struct{ graph.Store }

func (p panicky) Entities(ctx context.Context, f casegraph.EntityFilter, o casegraph.EntityOrder, page casegraph.Page) ([]casegraph.Entity, []string, bool, error) {
	if f.NameContains == "boom" {
		panic("boom")
	}
	return p.Store.Entities(ctx, f, o, page)
}

func TestPanicIsInternalAndServingGoesOn(t *testing.T) {
	t.Parallel()
	h := newHarness(t, options{Store: func(s graph.Store) graph.Store { return panicky{s} }})
	_, id := seedOne(t, h.Store)

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
	next := h.Post(`query N($id: ID!) { entity(id: $id) { id } }`, map[string]any{"id": id})
	if len(next.Errors) > 0 {
		t.Fatalf("the request after a panic failed: %s", next.Raw)
	}
}

func TestHealthReadyMetrics(t *testing.T) {
	t.Parallel()
	h := newHarness(t, options{})
	if res := h.Get("/healthz"); res.Status != http.StatusOK {
		t.Errorf("/healthz: %d %s", res.Status, res.Raw)
	}
	if res := h.Get("/readyz"); res.Status != http.StatusOK {
		t.Errorf("/readyz: %d %s", res.Status, res.Raw)
	}
	h.Post(`query Named { entity(id: "x") { id } }`, nil)
	res := h.Get("/metrics")
	for _, want := range []string{
		`casegraph_cypher_queries_total{query="ReadEntities"}`,
		`casegraph_http_requests_total{code="200",operation="Named",route="/graphql"}`,
		`casegraph_http_request_duration_seconds_bucket{operation="Named",route="/graphql"`,
	} {
		if !strings.Contains(res.Raw, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

func TestIntrospectionCanBeTurnedOff(t *testing.T) {
	t.Parallel()
	on := newHarness(t, options{})
	off := newHarness(t, options{Config: func(c *server.Config) { c.Introspection = false }})
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
	h := newHarness(t, options{Driver: driverTo(t, g.ln.Addr().String())})

	if res := h.Get("/readyz"); res.Status != http.StatusServiceUnavailable {
		t.Errorf("/readyz while down: %d %s, want 503", res.Status, res.Raw)
	}
	start := time.Now()
	res := h.Post(`{ entity(id: "x") { id } }`, nil)
	took := time.Since(start)
	if res.Code() != "DATABASE_UNAVAILABLE" {
		t.Errorf("query while down: got %s, want DATABASE_UNAVAILABLE", res.Raw)
	}
	// Not a speed figure: the driver's own defaults would take 30 s here.
	if took > 5*time.Second {
		t.Errorf("DATABASE_UNAVAILABLE took %s, want under 5s", took)
	}

	g.open.Store(true)
	deadline := time.Now().Add(15 * time.Second)
	for {
		res := h.Get("/readyz")
		if res.Status == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz after the database came up: %d %s", res.Status, res.Raw)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if res := h.Post(`{ entity(id: "x") { id } }`, nil); len(res.Errors) > 0 {
		t.Errorf("query after the database came up: %s", res.Raw)
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
	h := newHarness(t, options{Driver: driverTo(t, addr)})
	if res := h.Get("/readyz"); res.Status != http.StatusServiceUnavailable {
		t.Errorf("/readyz: %d %s, want 503", res.Status, res.Raw)
	}
	start := time.Now()
	res := h.Post(`{ entity(id: "x") { id } }`, nil)
	if res.Code() != "DATABASE_UNAVAILABLE" || time.Since(start) > 5*time.Second {
		t.Errorf("got %s after %s, want DATABASE_UNAVAILABLE under 5s", res.Raw, time.Since(start))
	}
	if strings.Contains(strings.ToLower(res.Raw), "bolt") || strings.Contains(res.Raw, addr) {
		t.Errorf("driver details reach the client: %s", res.Raw)
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
