package oidc

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// verifies fails unless token verifies.
func verifies(t *testing.T, v *JWTVerifier, token, what string) {
	t.Helper()
	if _, err := v.Verify(context.Background(), token); err != nil {
		t.Fatalf("%s: Verify: %v (cause: %v)", what, err, errorsCause(err))
	}
}

func TestKeyRotation(t *testing.T) {
	old, fresh := jwk("2026-02", rsaKey()), jwk("2026-03", ecKey())
	p := newProvider(t, old)
	var clock atomic.Int64
	v := newTestVerifier(t, testConfig(p.srv.URL), &clock)
	tick := func(d time.Duration) { clock.Add(int64(d)) }

	oldToken := sign(t, old, jose.RS256, claims())
	verifies(t, v, oldToken, "old key")

	// The provider publishes the new key beside the old one and starts
	// signing with it.
	p.publish(old, fresh)
	tick(DefaultMinRefreshInterval)
	verifies(t, v, sign(t, fresh, jose.ES256, claims()), "new key, after the refresh")
	verifies(t, v, oldToken, "old key, still published")
	if n := p.fetches.Load(); n != 2 {
		t.Errorf("JWKS fetched %d times, want 2 (once at first use, once for the new kid)", n)
	}

	// The provider withdraws the old key: once the keys in hand are older
	// than MaxKeyAge, the old key's tokens are refused.
	p.publish(fresh)
	tick(DefaultMaxKeyAge)
	now := time.Unix(0, clock.Load())
	oldToken = sign(t, old, jose.RS256, claimsAt(now))
	_, err := v.Verify(context.Background(), oldToken)
	checkRefused(t, err, oldToken, "invalid token signature", "withdrawn")
	verifies(t, v, sign(t, fresh, jose.ES256, claimsAt(now)), "new key, after the old one is withdrawn")
}

func TestUnknownKidFloodIsRateLimited(t *testing.T) {
	key := jwk("rsa-1", rsaKey())
	p := newProvider(t, key)
	var clock atomic.Int64
	v := newTestVerifier(t, testConfig(p.srv.URL), &clock)
	verifies(t, v, sign(t, key, jose.RS256, claims()), "known key")

	clock.Add(int64(DefaultMinRefreshInterval))
	flood := make([]string, 200)
	for i := range flood {
		flood[i] = sign(t, jwk(fmt.Sprintf("random-%d", i), rsaKey2()), jose.RS256, claims())
	}
	var wg sync.WaitGroup
	for _, token := range flood {
		wg.Go(func() {
			if _, err := v.Verify(context.Background(), token); err == nil {
				t.Errorf("a token with an unknown kid verified")
			}
		})
	}
	wg.Wait()
	if n := p.fetches.Load(); n != 2 {
		t.Errorf("JWKS fetched %d times after %d unknown kids, want 2 (first use, one refresh)", n, len(flood))
	}
	_, err := v.Verify(context.Background(), flood[0])
	checkRefused(t, err, flood[0], "invalid token signature", "fetched less than")

	clock.Add(int64(DefaultMinRefreshInterval))
	_, err = v.Verify(context.Background(), flood[0])
	checkRefused(t, err, flood[0], "invalid token signature", "not in the JWKS just fetched")
	if n := p.fetches.Load(); n != 3 {
		t.Errorf("JWKS fetched %d times, want 3 once the interval has passed", n)
	}
	verifies(t, v, sign(t, key, jose.RS256, claims()), "known key, after the flood")
}

