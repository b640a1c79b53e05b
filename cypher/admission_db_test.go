package cypher_test

// Admission control against the database: heavy searches that do not
// starve reads, and readiness's probe write.

import (
	"context"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
)

// TestHeavySearchesDoNotStarveReads: with the heavy pool full, path and
// full-text searches are refused with BUSY, promptly and without a round
// trip, while reads by id and writes keep their own pool.
func TestHeavySearchesDoNotStarveReads(t *testing.T) {
	ds := cyphertest.Dataset(t)
	s := cyphertest.Store(t, cypher.Options{Admission: cypher.Admission{Statements: 4, Heavy: 1, Wait: 20 * time.Millisecond}})
	ctx := casegraph.AsOperator(context.Background())
	src := casegraph.Source{ID: ds + "-src", Title: "a source", Dataset: ds}
	if _, err := s.UpsertSource(ctx, src); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{ds + "-a", ds + "-b"} {
		e := casegraph.Entity{ID: id, Kind: casegraph.KindPerson, Dataset: ds, Name: "Admission " + id, SourceIDs: []string{src.ID}}
		if _, err := s.UpsertEntity(ctx, e, nil); err != nil {
			t.Fatal(err)
		}
	}

	release, err := s.HoldHeavy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	before := s.RoundTrips()
	heavyCalls := map[string]func() error{
		"search": func() error {
			_, err := s.Search(ctx, casegraph.SearchRequest{Words: []string{"admission"}, Filter: casegraph.SearchFilter{Datasets: []string{ds}}})
			return err
		},
		"shortest path": func() error {
			_, _, err := s.Paths(ctx, casegraph.PathRequest{From: ds + "-a", To: ds + "-b", K: 1, Filter: casegraph.PathFilter{MaxDepth: 4, Direction: casegraph.PathAny}}, casegraph.PathRead{})
			return err
		},
		"neighbourhood": func() error {
			_, _, err := s.Neighborhood(ctx, casegraph.NeighborhoodRequest{ID: ds + "-a", Depth: 2, Limit: 100, Filter: casegraph.PathFilter{MaxDepth: 2, Direction: casegraph.PathAny}}, casegraph.PathRead{})
			return err
		},
	}
	for name, call := range heavyCalls {
		if err := call(); casegraph.ErrorCode(err) != casegraph.CodeBusy {
			t.Errorf("%s with the heavy pool full: got %v, want BUSY", name, err)
		}
	}
	if got := s.RoundTrips() - before; got != 0 {
		t.Errorf("refused searches made %d round trips, want 0", got)
	}
	if got, err := s.EntitiesByID(ctx, []string{ds + "-a"}); err != nil || len(got) != 1 {
		t.Errorf("a read by id with the heavy pool full: got %d entities, %v", len(got), err)
	}
	if _, err := s.UpsertSource(ctx, src); err != nil {
		t.Errorf("a write with the heavy pool full: %v", err)
	}
	release()
	for name, call := range heavyCalls {
		if err := call(); err != nil {
			t.Errorf("%s once the pool has room: %v", name, err)
		}
	}
}

// TestProbeWrite: readiness's write commits, and touches nothing of any
// dataset.
func TestProbeWrite(t *testing.T) {
	s := cyphertest.Store(t, cypher.Options{})
	ctx := casegraph.AsOperator(context.Background())
	if err := s.ProbeWrite(ctx); err != nil {
		t.Fatal(err)
	}
	read := func() time.Time {
		res, err := neo4j.ExecuteQuery(ctx, cyphertest.Driver(t), "MATCH (p:ReadinessProbe) RETURN p.at AS at, count(*) AS n, p:Entity AS entity",
			nil, neo4j.EagerResultTransformer)
		if err != nil || len(res.Records) != 1 {
			t.Fatalf("the probe's node: %v, %d rows", err, len(res.Records))
		}
		if entity, _ := res.Records[0].Get("entity"); entity != false {
			t.Errorf("the probe's node is an entity")
		}
		at, _ := res.Records[0].Get("at")
		return at.(time.Time)
	}
	first := read()
	time.Sleep(10 * time.Millisecond)
	if err := s.ProbeWrite(ctx); err != nil {
		t.Fatal(err)
	}
	if second := read(); !second.After(first) {
		t.Errorf("a second probe did not write: %v then %v", first, second)
	}
}
