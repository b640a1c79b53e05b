package oidc

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync/atomic"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/rs/zerolog"
)

// maxJWKSBytes bounds a JWKS document: a provider publishes a handful of
// keys, a few kilobytes.
const maxJWKSBytes = 1 << 20

// minRSABits refuses RSA keys that are too weak to trust.
const minRSABits = 2048

// keySet is one copy of the provider's signing keys, by key id.
type keySet struct {
	keys    map[string][]jose.JSONWebKey
	fetched time.Time
}

// keySource holds the provider's keys: read once from a file, or fetched
// from a URL, cached, and fetched again when a token names a key id it does
// not know or the keys are older than maxAge, at most once per minInterval.
type keySource struct {
	url         string
	client      *http.Client
	timeout     time.Duration
	minInterval time.Duration
	maxAge      time.Duration
	log         zerolog.Logger
	now         func() time.Time

	current atomic.Pointer[keySet]
	// sem lets one fetch run at a time; waiting for it honours the
	// caller's context.
	sem chan struct{}
	// lastAttempt is when the last fetch that the caller did not cancel
	// began (UnixNano), and lastErr how it failed (nil: it did not).
	lastAttempt atomic.Int64
	lastErr     atomic.Pointer[error]
}

// fileKeySource reads a JWKS file once.
func fileKeySource(path string, log zerolog.Logger, now func() time.Time) (*keySource, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("jwt: read JWKS file: %w", err)
	}
	keys, err := parseJWKS(data, log)
	if err != nil {
		return nil, fmt.Errorf("jwt: JWKS file %s: %w", path, err)
	}
	s := &keySource{log: log, now: now}
	s.current.Store(&keySet{keys: keys, fetched: now()})
	return s, nil
}

// urlKeySource fetches the JWKS when a token first needs it.
func urlKeySource(cfg JWTConfig, client *http.Client, log zerolog.Logger, now func() time.Time) *keySource {
	return &keySource{
		url: cfg.JWKSURL, client: client, timeout: cfg.FetchTimeout,
		minInterval: cfg.MinRefreshInterval, maxAge: cfg.MaxKeyAge,
		log: log, now: now, sem: make(chan struct{}, 1),
	}
}

// keys returns the keys published under kid, fetching the JWKS again when
// it does not know kid or its keys are too old, and it may fetch.
func (s *keySource) keys(ctx context.Context, kid string) ([]jose.JSONWebKey, error) {
	set := s.current.Load()
	if s.url == "" {
		if ks := set.keys[kid]; len(ks) > 0 {
			return ks, nil
		}
		return nil, fmt.Errorf("key id %q is not in the JWKS file", kid)
	}
	if set != nil {
		ks := set.keys[kid]
		if len(ks) > 0 && s.now().Sub(set.fetched) < s.maxAge {
			return ks, nil
		}
		if len(ks) > 0 {
			// Known but old: fetch again if nobody else is and the
			// interval allows, without making this request wait.
			if s.mayFetch() {
				select {
				case s.sem <- struct{}{}:
					if fresh, err := s.fetchLocked(ctx); err == nil {
						set = fresh
					} else {
						s.log.Warn().Err(err).Msg("jwt: refreshing the JWKS failed; the keys in hand stay in use")
					}
					<-s.sem
				default:
				}
			}
			if ks := set.keys[kid]; len(ks) > 0 {
				return ks, nil
			}
			return nil, fmt.Errorf("key id %q was withdrawn from the JWKS", kid)
		}
	}
	return s.unknown(ctx, kid)
}

// unknown fetches the JWKS for a key id it does not hold, unless the last
// fetch was too recent.
func (s *keySource) unknown(ctx context.Context, kid string) ([]jose.JSONWebKey, error) {
	select {
	case s.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("key id %q unknown; waiting for the JWKS fetch: %w", kid, ctx.Err())
	}
	defer func() { <-s.sem }()
	// Another request may have fetched while this one waited.
	if set := s.current.Load(); set != nil {
		if ks := set.keys[kid]; len(ks) > 0 {
			return ks, nil
		}
	}
	if !s.mayFetch() {
		if p := s.lastErr.Load(); p != nil && *p != nil {
			return nil, fmt.Errorf("key id %q unknown; the last JWKS fetch failed less than %s ago: %w", kid, s.minInterval, *p)
		}
		return nil, fmt.Errorf("key id %q unknown; the JWKS was fetched less than %s ago", kid, s.minInterval)
	}
	set, err := s.fetchLocked(ctx)
	if err != nil {
		return nil, fmt.Errorf("key id %q unknown: %w", kid, err)
	}
	if ks := set.keys[kid]; len(ks) > 0 {
		return ks, nil
	}
	return nil, fmt.Errorf("key id %q is not in the JWKS just fetched", kid)
}

