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
	paths, sources, err := s.Paths(ctx, casegraph.PathRequest{From: id("geoffrey-nice"), To: id("qatar-government"), K: 3, Filter: f}, casegraph.PathRead{WithSources: true})
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

// TestPathsToItself: from an entity to itself Paths answers the path of
// no relations, the entity alone, with the sources it cites, whatever k;
// an entity the store does not hold is NOT_FOUND.
func TestPathsToItself(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	s := cyphertest.Store(t, cypher.Options{})
	ds, id := cyphertest.LoadSeed(t, s)
	for _, k := range []int{1, 3} {
		q := casegraph.PathRequest{From: id("geoffrey-nice"), To: id("geoffrey-nice"), K: k,
			Filter: casegraph.PathFilter{MaxDepth: casegraph.DefaultMaxDepth, Datasets: []string{ds}}}
		if err := q.Normalize(); err != nil {
			t.Fatal(err)
		}
		paths, sources, err := s.Paths(ctx, q, casegraph.PathRead{WithSources: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(paths) != 1 || paths[0].Len() != 0 || len(paths[0].Nodes) != 1 || paths[0].Nodes[0].ID != id("geoffrey-nice") {
			t.Fatalf("k %d: got %+v, want one path of no relations through geoffrey-nice", k, paths)
		}
		if len(sources) == 0 {
			t.Errorf("k %d: no sources came with the entity", k)
		}
	}
	q := casegraph.PathRequest{From: id("ghost"), To: id("ghost"), K: 1, Filter: casegraph.DefaultPathFilter()}
	if _, _, err := s.Paths(ctx, q, casegraph.PathRead{}); casegraph.ErrorCode(err) != casegraph.CodeNotFound {
		t.Errorf("a ghost to itself: got %v, want NOT_FOUND", err)
	}
}

// TestPathsShowTheSelectedProperties: a path read that names properties
// shows those (the same values as a read of them all) and no other.
func TestPathsShowTheSelectedProperties(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	s := cyphertest.Store(t, cypher.Options{})
	ds, id := cyphertest.LoadSeed(t, s)
	q := casegraph.PathRequest{From: id("geoffrey-nice"), To: id("qatar-government"), K: 3,
		Filter: casegraph.PathFilter{MaxDepth: casegraph.DefaultMaxDepth, Datasets: []string{ds}}}
	if err := q.Normalize(); err != nil {
		t.Fatal(err)
	}
	all, _, err := s.Paths(ctx, q, casegraph.PathRead{})
	if err != nil {
		t.Fatal(err)
	}
	some, _, err := s.Paths(ctx, q, casegraph.PathRead{Properties: &casegraph.Properties{Entity: []string{"name"}, Relation: []string{"role"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) == 0 || len(some) != len(all) {
		t.Fatalf("%d paths with every property, %d with some", len(all), len(some))
	}
	for i, p := range some {
		for j, n := range p.Nodes {
			want := all[i].Nodes[j]
			if n.ID != want.ID || n.Kind != want.Kind || n.Name != want.Name || n.Name == "" {
				t.Errorf("path %d node %d: %s %s %q, want %s %s %q", i, j, n.ID, n.Kind, n.Name, want.ID, want.Kind, want.Name)
			}
			if n.Dataset != "" || len(n.SourceIDs) != 0 || want.Dataset == "" {
				t.Errorf("path %d node %d: dataset %q and %d sources shown (of %q), want neither", i, j, n.Dataset, len(n.SourceIDs), want.Dataset)
			}
		}
		for j, r := range p.Relations {
			want := all[i].Relations[j]
			if r.ID != want.ID || r.Type != want.Type || r.FromID != want.FromID || r.ToID != want.ToID || r.Role != want.Role {
				t.Errorf("path %d relation %d: %+v, want %+v", i, j, r, want)
			}
			if len(r.SourceIDs) != 0 || len(want.SourceIDs) == 0 {
				t.Errorf("path %d relation %d: %d sources shown (of %d), want none", i, j, len(r.SourceIDs), len(want.SourceIDs))
			}
		}
	}
}

// TestNeighborhoodShowsTheSelectedProperties: a neighbourhood read that
// names properties shows those, as Paths does.
func TestNeighborhoodShowsTheSelectedProperties(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	s := cyphertest.Store(t, cypher.Options{})
	ds, id := cyphertest.LoadSeed(t, s)
	q := casegraph.NeighborhoodRequest{ID: id("geoffrey-nice"), Depth: 2, Limit: 50,
		Filter: casegraph.PathFilter{MaxDepth: 2, Datasets: []string{ds}}}
	if err := q.Normalize(); err != nil {
		t.Fatal(err)
	}
	all, _, err := s.Neighborhood(ctx, q, casegraph.PathRead{})
	if err != nil {
		t.Fatal(err)
	}
	some, _, err := s.Neighborhood(ctx, q, casegraph.PathRead{Properties: &casegraph.Properties{Entity: []string{"name"}, Relation: []string{}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Nodes) < 2 || len(some.Nodes) != len(all.Nodes) || len(some.Relations) != len(all.Relations) {
		t.Fatalf("%d nodes and %d relations with every property, %d and %d with some", len(all.Nodes), len(all.Relations), len(some.Nodes), len(some.Relations))
	}
	for i, n := range some.Nodes {
		if want := all.Nodes[i]; n.ID != want.ID || n.Name != want.Name || n.Dataset != "" || want.Dataset == "" {
			t.Errorf("node %d: %s %q dataset %q, want %s %q and no dataset", i, n.ID, n.Name, n.Dataset, want.ID, want.Name)
		}
	}
	for i, r := range some.Relations {
		if want := all.Relations[i]; r.ID != want.ID || r.FromID != want.FromID || r.ToID != want.ToID || len(r.SourceIDs) != 0 || len(want.SourceIDs) == 0 {
			t.Errorf("relation %d: %s %s->%s with %d sources, want %s %s->%s with none", i, r.ID, r.FromID, r.ToID, len(r.SourceIDs), want.ID, want.FromID, want.ToID)
		}
	}
}

// TestOtherPathReadsShowSelected: the other
// path reads that name properties show those, as Paths does.
func TestOtherPathReadsShowSelected(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	s := cyphertest.Store(t, cypher.Options{})
	ds, id := cyphertest.LoadSeed(t, s)
	filter := casegraph.PathFilter{MaxDepth: casegraph.DefaultMaxDepth, Datasets: []string{ds}}
	names := casegraph.PathRead{Properties: &casegraph.Properties{Entity: []string{"name"}, Relation: []string{}}}
	same := func(what string, got, want []casegraph.Entity) {
		t.Helper()
		if len(got) == 0 || len(got) != len(want) {
			t.Fatalf("%s: %d entities with a name, %d with every property", what, len(got), len(want))
		}
		for i, e := range got {
			if e.ID != want[i].ID || e.Name != want[i].Name || e.Dataset != "" || want[i].Dataset == "" {
				t.Errorf("%s %d: %s %q dataset %q, want %s %q and no dataset", what, i, e.ID, e.Name, e.Dataset, want[i].ID, want[i].Name)
			}
		}
	}

	cq := casegraph.ConnectionsRequest{IDs: []string{id("geoffrey-nice"), id("qatar-government")}, Filter: filter}
	if err := cq.Normalize(); err != nil {
		t.Fatal(err)
	}
	all, some := readTwice(t, names, func(r casegraph.PathRead) (casegraph.Subgraph, []casegraph.Source, error) {
		return s.Connections(ctx, cq, r)
	})
	same("connections", some.Nodes, all.Nodes)

	// Two of Geoffrey Nice's neighbours have him in common.
	around := casegraph.NeighborhoodRequest{ID: id("geoffrey-nice"), Depth: 1, Limit: 10, Filter: casegraph.PathFilter{MaxDepth: 1, Datasets: []string{ds}}}
	if err := around.Normalize(); err != nil {
		t.Fatal(err)
	}
	g, _, err := s.Neighborhood(ctx, around, names)
	if err != nil || len(g.Nodes) < 3 {
		t.Fatalf("Geoffrey Nice's neighbourhood: %d entities, %v", len(g.Nodes), err)
	}
	nq := casegraph.CommonNeighborsRequest{IDs: []string{g.Nodes[1].ID, g.Nodes[2].ID}, Limit: 10, Filter: filter}
	if err := nq.Normalize(); err != nil {
		t.Fatal(err)
	}
	allCommon, someCommon := readTwice(t, names, func(r casegraph.PathRead) (casegraph.CommonGround, []casegraph.Source, error) {
		return s.CommonNeighbors(ctx, nq, r)
	})
	same("the given", someCommon.Of, allCommon.Of)
	entities := func(c casegraph.CommonGround) []casegraph.Entity {
		var out []casegraph.Entity
		for _, n := range c.Neighbors {
			out = append(out, n.Entity)
		}
		return out
	}
	same("common neighbours", entities(someCommon), entities(allCommon))
}

// readTwice reads with every property, then with the ones read names.
func readTwice[T any](t *testing.T, names casegraph.PathRead, read func(casegraph.PathRead) (T, []casegraph.Source, error)) (all, some T) {
	t.Helper()
	all, _, err := read(casegraph.PathRead{})
	if err == nil {
		some, _, err = read(names)
	}
	if err != nil {
		t.Fatal(err)
	}
	return all, some
}
