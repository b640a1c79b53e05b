package server_test

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/rs/zerolog"

	"github.com/casegraph/casegraph/auth"
	"github.com/casegraph/casegraph/server"
)

// TestJWTBearer: with a JWT verifier configured, a token of the provider
// is a principal; an expired one, or one for another audience, gets 401;
// API-key-shaped tokens still go to the keys. (The verifier's own tests,
// in auth/, cover forgeries, rotation and the provider being down.)
func TestJWTBearer(t *testing.T) {
	t.Parallel()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	set, err := json.Marshal(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{KeyID: "k1", Key: &key.PublicKey, Algorithm: "RS256", Use: "sig"}}})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "jwks.json")
	if err := os.WriteFile(file, set, 0o600); err != nil {
		t.Fatal(err)
	}
	const issuer, audience = "https://id.example.org/realms/casegraph", "casegraph-api"
	verifier, err := auth.NewJWTVerifier(auth.JWTConfig{Issuer: issuer, Audience: audience, JWKSFile: file}, nil, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	h := newEdge(t, func(c *server.Config) { c.Anonymous, c.Tokens = nil, verifier })
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{KeyID: "k1", Key: key}}, (&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		t.Fatal(err)
	}
	token := func(aud string, exp time.Time) string {
		tok, err := jwt.Signed(signer).Claims(map[string]any{
			"iss": issuer, "aud": aud, "sub": "analyst-7", "exp": exp.Unix(), "iat": time.Now().Add(-time.Minute).Unix(),
			"casegraph_role": "reader", "casegraph_datasets": []string{"caesar-report"},
		}).Serialize()
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	const query = `{"query": "{ __typename }"}`
	if res := authed(t, h, http.MethodPost, "/graphql", "Bearer "+token(audience, time.Now().Add(time.Hour)), query); res.Status != http.StatusOK || len(res.Errors) > 0 {
		t.Errorf("a good token: %d %s", res.Status, res.Raw)
	}
	for name, tok := range map[string]string{
		"expired":        token(audience, time.Now().Add(-time.Hour)),
		"other audience": token("another-api", time.Now().Add(time.Hour)),
	} {
		if res := authed(t, h, http.MethodPost, "/graphql", "Bearer "+tok, query); res.Status != http.StatusUnauthorized || res.Code() != "UNAUTHENTICATED" {
			t.Errorf("%s: %d %s, want 401", name, res.Status, res.Raw)
		}
	}
	if calls := h.Refusing.Calls(); len(calls) > 0 {
		t.Errorf("a JWT reached the store: %v", calls)
	}
}
