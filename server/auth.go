package server

// Authentication at the edge: a request's API key (looked up by id, kept
// for a while) or bearer token (a TokenVerifier, the OIDC one) turned into
// its principal, or the anonymous principal where the configuration lets
// anonymous callers read.

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"golang.org/x/sync/singleflight"

	casegraph "github.com/casegraph/casegraph"
)

// Keys is what authentication asks of the database: the API key a token
// names, and a note that it was used.
type Keys interface {
	APIKeyByID(ctx context.Context, id string) (key casegraph.APIKey, hash string, found bool, err error)
	TouchAPIKey(ctx context.Context, id string) error
}

// TokenVerifier checks a bearer token that is not an API key (a JWT from
// an OpenID Connect provider) and says whose it is.
type TokenVerifier interface {
	Verify(ctx context.Context, token string) (casegraph.Principal, error)
}

// authenticator turns a request's credentials into its principal. API keys
// are looked up by id and kept for ttl, so that a busy client does not cost
// a round trip a request; a revoked key stops working within that time on
// every replica. A key's last use is recorded when it is read.
type authenticator struct {
	keys      Keys
	tokens    TokenVerifier // nil: no tokens configured
	anonymous []string      // datasets anonymous callers may read; nil: none, refused
	ttl       time.Duration
	log       zerolog.Logger
	now       func() time.Time

	mu     sync.Mutex
	cache  map[string]cachedKey // by key id
	flight singleflight.Group   // look-ups under way, by key id
}

// keyCacheMax bounds the cache (a flood of made-up ids is not cached:
// only keys that exist are).
const keyCacheMax = 10000

type cachedKey struct {
	key     casegraph.APIKey
	hash    string // "" for an id that names no key
	fetched time.Time
}

func newAuthenticator(cfg Config, keys Keys, log zerolog.Logger) *authenticator {
	return &authenticator{keys: keys, tokens: cfg.Tokens, anonymous: cfg.Anonymous, ttl: cfg.KeyCacheTTL, log: log, now: time.Now, cache: map[string]cachedKey{}}
}

// errNoCredentials is the answer to a request without credentials where
// anonymous callers may not read anything.
var errNoCredentials = casegraph.Errorf(casegraph.CodeUnauthenticated,
	"this server needs credentials: send Authorization: Bearer <API key or token>")

// principalOf returns whose credentials h (an Authorization header's
// value, "" for none) are: a request's, or a WebSocket's
// connection_init's. Bad credentials are refused even where anonymous
// reads are allowed: a client that sends a key means to be someone, and
// must learn that its key does not work.
func (a *authenticator) principalOf(ctx context.Context, h string) (casegraph.Principal, error) {
	if h == "" {
		if a.anonymous == nil {
			return casegraph.Principal{}, errNoCredentials
		}
		return casegraph.Anonymous(a.anonymous), nil
	}
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return casegraph.Principal{}, casegraph.Errorf(casegraph.CodeUnauthenticated,
			"the Authorization header must be \"Bearer <API key or token>\"")
	}
	token = strings.TrimSpace(token)
	if casegraph.IsKeyToken(token) {
		return a.keyPrincipal(ctx, token)
	}
	if a.tokens == nil {
		return casegraph.Principal{}, casegraph.Errorf(casegraph.CodeUnauthenticated,
			"the bearer token is not an API key, and this server accepts no other tokens")
	}
	return a.tokens.Verify(ctx, token)
}

var errBadKey = casegraph.Errorf(casegraph.CodeUnauthenticated, "the API key is not valid (unknown, revoked or mistyped)")

func (a *authenticator) keyPrincipal(ctx context.Context, token string) (casegraph.Principal, error) {
	id, secret, ok := casegraph.ParseKeyToken(token)
	if !ok {
		return casegraph.Principal{}, errBadKey
	}
	now := a.now()
	a.mu.Lock()
	c, hit := a.cache[id]
	a.mu.Unlock()
	if !hit || now.Sub(c.fetched) > a.ttl {
		// Requests that arrive together with the same key (a client's
		// burst, 50 workers starting at once) share one look-up: a cold
		// key must not cost a database read, and a connection, per request.
		// The look-up outlives a caller that gives up, for the others.
		budget := keyLookupTimeout
		if deadline, ok := ctx.Deadline(); ok {
			budget = max(budget, time.Until(deadline))
		}
		ch := a.flight.DoChan(id, func() (any, error) {
			lookupCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), budget)
			defer cancel()
			return a.lookUp(lookupCtx, id, secret, now)
		})
		select {
		case r := <-ch:
			if r.Err != nil {
				return casegraph.Principal{}, r.Err
			}
			c = r.Val.(cachedKey)
		case <-ctx.Done():
			return casegraph.Principal{}, casegraph.Errorf(casegraph.CodeTimeout, "the request ran out of time while its API key was looked up")
		}
	}
	if c.hash == "" || !casegraph.KeySecretMatches(secret, c.hash) || c.key.Revoked() {
		return casegraph.Principal{}, errBadKey
	}
	return c.key.Principal(), nil
}

