package server

import (
	"net/http"
	"regexp"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics are the service's Prometheus metrics, on a registry of their own
// (no global registry). It is the cypher.Observer of the Store.
type Metrics struct {
	registry   *prometheus.Registry
	requests   *prometheus.CounterVec
	latency    *prometheus.HistogramVec
	queries    *prometheus.CounterVec
	queryTime  *prometheus.HistogramVec
	queryFails *prometheus.CounterVec
	operations *labelSet
	// authFailures counts requests refused for missing or bad credentials.
	authFailures prometheus.Counter
	// forbidden counts what was refused for the caller's rights.
	forbidden prometheus.Counter
	// busy counts refusals with BUSY, by what was full: a pool of the
	// store's admission control (statements, heavy), a caller's rate
	// (rate), or an address's failed sign-ins (signin).
	busy *prometheus.CounterVec
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
		queries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "casegraph_cypher_queries_total",
			Help: "Cypher round trips to Neo4j, by statement name.",
		}, []string{"query"}),
		queryTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "casegraph_cypher_query_duration_seconds",
			Help:    "Cypher round-trip latency, by statement name.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"query"}),
		queryFails: prometheus.NewCounterVec(prometheus.CounterOpts{
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
	}
	m.registry.MustRegister(m.requests, m.latency, m.queries, m.queryTime, m.queryFails, m.authFailures, m.forbidden, m.busy,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}

// Registry is where the metrics live (tests read it).
func (m *Metrics) Registry() *prometheus.Registry { return m.registry }

// ObserveQuery counts one Cypher round trip.
func (m *Metrics) ObserveQuery(name string, took time.Duration, err error) {
	m.queries.WithLabelValues(name).Inc()
	m.queryTime.WithLabelValues(name).Observe(took.Seconds())
	if err != nil {
		m.queryFails.WithLabelValues(name).Inc()
	}
}

// ObserveBusy counts a statement refused for want of a slot in the store's
// pool (cypher.BusyObserver).
func (m *Metrics) ObserveBusy(pool string) {
	m.busy.WithLabelValues(pool).Inc()
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
