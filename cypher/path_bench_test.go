package cypher_test

// Benchmarks of the path searches and common neighbours, and of the
// store's share of a path search against the raw driver.

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/server/servertest"
)

// BenchmarkPathQueries measures the path searches and common neighbours on an imported
// dataset, through the whole service (HTTP, GraphQL, loaders) and as the
// same Cypher through the raw driver, alternating the two on the same
// random inputs so that they share the machine's noise. It reports p50 and
// p95 of both and their ratio. The dataset must exist:
//
//	casegraph gen --entities 100000 --relations 500000 --dataset bench-100k | casegraph import -
//	CASEGRAPH_BENCH_DATASET=bench-100k go test ./cypher -run '^$' -bench PathQueries -benchtime 200x
func BenchmarkPathQueries(b *testing.B) {
	ds := os.Getenv("CASEGRAPH_BENCH_DATASET")
	if ds == "" {
		b.Skip("set CASEGRAPH_BENCH_DATASET to an imported dataset (see the comment)")
	}
	h := servertest.New(b, servertest.Options{})
	ctx := casegraph.AsOperator(context.Background())
	ids := sampleIDs(b, h.Store, ds, 500)
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func() string { return ids[rng.IntN(len(ids))] }

	filter := casegraph.PathFilter{MaxDepth: casegraph.DefaultMaxDepth, Datasets: []string{ds}}
	gqlFilter := map[string]any{"datasets": []string{ds}}
	// CASEGRAPH_BENCH_MAX_DEGREE sets the filter's hub cap (maxDegree).
	if n, err := strconv.Atoi(os.Getenv("CASEGRAPH_BENCH_MAX_DEGREE")); err == nil && n > 0 {
		filter.MaxDegree, gqlFilter["maxDegree"] = &n, n
	}
	if err := filter.Normalize(); err != nil {
		b.Fatal(err)
	}
	const pathFields = `length nodes { id name } steps { forward relation { id type confidence sources { id title } } }`
	const graphFields = `truncated nodes { id name } relations { id type from { id } to { id } sources { id title } }`

	type workload struct {
		name  string
		query string
		vars  func() (map[string]any, string, map[string]any) // GraphQL variables, statement, its params
	}
	params := func(extra map[string]any) map[string]any {
		p := cypher.PathParams(filter)
		for k, v := range extra {
			p[k] = v
		}
		return p
	}
	workloads := []workload{
		{"shortestPath", `query($a: ID!, $b: ID!, $f: PathFilter) { shortestPath(from: $a, to: $b, filter: $f) { ` + pathFields + ` } }`,
			func() (map[string]any, string, map[string]any) {
				a, c := pick(), pick()
				return map[string]any{"a": a, "b": c, "f": gqlFilter},
					cypher.PathStatementName("Paths", filter.MaxDepth, filter.Direction, 1),
					params(map[string]any{"from": a, "to": c, "k": int64(1)})
			}},
		{"paths-k5", `query($a: ID!, $b: ID!, $f: PathFilter) { paths(from: $a, to: $b, k: 5, filter: $f) { ` + pathFields + ` } }`,
			func() (map[string]any, string, map[string]any) {
				a, c := pick(), pick()
				return map[string]any{"a": a, "b": c, "f": gqlFilter},
					cypher.PathStatementName("Paths", filter.MaxDepth, filter.Direction, 5),
					params(map[string]any{"from": a, "to": c, "k": int64(5)})
			}},
		{"neighborhood-d2", `query($a: ID!, $f: PathFilter) { neighborhood(id: $a, depth: 2, filter: $f) { ` + graphFields + ` } }`,
			func() (map[string]any, string, map[string]any) {
				a := pick()
				return map[string]any{"a": a, "f": gqlFilter},
					cypher.PathStatementName("Neighborhood", 2, filter.Direction, 0),
					params(map[string]any{"id": a, "limit": int64(100), "limitPlusOne": int64(101), "relationLimit": int64(500), "relationLimitPlusOne": int64(501)})
			}},
		{"connections-5", `query($ids: [ID!]!, $f: PathFilter) { connections(ids: $ids, filter: $f) { ` + graphFields + ` unconnectedPairs { a { id } b { id } } } }`,
			func() (map[string]any, string, map[string]any) {
				var five []string
				for len(five) < 5 {
					if id := pick(); !slices.Contains(five, id) {
						five = append(five, id)
					}
				}
				var pairs [][]string
				for i := range five {
					for j := i + 1; j < len(five); j++ {
						pairs = append(pairs, []string{five[i], five[j]})
					}
				}
				return map[string]any{"ids": five, "f": gqlFilter},
					cypher.PathStatementName("Connections", filter.MaxDepth, filter.Direction, 0),
					params(map[string]any{"ids": five, "pairs": pairs})
			}},
		{"commonNeighbors-2", `query($ids: [ID!]!, $f: PathFilter) { commonNeighbors(ids: $ids, filter: $f) { entity { id name } relations { id type from { id } to { id } sources { id title } } } }`,
			func() (map[string]any, string, map[string]any) {
				a, c := pick(), pick()
				for c == a {
					c = pick()
				}
				return map[string]any{"ids": []string{a, c}, "f": gqlFilter}, "CommonNeighbors",
					params(map[string]any{"ids": []string{a, c}, "limit": int64(casegraph.DefaultCommonNeighbors)})
			}},
	}
	for _, w := range workloads {
		b.Run(w.name, func(b *testing.B) {
			var service, raw []time.Duration
			timeouts := 0
			runService := func(vars map[string]any) {
				start := time.Now()
				status, body := h.PostTimed(w.query, vars)
				service = append(service, time.Since(start))
				if bytes.Contains(body, []byte(`"TIMEOUT"`)) {
					timeouts++ // over the path budget: counted, and its time kept
					return
				}
				if status != 200 || bytes.Contains(body, []byte(`"errors"`)) {
					b.Fatalf("service: %d %s", status, body)
				}
			}
			runRaw := func(stmt string, p map[string]any) {
				// The same budget as the service's, so that both give up alike.
				ctx, cancel := context.WithTimeout(ctx, servertestPathBudget)
				defer cancel()
				start := time.Now()
				_, err := neo4j.ExecuteQuery(ctx, h.Store.Driver(), h.Store.Statement(stmt), p, neo4j.EagerResultTransformer,
					neo4j.ExecuteQueryWithDatabase("neo4j"), neo4j.ExecuteQueryWithReadersRouting(),
					neo4j.ExecuteQueryWithTransactionConfig(neo4j.WithTxTimeout(servertestPathBudget)))
				raw = append(raw, time.Since(start))
				if err != nil && ctx.Err() == nil && !strings.Contains(err.Error(), "TransactionTimedOut") {
					b.Fatalf("raw: %v", err)
				}
			}
			i := 0
			for b.Loop() {
				vars, stmt, p := w.vars()
				// Whichever runs second finds the data in Neo4j's caches;
				// take turns, so neither side always gets the warm run.
				if i%2 == 0 {
					runService(vars)
					runRaw(stmt, p)
				} else {
					runRaw(stmt, p)
					runService(vars)
				}
				i++
			}
			sp50, sp95 := percentiles(service)
			rp50, rp95 := percentiles(raw)
			b.ReportMetric(ms(sp50), "service-p50-ms")
			b.ReportMetric(ms(sp95), "service-p95-ms")
			b.ReportMetric(ms(rp50), "driver-p50-ms")
			b.ReportMetric(ms(rp95), "driver-p95-ms")
			b.ReportMetric(float64(sp50)/float64(rp50), "p50-ratio")
			b.ReportMetric(float64(sp95)/float64(rp95), "p95-ratio")
			b.ReportMetric(float64(timeouts), "timeouts")
		})
	}
}