func TestJWKSDown(t *testing.T) {
	key := jwk("rsa-1", rsaKey())
	token := sign(t, key, jose.RS256, claims())

	t.Run("answers 503", func(t *testing.T) {
		p := newProvider(t, key)
		p.down.Store(true)
		var clock atomic.Int64
		v := newTestVerifier(t, testConfig(p.srv.URL), &clock)
		_, err := v.Verify(context.Background(), token)
		checkRefused(t, err, token, "invalid token signature", "fetch JWKS")
		checkRefused(t, err, token, "invalid token signature", "503")
		// Within the interval it is not asked again, and the cause says
		// why the key is unknown.
		_, err = v.Verify(context.Background(), token)
		checkRefused(t, err, token, "invalid token signature", "the last JWKS fetch failed")
		if n := p.fetches.Load(); n != 1 {
			t.Errorf("JWKS fetched %d times, want 1", n)
		}
		p.down.Store(false)
		clock.Add(int64(DefaultMinRefreshInterval))
		verifies(t, v, token, "provider back")
	})
	t.Run("unreachable", func(t *testing.T) {
		p := newProvider(t, key)
		p.srv.Close()
		var clock atomic.Int64
		v := newTestVerifier(t, testConfig(p.srv.URL), &clock)
		_, err := v.Verify(context.Background(), token)
		checkRefused(t, err, token, "invalid token signature", "fetch JWKS")
		if err := v.Refresh(context.Background()); err == nil {
			t.Errorf("Refresh of an unreachable JWKS succeeded")
		}
	})
	t.Run("keys in hand stay in use", func(t *testing.T) {
		p := newProvider(t, key)
		var clock atomic.Int64
		v := newTestVerifier(t, testConfig(p.srv.URL), &clock)
		if err := v.Refresh(context.Background()); err != nil {
			t.Fatalf("Refresh: %v", err)
		}
		p.down.Store(true)
		clock.Add(int64(DefaultMaxKeyAge))
		verifies(t, v, sign(t, key, jose.RS256, claimsAt(time.Unix(0, clock.Load()))), "old keys, provider down")
		if n := p.fetches.Load(); n != 2 {
			t.Errorf("JWKS fetched %d times, want 2 (Refresh, then once the keys were old)", n)
		}
	})
	t.Run("caller gone", func(t *testing.T) {
		p := newProvider(t, key)
		var clock atomic.Int64
		v := newTestVerifier(t, testConfig(p.srv.URL), &clock)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := v.Verify(ctx, token)
		checkRefused(t, err, token, "invalid token signature", "context canceled")
		// The cancelled fetch does not count against the interval.
		verifies(t, v, token, "next request")
	})
}

func TestJWKSFile(t *testing.T) {
	key, other := jwk("rsa-1", rsaKey()), jwk("ec-1", ecKey())
	path := filepath.Join(t.TempDir(), "jwks.json")
	data, err := json.Marshal(jose.JSONWebKeySet{Keys: public(key)})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	var clock atomic.Int64
	v := newTestVerifier(t, JWTConfig{Issuer: testIssuer, Audience: testAudience, JWKSFile: path}, &clock)
	verifies(t, v, sign(t, key, jose.RS256, claims()), "key in the file")
	token := sign(t, other, jose.ES256, claims())
	_, err = v.Verify(context.Background(), token)
	checkRefused(t, err, token, "invalid token signature", "not in the JWKS file")

	if _, err := NewJWTVerifier(JWTConfig{Issuer: testIssuer, Audience: testAudience, JWKSFile: path + ".missing"}, nil, nopLog()); err == nil {
		t.Errorf("NewJWTVerifier with a missing JWKS file succeeded")
	}
}

// TestParseJWKSSkipsUnusableKeys: one odd key must not fail the whole set,
// and no symmetric or private key may ever be used to verify.
func TestParseJWKSSkipsUnusableKeys(t *testing.T) {
	good := public(jwk("good", rsaKey()))[0]
	enc := public(jwk("enc", rsaKey()))[0]
	enc.Use = "enc"
	var keys []json.RawMessage
	for _, k := range []jose.JSONWebKey{good, enc, jwk("private", ecKey()), jwk("hmac", []byte("0123456789abcdef0123456789abcdef")), public(jwk("", ecKey()))[0]} {
		keys = append(keys, must(json.Marshal(k)))
	}
	keys = append(keys, json.RawMessage(`{"kty":"XYZ","kid":"unknown-type"}`))
	data := must(json.Marshal(map[string]any{"keys": keys}))
	got, err := parseJWKS(data, nopLog())
	if err != nil {
		t.Fatalf("parseJWKS: %v", err)
	}
	if len(got) != 1 || len(got["good"]) != 1 {
		t.Errorf("kept %v, want only the key \"good\"", got)
	}
	if _, err := parseJWKS([]byte(`{"keys":[{"kty":"oct","kid":"k","k":"c2VjcmV0"}]}`), nopLog()); err == nil {
		t.Errorf("a JWKS with only a symmetric key was accepted")
	}
	if _, err := parseJWKS([]byte(`<html>`), nopLog()); err == nil {
		t.Errorf("a page that is not JSON was accepted")
	}
}

