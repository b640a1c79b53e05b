package server

// The Prometheus metrics: requests, errors by code, Cypher round trips,
// admission, loader batches, and the operation labels they are kept by
// (bounded); the hits and misses of gqlgen's caches; the admission pools'
// slots in use; and the count of errors by code.

import (
	"context"
	"net/http"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/casegraph/casegraph/cypher"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// Metrics are the service's Prometheus metrics, on a registry of their own
// (no global registry). It is the cypher.Observer of the Store.
type Metrics struct {
	registry *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	// statements, statementTime and statementFails are the Cypher
	// round trips (cypher.Observer), by statement name.
	statements     *prometheus.CounterVec
	statementTime  *prometheus.HistogramVec
	statementFails *prometheus.CounterVec
	operations     *labelSet
	// authFailures counts requests refused for missing or bad credentials.
	authFailures prometheus.Counter
	// forbidden counts what was refused for the caller's rights.
	forbidden prometheus.Counter
	// busy counts refusals with BUSY, by what was full: a pool of the
	// store's admission control (statements, heavy), a caller's rate
	// (rate), or an address's failed sign-ins (signin).
	busy *prometheus.CounterVec
	// errors counts the errors answered, by route and extensions.code.
	errors *prometheus.CounterVec
	// poolWait is how long statements waited for a slot of the store's
	// admission pools, by pool (its count: how many waited).
	poolWait *prometheus.HistogramVec
	// pools reads the admission pools' usage at each scrape.
	pools *poolCollector
	// watches counts the open subscriptions at each scrape (the last
	// server's).
	watches atomic.Pointer[func() int]
	// cache counts lookups in the document cache and the APQ cache.
	cache *prometheus.CounterVec
	// batches is how many keys each loader batch carries.
	batches *prometheus.HistogramVec
}

// NewMetrics registers the metrics, and Go and process collectors.
func NewMetrics() *Metrics {
	m := &Metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "casegraph_http_requests_total",
			Help: "HTTP requests by route, GraphQL operation name and status code.",
		}, []string{"route", "operation", "code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "casegraph_http_request_duration_seconds",
			Help:    "HTTP request latency by route and GraphQL operation name.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"route", "operation"}),
		statements: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "casegraph_cypher_queries_total",
			Help: "Cypher round trips to Neo4j, by statement name.",
		}, []string{"query"}),
		statementTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "casegraph_cypher_query_duration_seconds",
			Help:    "Cypher round-trip latency, by statement name.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"query"}),
		statementFails: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "casegraph_cypher_errors_total",
			Help: "Cypher round trips that failed, by statement name.",
		}, []string{"query"}),
		operations: newLabelSet(200),
		authFailures: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "casegraph_auth_failures_total",
			Help: "Requests refused with 401: missing or bad credentials.",
		}),
		forbidden: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "casegraph_forbidden_total",
			Help: "Operations refused with FORBIDDEN: the caller's rights did not allow them.",
		}),
		busy: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "casegraph_busy_total",
			Help: "Refusals with BUSY (429), by what was full: statements or heavy (the database's admission pools), rate (a caller's rate limit), signin (an address's failed sign-ins).",
		}, []string{"limit"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "casegraph_errors_total",
			Help: "Errors answered (GraphQL errors, which come with HTTP 200, and refusals), by route and extensions.code.",
		}, []string{"route", "code"}),
		poolWait: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "casegraph_neo4j_pool_wait_seconds",
			Help:    "How long statements waited for a free slot of an admission pool (statements, heavy), admitted or refused with BUSY; its count is how many waited.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"pool"}),
		pools: newPoolCollector(),
		cache: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "casegraph_query_cache_total",
			Help: "Lookups in the parsed-document cache (documents) and the automatic persisted queries' cache (apq), by result: hit or miss.",
		}, []string{"cache", "result"}),
		batches: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "casegraph_loader_batch_keys",
			Help:    "Keys per batch sent by a request's loaders (entity, source, relations): one round trip each.",
			Buckets: []float64{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000},
		}, []string{"loader"}),
	}
	watches := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "casegraph_watches",
		Help: "Subscriptions open (changes and watchPath), over WebSockets and server-sent events.",
	}, func() float64 {
		if n := m.watches.Load(); n != nil {
			return float64((*n)())
		}
		return 0
	})
	m.registry.MustRegister(m.requests, m.latency, m.statements, m.statementTime, m.statementFails, m.authFailures, m.forbidden, m.busy,
		m.errors, m.poolWait, m.pools, m.cache, m.batches, watches,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}

