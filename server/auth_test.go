package server_test

import (
	"context"
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

// TestCredentialsRequired: with no anonymous datasets (the default), a
// request without credentials, or with credentials that are not a key or a
// token this server accepts, gets 401 UNAUTHENTICATED, on every data route,
// before anything reaches the database.
func TestCredentialsRequired(t *testing.T) {
	t.Parallel()
	h := newEdge(t, func(c *server.Config) { c.Anonymous = nil })
	const query = `{"query": "{ __typename }"}`
	routes := []struct{ method, path, body string }{
		{http.MethodPost, "/graphql", query},
		{http.MethodGet, "/graphql?query=%7B__typename%7D", ""},
		{http.MethodGet, "/queries/path-between", ""},
		{http.MethodPost, "/queries/path-between", `{}`},
	}
	for _, header := range []struct{ name, value, says string }{
		{"none", "", "needs credentials"},
		{"basic", "Basic dXNlcjpwYXNz", "must be"},
		{"empty bearer", "Bearer ", "must be"},
		{"a JWT, where none are accepted", "Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln", "accepts no other tokens"},
		{"a mistyped key", "Bearer cgk_0123456789abcdef_short", "not valid"},
	} {
		for _, r := range routes {
			t.Run(header.name+" "+r.method+" "+r.path, func(t *testing.T) {
				res := authed(t, h, r.method, r.path, header.value, r.body)
				if res.Status != http.StatusUnauthorized || res.Code() != "UNAUTHENTICATED" || !strings.Contains(res.Raw, header.says) {
					t.Errorf("got %d %s, want 401 UNAUTHENTICATED saying %q", res.Status, res.Raw, header.says)
				}
			})
		}
	}
	if calls := h.Refusing.Calls(); len(calls) > 0 {
		t.Errorf("refused requests reached the store: %v", calls)
	}
	if res := h.Get("/healthz"); res.Status != http.StatusOK {
		t.Errorf("/healthz needs no credentials: %d", res.Status)
	}
	if res := h.Get("/metrics"); !strings.Contains(res.Raw, "casegraph_auth_failures_total 20") {
		t.Errorf("/metrics does not count the 20 refusals:\n%s", grepLines(res.Raw, "auth_failures"))
	}
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
