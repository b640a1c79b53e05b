package dataset_test

import (
	"cmp"
	"context"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/dataset"
)

// BenchmarkImport imports a generated graph (CASEGRAPH_BENCH_ENTITIES,
// default 100000, and five relations an entity) into a fresh dataset and
// reports rows a second and round trips, and logs where the time went:
// each statement's count and total time (from sending it to reading its
// last record; with -v). CASEGRAPH_BENCH_BATCH sets the batch size
// (default 10000) and CASEGRAPH_BENCH_WRITERS the writers (default 2).
// Run it once: -benchtime 1x.
func BenchmarkImport(b *testing.B) {
	entities := 100_000
	if v, err := strconv.Atoi(os.Getenv("CASEGRAPH_BENCH_ENTITIES")); err == nil && v > 0 {
		entities = v
	}
	opts := dataset.Options{BatchSize: 10000}
	if v, err := strconv.Atoi(os.Getenv("CASEGRAPH_BENCH_BATCH")); err == nil && v > 0 {
		opts.BatchSize = v
	}
	if v, err := strconv.Atoi(os.Getenv("CASEGRAPH_BENCH_WRITERS")); err == nil && v > 0 {
		opts.Writers = v
	}
	timings := &statementTimes{byName: map[string]*statementTime{}}
	store := cyphertest.Store(b, cypher.Options{Observer: timings})
	for b.Loop() {
		b.StopTimer()
		ds := cyphertest.Dataset(b)
		batch, err := dataset.GenerateBatch(dataset.GenOptions{Entities: entities, Relations: 5 * entities, Seed: 1, Dataset: ds})
		if err != nil {
			b.Fatal(err)
		}
		before := store.RoundTrips()
		timings.reset()
		b.StartTimer()
		start := time.Now()
		st, err := dataset.Import(casegraph.AsOperator(context.Background()), batch, store, opts)
		if err != nil {
			b.Fatal(err)
		}
		took := time.Since(start).Seconds()
		b.ReportMetric(float64(st.Entities+st.Relations+st.Sources)/took, "rows/s")
		b.ReportMetric(float64(st.Entities)/st.EntitiesTook.Seconds(), "entities/s")
		b.ReportMetric(float64(st.Relations)/st.RelationsTook.Seconds(), "relations/s")
		b.ReportMetric(st.CheckTook.Seconds(), "check-s")
		b.ReportMetric(float64(store.RoundTrips()-before), "roundtrips")
		timings.log(b)
	}
}

// statementTimes sums the round trips of each statement (a
// cypher.Observer).
type statementTimes struct {
	mu     sync.Mutex
	byName map[string]*statementTime
}

type statementTime struct {
	name  string
	count int
	took  time.Duration
}

func (t *statementTimes) ObserveStatement(name string, took time.Duration, _ error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	st := t.byName[name]
	if st == nil {
		st = &statementTime{name: name}
		t.byName[name] = st
	}
	st.count++
	st.took += took
}

func (t *statementTimes) reset() {
	t.mu.Lock()
	defer t.mu.Unlock()
	clear(t.byName)
}

// log lists the statements, the longest total first.
func (t *statementTimes) log(b *testing.B) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var all []*statementTime
	for _, st := range t.byName {
		all = append(all, st)
	}
	slices.SortFunc(all, func(x, y *statementTime) int { return cmp.Compare(y.took, x.took) })
	for _, st := range all {
		b.Logf("%-40s %6d round trips, %9.1f s in all, %8.1f ms each", st.name, st.count, st.took.Seconds(), float64(st.took.Milliseconds())/float64(st.count))
	}
}

// BenchmarkReadCheck reads the data file CASEGRAPH_BENCH_FILE (as
// casegraph gen writes it) and checks it against the graph, writing
// nothing, and reports the most heap in use while it ran (sampled every
// 100 ms). With CASEGRAPH_BENCH_HEAPPROFILE set it writes a heap profile
// there each time the heap in use passes its last high by a tenth: the
// last one written is the profile at (about) the peak. Run it once:
// -benchtime 1x. With CASEGRAPH_BENCH_READ=file it reads the file as
// casegraph import reads a file it is named (ReadFile: entities and relations left
// in the file, read again to be checked), else as it reads standard input
// or an import over HTTP (Read: every row held).
func BenchmarkReadCheck(b *testing.B) {
	file := os.Getenv("CASEGRAPH_BENCH_FILE")
	if file == "" {
		b.Skip("CASEGRAPH_BENCH_FILE names no data file")
	}
	store := cyphertest.Store(b, cypher.Options{})
	for b.Loop() {
		peak, stop := watchHeap(os.Getenv("CASEGRAPH_BENCH_HEAPPROFILE"))
		start := time.Now()
		var batch dataset.Batch
		var err error
		if os.Getenv("CASEGRAPH_BENCH_READ") == "file" {
			batch, err = dataset.ReadFile(file)
		} else {
			var f *os.File
			if f, err = os.Open(file); err != nil {
				b.Fatal(err)
			}
			batch, err = dataset.Read(f)
			f.Close()
		}
		if err != nil {
			b.Fatal(err)
		}
		read := time.Since(start)
		if err := dataset.Check(casegraph.AsOperator(context.Background()), batch, store, dataset.Options{}); err != nil {
			b.Fatal(err)
		}
		stop()
		b.ReportMetric(read.Seconds(), "read-s")
		b.ReportMetric(time.Since(start).Seconds()-read.Seconds(), "check-s")
		b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MB")
	}
}

// watchHeap samples the heap in use every 100 ms until stop is called,
// keeping its high in peak, and writes a heap profile to profile (when
// set) each time the high grows by a tenth.
func watchHeap(profile string) (peak *atomic.Uint64, stop func()) {
	peak = new(atomic.Uint64)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var written uint64
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			if profile != "" && ms.HeapInuse > written+written/10 {
				written = ms.HeapInuse
				if f, err := os.Create(profile); err == nil {
					_ = pprof.WriteHeapProfile(f)
					f.Close()
				}
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return peak, func() { close(done); wg.Wait() }
}
