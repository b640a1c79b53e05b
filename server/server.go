package server

// The Server: built from its configuration and store, serving its routes
// (routes.go) and the metrics listener, and shut down gracefully.

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/rs/zerolog"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/graph"
	"github.com/casegraph/casegraph/loaders"
	"github.com/casegraph/casegraph/watch"
)

// Server is Casegraph's HTTP service.
type Server struct {
	runner  *Runner
	store   Store
	cfg     Config
	log     zerolog.Logger
	metrics *Metrics
	ready   *readiness
	auth    *authenticator
	rate    *rateLimiter // nil: no rate limit
	handler http.Handler
	// table is the route table (routes.go); cors marks the answers of its
	// browser routes for the allowed origins.
	table []route
	cors  func(http.Handler) http.Handler
	// inflight are the requests being served (the shutdown names those it
	// cuts off).
	inflight *inflight
	// stopping ends at Close (or the shutdown): the watches, which
	// follow the change feed until then, and every stream end with it.
	stopping context.Context
	stop     func()
	// transfers bound the exports and imports over HTTP at once.
	transfers *transfers
}

// Store is everything the service asks of the database: what the
// resolvers, the per-request loaders, readiness and the saved-query routes
// read and write. *cypher.Store has it; the edge tests plug in one that
// refuses every call (servertest.Refusing).
type Store interface {
	graph.EntityStore
	graph.RelationStore
	graph.SourceStore
	graph.DatasetStore
	graph.PathStore
	graph.SearchStore
	graph.TimelineStore
	graph.CommandStore
	graph.SavedQueryStore
	graph.SavedViewStore
	graph.DuplicateStore
	graph.ChangeStore
	graph.KeyStore
	loaders.Store
	Checker
	SavedDocuments
	Keys
	Exports
	Imports
	watch.Feed
}

// schemaStores are the resolvers' stores, every one of them store.
func schemaStores(store Store) graph.Stores {
	return graph.Stores{
		EntityStore: store, RelationStore: store, SourceStore: store, DatasetStore: store,
		PathStore: store, SearchStore: store, TimelineStore: store, CommandStore: store, SavedQueryStore: store,
		SavedViewStore: store, DuplicateStore: store, ChangeStore: store, KeyStore: store,
	}
}

// commitNotifier is a store that says when its writes commit
// (*cypher.Store): the watches hear of this process's changes at once.
type commitNotifier interface {
	OnCommit(fn func()) (remove func())
}

// Checker is what readiness asks of the database.
type Checker interface {
	Ping(ctx context.Context) error
	SchemaApplied(ctx context.Context) (missing []string, err error)
	// ProbeWrite commits a small write that belongs to no dataset.
	ProbeWrite(ctx context.Context) error
}

// New builds the whole service over store: the saved-query runner, the
// executable schema (whose runSavedQuery runs on that runner), the gqlgen
// handler with its limits, and the routes. It is the one wiring: `casegraph
// serve` and the tests' harness both call it. metrics may be nil (New makes
// its own); pass the store's observer to see its round trips at /metrics.
// It fails only on a bad trusted-hashes or persisted-documents file.
func New(cfg Config, log zerolog.Logger, store Store, metrics *Metrics) (*Server, error) {
	if metrics == nil {
		metrics = NewMetrics()
	}
	// The files first: a bad one stops the start before anything runs.
	registered, err := loadPersistedDocuments(cfg.PersistedDocumentsFile, cfg.MaxTokens)
	if err != nil {
		return nil, err
	}
	docs := newPersistedDocuments(registered, counted(metrics, "apq", lru.New[string](cfg.QueryCacheSize)))
	var trusted *trustedDocuments
	if cfg.TrustedDocuments {
		hashes, err := loadHashes(cfg.TrustedHashesFile)
		if err != nil {
			return nil, err
		}
		for _, text := range registered { // vetted by the operator who registered them
			hashes[casegraph.DocumentHash(text)] = true
		}
		trusted = &trustedDocuments{registered: hashes, saved: store, known: map[string]time.Time{}}
	}
	// The runner runs saved queries on a schema of its own, which cannot
	// run saved queries (a run never starts another), so it needs nothing
	// of the schema built here: no cycle to close after construction.
	runner := NewRunner(cfg, store)
	watchOpts := cfg.Watch
	watchOpts.Timeout = cfg.RequestTimeout
	watches := watch.New(store, watchOpts, log)
	schema := graph.NewSchema(schemaStores(store), runner, watches)
	var checker Checker = store
	if cfg.Readiness != nil {
		checker = cfg.Readiness
	}
	stopping, stop := context.WithCancel(context.Background())
	s := &Server{runner: runner, store: store, cfg: cfg, log: log, metrics: metrics, ready: newReadiness(checker),
		auth: newAuthenticator(cfg, store, log), rate: newRateLimiter(cfg.RateLimit, cfg.RateBurst), inflight: newInflight(),
		stopping: stopping, stop: stop, transfers: newTransfers(cfg.MaxTransfers)}
	if n, ok := store.(commitNotifier); ok {
		remove := n.OnCommit(watches.Notify)
		context.AfterFunc(stopping, remove)
	}
	count := watches.Watches
	metrics.watches.Store(&count)
	go watches.Run(stopping)
	if p, ok := store.(Pools); ok {
		metrics.WatchPools(p)
	}
	gql := refuseUnacceptable(loaders.Middleware(store, metrics, newGraphQL(cfg, schema, docs, trusted, metrics, s.initStream, s.rate)))
	saved := loaders.Middleware(store, metrics, http.HandlerFunc(s.runSaved))

	// Browser apps call /graphql, /queries and /datasets; health and
	// metrics are for probes and scrapers, which send no Origin.
	s.cors = newCORS(cfg.CORSOrigins)
	s.table = s.routes(gql, saved)
	if cfg.WarmUp > 0 {
		s.ready.warm = &warmUp{}
		go s.warm(stopping, gql, cfg.WarmUp)
	}
	handler, err := compressed(s.mux(s.table))
	if err != nil {
		return nil, err
	}
	// Before compression and the routes' layers, which stream the events
	// of a request answered as a stream (isStream).
	handler = negotiateMedia(graphQLPath, cfg.MaxBodyBytes, int64(cfg.MaxTokens), docs, handler)
	s.handler = handler
	return s, nil
}

