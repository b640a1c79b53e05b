package server_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/casegraph/casegraph/oidc/oidctest"
	"github.com/casegraph/casegraph/server"
)

// TestJWTBearer: with a JWT verifier configured, a token of the provider
// is a principal; an expired one, or one for another audience, gets 401;
// API-key-shaped tokens still go to the keys. (The verifier's own tests,
// in oidc/, cover forgeries, rotation and the provider being down.)
func TestJWTBearer(t *testing.T) {
	t.Parallel()
	idp := oidctest.New(t)
	h := newEdge(t, func(c *server.Config) { c.Anonymous, c.Tokens = nil, idp.Verifier })
	token := func(aud string, ttl time.Duration) string {
		return idp.Token("analyst-7", "reader", []string{"caesar-report"}, ttl, aud)
	}
	const query = `{"query": "{ __typename }"}`
	if res := authed(t, h, http.MethodPost, "/graphql", "Bearer "+token("", time.Hour), query); res.Status != http.StatusOK || len(res.Errors) > 0 {
		t.Errorf("a good token: %d %s", res.Status, res.Raw)
	}
	for name, tok := range map[string]string{
		"expired":        token("", -time.Hour),
		"other audience": token("another-api", time.Hour),
	} {
		if res := authed(t, h, http.MethodPost, "/graphql", "Bearer "+tok, query); res.Status != http.StatusUnauthorized || res.Code() != "UNAUTHENTICATED" {
			t.Errorf("%s: %d %s, want 401", name, res.Status, res.Raw)
		}
	}
	if calls := h.Refusing.Calls(); len(calls) > 0 {
		t.Errorf("a JWT reached the store: %v", calls)
	}
}
