package server_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server"
)

// BenchmarkTracing measures tracing's cost side by side: the same queries
// on the seed, through two handlers over the same Neo4j, one with tracing
// off (no tracer: the default) and one exporting every trace over
// OTLP/HTTP in batches (as `casegraph serve` does with an endpoint) to a
// collector that accepts everything. Each iteration sends each query to
// both, in alternating order, so that both see the same machine; it
// reports each one's p50 and the difference (target: at most 5% when
// exporting).
func BenchmarkTracing(b *testing.B) {
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	defer collector.Close()
	exporter, err := otlptracehttp.New(b.Context(), otlptracehttp.WithEndpointURL(collector.URL+"/v1/traces"))
	if err != nil {
		b.Fatal(err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exporter))
	defer func() { _ = tp.Shutdown(b.Context()) }()

	off := tracedHandler(b, nil)
	on := tracedHandler(b, tp)
	for _, q := range []struct{ name, query string }{
		{"entity", `{ entity(id: "geoffrey-nice") { id name aliases sources { title } } }`},
		{"relations", `{ entity(id: "geoffrey-nice") { id name relations(first: 10) { totalCount edges { node { type to { id name } sources { title } } } } } }`},
		{"search", `{ search(text: "Geoffrey Nice", first: 5) { edges { node { id name } } } }`},
		{"neighborhood", `{ neighborhood(id: "geoffrey-nice") { nodes { id name } } }`},
		// No data: the whole cost of a request is the service's, so
		// tracing's share is the largest it can be.
		{"no-data", `query Q { __typename }`},
	} {
		b.Run(q.name, func(b *testing.B) { alternate(b, off, on, []string{q.query}) })
	}
}

// alternate sends each query to off and on in turn, the first of the two
// alternating, and reports each one's p50 and the difference.
func alternate(b *testing.B, off, on http.Handler, queries []string) {
	bodies := make([][]byte, len(queries))
	for i, q := range queries {
		bodies[i], _ = json.Marshal(map[string]string{"query": q})
	}
	var offTimes, onTimes []time.Duration
	i := 0
	for b.Loop() {
		for _, body := range bodies {
			first, second := off, on
			if i%2 == 1 {
				first, second = on, off
			}
			t1 := servePost(b, first, body)
			t2 := servePost(b, second, body)
			if i%2 == 1 {
				t1, t2 = t2, t1
			}
			offTimes, onTimes = append(offTimes, t1), append(onTimes, t2)
			i++
		}
	}
	p50 := func(d []time.Duration) float64 {
		slices.Sort(d)
		return float64(d[len(d)/2].Nanoseconds()) / 1e3
	}
	offP50, onP50 := p50(offTimes), p50(onTimes)
	b.ReportMetric(offP50, "p50-off-µs")
	b.ReportMetric(onP50, "p50-exporting-µs")
	b.ReportMetric(100*(onP50-offP50)/offP50, "overhead-%")
}

// tracedHandler is the real handler over the seed, traced by tp (nil: not
// traced), served in-process.
func tracedHandler(b *testing.B, tp *sdktrace.TracerProvider) http.Handler {
	b.Helper()
	cfg := server.DefaultConfig()
	cfg.Anonymous = []string{casegraph.AllDatasets}
	cfg.RateLimit = 0
	metrics := server.NewMetrics()
	opts := cypher.Options{Observer: metrics}
	if tp != nil {
		cfg.Tracer = tp
		opts.Tracer = tp.Tracer("github.com/casegraph/casegraph/cypher")
	}
	srv, err := server.New(cfg, zerolog.Nop(), cyphertest.Store(b, opts), metrics)
	if err != nil {
		b.Fatal(err)
	}
	return srv
}

// servePost serves one POST of body and returns how long it took.
func servePost(b *testing.B, h http.Handler, body []byte) time.Duration {
	req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	start := time.Now()
	h.ServeHTTP(rec, req)
	took := time.Since(start)
	if rec.Code != http.StatusOK || bytes.Contains(rec.Body.Bytes(), []byte(`"errors"`)) {
		b.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	return took
}
