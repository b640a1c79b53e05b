package oidc

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/rs/zerolog"

	"github.com/casegraph/casegraph"
)

// MaxTokenBytes bounds a token: longer ones are refused before they are
// parsed. Provider tokens with a few dozen claims are 1 to 3 KB.
const MaxTokenBytes = 16 << 10

// JWTVerifier checks bearer JWTs and returns the principal they name. It
// is safe for concurrent use; one serves the whole process.
type JWTVerifier struct {
	cfg   JWTConfig
	algs  []jose.SignatureAlgorithm
	keys  *keySource
	now   func() time.Time
	subID string // "jwt:<issuer>#"

	mu       sync.Mutex
	verified map[[sha256.Size]byte]verifiedToken // by the token's SHA-256
}

// verifiedToken is a token that verified, trusted again without checking
// its signature until the earlier of its expiry and verifiedTTL after it
// was checked (so that a key the provider withdraws stops working soon).
type verifiedToken struct {
	p     casegraph.Principal
	until time.Time
}

// verifiedTTL bounds how long a verified token is trusted without a check;
// maxVerified bounds how many are kept.
const (
	verifiedTTL = time.Minute
	maxVerified = 10000
)

// NewJWTVerifier returns a verifier for cfg. With a JWKS file it reads the
// file now; with a JWKS URL it fetches the keys when the first token needs
// them (call Refresh to fetch them at start), with client (nil:
// http.DefaultClient).
func NewJWTVerifier(cfg JWTConfig, client *http.Client, log zerolog.Logger) (*JWTVerifier, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	algs, err := algorithms(cfg.Algorithms)
	if err != nil {
		return nil, err
	}
	if client == nil {
		client = http.DefaultClient
	}
	v := &JWTVerifier{cfg: cfg, algs: algs, now: time.Now, subID: "jwt:" + cfg.Issuer + "#"}
	if cfg.JWKSFile != "" {
		v.keys, err = fileKeySource(cfg.JWKSFile, log, v.clock)
		if err != nil {
			return nil, err
		}
	} else {
		v.keys = urlKeySource(cfg, client, log, v.clock)
	}
	return v, nil
}

// clock lets tests move time without a race on v.now.
func (v *JWTVerifier) clock() time.Time { return v.now() }

// Refresh fetches the JWKS now (a no-op for a JWKS file), so that a server
// can fail at start on a wrong URL or warm the cache.
func (v *JWTVerifier) Refresh(ctx context.Context) error {
	return v.keys.refresh(ctx)
}

// Verify checks token (without the "Bearer " prefix) and returns the
// principal it names. Every error is a *casegraph.Error with
// CodeUnauthenticated.
func (v *JWTVerifier) Verify(ctx context.Context, token string) (casegraph.Principal, error) {
	if len(token) > MaxTokenBytes {
		return casegraph.Principal{}, refuse("token too large", fmt.Errorf("token of %d bytes, at most %d", len(token), MaxTokenBytes))
	}
	if strings.Count(token, ".") != 2 {
		return casegraph.Principal{}, refuse("malformed token", errors.New("not a compact JWS: want three dot-separated parts"))
	}
	sum := sha256.Sum256([]byte(token))
	v.mu.Lock()
	hit, ok := v.verified[sum]
	v.mu.Unlock()
	if ok && v.now().Before(hit.until) {
		return hit.p, nil
	}
	tok, err := jwt.ParseSigned(token, v.algs)
	if err != nil {
		// go-jose refuses here any alg outside the allow-list: none, HMAC.
		return casegraph.Principal{}, refuse("malformed token", fmt.Errorf("parse: %w", err))
	}
	if len(tok.Headers) != 1 {
		return casegraph.Principal{}, refuse("malformed token", fmt.Errorf("%d signatures, want 1", len(tok.Headers)))
	}
	h := tok.Headers[0]
	alg := jose.SignatureAlgorithm(h.Algorithm)
	if h.KeyID == "" {
		return casegraph.Principal{}, refuse("invalid token signature", errors.New("the token names no key id (kid)"))
	}
	keys, err := v.keys.keys(ctx, h.KeyID)
	if err != nil {
		return casegraph.Principal{}, refuse("invalid token signature", err)
	}
	std, extra, err := v.claims(tok, keys, alg)
	if err != nil {
		return casegraph.Principal{}, refuse("invalid token signature", err)
	}
	if err := v.checkStandard(std); err != nil {
		return casegraph.Principal{}, err
	}
	p, err := v.principal(std, extra)
	if err != nil {
		return p, err
	}
	until := v.now().Add(verifiedTTL)
	if std.Expiry != nil && std.Expiry.Time().Before(until) {
		until = std.Expiry.Time()
	}
	v.mu.Lock()
	if v.verified == nil || len(v.verified) >= maxVerified {
		v.verified = map[[sha256.Size]byte]verifiedToken{}
	}
	v.verified[sum] = verifiedToken{p: p, until: until}
	v.mu.Unlock()
	return p, nil
}

