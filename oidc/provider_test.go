package oidc

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/rs/zerolog"

	"github.com/casegraph/casegraph"
)

// The test provider's issuer and this service's audience.
const (
	testIssuer   = "https://idp.example.org/realms/casegraph"
	testAudience = "casegraph-api"
)

// t0 is the verifier's "now" in every test: tokens are dated from it.
var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// Keys are generated once per test binary: RSA generation is slow.
var (
	rsaKey  = sync.OnceValue(func() *rsa.PrivateKey { return must(rsa.GenerateKey(rand.Reader, 2048)) })
	rsaKey2 = sync.OnceValue(func() *rsa.PrivateKey { return must(rsa.GenerateKey(rand.Reader, 2048)) })
	ecKey   = sync.OnceValue(func() *ecdsa.PrivateKey { return must(ecdsa.GenerateKey(elliptic.P256(), rand.Reader)) })
	edKey   = sync.OnceValue(func() ed25519.PrivateKey {
		_, k, err := ed25519.GenerateKey(rand.Reader)
		return must(k, err)
	})
)

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// jwk names a private key for signing; public() is what the JWKS shows.
func jwk(kid string, key any) jose.JSONWebKey { return jose.JSONWebKey{KeyID: kid, Key: key} }

func public(keys ...jose.JSONWebKey) []jose.JSONWebKey {
	out := make([]jose.JSONWebKey, len(keys))
	for i, k := range keys {
		out[i] = k.Public()
		out[i].Use = "sig"
	}
	return out
}

// provider serves a JWKS the test can change, turn off, and count fetches of.
type provider struct {
	srv     *httptest.Server
	mu      sync.Mutex
	set     jose.JSONWebKeySet
	down    atomic.Bool
	fetches atomic.Int64
}

func newProvider(t *testing.T, keys ...jose.JSONWebKey) *provider {
	t.Helper()
	p := &provider{}
	p.publish(keys...)
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.fetches.Add(1)
		if p.down.Load() {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(p.set)
	}))
	t.Cleanup(p.srv.Close)
	return p
}

// publish makes the JWKS show the public halves of keys.
func (p *provider) publish(keys ...jose.JSONWebKey) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.set = jose.JSONWebKeySet{Keys: public(keys...)}
}

// testConfig is a valid configuration for the provider at url.
func testConfig(url string) JWTConfig {
	return JWTConfig{Issuer: testIssuer, Audience: testAudience, JWKSURL: url}
}

// newTestVerifier returns a verifier of cfg whose clock reads *clock.
func newTestVerifier(t testing.TB, cfg JWTConfig, clock *atomic.Int64) *JWTVerifier {
	t.Helper()
	v, err := NewJWTVerifier(cfg, nil, zerolog.Nop())
	if err != nil {
		t.Fatalf("NewJWTVerifier: %v", err)
	}
	clock.Store(t0.UnixNano())
	v.now = func() time.Time { return time.Unix(0, clock.Load()) }
	return v
}

// claims are a valid token's claims at t0; tests change them.
func claims() map[string]any { return claimsAt(t0) }

// claimsAt are a valid token's claims at t0.
func claimsAt(t0 time.Time) map[string]any {
	return map[string]any{
		"iss":                testIssuer,
		"aud":                testAudience,
		"sub":                "f3a1-77",
		"exp":                t0.Add(5 * time.Minute).Unix(),
		"iat":                t0.Unix(),
		"nbf":                t0.Unix(),
		"casegraph_role":     "editor",
		"casegraph_datasets": []string{"caesar-report", "sierra-leone"},
	}
}

// sign returns a compact JWS of c, signed by key with alg.
func sign(t testing.TB, key jose.JSONWebKey, alg jose.SignatureAlgorithm, c map[string]any) string {
	t.Helper()
	return signWith(t, jose.SigningKey{Algorithm: alg, Key: key}, (&jose.SignerOptions{}).WithType("JWT"), c)
}

// signHMAC signs c with HS256 and secret, naming kid: the algorithm
// confusion attack, when secret is a public key.
func signHMAC(t *testing.T, kid string, secret []byte, c map[string]any) string {
	t.Helper()
	return signWith(t, jose.SigningKey{Algorithm: jose.HS256, Key: secret},
		(&jose.SignerOptions{}).WithType("JWT").WithHeader("kid", kid), c)
}

func signWith(t testing.TB, key jose.SigningKey, opts *jose.SignerOptions, c map[string]any) string {
	t.Helper()
	s, err := jose.NewSigner(key, opts)
	if err != nil {
		t.Fatalf("NewSigner: %v", err)
	}
	tok, err := jwt.Signed(s).Claims(c).Serialize()
	if err != nil {
		t.Fatalf("sign: %v", err)
	}
	return tok
}

// unsigned hand-crafts a token with alg none and an empty signature.
func unsigned(t *testing.T, kid string, c map[string]any) string {
	t.Helper()
	enc := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return base64.RawURLEncoding.EncodeToString(b)
	}
	return enc(map[string]string{"alg": "none", "typ": "JWT", "kid": kid}) + "." + enc(c) + "."
}

// checkRefused fails unless err is UNAUTHENTICATED with message msg and a
// cause that mentions cause, and neither holds the token.
func checkRefused(t *testing.T, err error, token, msg, cause string) {
	t.Helper()
	var e *casegraph.Error
	if !errors.As(err, &e) {
		t.Fatalf("Verify error = %v, want a *casegraph.Error", err)
	}
	if e.Code != casegraph.CodeUnauthenticated {
		t.Errorf("code = %s, want %s", e.Code, casegraph.CodeUnauthenticated)
	}
	if e.Message != msg {
		t.Errorf("message = %q, want %q", e.Message, msg)
	}
	if e.Cause == nil {
		t.Fatalf("no cause (message %q)", e.Message)
	}
	if !strings.Contains(e.Cause.Error(), cause) {
		t.Errorf("cause = %q, want it to mention %q", e.Cause, cause)
	}
	if len(token) > 20 && (strings.Contains(e.Error(), token) || strings.Contains(e.Cause.Error(), token)) {
		t.Errorf("the error holds the token")
	}
}

func ecdsaP384() (*ecdsa.PrivateKey, error) { return ecdsa.GenerateKey(elliptic.P384(), rand.Reader) }

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }

func nopLog() zerolog.Logger { return zerolog.Nop() }

// errorsCause returns the cause of a *casegraph.Error, for failure messages.
func errorsCause(err error) error {
	var e *casegraph.Error
	if errors.As(err, &e) {
		return e.Cause
	}
	return nil
}

// refusal is a token and the refusal Verify must give it.
type refusal struct {
	name, token, msg, cause string
}

// checkRefusals runs each case as a subtest.
func checkRefusals(t *testing.T, v *JWTVerifier, cases []refusal) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := v.Verify(context.Background(), tc.token)
			checkRefused(t, err, tc.token, tc.msg, tc.cause)
		})
	}
}
