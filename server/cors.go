package server

// CORS: the allow-list of origins, preflights, and the check of the
// configured origins.

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/rs/cors"
)

// corsMaxAge is how long a browser may cache a preflight answer. The
// allow-list changes only with a restart, and every actual response is
// checked again against it, so a long cache costs nothing in safety; 2h is
// Chromium's ceiling (Firefox allows 24h).
const corsMaxAge = 2 * time.Hour

// corsAllowedHeaders are the request headers a browser app may send: the
// bearer token, the JSON body's type, a request id of its own, the key
// that makes a mutation safe to retry, and the
// headers Apollo Client and other GraphQL clients add (persisted queries
// travel in the body or the query string, so they need none).
var corsAllowedHeaders = []string{
	"Accept",
	"Authorization",
	"Content-Type",
	"X-Request-Id",
	"Idempotency-Key",
	"Apollo-Require-Preflight",
	"Apollographql-Client-Name",
	"Apollographql-Client-Version",
	"X-Apollo-Operation-Name",
}

// corsExposedHeaders are the response headers a browser app may read: the
// request id, to quote when reporting a problem.
var corsExposedHeaders = []string{"X-Request-Id"}

// newCORS returns the middleware that answers preflights and marks the
// responses the allowed origins may read, or, with no origins, one that
// changes nothing: without an allow-list only same-origin pages can read
// the API, which needs no CORS header at all. Credentials are not allowed:
// callers send bearer tokens, never cookies, so no response is ever
// readable on the strength of a browser's ambient credentials.
//
// origins must have passed validateOrigins: rs/cors reads an empty list or
// "*" as "every origin", and a "*" inside an origin as a wildcard.
func newCORS(origins []string) func(http.Handler) http.Handler {
	if len(origins) == 0 {
		return func(h http.Handler) http.Handler { return h }
	}
	c := cors.New(cors.Options{
		AllowedOrigins:   origins,
		AllowedMethods:   []string{http.MethodGet, http.MethodPost},
		AllowedHeaders:   corsAllowedHeaders,
		ExposedHeaders:   corsExposedHeaders,
		MaxAge:           int(corsMaxAge / time.Second),
		AllowCredentials: false,
	})
	return c.Handler
}

// optionsAllowed answers an OPTIONS request that is not a preflight (the
// CORS middleware answers those before it): the methods the route serves.
func optionsAllowed(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Allow", "GET, HEAD, POST, OPTIONS")
	w.WriteHeader(http.StatusNoContent)
}

// validateOrigins checks the CORS allow-list: each entry is an origin as
// browsers send it, scheme://host[:port] with the scheme http or https, no
// path (not even "/"), query, user or default port, since such an entry
// would never match. "*", wildcards and "null" are refused: the API holds
// evidence whose readers must be known, so every origin is named.
func validateOrigins(origins []string) error {
	for _, o := range origins {
		if err := validateOrigin(o); err != nil {
			return fmt.Errorf("cors-origins: %q: %v", o, err)
		}
	}
	return nil
}

func validateOrigin(o string) error {
	switch {
	case o == "*":
		return fmt.Errorf(`"*" (every origin) is refused; list the origins of the apps that may call the API`)
	case strings.Contains(o, "*"):
		return fmt.Errorf("wildcards are refused; list each origin")
	case o == "null":
		return fmt.Errorf(`"null" (sandboxed frames, files) is refused`)
	}
	u, err := url.Parse(o)
	if err != nil {
		return fmt.Errorf("not an origin (scheme://host[:port])")
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("want scheme://host[:port] with http or https")
	case u.Host == "" || u.Hostname() == "":
		return fmt.Errorf("no host")
	case u.User != nil:
		return fmt.Errorf("an origin has no user")
	case u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.ForceQuery || strings.Contains(o, "#"):
		return fmt.Errorf("an origin has no path, query or fragment (not even a trailing /)")
	case u.Scheme == "http" && u.Port() == "80", u.Scheme == "https" && u.Port() == "443":
		return fmt.Errorf("browsers omit the default port :%s; drop it", u.Port())
	case u.Port() == "" && strings.HasSuffix(u.Host, ":"):
		return fmt.Errorf("empty port")
	}
	return nil
}
