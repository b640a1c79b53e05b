// Package oidc verifies bearer JWTs issued by an OpenID Connect provider
// (Keycloak, Auth0, Entra ID ...) and turns them into a
// casegraph.Principal: the signature against the provider's JWKS
// (jwks.go), then iss, aud, exp, nbf and iat, then the claims that carry
// the caller's role, datasets and clearance (jwt.go). This file holds the
// verifier's configuration. (API keys, the other credential, are checked
// at the HTTP edge: server/auth.go.)
//
// Every failure is a *casegraph.Error with CodeUnauthenticated and a short
// message that is safe to send to the client; the detailed reason is in its
// Cause, for logs. Neither ever holds the token.
package oidc

import (
	"fmt"
	"net"
	"net/url"
	"slices"
	"strings"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// The defaults of JWTConfig's optional fields.
const (
	DefaultRoleClaim          = "casegraph_role"
	DefaultDatasetsClaim      = "casegraph_datasets"
	DefaultClearanceClaim     = "casegraph_clearance"
	DefaultClockSkew          = 60 * time.Second
	DefaultFetchTimeout       = 10 * time.Second
	DefaultMinRefreshInterval = 30 * time.Second
	DefaultMaxKeyAge          = time.Hour
)

// maxClockSkew bounds ClockSkew: a skew of hours would keep expired tokens
// alive, which is not what a clock difference needs.
const maxClockSkew = 5 * time.Minute

// asymmetric are the signature algorithms a JWTConfig may allow. HMAC
// (HS256 ...) is never among them: its key is a shared secret, and a
// verifier that accepts it can be fooled into using a public key as the
// secret (algorithm confusion).
var asymmetric = []jose.SignatureAlgorithm{
	jose.RS256, jose.RS384, jose.RS512,
	jose.PS256, jose.PS384, jose.PS512,
	jose.ES256, jose.ES384, jose.ES512,
	jose.EdDSA,
}

// DefaultAlgorithms are the algorithms allowed when JWTConfig.Algorithms is
// empty: what OpenID Connect providers sign with.
func DefaultAlgorithms() []string { return []string{"RS256", "ES256", "PS256", "EdDSA"} }

// JWTConfig says which tokens a JWTVerifier accepts and where it reads the
// caller's rights in them. Issuer, Audience and one of JWKSURL or JWKSFile
// are required; every other field has a default.
type JWTConfig struct {
	// Issuer must equal the token's iss claim exactly (for OpenID Connect,
	// the issuer URL of the discovery document, trailing slash included).
	Issuer string
	// Audience must be one of the token's aud values.
	Audience string
	// JWKSURL is where the provider publishes its signing keys (the
	// jwks_uri of the discovery document). https, or http on loopback.
	JWKSURL string
	// JWKSFile is a JWKS read once, at start, instead of JWKSURL.
	JWKSFile string
	// RoleClaim names the top-level claim that holds the role, a string:
	// reader, editor or admin. Default casegraph_role.
	RoleClaim string
	// DatasetsClaim names the top-level claim that holds the datasets
	// granted: an array of strings or one space-separated string ("*" for
	// every dataset). Default casegraph_datasets.
	DatasetsClaim string
	// ClearanceClaim names the top-level claim that says whether the caller
	// may see protected people: a JSON boolean. Default casegraph_clearance.
	ClearanceClaim string
	// ClockSkew is the leeway given to exp, nbf and iat. Default 60s, at
	// most 5m.
	ClockSkew time.Duration
	// Algorithms are the signature algorithms accepted, among RS256, RS384,
	// RS512, PS256, PS384, PS512, ES256, ES384, ES512 and EdDSA. Default
	// DefaultAlgorithms().
	Algorithms []string
	// FetchTimeout bounds one fetch of JWKSURL. Default 10s.
	FetchTimeout time.Duration
	// MinRefreshInterval is the least time between two fetches of JWKSURL,
	// so that tokens naming unknown key ids cannot make the verifier hammer
	// the provider. Default 30s.
	MinRefreshInterval time.Duration
	// MaxKeyAge is how long fetched keys are used before they are fetched
	// again, so that a key the provider withdraws stops being trusted.
	// When that fetch fails, the keys in hand stay in use. Default 1h.
	MaxKeyAge time.Duration
}

// withDefaults returns c with every unset optional field set.
func (c JWTConfig) withDefaults() JWTConfig {
	if c.RoleClaim == "" {
		c.RoleClaim = DefaultRoleClaim
	}
	if c.DatasetsClaim == "" {
		c.DatasetsClaim = DefaultDatasetsClaim
	}
	if c.ClearanceClaim == "" {
		c.ClearanceClaim = DefaultClearanceClaim
	}
	if c.ClockSkew == 0 {
		c.ClockSkew = DefaultClockSkew
	}
	if len(c.Algorithms) == 0 {
		c.Algorithms = DefaultAlgorithms()
	}
	if c.FetchTimeout == 0 {
		c.FetchTimeout = DefaultFetchTimeout
	}
	if c.MinRefreshInterval == 0 {
		c.MinRefreshInterval = DefaultMinRefreshInterval
	}
	if c.MaxKeyAge == 0 {
		c.MaxKeyAge = DefaultMaxKeyAge
	}
	return c
}

// Validate says what is missing or wrong in c, once the defaults are
// applied.
func (c JWTConfig) Validate() error {
	c = c.withDefaults()
	switch {
	case strings.TrimSpace(c.Issuer) == "":
		return fmt.Errorf("jwt: the issuer is required (the iss of the provider's tokens)")
	case strings.TrimSpace(c.Audience) == "":
		return fmt.Errorf("jwt: the audience is required (the aud this service's tokens carry)")
	case c.JWKSURL == "" && c.JWKSFile == "":
		return fmt.Errorf("jwt: a JWKS URL or a JWKS file is required")
	case c.JWKSURL != "" && c.JWKSFile != "":
		return fmt.Errorf("jwt: give a JWKS URL or a JWKS file, not both")
	case c.ClockSkew < 0 || c.ClockSkew > maxClockSkew:
		return fmt.Errorf("jwt: clock skew %s: want between 0 and %s", c.ClockSkew, maxClockSkew)
	case c.FetchTimeout < 0 || c.MinRefreshInterval < 0 || c.MaxKeyAge < 0:
		return fmt.Errorf("jwt: fetch timeout, refresh interval and key age must not be negative")
	case c.RoleClaim == c.DatasetsClaim || c.RoleClaim == c.ClearanceClaim || c.DatasetsClaim == c.ClearanceClaim:
		return fmt.Errorf("jwt: the role, datasets and clearance claims must be three different claims")
	}
	if c.JWKSURL != "" {
		if err := checkJWKSURL(c.JWKSURL); err != nil {
			return err
		}
	}
	if _, err := algorithms(c.Algorithms); err != nil {
		return err
	}
	return nil
}

// checkJWKSURL refuses a JWKS URL that a network attacker could answer:
// keys fetched over plain http are only trusted from this machine.
func checkJWKSURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return fmt.Errorf("jwt: JWKS URL %q is not an absolute URL", s)
	}
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		if host := u.Hostname(); host == "localhost" || isLoopback(host) {
			return nil
		}
		return fmt.Errorf("jwt: JWKS URL %q: want https (plain http only on loopback)", s)
	}
	return fmt.Errorf("jwt: JWKS URL %q: want an https URL", s)
}

func isLoopback(host string) bool {
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// algorithms returns the allow-list for jwt.ParseSigned, refusing names
// that are not asymmetric signature algorithms.
func algorithms(names []string) ([]jose.SignatureAlgorithm, error) {
	algs := make([]jose.SignatureAlgorithm, 0, len(names))
	for _, n := range names {
		alg := jose.SignatureAlgorithm(n)
		if !slices.Contains(asymmetric, alg) {
			return nil, fmt.Errorf("jwt: algorithm %q: want one of %s (asymmetric only; never none or HMAC)", n, joinAlgs(asymmetric))
		}
		algs = append(algs, alg)
	}
	return algs, nil
}

func joinAlgs(algs []jose.SignatureAlgorithm) string {
	s := make([]string, len(algs))
	for i, a := range algs {
		s[i] = string(a)
	}
	return strings.Join(s, ", ")
}