// keyLookupTimeout bounds a shared key look-up, or the deadline of the
// request that starts it when that is later: on a fresh database under
// load, the look-up's first statement can take longer than 5 s to plan,
// and the request would end TIMEOUT with time left (a clean-clone run of
// the tests did, with requests of 3 minutes).
const keyLookupTimeout = 5 * time.Second

// lookUp reads key id from the database and remembers what it said.
func (a *authenticator) lookUp(ctx context.Context, id, secret string, now time.Time) (cachedKey, error) {
	// Sign-in is the service's own work: nobody is signed in yet.
	ctx = casegraph.AsOperator(ctx)
	key, hash, found, err := a.keys.APIKeyByID(ctx, id)
	if err != nil {
		return cachedKey{}, err
	}
	// What the database said is kept whatever the answer: a client
	// that keeps sending an unknown, revoked or mistyped key costs
	// one look-up a ttl, not one a request.
	c := cachedKey{key: key, hash: hash, fetched: now}
	if !found {
		c = cachedKey{fetched: now}
	}
	a.remember(id, c)
	if found && casegraph.KeySecretMatches(secret, hash) && !key.Revoked() {
		// Last used is a note, not a condition: the request goes on
		// whether or not it is written (the statement writes at most
		// once a minute).
		if err := a.keys.TouchAPIKey(ctx, id); err != nil {
			logErr(a.log.Warn(), err).Str("key", id).Msg("could not record that an API key was used")
		}
	}
	return c, nil
}

func (a *authenticator) remember(id string, c cachedKey) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.cache) >= keyCacheMax {
		clear(a.cache)
	}
	a.cache[id] = c
}

// authenticate gives every request its principal before anything reads
// data, or answers 401 UNAUTHENTICATED (BUSY where the address's failed
// sign-ins are spent, 503 when the database did not answer).
func (s *Server) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		addr := clientAddr(r)
		p, wait, err := s.signIn(r.Context(), addr, r.Header.Get("Authorization"))
		switch {
		case err == nil:
		case casegraph.ErrorCode(err) == casegraph.CodeBusy:
			writeBusy(w, wait, casegraph.ErrorMessage(err))
			return
		case casegraph.ErrorCode(err) == casegraph.CodeUnauthenticated:
			w.Header().Set("WWW-Authenticate", `Bearer realm="casegraph"`)
			writeError(w, http.StatusUnauthorized, casegraph.CodeUnauthenticated, "%s", casegraph.ErrorMessage(err))
			return
		default: // the database did not answer: not the caller's fault
			writeError(w, statusOf(string(casegraph.ErrorCode(err))), casegraph.ErrorCode(err), "%s", casegraph.ErrorMessage(err))
			return
		}
		if s.rate != nil {
			if ok, wait := s.rate.take(callerKey(p, addr)); !ok {
				s.metrics.busy.WithLabelValues("rate").Inc()
				writeBusy(w, wait, "too many requests from this caller; retry later")
				return
			}
		}
		next.ServeHTTP(w, r.WithContext(casegraph.WithPrincipal(r.Context(), p)))
	})
}

// signIn says whose the credentials h (an Authorization header's value,
// "" for none) sent from addr are: a request's, or a WebSocket's
// connection_init's. Once an address's failed sign-ins have spent its
// bucket, it is BUSY (with the wait) before anything is looked up; a
// failed sign-in spends the bucket, and is counted and logged.
func (s *Server) signIn(ctx context.Context, addr, h string) (casegraph.Principal, time.Duration, error) {
	if s.rate != nil {
		if dry, wait := s.rate.empty(failureKey(addr)); dry {
			s.metrics.busy.WithLabelValues("signin").Inc()
			return casegraph.Principal{}, wait, casegraph.Errorf(casegraph.CodeBusy, "too many failed sign-ins from this address; retry later").
				WithReason("RATE_LIMITED")
		}
	}
	p, err := s.auth.principalOf(ctx, h)
	switch {
	case casegraph.ErrorCode(err) == casegraph.CodeUnauthenticated:
		s.metrics.authFailures.Inc()
		if s.rate != nil {
			s.rate.take(failureKey(addr))
		}
		logText(zerolog.Ctx(ctx).Info(), "reason", casegraph.ErrorMessage(err)).Msg("authentication refused")
		return p, 0, err
	case err != nil:
		logErr(zerolog.Ctx(ctx).Warn(), err).Msg("authentication failed")
		return p, 0, err
	}
	zerolog.Ctx(ctx).UpdateContext(func(c zerolog.Context) zerolog.Context { return c.Str("principal", p.ID) })
	return p, 0, nil
}
