package cypher_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server/servertest"
)

// BenchmarkSearchQueries measures search and suggest on an imported
// dataset (CASEGRAPH_BENCH_DATASET, as for BenchmarkPathQueries), through
// the service and as the same Cypher through the raw driver, taking turns
// on the same inputs: words of real names, some misspelled, and prefixes
// of names as a search box sends them; and search with its totalCount and
// facets (two statements: the page, then every match counted).
func BenchmarkSearchQueries(b *testing.B) {
	ds := os.Getenv("CASEGRAPH_BENCH_DATASET")
	if ds == "" {
		b.Skip("set CASEGRAPH_BENCH_DATASET to an imported dataset (see BenchmarkPathQueries)")
	}
	h := servertest.New(b, servertest.Options{})
	ctx := casegraph.AsOperator(context.Background())
	names := sampleNames(b, h.Store, ds, 500)
	rng := rand.New(rand.NewPCG(5, 6))

	type input struct {
		text  string
		words []string
	}
	searchInput := func() input {
		words := casegraph.Words(names[rng.IntN(len(names))])
		w := words[rng.IntN(len(words))]
		if len(w) >= 5 && rng.IntN(3) == 0 { // a typo
			r := []rune(w)
			r[len(r)/2] = 'x'
			w = string(r)
		}
		if len(w) < 2 {
			w += "a"
		}
		return input{w, []string{w}}
	}
	nameInput := func() input {
		name := names[rng.IntN(len(names))]
		return input{name, casegraph.Words(name)}
	}
	suggestInput := func() input {
		r := []rune(casegraph.Fold(names[rng.IntN(len(names))]))
		p := string(r[:min(len(r), 3+rng.IntN(4))])
		words := casegraph.Words(p)
		if len(words) == 0 || len([]rune(p)) < 2 {
			p, words = "ab", []string{"ab"}
		}
		return input{p, words}
	}
	workloads := []struct {
		name  string
		query string
		input func() input
		build func([]string) string
		first int
		// counts: the service's query selects totalCount and facets, and
		// the raw side runs SearchCounts after Search.
		counts bool
	}{
		{"search", `query($t: String!, $ds: [String!]) { search(text: $t, datasets: $ds) { edges { score matchedField node { id name } } } }`,
			searchInput, cypher.LuceneSearch, casegraph.DefaultPageSize, false},
		// W4 of bench/: a whole name, 20 hits.
		{"search-name", `query($t: String!, $ds: [String!]) { search(text: $t, datasets: $ds, first: 20) { edges { score node { id name } } } }`,
			nameInput, cypher.LuceneSearch, 20, false},
		{"search+facets", `query($t: String!, $ds: [String!]) { search(text: $t, datasets: $ds) { totalCount
			facets { kinds { kind count } datasets { dataset count } } edges { score matchedField node { id name } } } }`,
			searchInput, cypher.LuceneSearch, casegraph.DefaultPageSize, true},
		{"suggest", `query($t: String!, $ds: [String!]) { suggest(prefix: $t, datasets: $ds) { text entity { id } } }`,
			suggestInput, cypher.SuggestRequest, 40, false},
	}
	for _, w := range workloads {
		b.Run(w.name, func(b *testing.B) {
			var service, raw []time.Duration
			i := 0
			for b.Loop() {
				in := w.input()
				runService := func() {
					start := time.Now()
					status, body := h.PostTimed(w.query, map[string]any{"t": in.text, "ds": []string{ds}})
					service = append(service, time.Since(start))
					if status != 200 || bytes.Contains(body, []byte(`"errors"`)) {
						b.Fatalf("service: %d %s", status, body)
					}
				}
				runRaw := func() {
					// What the service runs: the page (Search/brief, as
					// the selection shows ids and names), or the
					// suggestion's candidates.
					stmt := "Search/brief"
					params := cypher.SearchPageParams(casegraph.SearchRequest{Words: in.words, Page: casegraph.Page{First: w.first},
						Filter: casegraph.SearchFilter{Datasets: []string{ds}}}, 0)
					if w.name == "suggest" {
						stmt, params = "Suggest", map[string]any{"query": cypher.Scoped(w.build(in.words), casegraph.SearchFilter{Datasets: []string{ds}}),
							"kinds": nil, "datasets": []string{ds}, "window": int64(w.first), "candidates": int64(w.first), "exact": nil}
					}
					params["readable"], params["readAll"], params["callerCleared"] = []string{}, true, true
					start := time.Now()
					_, err := neo4j.ExecuteQuery(ctx, h.Store.Driver(), h.Store.Statement(stmt), params,
						neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase("neo4j"), neo4j.ExecuteQueryWithReadersRouting())
					if err == nil && w.counts {
						_, err = neo4j.ExecuteQuery(ctx, h.Store.Driver(), h.Store.Statement("SearchCounts"), map[string]any{
							"readable": []string{}, "readAll": true, "callerCleared": true,
							"query": cypher.FacetScoped(w.build(in.words), casegraph.SearchFilter{Datasets: []string{ds}}), "exact": nil,
						}, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase("neo4j"), neo4j.ExecuteQueryWithReadersRouting())
					}
					raw = append(raw, time.Since(start))
					if err != nil {
						b.Fatalf("raw: %v", err)
					}
				}
				if i%2 == 0 {
					runService()
					runRaw()
				} else {
					runRaw()
					runService()
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
		})
	}
}

// BenchmarkProfileSearch profiles the statement of a search for a whole
// name, 20 hits (W4 of bench/), over 50 names of an imported dataset
// (CASEGRAPH_BENCH_DATASET), and reports its database hits and rows, the
// mean of all operators' over the searches (run once: -benchtime 1x),
// and logs the plan of the last one.
func BenchmarkProfileSearch(b *testing.B) {
	ds := os.Getenv("CASEGRAPH_BENCH_DATASET")
	if ds == "" {
		b.Skip("set CASEGRAPH_BENCH_DATASET to an imported dataset (see BenchmarkPathQueries)")
	}
	h := servertest.New(b, servertest.Options{})
	names := personNames(b, h.Store, ds, 50)
	ctx := casegraph.AsOperator(context.Background())
	for b.Loop() {
		var hits, rows int64
		var plan string
		for _, name := range names {
			params := cypher.SearchPageParams(casegraph.SearchRequest{Words: casegraph.Words(name), Page: casegraph.Page{First: 20},
				Filter: casegraph.SearchFilter{Datasets: []string{ds}}}, 0)
			prof, err := h.Store.Profile(ctx, "Search/brief", params)
			if err != nil {
				b.Fatal(err)
			}
			for _, line := range strings.Split(prof, "\n") {
				var n int64
				if _, after, ok := strings.Cut(line, " dbHits="); ok {
					fmt.Sscan(after, &n)
					hits += n
				}
				if _, after, ok := strings.Cut(line, " rows="); ok {
					fmt.Sscan(after, &n)
					rows += n
				}
			}
			plan = prof
		}
		b.ReportMetric(float64(hits)/float64(len(names)), "dbhits/search")
		b.ReportMetric(float64(rows)/float64(len(names)), "rows/search")
		b.Logf("the last search's plan:\n%s", plan)
	}
}

// personNames are the names of n people of the dataset, the same ones
// every run: the first in id order after the first thousand.
func personNames(b *testing.B, s *cypher.Store, ds string, n int) []string {
	return namesOf(b, s, `MATCH (e:Person) WHERE e.dataset = $ds WITH e ORDER BY e.id SKIP 1000 LIMIT $n RETURN collect(e.name) AS names`, ds, n)
}

// sampleNames are the names of n entities of the dataset drawn at random.
func sampleNames(b *testing.B, s *cypher.Store, ds string, n int) []string {
	return namesOf(b, s, `MATCH (e:Entity) WHERE e.dataset = $ds WITH e.name AS name, rand() AS r ORDER BY r LIMIT $n RETURN collect(name) AS names`, ds, n)
}

// namesOf runs a query of the names of n entities of a dataset: at least
// 10 of them, or the dataset is not imported.
func namesOf(b *testing.B, s *cypher.Store, query, ds string, n int) []string {
	b.Helper()
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), time.Minute)
	defer cancel()
	res, err := neo4j.ExecuteQuery(ctx, s.Driver(), query,
		map[string]any{"ds": ds, "n": int64(n)}, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase("neo4j"))
	if err != nil {
		b.Fatal(err)
	}
	raw, _ := res.Records[0].Get("names")
	var names []string
	for _, v := range raw.([]any) {
		names = append(names, v.(string))
	}
	if len(names) < 10 {
		b.Fatalf("dataset %s has %d entities: import it first", ds, len(names))
	}
	return names
}

