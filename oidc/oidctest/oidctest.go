// Package oidctest is a test OpenID Connect provider: a key pair, its JWKS
// (in a file), a verifier of it, and tokens signed with it. For tests and
// benchmarks of the service with JWTs; the oidc package's own tests, which
// forge tokens, have their own.
package oidctest

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/rs/zerolog"

	"github.com/casegraph/casegraph/oidc"
)

// The provider's issuer and the audience its tokens name.
const (
	Issuer   = "https://id.example.org/realms/casegraph"
	Audience = "casegraph-api"
)

// Provider signs tokens and holds a verifier of them.
type Provider struct {
	Verifier *oidc.JWTVerifier
	signer   jose.Signer
	t        testing.TB
}

// New makes a provider: an RSA key, its JWKS in a file of the test's, and
// a verifier of that file.
func New(t testing.TB) *Provider {
	t.Helper()
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
	v, err := oidc.NewJWTVerifier(oidc.JWTConfig{Issuer: Issuer, Audience: Audience, JWKSFile: file}, nil, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{KeyID: "k1", Key: key}}, (&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		t.Fatal(err)
	}
	return &Provider{Verifier: v, signer: signer, t: t}
}

// Token signs a token of the subject with a role and datasets, expiring
// after ttl (negative: already expired), for the audience (Audience when
// empty).
func (p *Provider) Token(subject, role string, datasets []string, ttl time.Duration, audience string) string {
	p.t.Helper()
	if audience == "" {
		audience = Audience
	}
	now := time.Now()
	tok, err := jwt.Signed(p.signer).Claims(map[string]any{
		"iss": Issuer, "aud": audience, "sub": subject, "exp": now.Add(ttl).Unix(), "iat": now.Add(-2 * time.Hour).Unix(),
		"casegraph_role": role, "casegraph_datasets": datasets,
	}).Serialize()
	if err != nil {
		p.t.Fatal(err)
	}
	return tok
}
