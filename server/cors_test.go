package server_test

// CORS at the edge: preflights and cross-origin requests from allowed and
// refused origins, over the refusing store (no Neo4j).

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/casegraph/casegraph/server"
	"github.com/casegraph/casegraph/server/servertest"
)

const (
	allowedOrigin = "https://explorer.example.org"
	refusedOrigin = "https://evil.example.net"
)

// sendWithHeaders makes a request with the given headers and returns the
// response with its body read.
func sendWithHeaders(t *testing.T, h *harness, method, path, body string, header map[string]string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, h.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	return roundTrip(t, req)
}

// roundTrip sends req and reads the whole response.
func roundTrip(t *testing.T, req *http.Request) (*http.Response, string) {
	t.Helper()
	return roundTripWith(t, http.DefaultClient, req)
}

// roundTripWith sends req with client and reads the whole response.
func roundTripWith(t testing.TB, client *http.Client, req *http.Request) (*http.Response, string) {
	t.Helper()
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, string(b)
}

// corsHeaders are the response's Access-Control-* headers.
func corsHeaders(res *http.Response) http.Header {
	out := http.Header{}
	for k, v := range res.Header {
		if strings.HasPrefix(k, "Access-Control-") {
			out[k] = v
		}
	}
	return out
}

func varies(res *http.Response, header string) bool {
	for _, v := range res.Header.Values("Vary") {
		for _, f := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(f), header) {
				return true
			}
		}
	}
	return false
}

func preflight(origin, method, headers string) map[string]string {
	return map[string]string{
		"Origin":                         origin,
		"Access-Control-Request-Method":  method,
		"Access-Control-Request-Headers": headers,
	}
}

const typenameDoc = `{"query": "query T { __typename }"}`

func newCORSEdge(t *testing.T, origins ...string) *harness {
	t.Helper()
	return servertest.Edge(t, options{Config: func(c *server.Config) { c.CORSOrigins = origins }})
}

func TestCORSPreflight(t *testing.T) {
	t.Parallel()
	h := newCORSEdge(t, "http://localhost:5173", allowedOrigin)
	tests := []struct {
		name    string
		path    string
		origin  string
		method  string
		headers string
		allowed bool
	}{
		{"allowed origin, /graphql", "/graphql", allowedOrigin, "POST", "authorization,content-type,x-request-id", true},
		{"allowed origin, Apollo headers", "/graphql", allowedOrigin, "POST", "apollo-require-preflight,apollographql-client-name,content-type", true},
		{"allowed origin, /queries", "/queries/path-between", allowedOrigin, "GET", "authorization", true},
		{"allowed origin, POST /queries", "/queries/path-between", allowedOrigin, "POST", "authorization,content-type", true},
		{"origin in another case", "/graphql", "HTTPS://Explorer.Example.org", "POST", "content-type", true},
		{"refused origin", "/graphql", refusedOrigin, "POST", "authorization,content-type", false},
		{"refused origin, /queries", "/queries/path-between", refusedOrigin, "GET", "authorization", false},
		{"allowed origin, other port", "/graphql", "https://explorer.example.org:8443", "POST", "content-type", false},
		{"allowed origin, other scheme", "/graphql", "http://explorer.example.org", "POST", "content-type", false},
		{"allowed origin, method not allowed", "/graphql", allowedOrigin, "DELETE", "content-type", false},
		{"allowed origin, header not allowed", "/graphql", allowedOrigin, "POST", "content-type,cookie", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, body := sendWithHeaders(t, h, http.MethodOptions, tt.path, "", preflight(tt.origin, tt.method, tt.headers))
			if res.StatusCode != http.StatusNoContent || body != "" {
				t.Errorf("status %d, body %q; want 204 and no body", res.StatusCode, body)
			}
			if !varies(res, "Origin") {
				t.Errorf("Vary %q lacks Origin", res.Header.Values("Vary"))
			}
			got := corsHeaders(res)
			if !tt.allowed {
				if len(got) > 0 {
					t.Errorf("refused preflight got CORS headers %v", got)
				}
				return
			}
			want := http.Header{
				"Access-Control-Allow-Origin":  {tt.origin},
				"Access-Control-Allow-Methods": {tt.method},
				"Access-Control-Allow-Headers": {tt.headers},
				"Access-Control-Max-Age":       {"7200"},
			}
			for k, v := range want {
				if got.Get(k) != v[0] {
					t.Errorf("%s = %q, want %q", k, got.Get(k), v[0])
				}
			}
			if c := got.Get("Access-Control-Allow-Credentials"); c != "" {
				t.Errorf("Access-Control-Allow-Credentials = %q, want none (bearer tokens, not cookies)", c)
			}
		})
	}
}

// corsRequest is a request that is not a preflight, and what its response
// must carry.
type corsRequest struct {
	name   string
	method string
	path   string
	body   string
	header map[string]string
	status int
	// allowOrigin is the Access-Control-Allow-Origin wanted, "" for no
	// CORS header at all.
	allowOrigin string
	vary        bool // Vary names Origin
}

