package cypher_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/dataset"
)

// TestDatasetTimelineSameAsScan: DatasetTimeline's statement, reading the
// relations in date order from their indexes, returns record for record
// what the scan of every relation it replaced returns
// (testdata/DatasetTimelineScan), on a generated graph made to have ties
// (many relations and events on the same dates), open-ended relations,
// relations and events with an end and no start, undated ones, protected people, and
// relations to entities of a dataset the caller may not read: for periods
// early, late and partial, pages of 1 to 500, and callers who may read
// everything, one dataset or both, cleared or not.
func TestDatasetTimelineSameAsScan(t *testing.T) {
	t.Parallel()
	s := cyphertest.Store(t, cypher.Options{})
	a, b := cyphertest.Dataset(t), cyphertest.Dataset(t)
	batch, err := dataset.GenerateBatch(dataset.GenOptions{Entities: 400, Relations: 3000, Seed: 11, Dataset: a})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(11, 12))
	ties := []string{"1995", "1995-06", "1995-06-15", "2003", "2003-01", "2003-01-01", "2010-12-31"}
	for i := range batch.Entities {
		e := &batch.Entities[i]
		switch {
		case e.Kind == casegraph.KindPerson && rng.IntN(4) == 0:
			e.Protected = true
		case e.Kind == casegraph.KindEvent && rng.IntN(3) == 0:
			e.StartDate, e.EndDate = ties[rng.IntN(len(ties))], ""
		case e.Kind == casegraph.KindEvent && rng.IntN(3) == 0:
			e.StartDate, e.EndDate = "", ties[rng.IntN(len(ties))] // an end, no start
		case e.Kind != casegraph.KindEvent && rng.IntN(10) == 0:
			e.Dataset = b // its relations' ends: another dataset's
		}
	}
	var endOnly, tied, undated int
	for i := range batch.Relations {
		r := &batch.Relations[i]
		switch rng.IntN(6) {
		case 0: // a tie, open-ended or not
			r.StartDate, r.EndDate = ties[rng.IntN(len(ties))], ""
			if rng.IntN(2) == 0 {
				r.EndDate = "2011"
			}
			tied++
		case 1: // an end, no start
			if r.EndDate == "" {
				r.EndDate = ties[rng.IntN(len(ties))]
			}
			r.StartDate = ""
			endOnly++
		case 2:
			r.StartDate, r.EndDate = "", ""
			undated++
		}
	}
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 15*time.Minute)
	defer cancel()
	if _, err := dataset.Import(ctx, batch, s, dataset.Options{BatchSize: 5000}); err != nil {
		t.Fatal(err)
	}
	scan, err := cypher.DatasetTimelineScan()
	if err != nil {
		t.Fatal(err)
	}
	indexed := s.Statement("DatasetTimeline")
	scopes := map[string]casegraph.Scope{
		"everything":           casegraph.FullScope,
		"a, not cleared":       {Limited: true, Datasets: []string{a}},
		"a and b, not cleared": {Limited: true, Datasets: []string{a, b}},
		"a and b, cleared":     {Limited: true, Datasets: []string{a, b}, Cleared: true},
	}
	periods := [][2]string{{"1990", "2024"}, {"1995", "1995"}, {"1995-06", "1995-06"}, {"1995-06-15", "2003-01"},
		{"2003-01-01", "2003-01-01"}, {"2010", "2011"}, {"2020", "2024"}, {"1990-01", "1990-02"}}
	// Each combination of caller, datasets and period once, with a page
	// size that turns with each comparison and shifts by one with each
	// caller and list, so that every period meets three of the sizes and
	// every caller and list all four: a quarter of the statements of every
	// combination with every size, which ran past five minutes under CI's
	// load.
	firsts := []int{1, 7, 200, 500}
	var compared, nonEmpty int
	for name, scope := range scopes {
		for _, datasets := range [][]string{{a}, {a, b}, {b, a, a}} {
			for _, p := range periods {
				{
					first := firsts[(compared+compared/len(periods))%len(firsts)]
					q := casegraph.DatasetTimelineRequest{Datasets: datasets, From: casegraph.MustPartialDate(p[0]), To: casegraph.MustPartialDate(p[1]), First: first}
					label := fmt.Sprintf("%s, datasets %d, %s to %s, first %d", name, len(datasets), p[0], p[1], first)
					want := timelineRecord(ctx, t, s, scan, scope, q, label)
					got := timelineRecord(ctx, t, s, indexed, scope, q, label)
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("%s: the indexed read differs from the scan:\n got %.600v\nwant %.600v", label, got, want)
					}
					compared++
					if len(want["relations"].([]any)) > 0 {
						nonEmpty++
					}
				}
			}
		}
	}
	if nonEmpty < compared/2 {
		t.Errorf("only %d of %d timelines compared have relations (ties %d, end only %d, undated %d)", nonEmpty, compared, tied, endOnly, undated)
	}
}

