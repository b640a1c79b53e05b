package graph_test

// Benchmarks of reads over HTTP: a nested depth-2 read, one entity by
// id, and neighbours by both ends against neighbor.

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/dataset"
	"github.com/casegraph/casegraph/server/servertest"
)

// BenchmarkNestedDepth2: 20 entities, a page of their relations, each
// relation's ends and sources, through the whole service over HTTP.
func BenchmarkNestedDepth2(b *testing.B) {
	h := servertest.New(b, servertest.Options{})
	ds, _ := cyphertest.LoadSeed(b, h.Store)
	const q = `query Nested($ds: String!) { entities(filter: {datasets: [$ds]}, first: 20) { edges { node {
		id name sources { id }
		relations(first: 10) { totalCount edges { node { type from { id name } to { id name } sources { id title } } } }
	} } } }`
	vars := map[string]any{"ds": ds}
	before := h.Store.RoundTrips()
	for b.Loop() {
		h.MustPost(q, vars)
	}
	b.ReportMetric(float64(h.Store.RoundTrips()-before)/float64(b.N), "roundtrips/op")
}

// BenchmarkEntityByID: one entity with its sources, over HTTP.
func BenchmarkEntityByID(b *testing.B) {
	h := servertest.New(b, servertest.Options{})
	_, id := cyphertest.LoadSeed(b, h.Store)
	q := fmt.Sprintf(`{ entity(id: %q) { id name aliases sources { title } } }`, id("geoffrey-nice"))
	before := h.Store.RoundTrips()
	for b.Loop() {
		h.MustPost(q, nil)
	}
	b.ReportMetric(float64(h.Store.RoundTrips()-before)/float64(b.N), "roundtrips/op")
}

// BenchmarkNeighborShapes: the neighbours of an entity asked the two
// ways the schema offers, interleaved request by request over the same
// roots (entities of degree 10 or more of a generated graph of 2,000
// entities and 10,000 relations): selecting both ends of each relation
// (from and to, the client picks) against selecting its neighbor. Each
// iteration sends one request of each shape; ms/req, bytes/req and round
// trips per request are reported per shape, and the ratio of their times;
// the shapes take turns going first.
func BenchmarkNeighborShapes(b *testing.B) {
	h := servertest.New(b, servertest.Options{})
	_, batch := importGenerated(b, h, dataset.GenOptions{Entities: 2000, Relations: 10000, Seed: 28})
	degree := map[string]int{}
	for _, r := range batch.Relations {
		degree[r.FromID]++
		degree[r.ToID]++
	}
	var roots []string
	for _, e := range batch.Entities {
		if degree[e.ID] >= 10 {
			roots = append(roots, e.ID)
		}
	}
	if len(roots) == 0 {
		b.Fatal("no entity of degree 10 or more")
	}
	ends := func(first int, under string) string {
		return fmt.Sprintf(`relations(first: %d) { edges { node { id type from { id name %s } to { id name %s } } } }`, first, under, under)
	}
	neighbors := func(first int, under string) string {
		return fmt.Sprintf(`relations(first: %d) { edges { direction neighbor { id name %s } node { id type } } }`, first, under)
	}
	query := func(sel string) string { return `query($id: ID!) { entity(id: $id) { id name ` + sel + ` } }` }
	for _, shape := range []struct{ name, ends, neighbors string }{
		{"depth 1, 20 relations", query(ends(20, "")), query(neighbors(20, ""))},
		{"depth 2, 10 x 10", query(ends(10, ends(10, ""))), query(neighbors(10, neighbors(10, "")))},
		{"depth 2, 20 x 5", query(ends(20, ends(5, ""))), query(neighbors(20, neighbors(5, "")))},
	} {
		b.Run(shape.name, func(b *testing.B) {
			var spent [2]time.Duration
			var size, trips [2]int64
			n := 0
			for b.Loop() {
				vars := map[string]any{"id": roots[n%len(roots)]}
				// Each shape goes first every other time: the second
				// request of a root finds what the first left in Neo4j's
				// page cache.
				for k := range 2 {
					i := (k + n) % 2
					q := []string{shape.ends, shape.neighbors}[i]
					before, start := h.Store.RoundTrips(), time.Now()
					status, body := h.PostTimed(q, vars)
					spent[i] += time.Since(start)
					trips[i] += h.Store.RoundTrips() - before
					if status != 200 || bytes.Contains(body, []byte(`"errors"`)) {
						b.Fatalf("%d: %.300s", status, body)
					}
					size[i] += int64(len(body))
				}
				n++
			}
			for i, name := range []string{"ends", "neighbor"} {
				b.ReportMetric(float64(spent[i].Microseconds())/1000/float64(n), name+"-ms/req")
				b.ReportMetric(float64(size[i])/float64(n), name+"-bytes/req")
				b.ReportMetric(float64(trips[i])/float64(n), name+"-roundtrips/req")
			}
			b.ReportMetric(float64(spent[1])/float64(spent[0]), "neighbor/ends")
		})
	}
}

// importGenerated imports a generated graph (opts, in a dataset of the
// test's own) into the harness's store, and returns the dataset and the
// graph.
func importGenerated(tb testing.TB, h *servertest.Harness, opts dataset.GenOptions) (string, dataset.Batch) {
	tb.Helper()
	opts.Dataset = cyphertest.Dataset(tb)
	batch, err := dataset.GenerateBatch(opts)
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 5*time.Minute)
	defer cancel()
	if _, err := dataset.Import(ctx, batch, h.Store, dataset.Options{BatchSize: 10000}); err != nil {
		tb.Fatal(err)
	}
	return opts.Dataset, batch
}

// BenchmarkShortestPath: W5's shape on the seed, through the whole
// service over HTTP (graphql) and on the store alone (store), the
// difference being what the layers cost a path search.
func BenchmarkShortestPath(b *testing.B) {
	h := servertest.New(b, servertest.Options{})
	_, id := cyphertest.LoadSeed(b, h.Store)
	from, to := id("geoffrey-nice"), id("qatar-government")
	b.Run("graphql", func(b *testing.B) {
		const q = `query W5($from: ID!, $to: ID!) { shortestPath(from: $from, to: $to, filter: {maxDepth: 4}) { length nodes { id } } }`
		vars := map[string]any{"from": from, "to": to}
		for b.Loop() {
			h.MustPost(q, vars)
		}
	})
	b.Run("store", func(b *testing.B) {
		ctx := casegraph.AsOperator(context.Background())
		q := casegraph.PathRequest{From: from, To: to, K: 1, Filter: casegraph.PathFilter{MaxDepth: 4}}
		if err := q.Normalize(); err != nil {
			b.Fatal(err)
		}
		read := casegraph.PathRead{Properties: &casegraph.Properties{Entity: []string{}, Relation: []string{}}}
		for b.Loop() {
			if _, _, err := h.Store.Paths(ctx, q, read); err != nil {
				b.Fatal(err)
			}
		}
	})
}
