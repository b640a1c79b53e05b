package server_test

// Benchmarks of the whole stack: one entity read, and refusals of
// documents too deep, too complex or too long.

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/rs/zerolog"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server"
)

// benchHandler is the real handler over the real Neo4j, served in-process
// (no sockets), so the figures are the service's own cost.
func benchHandler(b *testing.B, configure func(*server.Config)) (http.Handler, *cypher.Store) {
	b.Helper()
	cfg := server.DefaultConfig()
	cfg.Anonymous = []string{casegraph.AllDatasets} // the cost of the service, not of a key's look-up
	cfg.RateLimit = 0                               // one caller sends every request: the limit would refuse them
	if configure != nil {
		configure(&cfg)
	}
	metrics := server.NewMetrics()
	store := cyphertest.Store(b, cypher.Options{Observer: metrics})
	srv, err := server.New(cfg, zerolog.Nop(), store, metrics)
	if err != nil {
		b.Fatal(err)
	}
	return srv, store
}

func benchPost(b *testing.B, h http.Handler, query string, wantCode int) {
	b.Helper()
	body, _ := json.Marshal(map[string]string{"query": query})
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != wantCode {
			b.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	}
}

// BenchmarkEntityByID: one entity read through the whole stack (one round trip).
func BenchmarkEntityByID(b *testing.B) {
	h, store := benchHandler(b, nil)
	before := store.RoundTrips()
	benchPost(b, h, `{ entity(id: "caesar") { id name aliases } }`, http.StatusOK)
	b.ReportMetric(float64(store.RoundTrips()-before)/float64(b.N), "roundtrips/op")
}

// The refusals: what a query refused by a limit costs (no round trip).

func BenchmarkRefusedTooDeep(b *testing.B) {
	h, _ := benchHandler(b, func(c *server.Config) { c.MaxDepth = 1 })
	benchPost(b, h, `{ entity(id: "x") { ...A } } fragment A on Entity { ... on Person { id } }`, http.StatusOK)
}

func BenchmarkRefusedTooComplex(b *testing.B) {
	h, _ := benchHandler(b, func(c *server.Config) { c.MaxComplexity = 100 })
	benchPost(b, h, "{ "+aliases(300)+" }", http.StatusOK)
}

func BenchmarkRefusedTooManyTokens(b *testing.B) {
	h, _ := benchHandler(b, nil)
	benchPost(b, h, "{ "+aliases(600)+" }", http.StatusOK)
}