// BenchmarkSearchMisspelt measures how well search finds a name, not how
// fast, on an imported dataset (CASEGRAPH_BENCH_DATASET, as for
// BenchmarkSearchQueries): names of its entities drawn with a seed, each
// typed whole, with its last word misspelt (the middle character of a
// word of 5 characters or more made an x) and with its last word cut to its first 3
// letters; for each way, the mean reciprocal rank of the first result of
// that name among the first 20 (mrr-*) and the share of names among them
// (found-*). Run it with -benchtime 1x (bench/README.md, "A full name with
// a typo").
func BenchmarkSearchMisspelt(b *testing.B) {
	ds := os.Getenv("CASEGRAPH_BENCH_DATASET")
	if ds == "" {
		b.Skip("set CASEGRAPH_BENCH_DATASET to an imported dataset (see BenchmarkPathQueries)")
	}
	s := cyphertest.Store(b, cypher.Options{})
	ctx := casegraph.WithPrincipal(context.Background(), casegraph.Anonymous([]string{casegraph.AllDatasets}))
	all := namesOf(b, s, `MATCH (e:Entity) WHERE e.dataset = $ds WITH e.name AS name ORDER BY e.id LIMIT $n RETURN collect(name) AS names`, ds, 1_000_000)
	ways := []struct {
		name  string
		typed func(words []string) ([]string, bool) // false: the name cannot be typed so
	}{
		{"whole", func(w []string) ([]string, bool) { return w, true }},
		{"typo", func(w []string) ([]string, bool) {
			last := []rune(w[len(w)-1])
			if len(last) < 5 {
				return nil, false
			}
			last[len(last)/2] = 'x'
			return append(slices.Clone(w[:len(w)-1]), string(last)), true
		}},
		{"prefix", func(w []string) ([]string, bool) {
			last := []rune(w[len(w)-1])
			if len(last) <= 3 {
				return nil, false
			}
			return append(slices.Clone(w[:len(w)-1]), string(last[:3])), true
		}},
	}
	for b.Loop() {
		rng := rand.New(rand.NewPCG(9, 9))
		for _, way := range ways {
			var mrr float64
			found, asked := 0, 0
			for range 500 {
				name := all[rng.IntN(len(all))]
				words, ok := way.typed(casegraph.Words(name))
				if !ok {
					continue
				}
				q := casegraph.SearchRequest{Text: strings.Join(words, " "), Shows: []string{"name"}, Page: casegraph.Page{First: 20},
					Filter: casegraph.SearchFilter{Datasets: []string{ds}}}
				if err := q.Normalize(); err != nil {
					continue // a text of one letter, say
				}
				page, err := s.Search(ctx, q)
				if err != nil {
					b.Fatalf("%q: %v", q.Text, err)
				}
				asked++
				for i, r := range page.Results {
					if r.Entity.Name == name {
						mrr += 1 / float64(i+1)
						found++
						break
					}
				}
			}
			if asked == 0 {
				b.Fatalf("no name of %s could be typed %s", ds, way.name)
			}
			b.ReportMetric(mrr/float64(asked), "mrr-"+way.name)
			b.ReportMetric(float64(found)/float64(asked), "found-"+way.name)
		}
	}
}