// servertestPathBudget is the service's default path budget.
var servertestPathBudget = cypher.DefaultPathTimeout

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func percentiles(ds []time.Duration) (p50, p95 time.Duration) {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)*50/100], s[min(len(s)-1, len(s)*95/100)]
}

func sampleIDs(b *testing.B, s *cypher.Store, ds string, n int) []string {
	b.Helper()
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), time.Minute)
	defer cancel()
	res, err := neo4j.ExecuteQuery(ctx, s.Driver(),
		`MATCH (e:Entity) WHERE e.dataset = $ds WITH e.id AS id, rand() AS r ORDER BY r LIMIT $n RETURN collect(id) AS ids`,
		map[string]any{"ds": ds, "n": int64(n)}, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase("neo4j"))
	if err != nil {
		b.Fatal(err)
	}
	raw, _ := res.Records[0].Get("ids")
	var ids []string
	for _, v := range raw.([]any) {
		ids = append(ids, v.(string))
	}
	if len(ids) < 10 {
		b.Fatalf("dataset %s has %d entities: import it first", ds, len(ids))
	}
	return ids
}

// BenchmarkStorePathsVsDriver isolates the store's share of the service's
// overhead: Store.Paths (statement, parameters, transaction timeout, record
// mapping) against the raw driver, alternating on the same inputs.
func BenchmarkStorePathsVsDriver(b *testing.B) {
	ds := os.Getenv("CASEGRAPH_BENCH_DATASET")
	if ds == "" {
		b.Skip("set CASEGRAPH_BENCH_DATASET to an imported dataset (see BenchmarkPathQueries)")
	}
	h := servertest.New(b, servertest.Options{})
	ids := sampleIDs(b, h.Store, ds, 500)
	rng := rand.New(rand.NewPCG(1, 2))
	f := casegraph.PathFilter{MaxDepth: casegraph.DefaultMaxDepth, Datasets: []string{ds}}
	if err := f.Normalize(); err != nil {
		b.Fatal(err)
	}
	ctx := casegraph.AsOperator(context.Background())
	var store, raw []time.Duration
	i := 0
	for b.Loop() {
		a, c := ids[rng.IntN(len(ids))], ids[rng.IntN(len(ids))]
		p := cypher.PathParams(f)
		p["from"], p["to"], p["k"] = a, c, int64(1)
		stmt := h.Store.Statement(cypher.PathStatementName("Paths", f.MaxDepth, f.Direction, 1))
		runStore := func() {
			start := time.Now()
			ctx, cancel := context.WithTimeout(ctx, 15*time.Second) // as a request has
			defer cancel()
			if _, _, err := h.Store.Paths(ctx, casegraph.PathRequest{From: a, To: c, K: 1, Filter: f}, casegraph.PathRead{WithSources: true}); err != nil {
				b.Fatal(err)
			}
			store = append(store, time.Since(start))
		}
		runRaw := func() {
			start := time.Now()
			if _, err := neo4j.ExecuteQuery(ctx, h.Store.Driver(), stmt, p, neo4j.EagerResultTransformer,
				neo4j.ExecuteQueryWithDatabase("neo4j"), neo4j.ExecuteQueryWithReadersRouting()); err != nil {
				b.Fatal(err)
			}
			raw = append(raw, time.Since(start))
		}
		if i%2 == 0 {
			runStore()
			runRaw()
		} else {
			runRaw()
			runStore()
		}
		i++
	}
	s50, _ := percentiles(store)
	r50, _ := percentiles(raw)
	b.ReportMetric(ms(s50), "store-p50-ms")
	b.ReportMetric(ms(r50), "driver-p50-ms")
}
