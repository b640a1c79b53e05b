// Package server is Casegraph's HTTP edge: configuration, routes,
// middleware (request ids, access log, deadlines, body limits, panics),
// the gqlgen handler with its limits and error presenter, health, readiness
// and Prometheus metrics.
package server

import (
	"fmt"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/casegraph/casegraph/watch"
)

// Config is what the server reads: its address, deadlines, limits and
// modes. Where Neo4j is and how to log belong to the binary
// (cmd/casegraph), which also binds these settings to flags and
// environment variables.
type Config struct {
	Addr            string
	RequestTimeout  time.Duration
	ShutdownTimeout time.Duration
	MaxBodyBytes    int64
	// MaxImportBytes bounds the body of POST /datasets/{name}/import.
	MaxImportBytes int64
	// TransferTimeout is the deadline of an export or import over HTTP
	// (a dataset's file), instead of RequestTimeout; MaxTransfers bounds
	// how many of each run at once (beyond it, BUSY).
	TransferTimeout time.Duration
	MaxTransfers    int
	// TransferStall cuts off an export whose reader takes no bytes for
	// this long (a slow or stuck client would otherwise hold its slot and
	// a read transaction for the whole TransferTimeout).
	TransferStall time.Duration
	MaxTokens     int
	MaxDepth      int
	MaxComplexity int
	// MaxCostInFlight bounds the complexity of the operations executing at
	// once (costAdmission); 0: no bound.
	MaxCostInFlight int
	QueryCacheSize  int
	Introspection   bool
	// Web serves the explorer at / and GraphiQL at /graphiql.
	Web bool
	// TrustedDocuments lets only saved queries and the hashes in
	// TrustedHashesFile run.
	TrustedDocuments  bool
	TrustedHashesFile string
	// PersistedDocumentsFile is a JSON object of document ids to their
	// texts (relay-compiler's persistConfig writes one) that requests may
	// name by id (documentId, doc_id) instead of sending the text; they
	// are trusted documents too (persisted.go).
	PersistedDocumentsFile string
	// Anonymous are the datasets a request without credentials may read
	// (casegraph.AllDatasets: every one); nil refuses such requests with
	// 401, the default.
	Anonymous []string
	// Tokens checks bearer tokens that are not API keys (JWTs); nil
	// accepts API keys only.
	Tokens TokenVerifier
	// KeyCacheTTL is how long a looked-up API key is trusted before it is
	// read again: a revoked key stops working within it.
	KeyCacheTTL time.Duration
	// CORSOrigins are the origins (scheme://host[:port]) of the browser
	// apps that may call the API from another origin; empty, only
	// same-origin pages can, and no CORS header is ever sent.
	CORSOrigins []string
	// DrainDelay is how long, on SIGTERM, /readyz says 503 before the
	// server stops accepting (requests keep being served meanwhile), so
	// that a load balancer stops sending first.
	DrainDelay time.Duration
	// MetricsAddr, when set, serves /metrics on a listener of its own
	// instead of Addr's.
	MetricsAddr string
	// RateLimit is how many requests a second each caller may send (an
	// API key or token, or an address for anonymous requests), with
	// bursts of RateBurst; beyond it, BUSY with 429. Failed sign-ins from
	// one address spend a bucket of the same size, and once it is empty
	// the address's credentials are not looked up until it refills. 0
	// turns both off.
	RateLimit float64
	RateBurst int
	// Tracer, when set, traces every request (tracing.go) and is where
	// its spans go; nil traces nothing. The binary builds it (an OTLP
	// exporter when one is configured) and gives the store its own.
	Tracer trace.TracerProvider
	// Watch bounds and paces subscriptions (its Timeout is RequestTimeout:
	// each statement a watch runs gets a request's deadline).
	Watch watch.Options
	// WarmUp is the budget of the warm-up (warm.go): before /readyz says
	// ready, the server sends itself the common requests so that Neo4j
	// plans their statements first; when it runs out the server is ready
	// anyway. 0 turns the warm-up off (the default here, and so in tests;
	// `casegraph serve` warms up by default).
	WarmUp time.Duration
	// Readiness is what /readyz asks, on a database connection of its own
	// so that no load on the store's pool can flip it; nil asks the store.
	Readiness Checker
}

