package server_test

// Authentication at the edge: credentials required by every route that
// needs them, anonymous reads, API keys, and their look-ups kept and
// shared.

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/server"
	"github.com/casegraph/casegraph/server/servertest"
)

// authed sends a request with the given Authorization header ("" for none).
func authed(t *testing.T, h *harness, method, path, authorization, body string) response {
	t.Helper()
	req, err := http.NewRequest(method, h.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	// A header of one space is "sent but empty": the harness's client adds
	// its own key only where there is no header at all.
	req.Header.Set("Authorization", authorization)
	if authorization == "" {
		req.Header.Set("Authorization", " ")
	}
	return h.Do(req)
}

// publicRoutes are the routes that need nothing of their caller, each
// with why: a route the table declares public that is not here fails
// TestCredentialsRequired, so none becomes public by accident.
var publicRoutes = map[string]string{
	"GET /healthz":            "a probe: the process is up",
	"GET /readyz":             "a probe: Neo4j answers; says nothing of the data",
	"GET /metrics":            "the scraper's: counts and latencies, no data",
	"GET /{$}":                "the explorer's page, which signs in from the browser",
	"GET /graphiql":           "GraphiQL's page, likewise",
	"GET /assets/{file}":      "the pages' scripts and stylesheets",
	"OPTIONS /graphql":        "a CORS preflight, which carries no credentials",
	"OPTIONS /queries/{name}": "a CORS preflight, likewise",
}

// routePath is a path that a route's pattern matches.
func routePath(pattern string) string {
	return strings.NewReplacer("{$}", "", "{name}", "path-between", "{file}", "no-such-asset.js").Replace(pattern)
}

// TestCredentialsRequired walks the route table. With no anonymous
// datasets (the default), every route that needs a caller answers a
// request without credentials, or with credentials that are not a key or
// a token this server accepts, with 401 UNAUTHENTICATED; every route that
// needs a role answers a reader with 403 FORBIDDEN; all before anything
// reaches the database. A route that needs nothing must be one of
// publicRoutes. A route added to the table is so checked with no change
// here (it listed 4 of the 9 routes by hand).
func TestCredentialsRequired(t *testing.T) {
	t.Parallel()
	h := newEdge(t, func(c *server.Config) {
		c.Anonymous, c.Tokens = nil, tokens{"token-reader": {ID: "test:reader", Name: "reader", Role: casegraph.RoleReader, Datasets: []string{casegraph.AllDatasets}}}
		c.CORSOrigins = []string{"https://explorer.example.org"} // so that the preflight routes are in the table
	})
	h.Refusing.Allow("Ping", "SchemaApplied", "ProbeWrite") // /readyz asks
	const body = `{"query": "{ __typename }"}`
	headers := []struct{ name, value, says string }{
		{"none", "", "needs credentials"},
		{"basic", "Basic dXNlcjpwYXNz", "must be"},
		{"empty bearer", "Bearer ", "must be"},
		{"a mistyped key", "Bearer cgk_0123456789abcdef_short", "not valid"},
		{"an unknown token", "Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln", "unknown token"},
	}
	refusals, needy := 0, 0
	for _, r := range h.Routes {
		route := r.Method + " " + r.Pattern
		path := routePath(r.Pattern)
		if r.Need == server.NeedNothing {
			if _, ok := publicRoutes[route]; !ok {
				t.Errorf("%s needs nothing of its caller: add it to publicRoutes, with why, or give it a need", route)
			}
			if res := authed(t, h, r.Method, path, "", ""); res.Status == http.StatusUnauthorized {
				t.Errorf("%s needs nothing, but answers 401: %s", route, res.Raw)
			}
			continue
		}
		needy++
		for _, header := range headers {
			t.Run(header.name+" "+route, func(t *testing.T) {
				res := authed(t, h, r.Method, path, header.value, body)
				if res.Status != http.StatusUnauthorized || res.Code() != "UNAUTHENTICATED" || !strings.Contains(res.Raw, header.says) {
					t.Errorf("got %d %s, want 401 UNAUTHENTICATED saying %q", res.Status, res.Raw, header.says)
				}
			})
			refusals++
		}
		if r.Need == server.NeedPrincipal {
			continue
		}
		// The body is not what the route takes: a handler that read it
		// would answer 400.
		t.Run("a reader "+route, func(t *testing.T) {
			res := authed(t, h, r.Method, path, "Bearer token-reader", "not what "+route+" takes")
			if res.Status != http.StatusForbidden || res.Code() != "FORBIDDEN" {
				t.Errorf("got %d %s, want 403 FORBIDDEN", res.Status, res.Raw)
			}
		})
	}
	if needy < 6 {
		t.Errorf("%d routes need a caller; the table has at least 6 (GraphQL twice, saved queries twice, import, export)", needy)
	}
	if calls := h.Refusing.Calls(); len(calls) > 0 && !onlyReadiness(calls) {
		t.Errorf("refused requests reached the store: %v", calls)
	}
	want := fmt.Sprintf("casegraph_auth_failures_total %d", refusals)
	if res := h.Get("/metrics"); !strings.Contains(res.Raw, want) {
		t.Errorf("/metrics does not count the %d refusals:\n%s", refusals, grepLines(res.Raw, "auth_failures"))
	}
}

// onlyReadiness says whether calls are /readyz's alone.
func onlyReadiness(calls []string) bool {
	for _, c := range calls {
		if c != "Ping" && c != "SchemaApplied" && c != "ProbeWrite" {
			return false
		}
	}
	return true
}

// TestAnonymousReads: where anonymous callers may read, a request without
// credentials is anonymous; one with bad credentials is still refused.
func TestAnonymousReads(t *testing.T) {
	t.Parallel()
	h := newEdge(t, func(c *server.Config) { c.Anonymous = []string{"caesar-report"} })
	if res := authed(t, h, http.MethodPost, "/graphql", "", `{"query": "{ __typename }"}`); res.Status != http.StatusOK || len(res.Errors) > 0 {
		t.Errorf("anonymous: %d %s", res.Status, res.Raw)
	}
	if res := authed(t, h, http.MethodPost, "/graphql", "Bearer nonsense", `{"query": "{ __typename }"}`); res.Status != http.StatusUnauthorized {
		t.Errorf("a bad token where anonymous reads are allowed: %d %s, want 401", res.Status, res.Raw)
	}
}

// TestAPIKeys: a key works until it is revoked; a wrong secret, an unknown
// id or a revoked key get 401; a use is recorded.
func TestAPIKeys(t *testing.T) {
	t.Parallel()
	h := servertest.New(t, options{Config: func(c *server.Config) { c.KeyCacheTTL = 0 }})
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 30*time.Second)
	defer cancel()
	key, token, err := h.Store.CreateAPIKey(ctx, casegraph.NewAPIKey{Name: "reader " + t.Name(), Role: casegraph.RoleReader, Datasets: []string{"caesar-report"}}, "test")
	if err != nil {
		t.Fatal(err)
	}
	const query = `{"query": "{ __typename }"}`
	if res := authed(t, h, http.MethodPost, "/graphql", "Bearer "+token, query); res.Status != http.StatusOK {
		t.Fatalf("a good key: %d %s", res.Status, res.Raw)
	}
	if got, _, _, _ := h.Store.APIKeyByID(ctx, key.ID); got.LastUsedAt.IsZero() {
		t.Error("the key's use was not recorded")
	}
	other, err := casegraph.GenerateKeyToken()
	if err != nil {
		t.Fatal(err)
	}
	_, otherSecret, _ := casegraph.ParseKeyToken(other.Token)
	for name, bad := range map[string]string{
		"wrong secret":                    "cgk_" + key.ID + "_" + otherSecret,
		"unknown id":                      other.Token,
		"lower-case scheme, wrong secret": "bearer cgk_" + key.ID + "_" + otherSecret,
	} {
		if !strings.HasPrefix(bad, "bearer") {
			bad = "Bearer " + bad
		}
		if res := authed(t, h, http.MethodPost, "/graphql", bad, query); res.Status != http.StatusUnauthorized || res.Code() != "UNAUTHENTICATED" {
			t.Errorf("%s: %d %s, want 401", name, res.Status, res.Raw)
		}
	}
	if _, err := h.Store.RevokeAPIKey(ctx, key.ID); err != nil {
		t.Fatal(err)
	}
	if res := authed(t, h, http.MethodPost, "/graphql", "Bearer "+token, query); res.Status != http.StatusUnauthorized {
		t.Errorf("a revoked key: %d %s, want 401", res.Status, res.Raw)
	}
}

