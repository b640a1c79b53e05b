package server_test

import (
	"io"
	"slices"
	"testing"
	"time"

	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server/servertest"
)

// BenchmarkSavedQueryOverhead runs one document three ways, taking turns:
// posted directly to /graphql, through runSavedQuery, and as GET
// /queries/{name} (JSON and CSV). It reports each one's p50 and the ratio
// to the direct post.
func BenchmarkSavedQueryOverhead(b *testing.B) {
	h := servertest.New(b, servertest.Options{})
	_, id := cyphertest.LoadSeed(b, h.Store)
	const doc = `query Authors($id: ID!) { entity(id: $id) { name relations(first: 20) { edges { node { type role from { name } to { name } sources { title } } } } } }`
	vars := map[string]any{"id": id("caesar-report")}
	name := "bench-saved-overhead"
	h.MustPost(`mutation($in: SaveQueryInput!) { saveQuery(input: $in) { version } }`, map[string]any{"in": map[string]any{
		"name": name, "title": "Bench", "document": doc, "defaultVariables": vars}})
	b.Cleanup(func() { h.Post(`mutation { deleteSavedQuery(name: "bench-saved-overhead") { versions } }`, nil) })

	get := func(path string) {
		res, err := h.Client().Get(h.URL + path)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			b.Fatalf("%s: %d", path, res.StatusCode)
		}
	}
	ways := []struct {
		name string
		run  func()
	}{
		{"direct", func() { h.PostTimed(doc, vars) }},
		{"runSavedQuery", func() {
			h.PostTimed(`query { runSavedQuery(name: "bench-saved-overhead") { data errors { code } } }`, nil)
		}},
		{"get-json", func() { get("/queries/" + name) }},
		{"get-csv", func() { get("/queries/" + name + "?format=csv") }},
	}
	times := make([][]time.Duration, len(ways))
	i := 0
	for b.Loop() {
		for k := range ways {
			w := ways[(k+i)%len(ways)] // rotate who goes first
			start := time.Now()
			w.run()
			times[(k+i)%len(ways)] = append(times[(k+i)%len(ways)], time.Since(start))
		}
		i++
	}
	p50 := func(ds []time.Duration) time.Duration {
		s := slices.Clone(ds)
		slices.Sort(s)
		return s[len(s)/2]
	}
	direct := p50(times[0])
	for k, w := range ways {
		p := p50(times[k])
		b.ReportMetric(float64(p)/float64(time.Millisecond), w.name+"-p50-ms")
		if k > 0 {
			b.ReportMetric(float64(p)/float64(direct), w.name+"-ratio")
		}
	}
}
