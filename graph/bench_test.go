package graph_test

// Benchmarks of reads over HTTP: a nested depth-2 read, and one entity by
// id.

import (
	"fmt"
	"testing"

	"github.com/casegraph/casegraph/cypher/cyphertest"
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