// claims checks the signature with the first of keys that fits alg and
// verifies it, and returns the token's claims.
func (v *JWTVerifier) claims(tok *jwt.JSONWebToken, keys []jose.JSONWebKey, alg jose.SignatureAlgorithm) (jwt.Claims, map[string]json.RawMessage, error) {
	var errs []error
	for _, k := range keys {
		if err := fits(k, alg); err != nil {
			errs = append(errs, err)
			continue
		}
		var std jwt.Claims
		var extra map[string]json.RawMessage
		err := tok.Claims(k.Key, &std, &extra)
		if err == nil {
			return std, extra, nil
		}
		errs = append(errs, fmt.Errorf("key %q: %w", k.KeyID, err))
	}
	return jwt.Claims{}, nil, errors.Join(errs...)
}

// checkStandard checks iss, aud, exp, nbf and iat.
func (v *JWTVerifier) checkStandard(c jwt.Claims) error {
	if c.Expiry == nil {
		return refuse("token has no expiry", errors.New("no exp claim"))
	}
	if c.Subject == "" {
		return refuse("token has no subject", errors.New("no sub claim"))
	}
	err := c.ValidateWithLeeway(jwt.Expected{
		Issuer:      v.cfg.Issuer,
		AnyAudience: jwt.Audience{v.cfg.Audience},
		Time:        v.now(),
	}, v.cfg.ClockSkew)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, jwt.ErrExpired):
		return refuse("token expired", err)
	case errors.Is(err, jwt.ErrNotValidYet), errors.Is(err, jwt.ErrIssuedInTheFuture):
		return refuse("token not valid yet", err)
	case errors.Is(err, jwt.ErrInvalidIssuer):
		return refuse("token from another issuer", fmt.Errorf("%w: got %q", err, c.Issuer))
	case errors.Is(err, jwt.ErrInvalidAudience):
		return refuse("token for another audience", fmt.Errorf("%w: got %q", err, []string(c.Audience)))
	}
	return refuse("invalid token", err)
}

// principal reads the caller's rights from the verified claims.
func (v *JWTVerifier) principal(std jwt.Claims, extra map[string]json.RawMessage) (casegraph.Principal, error) {
	var roleName string
	raw, ok := extra[v.cfg.RoleClaim]
	if !ok || string(raw) == "null" {
		return casegraph.Principal{}, refuse("token grants no role", fmt.Errorf("no %s claim", v.cfg.RoleClaim))
	}
	if err := json.Unmarshal(raw, &roleName); err != nil {
		return casegraph.Principal{}, refuse("token grants no valid role", fmt.Errorf("claim %s: want a string: %w", v.cfg.RoleClaim, err))
	}
	role, err := casegraph.ParseRole(roleName)
	if err != nil {
		return casegraph.Principal{}, refuse("token grants no valid role", fmt.Errorf("claim %s: %w", v.cfg.RoleClaim, err))
	}
	datasets, err := datasetsClaim(extra[v.cfg.DatasetsClaim])
	if err != nil {
		return casegraph.Principal{}, refuse("token has invalid datasets", fmt.Errorf("claim %s: %w", v.cfg.DatasetsClaim, err))
	}
	var cleared bool
	if raw, ok := extra[v.cfg.ClearanceClaim]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &cleared); err != nil {
			return casegraph.Principal{}, refuse("token has an invalid clearance", fmt.Errorf("claim %s: want true or false: %w", v.cfg.ClearanceClaim, err))
		}
	}
	return casegraph.Principal{
		ID:       v.subID + std.Subject,
		Name:     displayName(std.Subject, extra),
		Role:     role,
		Datasets: datasets,
		Cleared:  cleared,
	}, nil
}

// datasetsClaim reads an array of strings or one space-separated string
// (the way OAuth writes scope). Absent or null grants no dataset.
func datasetsClaim(raw json.RawMessage) ([]string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil, errors.New("want an array of strings or a space-separated string")
		}
		list = strings.Fields(s)
	}
	out := list[:0]
	for _, d := range list {
		if d = strings.TrimSpace(d); d != "" {
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

// displayName is the name people see: preferred_username, else name, else
// the subject.
func displayName(sub string, extra map[string]json.RawMessage) string {
	for _, claim := range []string{"preferred_username", "name"} {
		var s string
		if json.Unmarshal(extra[claim], &s) == nil && strings.TrimSpace(s) != "" {
			return s
		}
	}
	return sub
}

// refuse returns the error every failure of Verify is: UNAUTHENTICATED with
// a message safe for clients and the cause for logs.
func refuse(msg string, cause error) error {
	return &casegraph.Error{Code: casegraph.CodeUnauthenticated, Message: msg, Cause: cause}
}
