package oidc

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/google/go-cmp/cmp"

	"github.com/casegraph/casegraph"
)

// testKeys are the keys the test provider publishes.
func testKeys() (rsa1, ec1, ed1 jose.JSONWebKey) {
	return jwk("rsa-1", rsaKey()), jwk("ec-1", ecKey()), jwk("ed-1", edKey())
}

func TestVerify(t *testing.T) {
	rsa1, ec1, ed1 := testKeys()
	p := newProvider(t, rsa1, ec1, ed1)
	var clock atomic.Int64
	v := newTestVerifier(t, testConfig(p.srv.URL), &clock)
	editor := casegraph.Principal{
		ID: "jwt:" + testIssuer + "#f3a1-77", Name: "f3a1-77", Role: casegraph.RoleEditor,
		Datasets: []string{"caesar-report", "sierra-leone"},
	}
	with := func(edit func(c map[string]any)) map[string]any {
		c := claims()
		edit(c)
		return c
	}
	withPrincipal := func(edit func(p *casegraph.Principal)) casegraph.Principal {
		p := editor
		edit(&p)
		return p
	}
	tests := []struct {
		name   string
		key    jose.JSONWebKey
		alg    jose.SignatureAlgorithm
		claims map[string]any
		want   casegraph.Principal
		// msg and cause, when set, are the refusal expected.
		msg, cause string
	}{
		{name: "RS256", key: rsa1, alg: jose.RS256, claims: claims(), want: editor},
		{name: "PS256", key: rsa1, alg: jose.PS256, claims: claims(), want: editor},
		{name: "ES256", key: ec1, alg: jose.ES256, claims: claims(), want: editor},
		{name: "EdDSA", key: ed1, alg: jose.EdDSA, claims: claims(), want: editor},
		{name: "audience among several", key: rsa1, alg: jose.RS256,
			claims: with(func(c map[string]any) { c["aud"] = []string{"account", testAudience} }), want: editor},
		{name: "wrong audience", key: rsa1, alg: jose.RS256,
			claims: with(func(c map[string]any) { c["aud"] = []string{"account", "other-api"} }),
			msg:    "token for another audience", cause: `"other-api"`},
		{name: "no audience", key: rsa1, alg: jose.RS256,
			claims: with(func(c map[string]any) { delete(c, "aud") }),
			msg:    "token for another audience", cause: "aud"},
		{name: "wrong issuer", key: rsa1, alg: jose.RS256,
			claims: with(func(c map[string]any) { c["iss"] = testIssuer + "/" }),
			msg:    "token from another issuer", cause: "iss"},
		{name: "expired", key: rsa1, alg: jose.RS256,
			claims: with(func(c map[string]any) { c["exp"] = t0.Add(-61 * time.Second).Unix() }),
			msg:    "token expired", cause: "exp"},
		{name: "expired within skew", key: rsa1, alg: jose.RS256,
			claims: with(func(c map[string]any) { c["exp"] = t0.Add(-59 * time.Second).Unix() }), want: editor},
		{name: "no expiry", key: rsa1, alg: jose.RS256,
			claims: with(func(c map[string]any) { delete(c, "exp") }),
			msg:    "token has no expiry", cause: "exp"},
		{name: "not yet valid", key: rsa1, alg: jose.RS256,
			claims: with(func(c map[string]any) { c["nbf"] = t0.Add(61 * time.Second).Unix() }),
			msg:    "token not valid yet", cause: "nbf"},
		{name: "not yet valid within skew", key: rsa1, alg: jose.RS256,
			claims: with(func(c map[string]any) { c["nbf"] = t0.Add(59 * time.Second).Unix() }), want: editor},
		{name: "issued in the future", key: rsa1, alg: jose.RS256,
			claims: with(func(c map[string]any) { c["iat"] = t0.Add(2 * time.Minute).Unix() }),
			msg:    "token not valid yet", cause: "iat"},
		{name: "no subject", key: rsa1, alg: jose.RS256,
			claims: with(func(c map[string]any) { delete(c, "sub") }),
			msg:    "token has no subject", cause: "sub"},
		{name: "no role", key: rsa1, alg: jose.RS256,
			claims: with(func(c map[string]any) { delete(c, "casegraph_role") }),
			msg:    "token grants no role", cause: "casegraph_role"},
		{name: "null role", key: rsa1, alg: jose.RS256,
			claims: with(func(c map[string]any) { c["casegraph_role"] = nil }),
			msg:    "token grants no role", cause: "casegraph_role"},
		{name: "unknown role", key: rsa1, alg: jose.RS256,
			claims: with(func(c map[string]any) { c["casegraph_role"] = "superuser" }),
			msg:    "token grants no valid role", cause: "superuser"},
		{name: "role not a string", key: rsa1, alg: jose.RS256,
			claims: with(func(c map[string]any) { c["casegraph_role"] = []string{"admin"} }),
			msg:    "token grants no valid role", cause: "want a string"},
		{name: "admin", key: rsa1, alg: jose.RS256,
			claims: with(func(c map[string]any) { c["casegraph_role"] = "admin" }),
			want:   withPrincipal(func(p *casegraph.Principal) { p.Role = casegraph.RoleAdmin })},
		{name: "datasets as a string", key: rsa1, alg: jose.RS256,
			claims: with(func(c map[string]any) { c["casegraph_datasets"] = " caesar-report  sierra-leone " }), want: editor},
		{name: "every dataset", key: rsa1, alg: jose.RS256,
			claims: with(func(c map[string]any) { c["casegraph_datasets"] = "*" }),
			want:   withPrincipal(func(p *casegraph.Principal) { p.Datasets = []string{casegraph.AllDatasets} })},
		{name: "no datasets", key: rsa1, alg: jose.RS256,
			claims: with(func(c map[string]any) { delete(c, "casegraph_datasets") }),
			want:   withPrincipal(func(p *casegraph.Principal) { p.Datasets = nil })},
		{name: "empty datasets", key: rsa1, alg: jose.RS256,
			claims: with(func(c map[string]any) { c["casegraph_datasets"] = []string{"", " "} }),
			want:   withPrincipal(func(p *casegraph.Principal) { p.Datasets = nil })},
		{name: "datasets a number", key: rsa1, alg: jose.RS256,
			claims: with(func(c map[string]any) { c["casegraph_datasets"] = 7 }),
			msg:    "token has invalid datasets", cause: "casegraph_datasets"},
		{name: "cleared", key: rsa1, alg: jose.RS256,
			claims: with(func(c map[string]any) { c["casegraph_clearance"] = true }),
			want:   withPrincipal(func(p *casegraph.Principal) { p.Cleared = true })},
		{name: "clearance as a string", key: rsa1, alg: jose.RS256,
			claims: with(func(c map[string]any) { c["casegraph_clearance"] = "true" }),
			msg:    "token has an invalid clearance", cause: "casegraph_clearance"},
		{name: "preferred_username", key: rsa1, alg: jose.RS256,
			claims: with(func(c map[string]any) { c["preferred_username"] = "fwilliams"; c["name"] = "Fiona Williams" }),
			want:   withPrincipal(func(p *casegraph.Principal) { p.Name = "fwilliams" })},
		{name: "name", key: rsa1, alg: jose.RS256,
			claims: with(func(c map[string]any) { c["name"] = "Fiona Williams" }),
			want:   withPrincipal(func(p *casegraph.Principal) { p.Name = "Fiona Williams" })},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			token := sign(t, tc.key, tc.alg, tc.claims)
			got, err := v.Verify(context.Background(), token)
			if tc.msg != "" {
				checkRefused(t, err, token, tc.msg, tc.cause)
				return
			}
			if err != nil {
				t.Fatalf("Verify: %v (cause: %v)", err, errorsCause(err))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("principal (-want +got):\n%s", diff)
			}
		})
	}
	if n := p.fetches.Load(); n != 1 {
		t.Errorf("JWKS fetched %d times, want 1 (cached)", n)
	}
}