// mayFetch says whether minInterval has passed since the last fetch.
func (s *keySource) mayFetch() bool {
	last := s.lastAttempt.Load()
	return last == 0 || s.now().Sub(time.Unix(0, last)) >= s.minInterval
}

// refresh fetches the JWKS now, whatever the interval (at start, to fail
// early on a wrong URL).
func (s *keySource) refresh(ctx context.Context) error {
	if s.url == "" {
		return nil
	}
	select {
	case s.sem <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-s.sem }()
	_, err := s.fetchLocked(ctx)
	return err
}

// fetchLocked fetches the JWKS and keeps it; the caller holds sem. A fetch
// the caller cancelled does not count against the interval.
func (s *keySource) fetchLocked(ctx context.Context) (*keySet, error) {
	start := s.now()
	keys, err := s.fetch(ctx)
	if err != nil && ctx.Err() != nil {
		return nil, err
	}
	s.lastAttempt.Store(start.UnixNano())
	s.lastErr.Store(&err)
	if err != nil {
		return nil, err
	}
	set := &keySet{keys: keys, fetched: start}
	s.current.Store(set)
	s.log.Debug().Int("kids", len(keys)).Msg("jwt: JWKS fetched")
	return set, nil
}

func (s *keySource) fetch(ctx context.Context) (map[string][]jose.JSONWebKey, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.url, nil)
	if err != nil {
		return nil, fmt.Errorf("fetch JWKS: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetch JWKS: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetch JWKS: %s answered %s", s.url, resp.Status)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxJWKSBytes+1))
	if err != nil {
		return nil, fmt.Errorf("fetch JWKS: %w", err)
	}
	if len(data) > maxJWKSBytes {
		return nil, fmt.Errorf("fetch JWKS: larger than %d bytes", maxJWKSBytes)
	}
	keys, err := parseJWKS(data, s.log)
	if err != nil {
		return nil, fmt.Errorf("fetch JWKS: %w", err)
	}
	return keys, nil
}

// parseJWKS returns the public signing keys of a JWKS, by key id. A key it
// cannot use (no kid, symmetric, private, for encryption, of a type it does
// not know) is skipped with a warning rather than failing the whole set, so
// that one odd key of a provider does not lock every user out.
func parseJWKS(data []byte, log zerolog.Logger) (map[string][]jose.JSONWebKey, error) {
	var doc struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("not a JWKS: %w", err)
	}
	keys := make(map[string][]jose.JSONWebKey)
	for i, raw := range doc.Keys {
		var k jose.JSONWebKey
		if err := k.UnmarshalJSON(raw); err != nil {
			log.Warn().Err(err).Int("key", i).Msg("jwt: JWKS key skipped")
			continue
		}
		var why string
		switch {
		case k.KeyID == "":
			why = "no kid"
		case !k.IsPublic():
			why = "not a public key (symmetric or private)"
		case k.Use != "" && k.Use != "sig":
			why = "use is " + k.Use
		case !k.Valid():
			why = "invalid key"
		}
		if why != "" {
			log.Warn().Str("kid", k.KeyID).Int("key", i).Str("why", why).Msg("jwt: JWKS key skipped")
			continue
		}
		keys[k.KeyID] = append(keys[k.KeyID], k)
	}
	if len(keys) == 0 {
		return nil, errors.New("no usable signing key in the JWKS")
	}
	return keys, nil
}

// fits says whether key k may check a signature made with alg: its type
// (and curve) must be the one alg is defined for, and its own alg, when the
// JWKS names one, must be alg. This is what keeps an RSA key from being
// used for anything but RS*/PS*.
func fits(k jose.JSONWebKey, alg jose.SignatureAlgorithm) error {
	if k.Algorithm != "" && k.Algorithm != string(alg) {
		return fmt.Errorf("key %q is for %s, the token is signed with %s", k.KeyID, k.Algorithm, alg)
	}
	switch key := k.Key.(type) {
	case *rsa.PublicKey:
		switch alg {
		case jose.RS256, jose.RS384, jose.RS512, jose.PS256, jose.PS384, jose.PS512:
			if key.N.BitLen() < minRSABits {
				return fmt.Errorf("key %q: RSA key of %d bits, want at least %d", k.KeyID, key.N.BitLen(), minRSABits)
			}
			return nil
		}
	case *ecdsa.PublicKey:
		want := map[jose.SignatureAlgorithm]elliptic.Curve{
			jose.ES256: elliptic.P256(), jose.ES384: elliptic.P384(), jose.ES512: elliptic.P521(),
		}[alg]
		if want != nil && key.Curve == want {
			return nil
		}
	case ed25519.PublicKey:
		if alg == jose.EdDSA {
			return nil
		}
	}
	return fmt.Errorf("key %q (%T) does not fit %s", k.KeyID, k.Key, alg)
}
