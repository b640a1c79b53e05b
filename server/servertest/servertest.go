// Package servertest runs the real Casegraph handler for tests, built by
// server.New as `casegraph serve` builds it: every request goes through the
// same middleware, limits, loaders and resolvers as in production. New
// serves it over the real Neo4j; Edge over a store that refuses every call,
// for tests of the HTTP edge that need no database.
package servertest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/rs/zerolog"
	"go.opentelemetry.io/otel/trace"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server"
)

// Options change the server a test gets.
type Options struct {
	Config func(*server.Config)
	// PathTimeout is the store's time budget for one path search (default
	// cypher.DefaultPathTimeout, as `casegraph serve`'s).
	PathTimeout time.Duration
	// Admission bounds the store's statements at once (default: no bound).
	Admission cypher.Admission
	// HubDegree is the store's (cypher.Options.HubDegree; default
	// cypher.DefaultHubDegree).
	HubDegree int
	// Store wraps the store the server sees.
	Store func(server.Store) server.Store
	// Driver points the server at another database (default: the test one).
	Driver neo4j.DriverWithContext
	// Key is who the harness's client is (New): the principal of an API
	// key made for the test (default: an admin). Edge serves anonymous
	// callers instead, as it has no database to hold keys.
	Key *casegraph.NewAPIKey
	// Tracer traces the server and (New) the store, as `casegraph serve`
	// does with an OTLP endpoint; nil traces nothing.
	Tracer trace.TracerProvider
}

// Harness is a running server and what a test needs to talk to it.
type Harness struct {
	t   testing.TB
	URL string
	// Store is the real store (New), or nil (Edge).
	Store *cypher.Store
	// Refusing is the store that refuses every call (Edge), or nil (New).
	Refusing *Refusing
	Logs     *SyncBuffer
	// Token is the API key the client sends (New), unless a request sets
	// its own Authorization header.
	Token string
	// Routes is the server's route table (server.Server.Routes).
	Routes []server.Route
	client *http.Client
}

// New starts a server over the test Neo4j (or opts.Driver's) for the test;
// it stops when the test ends. A Neo4j that cannot be reached fails the
// test (cyphertest.Driver).
func New(t testing.TB, opts Options) *Harness {
	t.Helper()
	driver := opts.Driver
	if driver == nil {
		driver = cyphertest.Driver(t)
	}
	pathTimeout := opts.PathTimeout
	if pathTimeout == 0 {
		pathTimeout = cypher.DefaultPathTimeout
	}
	logs := &SyncBuffer{}
	metrics := server.NewMetrics()
	storeOpts := cypher.Options{Observer: metrics, PathTimeout: pathTimeout, Admission: opts.Admission, HubDegree: opts.HubDegree}
	if opts.Tracer != nil {
		storeOpts.Tracer = opts.Tracer.Tracer("github.com/casegraph/casegraph/cypher")
	}
	store, err := cypher.NewStore(driver, storeOpts)
	if err != nil {
		t.Fatal(err)
	}
	if opts.Driver != nil {
		// Another database (one that is down, say) holds no test key: the
		// harness serves anonymous callers, as Edge does.
		h := start(t, anonymousEverywhere(opts), store, logs, metrics)
		h.Store = store
		return h
	}
	token := testKey(t, driver, store, opts.Key)
	// The key is read once and trusted for the whole test: its look-up is
	// not a round trip the tests that count them see.
	config := opts.Config
	opts.Config = func(c *server.Config) {
		c.KeyCacheTTL = time.Hour
		if config != nil {
			config(c)
		}
	}
	h := start(t, opts, store, logs, metrics)
	h.Store, h.Token = store, token
	h.client.Transport = bearer{token: token, next: h.client.Transport}
	if res := h.Post(`{ __typename }`, nil); res.Status != http.StatusOK {
		t.Fatalf("the harness's key does not work: %d %s", res.Status, res.Raw)
	}
	return h
}

// anonymousEverywhere lets anonymous callers read every dataset (before
// the test's own configuration, which may say otherwise).
func anonymousEverywhere(opts Options) Options {
	config := opts.Config
	opts.Config = func(c *server.Config) {
		c.Anonymous = []string{casegraph.AllDatasets}
		if config != nil {
			config(c)
		}
	}
	return opts
}

// testKey makes the API key a harness's client sends (an admin's unless
// the test asks for another), deleted when the test ends.
func testKey(t testing.TB, driver neo4j.DriverWithContext, store *cypher.Store, k *casegraph.NewAPIKey) string {
	t.Helper()
	key := casegraph.NewAPIKey{Name: "servertest " + t.Name(), Role: casegraph.RoleAdmin}
	if k != nil {
		key = *k
	}
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 30*time.Second)
	defer cancel()
	made, token, err := store.CreateAPIKey(ctx, key, "servertest")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := neo4j.ExecuteQuery(ctx, driver, `MATCH (k:ApiKey {id: $id}) DELETE k`,
			map[string]any{"id": made.ID}, neo4j.EagerResultTransformer); err != nil {
			t.Errorf("delete the test's key: %v", err)
		}
	})
	return token
}

// bearer sends a token with every request that does not carry its own
// Authorization header.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Header.Get("Authorization") == "" {
		req = req.Clone(req.Context())
		req.Header.Set("Authorization", "Bearer "+b.token)
	}
	return b.next.RoundTrip(req)
}

// Client is the harness's HTTP client: it sends the harness's key.
func (h *Harness) Client() *http.Client { return h.client }