// TestVerifyRefusesForgeries covers tokens that a verifier trusting the
// token's header would accept.
func TestVerifyRefusesForgeries(t *testing.T) {
	rsa1, ec1, _ := testKeys()
	p := newProvider(t, rsa1, ec1, jose.JSONWebKey{KeyID: "rsa-pinned", Key: rsaKey(), Algorithm: string(jose.RS256)})
	var clock atomic.Int64
	v := newTestVerifier(t, testConfig(p.srv.URL), &clock)

	der, err := x509.MarshalPKIXPublicKey(&rsaKey().PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	pemKey := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
	pkcs1 := pem.EncodeToMemory(&pem.Block{Type: "RSA PUBLIC KEY", Bytes: x509.MarshalPKCS1PublicKey(&rsaKey().PublicKey)})

	tests := []refusal{
		{"alg none", unsigned(t, "rsa-1", claims()), "malformed token", "algorithm"},
		{"HS256 with the public key as PEM", signHMAC(t, "rsa-1", pemKey, claims()), "malformed token", "algorithm"},
		{"HS256 with the public key as PKCS#1 PEM", signHMAC(t, "rsa-1", pkcs1, claims()), "malformed token", "algorithm"},
		{"HS256 with the public key as DER", signHMAC(t, "rsa-1", der, claims()), "malformed token", "algorithm"},
		{"another key under the same kid", sign(t, jwk("rsa-1", rsaKey2()), jose.RS256, claims()), "invalid token signature", "rsa-1"},
		{"RS256 naming the EC key", sign(t, jwk("ec-1", rsaKey()), jose.RS256, claims()), "invalid token signature", "does not fit RS256"},
		{"ES256 naming the RSA key", sign(t, jwk("rsa-1", ecKey()), jose.ES256, claims()), "invalid token signature", "does not fit ES256"},
		{"PS256 with a key published for RS256", sign(t, jwk("rsa-pinned", rsaKey()), jose.PS256, claims()), "invalid token signature", "is for RS256"},
		{"ES384, not allowed", sign(t, jwk("ec-1", must(ecdsaP384())), jose.ES384, claims()), "malformed token", "algorithm"},
		{"no kid", sign(t, jose.JSONWebKey{Key: rsaKey()}, jose.RS256, claims()), "invalid token signature", "no key id"},
	}
	checkRefusals(t, v, tests)
}

func TestVerifyMalformed(t *testing.T) {
	rsa1, _, _ := testKeys()
	p := newProvider(t, rsa1)
	var clock atomic.Int64
	v := newTestVerifier(t, testConfig(p.srv.URL), &clock)
	good := sign(t, rsa1, jose.RS256, claims())
	parts := strings.Split(good, ".")
	huge := claims()
	huge["padding"] = strings.Repeat("x", MaxTokenBytes)
	tests := []refusal{
		{"empty", "", "malformed token", "three"},
		{"garbage", "not a token at all", "malformed token", "three"},
		{"two parts", parts[0] + "." + parts[1], "malformed token", "three"},
		{"four parts", good + ".x", "malformed token", "three"},
		{"bad base64", parts[0] + ".!!!." + parts[2], "malformed token", "parse"},
		{"header not JSON", "bm90IGpzb24." + parts[1] + "." + parts[2], "malformed token", "parse"},
		{"signature of another payload", parts[0] + "." + strings.Split(sign(t, rsa1, jose.RS256, map[string]any{"sub": "x"}), ".")[1] + "." + parts[2],
			"invalid token signature", "rsa-1"},
		{"too large", sign(t, rsa1, jose.RS256, huge), "token too large", "bytes"},
	}
	checkRefusals(t, v, tests)
}

func BenchmarkVerify(b *testing.B) {
	rsa1, ec1, ed1 := testKeys()
	for _, bc := range []struct {
		key jose.JSONWebKey
		alg jose.SignatureAlgorithm
	}{{rsa1, jose.RS256}, {ec1, jose.ES256}, {ed1, jose.EdDSA}} {
		b.Run(string(bc.alg), func(b *testing.B) {
			p := &provider{}
			p.publish(rsa1, ec1, ed1)
			keys, err := parseJWKS(must(jsonMarshal(p.set)), nopLog())
			if err != nil {
				b.Fatal(err)
			}
			var clock atomic.Int64
			v := newTestVerifier(b, JWTConfig{Issuer: testIssuer, Audience: testAudience, JWKSURL: "http://127.0.0.1:1/jwks"}, &clock)
			v.keys.current.Store(&keySet{keys: keys, fetched: t0})
			token := sign(b, bc.key, bc.alg, claims())
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := v.Verify(ctx, token); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
