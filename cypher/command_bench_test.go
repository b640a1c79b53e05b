package cypher_test

// Benchmarks of the command queries on a generated force.

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/server/servertest"
)

// BenchmarkCommandQueries measures commandChain and whoWasInCommand on a
// generated force, through the whole service (HTTP, GraphQL, loaders),
// each with its units, commanders, superiors and the relations' evidence
// (sources), at random units (of every echelon) and dates, and at random
// incidents: p50 and p95 of each. The force must be imported:
//
//	casegraph gen --force-units 10000 --force-posts 50000 --dataset bench-force-10k | casegraph import -
//	CASEGRAPH_BENCH_FORCE=bench-force-10k go test ./cypher -run '^$' -bench CommandQueries -benchtime 400x
func BenchmarkCommandQueries(b *testing.B) {
	ds := os.Getenv("CASEGRAPH_BENCH_FORCE")
	if ds == "" {
		b.Skip("set CASEGRAPH_BENCH_FORCE to an imported force (see the comment)")
	}
	h := servertest.New(b, servertest.Options{})
	units, incidents := forceIDs(b, h, ds, "Organization"), forceIDs(b, h, ds, "Event")
	rng := rand.New(rand.NewPCG(1, 2))
	const hop = `overlap entity { id name } relation { id role startDate endDate status confidence quote sources { id title } }`
	const unit = `unit { id name } overlap commandersRecord superiorsRecord commanders { ` + hop + ` } superiors { ` + hop + ` }`
	const chain = `truncated unit { ` + unit + ` } levels { level units { ` + unit + ` } }`
	workloads := []struct {
		name, query string
		vars        func() map[string]any
	}{
		{"commandChain", `query($id: ID!, $at: PartialDate!) { commandChain(unitId: $id, at: $at) { ` + chain + ` } }`,
			func() map[string]any {
				at := time.Date(2005+rng.IntN(20), time.Month(1+rng.IntN(12)), 1+rng.IntN(28), 0, 0, 0, 0, time.UTC)
				return map[string]any{"id": units[rng.IntN(len(units))], "at": at.Format("2006-01-02")}
			}},
		{"whoWasInCommand", `query($id: ID!) { whoWasInCommand(incidentId: $id) { from to truncated
				people { person { id name } } units { unit { id name } ties { kind overlap place { id name } relation { id sources { id } } } chain { ` + chain + ` } } } }`,
			func() map[string]any { return map[string]any{"id": incidents[rng.IntN(len(incidents))]} }},
	}
	for _, w := range workloads {
		b.Run(w.name, func(b *testing.B) {
			for range 20 { // warm the statement cache and the page cache
				h.MustPost(w.query, w.vars())
			}
			took := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for range b.N {
				vars := w.vars()
				start := time.Now()
				h.MustPost(w.query, vars)
				took = append(took, time.Since(start))
			}
			b.StopTimer()
			p50, p95 := percentiles(took)
			b.ReportMetric(ms(p50), "p50-ms")
			b.ReportMetric(ms(p95), "p95-ms")
		})
	}
}

// forceIDs are the ids of a kind in the force's dataset.
func forceIDs(b *testing.B, h *servertest.Harness, ds, kind string) []string {
	b.Helper()
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), time.Minute)
	defer cancel()
	res, err := neo4j.ExecuteQuery(ctx, h.Store.Driver(),
		`MATCH (e:Entity {dataset: $ds}) WHERE $kind IN labels(e) RETURN collect(e.id) AS ids`,
		map[string]any{"ds": ds, "kind": kind}, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase("neo4j"))
	if err != nil {
		b.Fatal(err)
	}
	raw, _ := res.Records[0].Get("ids")
	var ids []string
	for _, v := range raw.([]any) {
		ids = append(ids, v.(string))
	}
	if len(ids) == 0 {
		b.Fatalf("dataset %s has no %s: import the force first", ds, kind)
	}
	return ids
}
