package server_test

// The explorer's and GraphiQL's pages: served with their headers, or not
// at all.

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/casegraph/casegraph/server"
)

// TestWebPages: the explorer and GraphiQL come from the binary with a
// strict policy, their assets resolve and are cached for good, and nothing
// else is served from the assets folder. No request reaches the store.
func TestWebPages(t *testing.T) {
	t.Parallel()
	h := newEdge(t, nil)
	assetRef := regexp.MustCompile(`(?:src|href)="(/assets/[^"]+)"`)
	for _, path := range []string{"/", "/graphiql"} {
		res := h.Get(path)
		if res.Status != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("GET %s: %d %s", path, res.Status, res.Header.Get("Content-Type"))
		}
		csp := res.Header.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'none'", "script-src 'self';", "style-src 'self';", "connect-src 'self'", "frame-ancestors 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("GET %s: policy %q lacks %q", path, csp, want)
			}
		}
		if strings.Contains(csp, "unsafe-") {
			t.Errorf("GET %s: policy %q allows something unsafe", path, csp)
		}
		if res.Header.Get("X-Content-Type-Options") != "nosniff" || res.Header.Get("Cache-Control") != "no-cache" {
			t.Errorf("GET %s: headers %v", path, res.Header)
		}
		refs := assetRef.FindAllStringSubmatch(res.Raw, -1)
		if len(refs) < 2 {
			t.Errorf("GET %s names %d assets, want a script and a stylesheet", path, len(refs))
		}
		for _, ref := range refs {
			asset := h.Get(ref[1])
			if asset.Status != http.StatusOK || asset.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
				t.Errorf("GET %s: %d, Cache-Control %q", ref[1], asset.Status, asset.Header.Get("Cache-Control"))
			}
			if ct := asset.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/javascript") && !strings.HasPrefix(ct, "text/css") {
				t.Errorf("GET %s: Content-Type %q", ref[1], ct)
			}
		}
	}
	for _, path := range []string{"/assets/nothing.js", "/assets/..%2fweb.go", "/assets/", "/index.html"} {
		if res := h.Get(path); res.Status != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, res.Status)
		}
	}
	if calls := h.Refusing.Calls(); len(calls) != 0 {
		t.Errorf("the pages reached the store: %v", calls)
	}
}

// TestWebOff: with Web off, neither page nor asset is served.
func TestWebOff(t *testing.T) {
	t.Parallel()
	h := newEdge(t, func(c *server.Config) { c.Web = false })
	for _, path := range []string{"/", "/graphiql"} {
		if res := h.Get(path); res.Status != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, res.Status)
		}
	}
}