// Edge starts a server over a store that refuses every call (Refusing), for
// tests of the HTTP edge that never reach the data: limits, refusals,
// transports, body size, error shape. It needs no Neo4j.
func Edge(t testing.TB, opts Options) *Harness {
	t.Helper()
	refusing := NewRefusing(t)
	h := start(t, anonymousEverywhere(opts), refusing, &SyncBuffer{}, nil)
	h.Refusing = refusing
	return h
}

// start serves the real handler, built by server.New as `casegraph serve`
// builds it, over store.
func start(t testing.TB, opts Options, store server.Store, logs *SyncBuffer, metrics *server.Metrics) *Harness {
	t.Helper()
	cfg := server.DefaultConfig()
	// Tests send many requests as one caller, faster than any person
	// would: a test of the rate limit sets its own.
	cfg.RateLimit = 0
	cfg.Tracer = opts.Tracer
	if opts.Config != nil {
		opts.Config(&cfg)
	}
	if opts.Store != nil {
		store = opts.Store(store)
	}
	srv, err := server.New(cfg, zerolog.New(logs), store, metrics)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	t.Cleanup(srv.Close) // first: streams end, so ts.Close need not wait
	return &Harness{t: t, URL: ts.URL, Logs: logs, client: ts.Client(), Routes: srv.Routes()}
}

// Response is a GraphQL response as clients see it.
type Response struct {
	Status int            `json:"-"`
	Header http.Header    `json:"-"`
	Data   map[string]any `json:"data"`
	Errors []struct {
		Message    string         `json:"message"`
		Path       []any          `json:"path"`
		Extensions map[string]any `json:"extensions"`
	} `json:"errors"`
	Raw string `json:"-"`
}

// Code is the first error's extensions.code, or "".
func (r Response) Code() string {
	if len(r.Errors) == 0 {
		return ""
	}
	c, _ := r.Errors[0].Extensions["code"].(string)
	return c
}

// Reason is the first error's extensions.reason, or "".
func (r Response) Reason() string {
	if len(r.Errors) == 0 {
		return ""
	}
	c, _ := r.Errors[0].Extensions["reason"].(string)
	return c
}

// Do sends a request and reads the response.
func (h *Harness) Do(req *http.Request) Response {
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
	out := Response{Status: res.StatusCode, Header: res.Header, Raw: string(body)}
	if err := json.Unmarshal(body, &out); err != nil && strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		h.t.Fatalf("response is not JSON: %v\n%s", err, body)
	}
	return out
}

// Post sends a GraphQL request over POST.
func (h *Harness) Post(query string, vars map[string]any) Response {
	h.t.Helper()
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		h.t.Fatal(err)
	}
	return h.PostRaw(body)
}

// PostWith sends a GraphQL request over POST with extra headers (an
// Idempotency-Key, ...).
func (h *Harness) PostWith(header http.Header, query string, vars map[string]any) Response {
	h.t.Helper()
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		h.t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, h.URL+"/graphql", bytes.NewReader(body))
	if err != nil {
		h.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for name, values := range header {
		req.Header[name] = values
	}
	return h.Do(req)
}

// PostAs sends a GraphQL request over POST with another bearer token ("":
// with none at all, anonymously).
func (h *Harness) PostAs(token, query string, vars map[string]any) Response {
	h.t.Helper()
	auth := "Bearer " + token
	if token == "" {
		auth = " " // sent but empty: the client adds no key
	}
	return h.PostWith(http.Header{"Authorization": {auth}}, query, vars)
}

// GetAs sends a GET to a path of the server with another bearer token ("":
// with none at all).
func (h *Harness) GetAs(token, path string) Response {
	h.t.Helper()
	req, err := http.NewRequest(http.MethodGet, h.URL+path, nil)
	if err != nil {
		h.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if token == "" {
		req.Header.Set("Authorization", " ") // sent but empty: the client adds no key
	}
	return h.Do(req)
}

// Key makes an API key for the test and returns its token.
func (h *Harness) Key(k casegraph.NewAPIKey) string {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 30*time.Second)
	defer cancel()
	_, token, err := h.Store.CreateAPIKey(ctx, k, "servertest")
	if err != nil {
		h.t.Fatal(err)
	}
	return token
}

// MustPost is Post that fails the test on any GraphQL error.
func (h *Harness) MustPost(query string, vars map[string]any) Response {
	h.t.Helper()
	res := h.Post(query, vars)
	if res.Status != http.StatusOK || len(res.Errors) > 0 {
		h.t.Fatalf("status %d: %s\nquery: %s", res.Status, res.Raw, query)
	}
	return res
}

// PostTimed sends a GraphQL request and reads the whole response without
// decoding it, for benchmarks: the client's own JSON decoding is not the
// server's time. It returns the status and the body.
func (h *Harness) PostTimed(query string, vars map[string]any) (int, []byte) {
	h.t.Helper()
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		h.t.Fatal(err)
	}
	res, err := h.client.Post(h.URL+"/graphql", "application/json", bytes.NewReader(body))
	if err != nil {
		h.t.Fatal(err)
	}
	defer res.Body.Close()
	out, err := io.ReadAll(res.Body)
	if err != nil {
		h.t.Fatal(err)
	}
	return res.StatusCode, out
}

// PostRaw sends a body as it is.
func (h *Harness) PostRaw(body []byte) Response {
	h.t.Helper()
	req, err := http.NewRequest(http.MethodPost, h.URL+"/graphql", bytes.NewReader(body))
	if err != nil {
		h.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	return h.Do(req)
}

// Get sends a GET to a path of the server.
func (h *Harness) Get(path string) Response {
	h.t.Helper()
	req, err := http.NewRequest(http.MethodGet, h.URL+path, nil)
	if err != nil {
		h.t.Fatal(err)
	}
	return h.Do(req)
}

// SyncBuffer is a log sink that tests can read while the server writes.
type SyncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *SyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *SyncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