// DefaultConfig returns the defaults; the README's configuration table
// explains each choice.
func DefaultConfig() Config {
	return Config{
		Addr:            "127.0.0.1:8080",
		RequestTimeout:  15 * time.Second,
		ShutdownTimeout: 20 * time.Second,
		MaxBodyBytes:    1 << 20,
		MaxImportBytes:  64 << 20,
		TransferTimeout: 10 * time.Minute,
		MaxTransfers:    2,
		TransferStall:   30 * time.Second,
		MaxTokens:       5000,
		MaxDepth:        12,
		MaxComplexity:   5000,
		MaxCostInFlight: 20000,
		QueryCacheSize:  1000,
		Introspection:   true,
		Web:             true,
		KeyCacheTTL:     10 * time.Second,
		RateLimit:       100,
		RateBurst:       200,
		Watch:           watch.Options{Poll: watch.DefaultPoll, PerCaller: watch.DefaultPerCaller, Total: watch.DefaultTotal},
	}
}

// Validate checks values that parse but make no sense.
func (c Config) Validate() error {
	switch {
	case c.RequestTimeout <= 0:
		return fmt.Errorf("request-timeout must be positive")
	case c.ShutdownTimeout <= c.RequestTimeout:
		return fmt.Errorf("shutdown-timeout (%s) must be longer than request-timeout (%s), so that requests in flight can finish", c.ShutdownTimeout, c.RequestTimeout)
	case c.WarmUp < 0:
		return fmt.Errorf("warm-up must not be negative (0 turns it off)")
	case c.DrainDelay < 0 || c.DrainDelay > time.Minute:
		return fmt.Errorf("drain-delay must be between 0 and 1m")
	case c.MaxBodyBytes < 1024:
		return fmt.Errorf("max-body-bytes must be at least 1024")
	case c.MaxImportBytes < 1024:
		return fmt.Errorf("max-import-bytes must be at least 1024")
	case c.TransferTimeout < c.RequestTimeout:
		return fmt.Errorf("transfer-timeout (%s) must be at least request-timeout (%s)", c.TransferTimeout, c.RequestTimeout)
	case c.MaxTransfers < 1:
		return fmt.Errorf("max-transfers must be at least 1")
	case c.TransferStall <= 0 || c.TransferStall > c.TransferTimeout:
		return fmt.Errorf("transfer-stall must be positive and at most transfer-timeout (%s)", c.TransferTimeout)
	case c.MaxTokens < 100 || c.MaxDepth < 2 || c.MaxComplexity < 10:
		return fmt.Errorf("max-tokens (>= 100), max-depth (>= 2) and max-complexity (>= 10) are too low")
	case c.MaxCostInFlight != 0 && c.MaxCostInFlight < c.MaxComplexity:
		return fmt.Errorf("max-cost-in-flight must be 0 (no bound) or at least max-complexity (%d), so that any request may run", c.MaxComplexity)
	case c.QueryCacheSize < 1:
		return fmt.Errorf("query-cache-size must be at least 1")
	case c.KeyCacheTTL < 0 || c.KeyCacheTTL > time.Hour:
		return fmt.Errorf("key-cache-ttl must be between 0 and 1h")
	case c.RateLimit < 0 || (c.RateLimit > 0 && c.RateBurst < 1):
		return fmt.Errorf("rate-limit must not be negative, and rate-burst must be at least 1 when it is set")
	case c.Watch.Poll < 10*time.Millisecond || c.Watch.Poll > time.Minute:
		return fmt.Errorf("watch-poll must be between 10ms and 1m")
	case c.Watch.PerCaller < 1 || c.Watch.Total < c.Watch.PerCaller:
		return fmt.Errorf("max-watches-per-caller must be at least 1, and max-watches at least that")
	case c.MetricsAddr != "" && c.MetricsAddr == c.Addr:
		return fmt.Errorf("metrics-addr must differ from addr")
	}
	return validateOrigins(c.CORSOrigins)
}
