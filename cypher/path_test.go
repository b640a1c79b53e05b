package cypher_test

// Path searches on the seed.

import (
	"testing"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
)

func TestPathsOnTheSeed(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	s := cyphertest.Store(t, cypher.Options{})
	ds, id := cyphertest.LoadSeed(t, s)
	f := casegraph.PathFilter{MaxDepth: casegraph.DefaultMaxDepth, Datasets: []string{ds}}
	if err := f.Normalize(); err != nil {
		t.Fatal(err)
	}
	paths, sources, err := s.Paths(ctx, casegraph.PathQuery{From: id("geoffrey-nice"), To: id("qatar-government"), K: 3, Filter: f}, casegraph.PathRead{WithSources: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 || paths[0].Len() > 3 {
		t.Fatalf("got %d paths, the first of length %d", len(paths), paths[0].Len())
	}
	var ids []string
	for _, n := range paths[0].Nodes {
		ids = append(ids, n.ID)
	}
	t.Logf("shortest: %v; %d sources", ids, len(sources))
	if len(sources) == 0 {
		t.Error("no sources came with the path")
	}
}
