package server_test

// Benchmarks of what access control costs a request and an export.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	mrand "math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/rs/zerolog"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/oidc/oidctest"
	"github.com/casegraph/casegraph/server"
)

// BenchmarkAccessCost measures what access control costs a request, side
// by side on the same inputs: the same handler (in process) with access
// off (anonymous callers read every dataset), with an admin's API key
// (cached), with a JWT (verified each request), and with a reader's key
// limited to the dataset (every statement applies $readable). It reports
// each mode's p50 and p95 and its p50 over the p50 with access off, for an
// entity by id, a search, a shortest path and the bench's W3 (10 entities
// by id, 10 relations of each and 10 of each of their ends: depth 2) on
// an imported dataset:
//
//	CASEGRAPH_BENCH_DATASET=bench-100k go test ./server -run '^$' -bench AccessCost -benchtime 300x
func BenchmarkAccessCost(b *testing.B) {
	ds := os.Getenv("CASEGRAPH_BENCH_DATASET")
	if ds == "" {
		b.Skip("set CASEGRAPH_BENCH_DATASET to an imported dataset (bench/README.md)")
	}
	store := cyphertest.Store(b, cypher.Options{PathTimeout: cypher.DefaultPathTimeout})
	ctx := casegraph.AsOperator(context.Background())
	adminKey, readerKey := benchKeys(b, store, ds)
	idp := oidctest.New(b)
	verifier, jwtToken := idp.Verifier, idp.Token("bench", "admin", nil, time.Hour, "")
	handler := func(anonymous []string, tokens server.TokenVerifier) http.Handler {
		cfg := server.DefaultConfig()
		cfg.Anonymous, cfg.Tokens = anonymous, tokens
		srv, err := server.New(cfg, zerolog.Nop(), store, nil)
		if err != nil {
			b.Fatal(err)
		}
		return srv
	}
	open := handler([]string{casegraph.AllDatasets}, nil)
	guarded := handler(nil, verifier)
	modes := []struct {
		name  string
		h     http.Handler
		token string
	}{
		{"off", open, ""}, {"key", guarded, adminKey}, {"jwt", guarded, jwtToken}, {"scoped", guarded, readerKey},
	}

	res, err := neo4j.ExecuteQuery(ctx, cyphertest.Driver(b),
		`MATCH (e:Entity) WHERE e.dataset = $ds WITH e, rand() AS r ORDER BY r LIMIT 500 RETURN e.id AS id, e.name AS name`,
		map[string]any{"ds": ds}, neo4j.EagerResultTransformer)
	if err != nil {
		b.Fatal(err)
	}
	var ids, words []string
	for _, rec := range res.Records {
		id, _ := rec.Get("id")
		name, _ := rec.Get("name")
		ids = append(ids, id.(string))
		words = append(words, strings.Fields(name.(string))[0])
	}
	rng := mrand.New(mrand.NewPCG(3, 4))
	workloads := []struct {
		name string
		body func() []byte
	}{
		{"entity", func() []byte {
			return gqlBody(`query($id: ID!) { entity(id: $id) { id name } }`, map[string]any{"id": ids[rng.IntN(len(ids))]})
		}},
		{"search", func() []byte {
			return gqlBody(`query($t: String!) { search(text: $t, first: 20) { edges { node { id name } } } }`, map[string]any{"t": words[rng.IntN(len(words))]})
		}},
		{"shortestPath", func() []byte {
			return gqlBody(`query($a: ID!, $b: ID!) { shortestPath(from: $a, to: $b, filter: {maxDepth: 4}) { length nodes { id } } }`,
				map[string]any{"a": ids[rng.IntN(len(ids))], "b": ids[rng.IntN(len(ids))]})
		}},
		{"w3", func() []byte {
			var q strings.Builder
			vars := map[string]any{}
			q.WriteString("query(")
			for i := range 10 {
				fmt.Fprintf(&q, "$id%d: ID!, ", i)
				vars[fmt.Sprint("id", i)] = ids[rng.IntN(len(ids))]
			}
			q.WriteString(") {")
			for i := range 10 {
				fmt.Fprintf(&q, ` e%d: entity(id: $id%d) { id name relations(direction: OUTGOING, first: 10) { edges { node { to { id name relations(direction: OUTGOING, first: 10) { edges { node { to { id name } } } } } } } } }`, i, i)
			}
			q.WriteString(" }")
			return gqlBody(q.String(), vars)
		}},
	}
	for _, w := range workloads {
		b.Run(w.name, func(b *testing.B) {
			times := make([][]time.Duration, len(modes))
			for i := 0; i < b.N; i++ {
				body := w.body()
				for j, m := range modes {
					req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body))
					req.Header.Set("Content-Type", "application/json")
					if m.token != "" {
						req.Header.Set("Authorization", "Bearer "+m.token)
					}
					rec := httptest.NewRecorder()
					start := time.Now()
					m.h.ServeHTTP(rec, req)
					times[j] = append(times[j], time.Since(start))
					if rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), `"errors"`) {
						b.Fatalf("%s: %d %s", m.name, rec.Code, rec.Body)
					}
				}
			}
			p50 := func(ds []time.Duration) time.Duration {
				s := slices.Clone(ds)
				slices.Sort(s)
				return s[len(s)/2]
			}
			p95 := func(ds []time.Duration) time.Duration {
				s := slices.Clone(ds)
				slices.Sort(s)
				return s[min(len(s)-1, len(s)*95/100)]
			}
			off := p50(times[0])
			for j, m := range modes {
				b.ReportMetric(float64(p50(times[j]))/1e6, m.name+"-p50-ms")
				b.ReportMetric(float64(p95(times[j]))/1e6, m.name+"-p95-ms")
				if j > 0 {
					b.ReportMetric(float64(p50(times[j]))/float64(off), m.name+"/off")
				}
			}
		})
	}
}

