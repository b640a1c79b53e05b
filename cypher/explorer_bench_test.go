package cypher_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/casegraph/casegraph/server/servertest"
)

// BenchmarkExplorerQueries measures the queries the explorer sends, as it
// sends them, through the whole service, on random entities of an imported
// dataset: p50 and p95 of each. The dataset must exist (see
// BenchmarkPathQueries):
//
//	CASEGRAPH_BENCH_DATASET=bench-100k go test ./cypher -run '^$' -bench ExplorerQueries -benchtime 100x
func BenchmarkExplorerQueries(b *testing.B) {
	ds := os.Getenv("CASEGRAPH_BENCH_DATASET")
	if ds == "" {
		b.Skip("set CASEGRAPH_BENCH_DATASET to an imported dataset (see the comment)")
	}
	h := servertest.New(b, servertest.Options{})
	ids := sampleIDs(b, h.Store, ds, 300)
	names := sampleNames(b, h.Store, ds, 100)
	rng := rand.New(rand.NewPCG(3, 4))
	pick := func() string { return ids[rng.IntN(len(ids))] }
	word := func() string {
		w := strings.Fields(names[rng.IntN(len(names))])
		return w[rng.IntN(len(w))]
	}
	const ref = `id kind name dataset redacted`
	const rel = `id type role startDate endDate status confidence quote dataset from { ` + ref + ` } to { ` + ref + ` } sources { id title publisher url publishedAt }`
	workloads := []struct {
		name  string
		query string
		vars  func() map[string]any
	}{
		{"suggest", `query($p: String!) { suggest(prefix: $p, first: 8) { text entity { ` + ref + ` } } }`,
			func() map[string]any {
				w := word()
				return map[string]any{"p": w[:min(len(w), 3)]}
			}},
		{"search-facets", `query($t: String!) { search(text: $t, first: 50) { totalCount facets { kinds { kind count } datasets { dataset count } } edges { matchedField node { ` + ref + ` } } } }`,
			func() map[string]any { return map[string]any{"t": word()} }},
		{"entity-panel", `query($id: ID!) { entity(id: $id) { ` + ref + ` aliases description updatedAt sources { id title } relations(first: 100) { totalCount edges { node { ` + rel + ` } } } } timeline(id: $id) { start end event { ` + ref + ` } relation { ` + rel + ` } } }`,
			func() map[string]any { return map[string]any{"id": pick()} }},
		{"expand-50", `query($id: ID!) { neighborhood(id: $id, depth: 1, limit: 50) { nodes { ` + ref + ` } relations { ` + rel + ` } truncated distances { id hops } } entity(id: $id) { ` + ref + ` relations(first: 1) { totalCount } } }`,
			func() map[string]any { return map[string]any{"id": pick()} }},
		{"commonNeighbors-3", `query($ids: [ID!]!) { commonNeighbors(ids: $ids, limit: 100) { entity { ` + ref + ` } relations { ` + rel + ` } } }`,
			func() map[string]any {
				var three []string
				for len(three) < 3 {
					if id := pick(); !slices.Contains(three, id) {
						three = append(three, id)
					}
				}
				return map[string]any{"ids": three}
			}},
		{"datasetTimeline-1y", `query($ds: [String!]!, $from: PartialDate!, $to: PartialDate!) { datasetTimeline(datasets: $ds, from: $from, to: $to, first: 200) { truncated items { start end event { ` + ref + ` } relation { ` + rel + ` } } } }`,
			func() map[string]any {
				y := 1990 + rng.IntN(30)
				return map[string]any{"ds": []string{ds}, "from": itoa(y), "to": itoa(y)}
			}},
		{"pathExplanation-d3-filtered", `query($a: ID!, $b: ID!) { pathExplanation(from: $a, to: $b, filter: {maxDepth: 3, statuses: [CONFIRMED], minConfidence: 0.8, kinds: [PERSON, ORGANIZATION]}) { found length lengthBeyondMaxDepth blockingFilters complete message } }`,
			func() map[string]any {
				a, c := pick(), pick()
				for c == a {
					c = pick()
				}
				return map[string]any{"a": a, "b": c}
			}},
	}
	for _, w := range workloads {
		b.Run(w.name, func(b *testing.B) {
			var took []time.Duration
			for b.Loop() {
				start := time.Now()
				status, body := h.PostTimed(w.query, w.vars())
				took = append(took, time.Since(start))
				if status != 200 || bytes.Contains(body, []byte(`"errors"`)) {
					b.Fatalf("%d %s", status, body)
				}
			}
			p50, p95 := percentiles(took)
			b.ReportMetric(ms(p50), "p50-ms")
			b.ReportMetric(ms(p95), "p95-ms")
		})
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
