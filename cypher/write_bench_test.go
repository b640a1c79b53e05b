package cypher_test

// Benchmarks of writes: the price of an idempotency key, and of the change
// feed's order under concurrent upserts.

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
)

// BenchmarkUpsertEntity prices an idempotency key: a keyed write reads the
// key before it writes and stores it, its hash and its outcome on its
// change, under a unique index. Each iteration creates a new entity; a
// replay answers a keyed write again (one lookup, nothing written).
//
//	go test ./cypher -run '^$' -bench UpsertEntity -benchtime 2000x
func BenchmarkUpsertEntity(b *testing.B) {
	ctx := casegraph.AsOperator(context.Background())
	ds := cyphertest.Dataset(b)
	s := cyphertest.Store(b, cypher.Options{})
	src := casegraph.Source{ID: ds + "-src", Title: "A source", Dataset: ds}
	if _, err := s.WriteBatch(ctx, []casegraph.Source{src}, nil, nil); err != nil {
		b.Fatal(err)
	}
	entity := func(name string) casegraph.Entity {
		return casegraph.Entity{ID: ds + "-" + name, Kind: casegraph.KindPerson, Name: name, Dataset: ds, SourceIDs: []string{src.ID}}
	}
	keyed := func(key string) context.Context {
		return casegraph.WithWriteKey(ctx, casegraph.WriteKey{Key: key, Hash: "bench"})
	}
	runs := 0
	for _, bc := range []struct {
		name   string
		ctx    func(i int) context.Context
		entity func(i int) string
	}{
		{"unkeyed", func(int) context.Context { return ctx }, func(i int) string { return fmt.Sprintf("u%d", i) }},
		{"keyed", func(i int) context.Context { return keyed(fmt.Sprintf("%s-k%d", ds, i)) }, func(i int) string { return fmt.Sprintf("k%d", i) }},
		// The retry of one keyed write, answered from its change.
		{"replay", func(int) context.Context { return keyed(ds + "-replay") }, func(int) string { return "replay" }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			// Every run (-count) writes new entities under new keys.
			runs++
			trips := s.RoundTrips()
			n := 0
			for i := runs * 1_000_000; b.Loop(); i++ {
				if _, err := s.UpsertEntity(bc.ctx(i), entity(bc.entity(i)), nil); err != nil {
					b.Fatal(err)
				}
				n++
			}
			b.ReportMetric(float64(s.RoundTrips()-trips)/float64(n), "statements/op")
		})
	}
}

// BenchmarkConcurrentUpserts prices the change feed's order: every change
// takes the next number of one counter and holds its lock until it
// commits (RecordChange), so the commits of changes take turns. Writers
// of new entities, 2 (GOMAXPROCS on this machine) times the parallelism,
// write at once.
//
//	go test ./cypher -run '^$' -bench ConcurrentUpserts -benchtime 2000x
func BenchmarkConcurrentUpserts(b *testing.B) {
	ctx := casegraph.AsOperator(context.Background())
	ds := cyphertest.Dataset(b)
	s := cyphertest.Store(b, cypher.Options{})
	src := casegraph.Source{ID: ds + "-src", Title: "A source", Dataset: ds}
	if _, err := s.WriteBatch(ctx, []casegraph.Source{src}, nil, nil); err != nil {
		b.Fatal(err)
	}
	var n atomic.Int64
	for _, p := range []int{1, 4, 16} {
		b.Run(fmt.Sprintf("parallelism=%d", p), func(b *testing.B) {
			b.SetParallelism(p)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					name := fmt.Sprintf("c%d", n.Add(1))
					e := casegraph.Entity{ID: ds + "-" + name, Kind: casegraph.KindPerson, Name: name, Dataset: ds, SourceIDs: []string{src.ID}}
					if _, err := s.UpsertEntity(ctx, e, nil); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}