// Close ends every stream and stops following the change feed; Serve
// does it when it shuts down. The server answers other requests still.
func (s *Server) Close() {
	s.stop()
}

// ServeHTTP serves the routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.handler.ServeHTTP(w, r)
}

// ListenAndServe serves on cfg.Addr, and /metrics on cfg.MetricsAddr when
// it is set, until ctx ends, then shuts down gracefully: it stops
// accepting, and lets requests in flight finish within the shutdown
// timeout.
func (s *Server) ListenAndServe(ctx context.Context) error {
	ln, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", s.cfg.Addr, err)
	}
	var metricsLn net.Listener
	if s.cfg.MetricsAddr != "" {
		if metricsLn, err = net.Listen("tcp", s.cfg.MetricsAddr); err != nil {
			ln.Close()
			return fmt.Errorf("listen on %s for metrics: %w", s.cfg.MetricsAddr, err)
		}
	}
	return s.Serve(ctx, ln, metricsLn)
}

// MetricsHandler serves /metrics alone (and 404 elsewhere): the handler of
// the metrics listener when cfg.MetricsAddr is set.
func (s *Server) MetricsHandler() http.Handler {
	return s.mux([]route{s.metricsRoute()})
}

// Serve is ListenAndServe on listeners of the caller's: ln serves the API,
// and metricsLn, which must be given exactly when cfg.MetricsAddr is set,
// serves /metrics. When either server fails, both stop. On shutdown the
// metrics server closes after the API has drained, so scrapes go on
// meanwhile.
func (s *Server) Serve(ctx context.Context, ln, metricsLn net.Listener) error {
	if (metricsLn != nil) != (s.cfg.MetricsAddr != "") {
		ln.Close()
		if metricsLn != nil {
			metricsLn.Close()
		}
		return fmt.Errorf("serve: a metrics listener goes with metrics-addr, and only with it")
	}
	type listener struct {
		name string
		hs   *http.Server
		ln   net.Listener
	}
	all := []listener{{"serving", &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      s.cfg.RequestTimeout + 5*time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          nil,
	}, ln}}
	if metricsLn != nil {
		all = append(all, listener{"serving metrics", &http.Server{
			Handler:           s.MetricsHandler(),
			ReadHeaderTimeout: 5 * time.Second,
			ReadTimeout:       10 * time.Second,
			WriteTimeout:      30 * time.Second,
			IdleTimeout:       2 * time.Minute,
			MaxHeaderBytes:    16 << 10,
		}, metricsLn})
	}
	errc := make(chan error, len(all))
	for _, l := range all {
		go func() { errc <- l.hs.Serve(l.ln) }()
		s.log.Info().Str("addr", l.ln.Addr().String()).Msg(l.name)
	}

	var errs []error
	running := len(all)
	select {
	case err := <-errc: // http.Server.Serve never returns nil
		errs = append(errs, err)
		running--
	case <-ctx.Done():
	}
	// Not ready from now on, while requests in flight finish: a load
	// balancer that polls /readyz during the drain delay sends no more.
	s.ready.drain()
	if d := s.cfg.DrainDelay; d > 0 && ctx.Err() != nil {
		s.log.Info().Dur("delay", d).Msg("draining: /readyz says 503")
		time.Sleep(d)
	}
	s.log.Info().Msg("shutting down")
	s.Close() // streams would hold the shutdown until its timeout
	shutdownCtx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout)
	defer cancel()
	for i, l := range all {
		err := l.hs.Shutdown(shutdownCtx)
		if errors.Is(err, context.DeadlineExceeded) {
			// Requests that outlast the shutdown timeout (which is longer
			// than their own) are cut off: the log names them, and the
			// shutdown is still the one that was asked for, not a failure.
			if i == 0 { // the API's; a scrape is not worth a line
				n := s.inflight.logCutOff(s.log)
				s.log.Warn().Int("requests", n).Dur("timeout", s.cfg.ShutdownTimeout).
					Msg("shutdown: requests outlasted the shutdown timeout and were cut off")
			}
			if err = l.hs.Close(); errors.Is(err, net.ErrClosed) {
				err = nil
			}
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("shutdown: %w", err))
		}
	}
	for range running {
		if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