// Registry is where the metrics live (tests read it).
func (m *Metrics) Registry() *prometheus.Registry { return m.registry }

// ObserveStatement counts one Cypher round trip.
func (m *Metrics) ObserveStatement(name string, took time.Duration, err error) {
	m.statements.WithLabelValues(name).Inc()
	m.statementTime.WithLabelValues(name).Observe(took.Seconds())
	if err != nil {
		m.statementFails.WithLabelValues(name).Inc()
	}
}

// ObserveBusy counts a statement refused for want of a slot in the store's
// pool (cypher.BusyObserver).
func (m *Metrics) ObserveBusy(pool string) {
	m.busy.WithLabelValues(pool).Inc()
}

// ObserveWait records a statement's wait for a slot of the store's pool
// (cypher.WaitObserver).
func (m *Metrics) ObserveWait(pool string, took time.Duration) {
	m.poolWait.WithLabelValues(pool).Observe(took.Seconds())
}

// ObserveBatch records the size of a loader's batch (loaders.BatchObserver).
func (m *Metrics) ObserveBatch(loader string, keys int) {
	m.batches.WithLabelValues(loader).Observe(float64(keys))
}

// observeErrors counts n errors of a code answered on route.
func (m *Metrics) observeErrors(route, code string, n int) {
	m.errors.WithLabelValues(route, code).Add(float64(n))
}

// observeRequest counts a request. Its operation's name is a label only
// when the operation was validated and passed every limit (in the trusted-
// documents mode: only trusted documents' names), so that requests anyone
// can make up, refused ones, take none of the labels; others are "other".
func (m *Metrics) observeRequest(route, operation string, validated bool, status int, took time.Duration) {
	op := "other"
	if validated || operation == "" {
		op = m.operations.label(operation)
	}
	m.requests.WithLabelValues(route, op, strconv.Itoa(status)).Inc()
	m.latency.WithLabelValues(route, op).Observe(took.Seconds())
}

// labelSet bounds the operation-name label: the name comes from clients, and
// a hostile one could otherwise create a time series per request. Past the
// limit, and for names that are not GraphQL names, the label is "other".
type labelSet struct {
	mu    sync.Mutex
	limit int
	seen  map[string]bool
}

var graphQLName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)

func newLabelSet(limit int) *labelSet {
	return &labelSet{limit: limit, seen: map[string]bool{}}
}

