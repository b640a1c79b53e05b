package cypher_test

import (
	"context"
	"os"
	"runtime/metrics"
	"strconv"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/dataset"
	"github.com/casegraph/casegraph/duplicate"
)

// BenchmarkDuplicateCandidates measures duplicate suggestions on a dataset
// generated with planted duplicates, imported beforehand:
//
//	casegraph gen --entities 100000 --relations 500000 --dataset dups-100k --plant-duplicates 1000 --out dups.ndjson
//	casegraph import dups.ndjson
//	CASEGRAPH_BENCH_DUPLICATES=dups-100k go test ./cypher -run '^$' -bench DuplicateCandidates -benchtime 3x
//
// The planted pairs are generated again from the same options (seed 1;
// CASEGRAPH_BENCH_DUPLICATES_ENTITIES, _RELATIONS and _PLANTED when the
// dataset was generated with others). "run" computes the first 1,000
// suggestions as a request does (ns/op is one run, the time of any page)
// and reports their precision and recall against the planted pairs;
// "run" also reports ties (duplicate.Evaluate); "page" times a page
// served by the run of an earlier one;
// "blocking" times the Go part alone (blocking and name scores) on the
// generated entities' subjects (duplicate.Subject, as a run reads them),
// without the database.
// allocated is the bytes allocated (runtime/metrics, every goroutine's)
// so far: a run's is the difference across it, without what the
// benchmark itself allocates around it (a new store each time).
func allocated() uint64 {
	sample := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(sample)
	return sample[0].Value.Uint64()
}

func BenchmarkDuplicateCandidates(b *testing.B) {
	ds := os.Getenv("CASEGRAPH_BENCH_DUPLICATES")
	if ds == "" {
		b.Skip("set CASEGRAPH_BENCH_DUPLICATES to a dataset generated with --plant-duplicates (see the comment)")
	}
	num := func(name string, def int) int {
		if n, err := strconv.Atoi(os.Getenv("CASEGRAPH_BENCH_DUPLICATES_" + name)); err == nil {
			return n
		}
		return def
	}
	opts := dataset.GenOptions{Entities: num("ENTITIES", 100_000), Relations: num("RELATIONS", 500_000), Seed: 1,
		Dataset: ds, PlantDuplicates: num("PLANTED", 1000)}
	planted, err := dataset.PlantedDuplicates(opts)
	if err != nil {
		b.Fatal(err)
	}
	truth := duplicate.TruePairs(planted)
	top := max(len(planted), 1000) // the first 1,000 without planted pairs (a dataset generated without them)

	q := duplicate.Request{Dataset: ds, First: top, Limits: duplicate.DefaultLimits()}
	candidates := func(b *testing.B, s *cypher.Store) duplicate.Page {
		ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 2*time.Minute)
		defer cancel()
		page, err := s.DuplicateCandidates(ctx, q)
		if err != nil {
			b.Fatal(err)
		}
		return page
	}
	// "page": a page when the run of an earlier page stands (no change
	// since): the feed's head and the page's entities.
	b.Run("page", func(b *testing.B) {
		s := cyphertest.Store(b, cypher.Options{})
		candidates(b, s)
		for b.Loop() {
			candidates(b, s)
		}
	})
	b.Run("run", func(b *testing.B) {
		var page duplicate.Page
		var runBytes uint64
		for b.Loop() {
			// A store of its own: nothing kept from the last iteration.
			s := cyphertest.Store(b, cypher.Options{})
			before := allocated()
			page = candidates(b, s)
			runBytes += allocated() - before
		}
		// B/op counts the new store too; run-MB is the run's own.
		b.ReportMetric(float64(runBytes)/float64(b.N)/(1<<20), "run-MB")
		found := map[string]int{}
		for _, c := range page.Candidates {
			if i, ok := truth[c.Pair]; ok {
				found[dataset.PlantWay(i)]++
			} else if testing.Verbose() {
				b.Logf("not planted: %s %q, %s %q: %.3f %v", c.A, c.EntityA.Name, c.B, c.EntityB.Name, c.Score, c.Reasons)
			}
		}
		ev := duplicate.Evaluate(page.Candidates, truth)
		if len(planted) > 0 {
			b.ReportMetric(ev.Precision, "precision")
			b.ReportMetric(ev.Recall, "recall")
			b.ReportMetric(float64(ev.TiedAtTop), "tied-at-top")
		}
		b.ReportMetric(float64(page.Total), "candidates")
		b.Logf("first %d of %d candidates (%d pairs compared, %d blocks skipped, truncated %v): %d planted pairs of %d; "+
			"ties: %d of the first %d share a score, at most %d one score, %d at the cut; found by way: %v",
			len(page.Candidates), page.Total, page.Compared, page.SkippedBlocks, page.Truncated, ev.Hits, len(planted),
			ev.TiedAtTop, len(page.Candidates), ev.LargestTie, ev.AtCut, found)
	})

	b.Run("blocking", func(b *testing.B) {
		batch, err := dataset.GenerateBatch(opts)
		if err != nil {
			b.Fatal(err)
		}
		subjects := make([]duplicate.Subject, len(batch.Entities)) // as a run reads them
		for i, e := range batch.Entities {
			subjects[i] = duplicate.NewSubject(e)
		}
		var blocking duplicate.Blocking
		for b.Loop() {
			if blocking, err = duplicate.BlockSubjects(casegraph.AsOperator(context.Background()), subjects, duplicate.DefaultLimits(), nil); err != nil {
				b.Fatal(err)
			}
		}
		all := 0
		for _, c := range blocking.Candidates {
			if _, ok := truth[duplicate.OrderedPair(batch.Entities[c.I].ID, batch.Entities[c.J].ID)]; ok {
				all++
			}
		}
		if len(planted) > 0 {
			b.ReportMetric(float64(all)/float64(len(planted)), "recall-all")
		}
		b.Logf("%d entities: %d pairs compared, %d blocks skipped, %d candidates, %d of %d planted pairs among them",
			len(batch.Entities), blocking.Compared, blocking.SkippedBlocks, len(blocking.Candidates), all, len(planted))
	})
}