// benchKeys makes an admin's key and a key of a reader of ds (without
// clearance) for a benchmark.
func benchKeys(b *testing.B, store *cypher.Store, ds string) (admin, reader string) {
	b.Helper()
	ctx := casegraph.AsOperator(context.Background())
	_, admin, err := store.CreateAPIKey(ctx, casegraph.NewAPIKey{Name: "bench admin", Role: casegraph.RoleAdmin}, "bench")
	if err != nil {
		b.Fatal(err)
	}
	_, reader, err = store.CreateAPIKey(ctx, casegraph.NewAPIKey{Name: "bench reader", Role: casegraph.RoleReader, Datasets: []string{ds}}, "bench")
	if err != nil {
		b.Fatal(err)
	}
	return admin, reader
}

// BenchmarkExportCost measures the NDJSON export of an imported dataset
// over HTTP (in process, the body discarded) for an admin and for a
// reader of the dataset without clearance, whose export the statements
// scope: the time of each, and the reader's over the admin's.
//
//	CASEGRAPH_BENCH_DATASET=bench-100k go test ./server -run '^$' -bench ExportCost -benchtime 3x
func BenchmarkExportCost(b *testing.B) {
	ds := os.Getenv("CASEGRAPH_BENCH_DATASET")
	if ds == "" {
		b.Skip("set CASEGRAPH_BENCH_DATASET to an imported dataset (bench/README.md)")
	}
	store := cyphertest.Store(b, cypher.Options{})
	adminKey, readerKey := benchKeys(b, store, ds)
	cfg := server.DefaultConfig()
	cfg.Anonymous = nil
	srv, err := server.New(cfg, zerolog.New(os.Stderr).Level(zerolog.ErrorLevel), store, nil)
	if err != nil {
		b.Fatal(err)
	}
	modes := []struct{ name, token string }{{"admin", adminKey}, {"reader", readerKey}}
	times := make([][]time.Duration, len(modes))
	for b.Loop() {
		for j, m := range modes {
			req := httptest.NewRequest(http.MethodGet, "/datasets/"+ds+"/export", nil)
			req.Header.Set("Authorization", "Bearer "+m.token)
			w := &discard{header: http.Header{}}
			start := time.Now()
			srv.ServeHTTP(w, req)
			times[j] = append(times[j], time.Since(start))
			if w.status != http.StatusOK || w.bytes == 0 {
				b.Fatalf("%s: %d after %d bytes", m.name, w.status, w.bytes)
			}
		}
	}
	p50 := make([]float64, len(modes))
	for j, m := range modes {
		s := slices.Clone(times[j])
		slices.Sort(s)
		p50[j] = float64(s[len(s)/2])
		b.ReportMetric(p50[j]/1e6, m.name+"-p50-ms")
	}
	b.ReportMetric(p50[1]/p50[0], "reader/admin")
}

// discard is a ResponseWriter that keeps only the status and the size.
type discard struct {
	header http.Header
	status int
	bytes  int
}

func (d *discard) Header() http.Header { return d.header }
func (d *discard) Write(p []byte) (int, error) {
	if d.status == 0 {
		d.status = http.StatusOK
	}
	d.bytes += len(p)
	return len(p), nil
}
func (d *discard) WriteHeader(code int) {
	if d.status == 0 {
		d.status = code
	}
}

func gqlBody(query string, vars map[string]any) []byte {
	b, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		panic(fmt.Sprint(err))
	}
	return b
}
