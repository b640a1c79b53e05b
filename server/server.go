package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/99designs/gqlgen/graphql/playground"
	"github.com/rs/zerolog"

	"github.com/casegraph/casegraph/graph"
	"github.com/casegraph/casegraph/loaders"
)

// Server is Casegraph's HTTP service.
type Server struct {
	runner  *Runner
	store   Store
	cfg     Config
	log     zerolog.Logger
	metrics *Metrics
	ready   *readiness
	handler http.Handler
}

// Store is everything the service asks of the database: what the
// resolvers, the per-request loaders, readiness and the saved-query routes
// read and write. *cypher.Store has it; the edge tests plug in one that
// refuses every call (servertest.Refusing).
type Store interface {
	graph.Store
	loaders.Store
	Checker
	SavedDocuments
}

// Checker is what readiness asks of the database.
type Checker interface {
	Ping(ctx context.Context) error
	SchemaApplied(ctx context.Context) (missing []string, err error)
}

// New builds the whole service over store: the saved-query runner, the
// executable schema (whose runSavedQuery runs on that runner), the gqlgen
// handler with its limits, and the routes. It is the one wiring: `casegraph
// serve` and the tests' harness both call it. metrics may be nil (New makes
// its own); pass the store's observer to see its round trips at /metrics.
// It fails only on a bad trusted-hashes file.
func New(cfg Config, log zerolog.Logger, store Store, metrics *Metrics) (*Server, error) {
	if metrics == nil {
		metrics = NewMetrics()
	}
	// The runner runs saved queries on a schema of its own, which cannot
	// run saved queries (a run never starts another), so it needs nothing
	// of the schema built here: no cycle to close after construction.
	runner := NewRunner(cfg, store)
	schema := graph.NewSchema(store, runner)
	s := &Server{runner: runner, store: store, cfg: cfg, log: log, metrics: metrics, ready: newReadiness(store)}
	var trusted *trustedDocuments
	if cfg.TrustedDocuments {
		hashes, err := loadHashes(cfg.TrustedHashesFile)
		if err != nil {
			return nil, err
		}
		trusted = &trustedDocuments{registered: hashes, saved: store, known: map[string]time.Time{}}
	}
	gql := loaders.Middleware(store, newGraphQL(cfg, schema, trusted))
	saved := loaders.Middleware(store, http.HandlerFunc(s.runSaved))

	// Browser apps call /graphql and /queries; health and metrics are for
	// probes and scrapers, which send no Origin.
	cors := newCORS(cfg.CORSOrigins)
	mux := http.NewServeMux()
	mux.Handle("POST /graphql", s.observe("/graphql", cors(s.limitBody(gql))))
	mux.Handle("GET /graphql", s.observe("/graphql", cors(gql)))
	mux.Handle("GET /healthz", s.observe("/healthz", http.HandlerFunc(s.healthz)))
	mux.Handle("GET /readyz", s.observe("/readyz", http.HandlerFunc(s.readyz)))
	mux.Handle("GET /queries/{name}", s.observe("/queries", cors(saved)))
	mux.Handle("POST /queries/{name}", s.observe("/queries", cors(saved)))
	if len(cfg.CORSOrigins) > 0 {
		// Without an allow-list OPTIONS stays unrouted (405), as no
		// preflight can succeed.
		mux.Handle("OPTIONS /graphql", s.observe("/graphql", cors(http.HandlerFunc(optionsAllowed))))
		mux.Handle("OPTIONS /queries/{name}", s.observe("/queries", cors(http.HandlerFunc(optionsAllowed))))
	}
	mux.Handle("GET /metrics", metrics.Handler())
	if cfg.GraphiQL {
		mux.Handle("GET /{$}", playground.Handler("Casegraph", "/graphql"))
	}
	s.handler = mux
	return s, nil
}

// ServeHTTP serves the routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.handler.ServeHTTP(w, r)
}

// ListenAndServe serves on cfg.Addr until ctx ends, then shuts down
// gracefully: it stops accepting, and lets requests in flight finish within
// the shutdown timeout.
func (s *Server) ListenAndServe(ctx context.Context) error {
	ln, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", s.cfg.Addr, err)
	}
	return s.Serve(ctx, ln)
}

// Serve is ListenAndServe on a listener of the caller's.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      s.cfg.RequestTimeout + 5*time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          nil,
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	s.log.Info().Str("addr", ln.Addr().String()).Msg("serving")

	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	s.log.Info().Msg("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout)
	defer cancel()
	if err := hs.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