func grepLines(text, word string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, word) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestBadKeysAreRememberedToo: a client that keeps sending an unknown or a
// mistyped key costs one look-up a key-cache-ttl, not one a request, at 1
// client and at 16.
func TestBadKeysAreRememberedToo(t *testing.T) {
	t.Parallel()
	h := servertest.New(t, options{}) // keys trusted for an hour
	unknown, err := casegraph.GenerateKeyToken()
	if err != nil {
		t.Fatal(err)
	}
	const query = `{"query": "{ __typename }"}`
	before := h.Store.RoundTrips()
	for range 5 {
		if res := authed(t, h, http.MethodPost, "/graphql", "Bearer "+unknown.Token, query); res.Status != http.StatusUnauthorized {
			t.Fatalf("an unknown key: %d %s", res.Status, res.Raw)
		}
	}
	done := make(chan struct{})
	for range 16 {
		go func() {
			defer func() { done <- struct{}{} }()
			for range 5 {
				authed(t, h, http.MethodPost, "/graphql", "Bearer "+unknown.Token, query)
			}
		}()
	}
	for range 16 {
		<-done
	}
	if n := h.Store.RoundTrips() - before; n != 1 {
		t.Errorf("85 requests with one unknown key made %d round trips, want 1", n)
	}
}

// TestColdKeyIsLookedUpOnce: requests that arrive together with a key the
// server has not read yet share one look-up (and one last-used note), so
// a burst of 16 workers starting at once costs two round trips, not 32.
func TestColdKeyIsLookedUpOnce(t *testing.T) {
	t.Parallel()
	h := servertest.New(t, options{})
	token := h.Key(casegraph.NewAPIKey{Name: "burst", Role: casegraph.RoleReader, Datasets: []string{casegraph.AllDatasets}})
	const query = `{"query": "{ __typename }"}`
	before := h.Store.RoundTrips()
	start := make(chan struct{})
	statuses := make(chan int, 16)
	for range 16 {
		go func() {
			<-start
			statuses <- authed(t, h, http.MethodPost, "/graphql", "Bearer "+token, query).Status
		}()
	}
	close(start)
	for range 16 {
		if status := <-statuses; status != http.StatusOK {
			t.Errorf("a request of the burst: %d", status)
		}
	}
	if n := h.Store.RoundTrips() - before; n != 2 {
		t.Errorf("16 requests with one cold key made %d round trips, want 2 (look-up and last-used note)", n)
	}
}