// TestFits is the second guard against algorithm confusion, behind the
// allow-list: a key is only used for the algorithms of its type.
func TestFits(t *testing.T) {
	rsaPub, ecPub, edPub := public(jwk("r", rsaKey()))[0], public(jwk("e", ecKey()))[0], public(jwk("d", edKey()))[0]
	p384 := public(jwk("p384", must(ecdsaP384())))[0]
	pinned := rsaPub
	pinned.Algorithm = "RS256"
	tests := []struct {
		key  jose.JSONWebKey
		alg  jose.SignatureAlgorithm
		fits bool
	}{
		{rsaPub, jose.RS256, true}, {rsaPub, jose.PS512, true}, {rsaPub, jose.HS256, false}, {rsaPub, jose.ES256, false}, {rsaPub, jose.EdDSA, false},
		{ecPub, jose.ES256, true}, {ecPub, jose.ES384, false}, {ecPub, jose.HS256, false}, {ecPub, jose.RS256, false},
		{p384, jose.ES384, true}, {p384, jose.ES256, false},
		{edPub, jose.EdDSA, true}, {edPub, jose.HS256, false},
		{pinned, jose.RS256, true}, {pinned, jose.PS256, false},
	}
	for _, tc := range tests {
		err := fits(tc.key, tc.alg)
		if got := err == nil; got != tc.fits {
			t.Errorf("fits(%s %T, %s) = %v, want fits %v", tc.key.KeyID, tc.key.Key, tc.alg, err, tc.fits)
		}
	}
}

// TestVerifiedTokensExpire: a token that verified is trusted again without
// a signature check for at most a minute, and never past its expiry: a
// token whose key was withdrawn stops verifying once that minute is over,
// though the token itself is still valid.
func TestVerifiedTokensExpire(t *testing.T) {
	key := jwk("k", rsaKey())
	p := newProvider(t, key)
	var clock atomic.Int64
	v := newTestVerifier(t, testConfig(p.srv.URL), &clock)
	c := claims()
	c["exp"] = t0.Add(3 * time.Hour).Unix()
	token := sign(t, key, jose.RS256, c)
	verifies(t, v, token, "first use")
	fetches := p.fetches.Load()

	// The provider withdraws the key for another; the keys in hand get old
	// enough to be fetched again. Within a minute of its check the token
	// is trusted from the cache, without a look at the keys.
	p.publish(jwk("k2", ecKey()))
	clock.Add(int64(30 * time.Second))
	verifies(t, v, token, "within the minute")
	if n := p.fetches.Load(); n != fetches {
		t.Errorf("a cached token fetched the JWKS (%d fetches, want %d)", n, fetches)
	}
	// After the minute (and once the keys are old), it is checked again,
	// and its key is gone.
	clock.Add(int64(DefaultMaxKeyAge))
	if _, err := v.Verify(context.Background(), token); err == nil {
		t.Error("a token whose key was withdrawn still verifies after the cache's minute")
	}

	// Never past its expiry: a token valid for 20 s more is refused once
	// those pass, though it was checked less than a minute before.
	p.publish(key)
	clock.Add(int64(DefaultMinRefreshInterval))
	c = claimsAt(time.Unix(0, clock.Load()))
	c["exp"] = time.Unix(0, clock.Load()).Add(20 * time.Second).Unix()
	short := sign(t, key, jose.RS256, c)
	verifies(t, v, short, "short-lived token")
	clock.Add(int64(DefaultClockSkew + 30*time.Second))
	if _, err := v.Verify(context.Background(), short); err == nil {
		t.Error("a cached token verifies past its expiry")
	}
}
