package duplicate_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/dataset"
	"github.com/casegraph/casegraph/duplicate"
)

// BenchmarkSuggestions measures duplicate suggestions in Go alone: the
// Finder's whole run (blocking, names, every field, shared neighbours,
// ranking) over a graph held in memory, on a generated dataset of 250,000
// entities (100,000 people) with 2,500 planted duplicates (dataset/plant.go
// and plantfields.go: every field with a second record's noise):
//
//	go test ./duplicate -run '^$' -bench Suggestions -benchtime 3x
//
// (CASEGRAPH_BENCH_SUGGEST_ENTITIES, _RELATIONS and _PLANTED change the
// size.) It reports precision and recall at the number of planted pairs
// (duplicate.Evaluate) and ties, with every field ("all"), with what was
// compared before the identifying fields (names, shared neighbours and
// nationality: "before"), and with names alone ("names"); ns/op is one
// run. With -v it logs, for every reason, how often it is seen among true
// pairs (m) and among the other candidates (u): the measure its weight
// stands on (evidence.go).
func BenchmarkSuggestions(b *testing.B) {
	num := func(name string, def int) int {
		if n, err := strconv.Atoi(os.Getenv("CASEGRAPH_BENCH_SUGGEST_" + name)); err == nil {
			return n
		}
		return def
	}
	opts := dataset.GenOptions{Entities: num("ENTITIES", 250_000), Relations: num("RELATIONS", 1_000_000), Seed: 1,
		Dataset: "suggest", PlantDuplicates: num("PLANTED", 2500)}
	batch, err := dataset.GenerateBatch(opts)
	if err != nil {
		b.Fatal(err)
	}
	planted, err := dataset.PlantedDuplicates(opts)
	if err != nil {
		b.Fatal(err)
	}
	truth := duplicate.TruePairs(planted)
	people := 0
	for _, e := range batch.Entities {
		if e.Kind == casegraph.KindPerson {
			people++
		}
	}
	for _, v := range []struct {
		name       string
		strip      func(casegraph.Entity) casegraph.Entity
		neighbours bool
	}{
		{"all", func(e casegraph.Entity) casegraph.Entity { return e }, true},
		{"before", func(e casegraph.Entity) casegraph.Entity {
			return casegraph.Entity{ID: e.ID, Kind: e.Kind, Name: e.Name, Aliases: e.Aliases,
				Attributes: casegraph.Attributes{Nationality: e.Nationality, StartDate: e.StartDate, EndDate: e.EndDate, PublishedAt: e.PublishedAt}}
		}, true},
		{"names", func(e casegraph.Entity) casegraph.Entity {
			return casegraph.Entity{ID: e.ID, Kind: e.Kind, Name: e.Name, Aliases: e.Aliases}
		}, false},
	} {
		b.Run(v.name, func(b *testing.B) {
			g := newMemGraph(batch, v.strip, v.neighbours)
			q := duplicate.Request{Dataset: opts.Dataset, First: len(planted), Limits: duplicate.DefaultLimits()}
			all := duplicate.Request{Dataset: opts.Dataset, First: math.MaxInt32, Limits: q.Limits}
			ctx := casegraph.AsOperator(context.Background())
			var page duplicate.Page
			for b.Loop() {
				if page, err = duplicate.NewFinder(g).Candidates(ctx, all); err != nil { // a Finder of its own: nothing kept
					b.Fatal(err)
				}
			}
			ev := duplicate.Evaluate(page.Candidates, truth)
			b.ReportMetric(ev.Precision, "precision")
			b.ReportMetric(ev.Recall, "recall")
			b.ReportMetric(float64(ev.TiedAtTop), "tied-at-top")
			b.ReportMetric(float64(page.Total), "candidates")
			missed := map[string]int{}
			for p, i := range truth {
				if !slices.ContainsFunc(page.Candidates[:min(len(page.Candidates), ev.N)], func(c duplicate.Candidate) bool { return c.Pair == p }) {
					missed[dataset.PlantWay(i)]++
				}
			}
			b.Logf("%d entities (%d people), %d planted pairs: first %d of %d candidates, %d hits (precision %.3f, recall %.3f; %d of the planted among all the candidates); "+
				"ties: %d of the first %d share a score, at most %d one score, %d at the cut; %d pairs compared, %d blocks skipped, truncated %v; missed by way: %v",
				len(batch.Entities), people, ev.N, min(ev.N, page.Total), page.Total, ev.Hits, ev.Precision, ev.Recall, ev.Found,
				ev.TiedAtTop, min(ev.N, page.Total), ev.LargestTie, ev.AtCut, page.Compared, page.SkippedBlocks, page.Truncated, missed)
			if testing.Verbose() {
				logReasons(b, page.Candidates, truth)
				logMistakes(b, g, page.Candidates[:min(len(page.Candidates), ev.N)], truth, 15)
			}
		})
	}
}

