package cypher_test

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/server/servertest"
)

// BenchmarkProfileSlowestShortestPath times shortestPath over 40 random
// pairs of an imported dataset and prints the PROFILE of the slowest: where
// a search's time goes (run once: -benchtime 1x).
func BenchmarkProfileSlowestShortestPath(b *testing.B) {
	ds := os.Getenv("CASEGRAPH_BENCH_DATASET")
	if ds == "" {
		b.Skip("set CASEGRAPH_BENCH_DATASET to an imported dataset (see BenchmarkPathQueries)")
	}
	h := servertest.New(b, servertest.Options{})
	ids := sampleIDs(b, h.Store, ds, 80)
	f := casegraph.PathFilter{MaxDepth: casegraph.DefaultMaxDepth, Datasets: []string{ds}}
	if err := f.Normalize(); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for b.Loop() {
		var slowest time.Duration
		var params map[string]any
		for range 40 {
			p := cypher.PathParams(f)
			p["from"], p["to"], p["k"] = ids[rng.IntN(len(ids))], ids[rng.IntN(len(ids))], int64(1)
			ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 30*time.Second)
			start := time.Now()
			_, _, err := h.Store.Paths(ctx, casegraph.PathRequest{From: p["from"].(string), To: p["to"].(string), K: 1, Filter: f}, casegraph.PathRead{WithSources: true})
			took := time.Since(start)
			cancel()
			if err == nil && took > slowest {
				slowest, params = took, p
			}
		}
		prof, err := h.Store.Profile(casegraph.AsOperator(context.Background()), cypher.PathStatementName("Paths", f.MaxDepth, f.Direction, 1), params)
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("slowest of 40 pairs: %s (%v to %v)\n%s", slowest, params["from"], params["to"], prof)
	}
}