// TestDatasetTimelineBound: the started relations' reads stop at a bound
// that the first reads give (the $limitPlusOne-th of the first $probe
// starts of each type, when there are as many): on relations of types of
// three or more, whose starts are all different days, the first two of
// each type the earliest, so that a bound one date too early, or taken
// from $limit first starts, drops the page's last relation, the page of
// each size from 1 to all of them and one more is the scan's, for a
// caller who may read everything and one of the dataset alone.
func TestDatasetTimelineBound(t *testing.T) {
	t.Parallel()
	s := cyphertest.Store(t, cypher.Options{})
	a := cyphertest.Dataset(t)
	batch, err := dataset.GenerateBatch(dataset.GenOptions{Entities: 120, Relations: 80, Seed: 5, Dataset: a})
	if err != nil {
		t.Fatal(err)
	}
	count := map[casegraph.RelationType]int{}
	for _, r := range batch.Relations {
		count[r.Type]++
	}
	// The relations of types of three or more, each type's first two
	// first (rank 0), then the others (rank 1), dated in that order.
	var kept [2][]casegraph.Relation
	seen := map[casegraph.RelationType]int{}
	for _, r := range batch.Relations {
		if count[r.Type] < 3 {
			continue
		}
		rank := min(seen[r.Type]/2, 1)
		seen[r.Type]++
		kept[rank] = append(kept[rank], r)
	}
	if len(seen) < 8 {
		t.Fatalf("%d types of three relations or more, too few for the first reads to bound the others", len(seen))
	}
	batch.Relations = append(kept[0], kept[1]...)
	for i := range batch.Relations {
		r := &batch.Relations[i]
		r.StartDate, r.EndDate = fmt.Sprintf("2000-%02d-%02d", 1+i/28, 1+i%28), ""
	}
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 5*time.Minute)
	defer cancel()
	if _, err := dataset.Import(ctx, batch, s, dataset.Options{}); err != nil {
		t.Fatal(err)
	}
	scan, err := cypher.DatasetTimelineScan()
	if err != nil {
		t.Fatal(err)
	}
	indexed := s.Statement("DatasetTimeline")
	for _, scope := range []casegraph.Scope{casegraph.FullScope, {Limited: true, Datasets: []string{a}}} {
		for first := 1; first <= len(batch.Relations)+1; first++ {
			q := casegraph.DatasetTimelineRequest{Datasets: []string{a}, From: casegraph.MustPartialDate("1999"), To: casegraph.MustPartialDate("2001"), First: first}
			label := fmt.Sprintf("limited %v, first %d", scope.Limited, first)
			want := timelineRecord(ctx, t, s, scan, scope, q, label)
			got := timelineRecord(ctx, t, s, indexed, scope, q, label)
			if n := len(want["relations"].([]any)); n != min(first, len(batch.Relations)) {
				t.Fatalf("%s: the scan gives %d relations", label, n)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: the indexed read differs from the scan:\n got %.600v\nwant %.600v", label, got, want)
			}
		}
	}
}

// timelineRecord is the one record of a timeline statement's text for q,
// as scope's caller.
func timelineRecord(ctx context.Context, t *testing.T, s *cypher.Store, text string, scope casegraph.Scope, q casegraph.DatasetTimelineRequest, label string) map[string]any {
	t.Helper()
	recs, _, err := s.RunText(ctx, text, scope, cypher.DatasetTimelineParams(q), false)
	if err != nil || len(recs) != 1 {
		t.Fatalf("%s: %d records, %v", label, len(recs), err)
	}
	return recs[0].AsMap()
}

// BenchmarkDatasetTimelineStatements times DatasetTimeline's statement
// against the scan it replaced (testdata/DatasetTimelineScan), in turn on
// the same random one-year periods of an imported dataset, at the store's
// driver (no HTTP, no GraphQL): p50 and p95 of each after 5 warm-up
// periods, and the database hits of each (PROFILE) on the last period.
//
//	CASEGRAPH_BENCH_DATASET=bench-500k go test ./cypher -run '^$' -bench DatasetTimelineStatements -benchtime 60x
func BenchmarkDatasetTimelineStatements(b *testing.B) {
	ds := os.Getenv("CASEGRAPH_BENCH_DATASET")
	if ds == "" {
		b.Skip("set CASEGRAPH_BENCH_DATASET to an imported dataset (see BenchmarkExplorerQueries)")
	}
	s := cyphertest.Store(b, cypher.Options{})
	scan, err := cypher.DatasetTimelineScan()
	if err != nil {
		b.Fatal(err)
	}
	texts := map[string]string{"scan": scan, "indexed": s.Statement("DatasetTimeline")}
	names := []string{"scan", "indexed"}
	took := map[string][]time.Duration{}
	rng := rand.New(rand.NewPCG(3, 4))
	ctx := casegraph.AsOperator(context.Background())
	var q casegraph.DatasetTimelineRequest
	i := 0
	for b.Loop() {
		y := fmt.Sprint(1990 + rng.IntN(30))
		q = casegraph.NewDatasetTimelineRequest([]string{ds}, casegraph.MustPartialDate(y), casegraph.MustPartialDate(y))
		if i%2 == 1 {
			names[0], names[1] = names[1], names[0] // each goes first in turn
		}
		for _, name := range names {
			start := time.Now()
			if _, _, err := s.RunText(ctx, texts[name], casegraph.FullScope, cypher.DatasetTimelineParams(q), false); err != nil {
				b.Fatal(err)
			}
			if i >= 5 {
				took[name] = append(took[name], time.Since(start))
			}
		}
		i++
	}
	if len(took["scan"]) == 0 {
		b.Fatal("run more than 5 periods: -benchtime 60x")
	}
	var report strings.Builder
	for _, name := range []string{"scan", "indexed"} {
		p50, p95 := percentiles(took[name])
		b.ReportMetric(ms(p50), name+"-p50-ms")
		b.ReportMetric(ms(p95), name+"-p95-ms")
		_, hits, err := s.RunText(ctx, texts[name], casegraph.FullScope, cypher.DatasetTimelineParams(q), true)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(hits), name+"-dbhits")
		fmt.Fprintf(&report, "%s: p50 %v p95 %v, %d db hits on %s; ", name, p50, p95, hits, q.From)
	}
	b.Log(report.String())
}