// logReasons logs, for every reason (its kind and weight, or its kind and
// sign for a weight that varies), the share of the run's true pairs and
// of its other candidates that have it: m and u, and log2(m/u).
func logReasons(b *testing.B, cs []duplicate.Candidate, truth map[duplicate.Pair]int) {
	varies := map[duplicate.ReasonKind]bool{duplicate.ReasonName: true, duplicate.ReasonAlias: true,
		duplicate.ReasonSharedNeighbours: true, duplicate.ReasonBirthPlace: true, duplicate.ReasonAddress: true}
	seen := map[string][2]int{}
	var trues, falses int
	for _, c := range cs {
		t := 0
		if _, ok := truth[c.Pair]; ok {
			trues++
		} else {
			t = 1
			falses++
		}
		for _, r := range c.Reasons {
			key := fmt.Sprintf("%s %+.3f", r.Kind, r.Weight)
			if varies[r.Kind] {
				key = fmt.Sprintf("%s %s", r.Kind, map[bool]string{true: "+", false: "-"}[r.Weight > 0])
			}
			n := seen[key]
			n[t]++
			seen[key] = n
		}
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var lines []string
	for _, k := range keys {
		m, u := float64(seen[k][0])/float64(max(trues, 1)), float64(seen[k][1])/float64(max(falses, 1))
		lines = append(lines, fmt.Sprintf("%-28s m %.4f u %.5f log2(m/u) %+.1f", k, m, u, math.Log2(m/u)))
	}
	b.Logf("reasons among %d true pairs and %d other candidates:\n%s", trues, falses, strings.Join(lines, "\n"))
}

// logMistakes logs the first n candidates of the top that are not true.
func logMistakes(b *testing.B, g *memGraph, top []duplicate.Candidate, truth map[duplicate.Pair]int, n int) {
	for _, c := range top {
		if n == 0 {
			return
		}
		if _, ok := truth[c.Pair]; !ok {
			n--
			b.Logf("not planted: %q and %q: %.3f %v", g.byID[c.A].Name, g.byID[c.B].Name, c.Score, c.Reasons)
		}
	}
}

// memGraph is a generated batch as a duplicate.Graph, in memory: the
// Finder's run without a database.
type memGraph struct {
	entities []casegraph.Entity
	byID     map[string]casegraph.Entity
	index    map[string]int32
	adj      [][]int32 // each entity's neighbours, sorted
	noShared bool
}

func newMemGraph(batch dataset.Batch, strip func(casegraph.Entity) casegraph.Entity, neighbours bool) *memGraph {
	g := &memGraph{byID: map[string]casegraph.Entity{}, index: map[string]int32{}, noShared: !neighbours}
	for i, e := range batch.Entities {
		e = strip(e)
		g.entities = append(g.entities, e)
		g.byID[e.ID] = e
		g.index[e.ID] = int32(i)
	}
	g.adj = make([][]int32, len(g.entities))
	for _, r := range batch.Relations {
		f, t := g.index[r.FromID], g.index[r.ToID]
		g.adj[f] = append(g.adj[f], t)
		g.adj[t] = append(g.adj[t], f)
	}
	for i := range g.adj {
		slices.Sort(g.adj[i])
		g.adj[i] = slices.Compact(g.adj[i])
	}
	return g
}

func (g *memGraph) ChangeHead(context.Context) (int64, error) { return 0, nil }

func (g *memGraph) DuplicateSubjects(context.Context, duplicate.Request) ([]duplicate.Subject, error) {
	out := make([]duplicate.Subject, len(g.entities))
	for i, e := range g.entities {
		out[i] = duplicate.NewSubject(e)
	}
	return out, nil
}

func (g *memGraph) MissingDatasets(context.Context, []string) ([]string, error) { return nil, nil }

func (g *memGraph) DismissedPairs(context.Context, string) (map[duplicate.Pair]bool, error) {
	return nil, nil
}

// SharedNeighbours is what DuplicateNeighbours.cypher.tmpl reads: up to
// 20 entities related to both, by degree.
func (g *memGraph) SharedNeighbours(_ context.Context, ps []duplicate.Pair) (map[duplicate.Pair][]duplicate.SharedNeighbour, error) {
	out := map[duplicate.Pair][]duplicate.SharedNeighbour{}
	if g.noShared {
		return out, nil
	}
	for _, p := range ps {
		a, b := g.adj[g.index[p.A]], g.adj[g.index[p.B]]
		var shared []duplicate.SharedNeighbour
		for i, j := 0, 0; i < len(a) && j < len(b) && len(shared) < 20; {
			switch {
			case a[i] == b[j]:
				shared = append(shared, duplicate.SharedNeighbour{Degree: int64(len(g.adj[a[i]]))})
				i++
				j++
			case a[i] < b[j]:
				i++
			default:
				j++
			}
		}
		if len(shared) > 0 {
			out[p] = shared
		}
	}
	return out, nil
}

func (g *memGraph) EntitiesByID(_ context.Context, ids []string) (map[string]casegraph.Entity, error) {
	out := make(map[string]casegraph.Entity, len(ids))
	for _, id := range ids {
		out[id] = g.byID[id]
	}
	return out, nil
}
