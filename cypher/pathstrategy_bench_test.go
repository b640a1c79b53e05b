package cypher_test

import (
	"context"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
)

// BenchmarkShortestPathStrategies compares three ways of finding one
// shortest path of at most 4 relations between random entities of a large
// imported dataset, without a hub cap, on the same inputs in turn:
//
//   - shortest: the service's statement (SHORTEST 1, a bidirectional search
//     inside Neo4j);
//   - legacy: Neo4j's older shortestPath() function on the same pattern;
//   - frontier: a bidirectional breadth-first search run from Go, one
//     statement per level, always expanding the side whose frontier has the
//     smaller total degree (the degree property every write keeps).
//
// Each has the service's time budget of a path search (10 s); a search that
// fails counts in its time and as failed. It checks that the three agree on
// the length where all answered, and reports p50, p95, max and failures of
// each, and round trips of the frontier search. The dataset must
// exist (bench/README.md shows how to import a generated 1M / 5M graph):
//
//	CASEGRAPH_BENCH_DATASET=bench-1m go test ./cypher -run '^$' -bench ShortestPathStrategies -benchtime 100x -timeout 1h
func BenchmarkShortestPathStrategies(b *testing.B) {
	ds := os.Getenv("CASEGRAPH_BENCH_DATASET")
	if ds == "" {
		b.Skip("set CASEGRAPH_BENCH_DATASET to an imported dataset (see the comment)")
	}
	// The service's default time budget of a path search (server.Config).
	const budget = 10 * time.Second
	store := cyphertest.Store(b, cypher.Options{PathTimeout: budget})
	ctx := casegraph.AsOperator(context.Background())
	ids := sampleIDs(b, store, ds, 2000)
	rng := rand.New(rand.NewPCG(5, 6))
	filter := casegraph.PathFilter{MaxDepth: 4}
	if err := filter.Normalize(); err != nil {
		b.Fatal(err)
	}
	const legacy = `MATCH (a:Entity {id: $from}), (b:Entity {id: $to})
OPTIONAL MATCH p = shortestPath((a)-[*1..4]-(b))
RETURN length(p) AS length`
	strategies := []struct {
		name string
		run  func(from, to string) (int, int, error) // length (-1: none), round trips
	}{
		{"shortest", func(from, to string) (int, int, error) {
			paths, _, err := store.Paths(ctx, casegraph.PathRequest{From: from, To: to, K: 1, Filter: filter}, casegraph.PathRead{})
			if err != nil || len(paths) == 0 {
				return -1, 1, err
			}
			return len(paths[0].Relations), 1, nil
		}},
		{"legacy", func(from, to string) (int, int, error) {
			ctx, cancel := context.WithTimeout(ctx, budget)
			defer cancel()
			res, err := neo4j.ExecuteQuery(ctx, store.Driver(), legacy, map[string]any{"from": from, "to": to},
				neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithReadersRouting())
			if err != nil {
				return -1, 1, err
			}
			n, isNil, err := neo4j.GetRecordValue[int64](res.Records[0], "length")
			if err != nil || isNil {
				return -1, 1, err // null: no path
			}
			return int(n), 1, nil
		}},
		{"frontier", func(from, to string) (int, int, error) {
			ctx, cancel := context.WithTimeout(ctx, budget)
			defer cancel()
			return frontierSearch(ctx, store.Driver(), from, to, 4)
		}},
	}
	times := make([][]time.Duration, len(strategies))
	failed := make([]int, len(strategies))
	trips := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		from, to := ids[rng.IntN(len(ids))], ids[rng.IntN(len(ids))]
		if from == to {
			i--
			continue
		}
		lengths := make([]int, len(strategies))
		for j, s := range strategies {
			start := time.Now()
			n, rt, err := s.run(from, to)
			times[j] = append(times[j], time.Since(start))
			if err != nil {
				b.Logf("%s %s -> %s: %v", s.name, from, to, err)
				failed[j]++
				n = -2 // compared with nothing
			}
			lengths[j] = n
			if s.name == "frontier" {
				trips += rt
			}
		}
		if slices.Contains(lengths, -2) {
			continue
		}
		if lengths[0] != lengths[1] || lengths[0] != lengths[2] {
			b.Errorf("%s -> %s: lengths differ: %v", from, to, lengths)
		}
	}
	b.StopTimer()
	for j, s := range strategies {
		p50, p95 := percentiles(times[j])
		b.ReportMetric(ms(p50), s.name+"-p50-ms")
		b.ReportMetric(ms(p95), s.name+"-p95-ms")
		b.ReportMetric(ms(slices.Max(times[j])), s.name+"-max-ms")
		b.ReportMetric(float64(failed[j]), s.name+"-failed")
	}
	b.ReportMetric(float64(trips)/float64(b.N), "frontier-trips/op")
}

// frontierSearch is a bidirectional breadth-first search over undirected
// relations, done from Go: each step expands one whole level of the side
// whose frontier has the smaller total degree, in one statement. It returns
// the length of a shortest path of at most maxDepth relations (-1 when
// none) and the statements it ran.
func frontierSearch(ctx context.Context, driver neo4j.DriverWithContext, from, to string, maxDepth int) (int, int, error) {
	const expand = `UNWIND $ids AS id
MATCH (:Entity {id: id})--(m:Entity)
RETURN DISTINCT m.id AS id, m.degree AS degree`
	type side struct {
		seen     map[string]bool
		frontier []string
		degree   int64 // of the frontier
		depth    int
	}
	sides := [2]*side{
		{seen: map[string]bool{from: true}, frontier: []string{from}},
		{seen: map[string]bool{to: true}, frontier: []string{to}},
	}
	degrees, trips := map[string]int64{}, 0
	res, err := neo4j.ExecuteQuery(ctx, driver, `UNWIND $ids AS id MATCH (e:Entity {id: id}) RETURN e.id AS id, e.degree AS degree`,
		map[string]any{"ids": []string{from, to}}, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithReadersRouting())
	trips++
	if err != nil {
		return -1, trips, err
	}
	for _, rec := range res.Records {
		id, _, _ := neo4j.GetRecordValue[string](rec, "id")
		d, _, _ := neo4j.GetRecordValue[int64](rec, "degree")
		degrees[id] = d
	}
	sides[0].degree, sides[1].degree = degrees[from], degrees[to]
	for sides[0].depth+sides[1].depth < maxDepth {
		s, other := sides[0], sides[1]
		if other.degree < s.degree {
			s, other = other, s
		}
		if len(s.frontier) == 0 {
			return -1, trips, nil
		}
		res, err := neo4j.ExecuteQuery(ctx, driver, expand, map[string]any{"ids": s.frontier},
			neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithReadersRouting())
		trips++
		if err != nil {
			return -1, trips, err
		}
		s.depth++
		next, degree := []string{}, int64(0)
		for _, rec := range res.Records {
			id, _, _ := neo4j.GetRecordValue[string](rec, "id")
			if other.seen[id] {
				return s.depth + other.depth, trips, nil
			}
			if s.seen[id] {
				continue
			}
			d, _, _ := neo4j.GetRecordValue[int64](rec, "degree")
			s.seen[id] = true
			next = append(next, id)
			degree += d
		}
		s.frontier, s.degree = next, degree
	}
	return -1, trips, nil
}