func (tt corsRequest) check(t *testing.T, h *harness) {
	t.Helper()
	res, body := sendWithHeaders(t, h, tt.method, tt.path, tt.body, tt.header)
	if res.StatusCode != tt.status {
		t.Fatalf("status %d %s, want %d", res.StatusCode, body, tt.status)
	}
	if tt.status == 200 && strings.HasPrefix(tt.path, "/graphql") && !strings.Contains(body, `"__typename":"Query"`) {
		t.Errorf("body %s, want __typename Query", body)
	}
	if varies(res, "Origin") != tt.vary {
		t.Errorf("Vary %q: want Origin in it %v", res.Header.Values("Vary"), tt.vary)
	}
	got := corsHeaders(res)
	if tt.allowOrigin == "" {
		if len(got) > 0 {
			t.Errorf("got CORS headers %v, want none", got)
		}
		return
	}
	if o := got.Get("Access-Control-Allow-Origin"); o != tt.allowOrigin {
		t.Errorf("Access-Control-Allow-Origin = %q, want %q", o, tt.allowOrigin)
	}
	if e := got.Get("Access-Control-Expose-Headers"); e != "X-Request-Id" || res.Header.Get("X-Request-Id") == "" {
		t.Errorf("Access-Control-Expose-Headers = %q, X-Request-Id = %q; want the request id exposed", e, res.Header.Get("X-Request-Id"))
	}
	if c := got.Get("Access-Control-Allow-Credentials"); c != "" {
		t.Errorf("Access-Control-Allow-Credentials = %q, want none", c)
	}
}

var jsonOnly = map[string]string{"Content-Type": "application/json"}

// fromOrigin is a browser app's request (anonymous: the edge harness
// lets anonymous callers read).
func fromOrigin(origin string) map[string]string {
	return map[string]string{"Content-Type": "application/json", "Origin": origin}
}

// withBadKey is fromOrigin with a mistyped key.
func withBadKey(origin string) map[string]string {
	h := fromOrigin(origin)
	h["Authorization"] = "Bearer cgk_mistyped"
	return h
}

func TestCORSActualRequests(t *testing.T) {
	t.Parallel()
	h := newCORSEdge(t, allowedOrigin)
	for _, tt := range []corsRequest{
		{"POST from an allowed origin", "POST", "/graphql", typenameDoc, fromOrigin(allowedOrigin), 200, allowedOrigin, true},
		{"GET from an allowed origin", "GET", "/graphql?query=%7B__typename%7D", "", fromOrigin(allowedOrigin), 200, allowedOrigin, true},
		// The browser withholds the response from the page; the server,
		// like for any client without an Origin, still answers.
		{"POST from a refused origin", "POST", "/graphql", typenameDoc, fromOrigin(refusedOrigin), 200, "", true},
		{"same origin, no Origin header", "POST", "/graphql", typenameDoc, jsonOnly, 200, "", true},
		// An error is readable by the allowed app too.
		{"refusal from an allowed origin", "GET", "/queries/Not_A_Slug", "", fromOrigin(allowedOrigin), 400, allowedOrigin, true},
		// So is a 401: the app can tell the user to sign in again.
		{"bad credentials from an allowed origin", "POST", "/graphql", typenameDoc, withBadKey(allowedOrigin), 401, allowedOrigin, true},
		{"a non-preflight OPTIONS", "OPTIONS", "/graphql", "", nil, 204, "", true},
		{"health is not CORS", "GET", "/healthz", "", fromOrigin(allowedOrigin), 200, "", false},
	} {
		t.Run(tt.name, func(t *testing.T) { tt.check(t, h) })
	}
}

// TestNoCORSByDefault: without an allow-list no response carries a CORS
// header (rs/cors would read an empty list as "every origin"), and a
// preflight is not answered.
func TestNoCORSByDefault(t *testing.T) {
	t.Parallel()
	h := newEdge(t, nil)
	for _, tt := range []corsRequest{
		{"preflight", "OPTIONS", "/graphql", "", preflight(allowedOrigin, "POST", "content-type"), 405, "", false},
		{"preflight, /queries", "OPTIONS", "/queries/path-between", "", preflight(allowedOrigin, "GET", "authorization"), 405, "", false},
		{"cross-origin POST", "POST", "/graphql", typenameDoc, fromOrigin(allowedOrigin), 200, "", false},
		{"same-origin POST", "POST", "/graphql", typenameDoc, jsonOnly, 200, "", false},
	} {
		t.Run(tt.name, func(t *testing.T) { tt.check(t, h) })
	}
}

func TestCORSOriginsValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		origins []string
		want    string // "" for valid
	}{
		{nil, ""},
		{[]string{"https://explorer.example.org", "http://localhost:5173", "http://127.0.0.1:3000", "http://[::1]:8081"}, ""},
		{[]string{"*"}, `"*" (every origin) is refused`},
		{[]string{"https://ok.example.org", "*"}, `"*" (every origin) is refused`},
		{[]string{"https://*.example.org"}, "wildcards are refused"},
		{[]string{"null"}, `"null"`},
		{[]string{"https://example.org/"}, "no path"},
		{[]string{"https://example.org/app"}, "no path"},
		{[]string{"https://example.org?x=1"}, "no path"},
		{[]string{"https://example.org#top"}, "no path"},
		{[]string{"example.org"}, "http or https"},
		{[]string{"ftp://example.org"}, "http or https"},
		{[]string{"https://"}, "no host"},
		{[]string{"https://user@example.org"}, "no user"},
		{[]string{"https://example.org:443"}, "default port"},
		{[]string{"http://example.org:80"}, "default port"},
		{[]string{"https://example.org:"}, "empty port"},
		{[]string{"https://exa mple.org"}, "not an origin"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.origins, ","), func(t *testing.T) {
			cfg := server.DefaultConfig()
			cfg.CORSOrigins = tt.origins
			err := cfg.Validate()
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Validate: %v, want nil", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("Validate: %v, want an error with %q", err, tt.want)
			}
		})
	}
}