func (s *labelSet) label(name string) string {
	if name == "" {
		return ""
	}
	if !graphQLName.MatchString(name) {
		return "other"
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen[name] {
		return name
	}
	if len(s.seen) >= s.limit {
		return "other"
	}
	s.seen[name] = true
	return name
}

// The hits and misses of gqlgen's caches (parsed documents, automatic
// persisted queries), counted in the metrics.

// countedCache counts the hits and misses of a gqlgen cache.
type countedCache[T any] struct {
	graphql.Cache[T]
	hit, miss prometheus.Counter
}

// counted returns cache, its lookups counted as name in
// casegraph_query_cache_total: a hit of the document cache saves parsing
// and validating a document; one of the APQ cache, sending it.
func counted[T any](m *Metrics, name string, cache graphql.Cache[T]) graphql.Cache[T] {
	return countedCache[T]{Cache: cache, hit: m.cache.WithLabelValues(name, "hit"), miss: m.cache.WithLabelValues(name, "miss")}
}

func (c countedCache[T]) Get(ctx context.Context, key string) (T, bool) {
	v, ok := c.Cache.Get(ctx, key)
	if ok {
		c.hit.Inc()
	} else {
		c.miss.Inc()
	}
	return v, ok
}

// Errors are counted by extensions.code, per request, where answers are
// written: the GraphQL handler's responses (countedResponses), the
// saved-query route's (runSaved), and the refusals written before either
// (writeReasonedErrorCode). observe adds them to
// casegraph_errors_total when the request ends. A GraphQL error comes with
// HTTP 200, so the status alone would not show it.

// errorCounts counts the errors of one request's answers by code; the
// error presenter's callers run on the resolvers' goroutines.
type errorCounts struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *errorCounts) add(code string, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	c.n[code] += n
}

// each calls f with each code and its count.
func (c *errorCounts) each(f func(code string, n int)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for code, n := range c.n {
		f(code, n)
	}
}

// writerInfo finds the request's info through the writers wrapped around
// the one observe made: the error writers have no context.
func writerInfo(w http.ResponseWriter) *requestInfo {
	for {
		switch x := w.(type) {
		case *statusWriter:
			return x.info
		case interface{ Unwrap() http.ResponseWriter }:
			w = x.Unwrap()
		default:
			return nil
		}
	}
}

// countErrors counts a list of presented errors against the request of
// ctx.
func countErrors(ctx context.Context, errs gqlerror.List) {
	if len(errs) == 0 {
		return
	}
	info := infoFrom(ctx)
	for _, e := range errs {
		info.errors.add(errorCode(e), 1)
	}
}

// countedResponses is capErrors, counting the errors of the response it
// returns: what the client is shown.
func countedResponses(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	res := capErrors(ctx, next)
	if res != nil {
		countErrors(ctx, res.Errors)
	}
	return res
}

// The admission pools' slots in use, as metrics.

// Pools is what a store tells of its admission pools (*cypher.Store has
// it). The Neo4j driver says nothing of its own connection pool; every
// statement the store admits holds one connection, so the pools' slots in
// use are the store's connections in use.
type Pools interface {
	Pools() []cypher.PoolUsage
}

// poolCollector reads the store's pools at each scrape: a gauge kept up
// to date on every statement would cost every statement.
type poolCollector struct {
	source atomic.Pointer[Pools]
	inUse  *prometheus.Desc
	idle   *prometheus.Desc
}

func newPoolCollector() *poolCollector {
	return &poolCollector{
		inUse: prometheus.NewDesc("casegraph_neo4j_pool_in_use",
			"Statements running in an admission pool (statements, heavy): the store's Neo4j connections in use.", []string{"pool"}, nil),
		idle: prometheus.NewDesc("casegraph_neo4j_pool_idle",
			"Free slots of an admission pool (statements, heavy): statements that could start without waiting.", []string{"pool"}, nil),
	}
}

// watch makes the collector read p (the last store given wins).
func (c *poolCollector) watch(p Pools) { c.source.Store(&p) }

// Describe sends the descriptors.
func (c *poolCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.inUse
	ch <- c.idle
}

// Collect sends the pools' usage, nothing before a store is watched.
func (c *poolCollector) Collect(ch chan<- prometheus.Metric) {
	p := c.source.Load()
	if p == nil {
		return
	}
	for _, u := range (*p).Pools() {
		ch <- prometheus.MustNewConstMetric(c.inUse, prometheus.GaugeValue, float64(u.InUse), u.Pool)
		ch <- prometheus.MustNewConstMetric(c.idle, prometheus.GaugeValue, float64(u.Idle), u.Pool)
	}
}

// WatchPools shows the usage of p's admission pools at /metrics.
func (m *Metrics) WatchPools(p Pools) { m.pools.watch(p) }
