package dataset_test

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/dataset"
)

// BenchmarkImport imports a generated graph (CASEGRAPH_BENCH_ENTITIES,
// default 100000, and five relations an entity) into a fresh dataset and
// reports rows a second and round trips. Run it once: -benchtime 1x.
func BenchmarkImport(b *testing.B) {
	entities := 100_000
	if v, err := strconv.Atoi(os.Getenv("CASEGRAPH_BENCH_ENTITIES")); err == nil && v > 0 {
		entities = v
	}
	store := cyphertest.Store(b, cypher.Options{})
	for b.Loop() {
		b.StopTimer()
		ds := cyphertest.Dataset(b)
		batch, err := dataset.GenerateBatch(dataset.GenOptions{Entities: entities, Relations: 5 * entities, Seed: 1, Dataset: ds})
		if err != nil {
			b.Fatal(err)
		}
		before := store.RoundTrips()
		b.StartTimer()
		start := time.Now()
		st, err := dataset.Import(casegraph.AsOperator(context.Background()), batch, store, dataset.Options{BatchSize: 10000})
		if err != nil {
			b.Fatal(err)
		}
		took := time.Since(start).Seconds()
		b.ReportMetric(float64(st.Entities+st.Relations+st.Sources)/took, "rows/s")
		b.ReportMetric(float64(st.Entities)/st.EntitiesTook.Seconds(), "entities/s")
		b.ReportMetric(float64(st.Relations)/st.RelationsTook.Seconds(), "relations/s")
		b.ReportMetric(st.CheckTook.Seconds(), "check-s")
		b.ReportMetric(float64(store.RoundTrips()-before), "roundtrips")
	}
}
