package cypher_test

// Path searches on the seed.

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

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

// TestOpenPathsKeepTheGate: a filter that excludes nothing runs a path
// statement's open variant, which tests what the search expands against
// the gate alone. A reader of one dataset must not be led through
// another's entity or relation, by paths, a neighbourhood, connections
// or common neighbours, and each open variant must answer as the
// filtered one does (a filter excluding an id nobody has runs that).
func TestOpenPathsKeepTheGate(t *testing.T) {
	t.Parallel()
	s := cyphertest.Store(t, cypher.Options{})
	// A budget of minutes, not testContext's 30 s for the whole test: it
	// plans some thirty path statements (each read open and filtered) for
	// the first time, which a clean-clone run, its packages' tests
	// planning beside it under -race, took past 30 s once. What is checked
	// is what the reads answer, not how fast.
	op, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 3*time.Minute)
	t.Cleanup(cancel)
	a, b := cyphertest.Dataset(t), cyphertest.Dataset(t)
	srcA := casegraph.Source{ID: a + ":src", Title: "A", Dataset: a}
	srcB := casegraph.Source{ID: b + ":src", Title: "B", Dataset: b}
	entity := func(ds, name string, src casegraph.Source) casegraph.Entity {
		return casegraph.Entity{ID: ds + ":" + name, Kind: casegraph.KindPerson, Name: name, Dataset: ds, SourceIDs: []string{src.ID}}
	}
	rel := func(ds, name string, from, to casegraph.Entity, src casegraph.Source) casegraph.Relation {
		return casegraph.Relation{ID: ds + ":" + name, Type: "WORKED_WITH", FromID: from.ID, ToID: to.ID,
			Status: casegraph.StatusReported, Dataset: ds, SourceIDs: []string{src.ID}}
	}
	// In a: start - m1 - m2 - end (3 hops); two shortcuts of 2 hops: through
	// b's entity (start - bridge - end, relations of a) and through a
	// relation of b between two of a's entities (start - m2).
	start, m1, m2, end := entity(a, "start", srcA), entity(a, "m1", srcA), entity(a, "m2", srcA), entity(a, "end", srcA)
	bridge := entity(b, "bridge", srcB)
	if _, err := s.WriteBatch(op, []casegraph.Source{srcA, srcB}, []casegraph.Entity{start, m1, m2, end, bridge}, []casegraph.Relation{
		rel(a, "r1", start, m1, srcA), rel(a, "r2", m1, m2, srcA), rel(a, "r3", m2, end, srcA),
		rel(a, "s1", start, bridge, srcA), rel(a, "s2", bridge, end, srcA), rel(b, "s3", start, m2, srcB),
	}); err != nil {
		t.Fatal(err)
	}
	ids := func(p casegraph.Path) []string {
		var out []string
		for _, n := range p.Nodes {
			out = append(out, n.ID)
		}
		return out
	}
	// k = 3 lists every simple path of at most 4 hops, in a stable order;
	// k = 1, the shortest (the reader of both has two, so only its length
	// is certain).
	for _, c := range []struct {
		name     string
		caller   casegraph.Principal
		all      [][]string
		shortest int
		near     []string // within 2 hops of start, itself included
		common   []string // related to both start and end
	}{
		{"reader of a", casegraph.Anonymous([]string{a}), [][]string{{start.ID, m1.ID, m2.ID, end.ID}}, 3,
			[]string{start.ID, m1.ID, m2.ID}, nil},
		{"reader of both", casegraph.Anonymous([]string{a, b}), [][]string{
			{start.ID, bridge.ID, end.ID}, {start.ID, m2.ID, end.ID}, {start.ID, m1.ID, m2.ID, end.ID}}, 2,
			[]string{start.ID, m1.ID, m2.ID, bridge.ID, end.ID}, []string{bridge.ID, m2.ID}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := casegraph.WithPrincipal(op, c.caller)
			read := func(k int, exclude []string) [][]string {
				t.Helper()
				q := casegraph.PathRequest{From: start.ID, To: end.ID, K: k, Filter: casegraph.PathFilter{MaxDepth: 4, ExcludeIDs: exclude}}
				if err := q.Normalize(); err != nil {
					t.Fatal(err)
				}
				paths, _, err := s.Paths(ctx, q, casegraph.PathRead{})
				if err != nil {
					t.Fatal(err)
				}
				var out [][]string
				for _, p := range paths {
					out = append(out, ids(p))
				}
				return out
			}
			// The statement orders paths by length, then by their ids
			// (the datasets' names, and so the ids' order, are made up).
			slices.SortFunc(c.all, func(x, y []string) int {
				if d := len(x) - len(y); d != 0 {
					return d
				}
				return slices.Compare(x, y)
			})
			open, filtered := read(3, nil), read(3, []string{a + ":nobody"})
			if diff := cmp.Diff(c.all, open); diff != "" {
				t.Errorf("k 3, open (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(c.all, filtered); diff != "" {
				t.Errorf("k 3, filtered (-want +got):\n%s", diff)
			}
			for _, exclude := range [][]string{nil, {a + ":nobody"}} {
				got := read(1, exclude)
				if len(got) != 1 || len(got[0]) != c.shortest+1 {
					t.Errorf("k 1, excluding %v: got %v, want one path of %d hops", exclude, got, c.shortest)
				} else if c.shortest == 3 && !cmp.Equal(got[0], c.all[0]) {
					t.Errorf("k 1, excluding %v: got %v, want %v", exclude, got[0], c.all[0])
				}
			}
			// The other path reads, each open and filtered: the entities
			// they reach, sorted.
			for _, exclude := range [][]string{nil, {a + ":nobody"}} {
				f := casegraph.PathFilter{MaxDepth: 4, ExcludeIDs: exclude}
				nq := casegraph.NeighborhoodRequest{ID: start.ID, Depth: 2, Limit: 50, Filter: f}
				cq := casegraph.ConnectionsRequest{IDs: []string{start.ID, end.ID}, Filter: f}
				gq := casegraph.CommonNeighborsRequest{IDs: []string{start.ID, end.ID}, Limit: 10, Filter: f}
				for _, q := range []interface{ Normalize() error }{&nq, &cq, &gq} {
					if err := q.Normalize(); err != nil {
						t.Fatal(err)
					}
				}
				near, _, err := s.Neighborhood(ctx, nq, casegraph.PathRead{})
				if err != nil {
					t.Fatal(err)
				}
				joined, _, err := s.Connections(ctx, cq, casegraph.PathRead{})
				if err != nil {
					t.Fatal(err)
				}
				common, _, err := s.CommonNeighbors(ctx, gq, casegraph.PathRead{})
				if err != nil {
					t.Fatal(err)
				}
				var commonIDs []string
				for _, n := range common.Neighbors {
					commonIDs = append(commonIDs, n.Entity.ID)
				}
				for _, got := range []struct {
					read      string
					got, want []string
				}{
					{"neighborhood", entityIDs(near.Nodes), sorted(slices.Clone(c.near))},
					{"common neighbours", sorted(commonIDs), sorted(slices.Clone(c.common))},
				} {
					if diff := cmp.Diff(got.want, got.got); diff != "" {
						t.Errorf("%s, excluding %v (-want +got):\n%s", got.read, exclude, diff)
					}
				}
				if c.common == nil { // the reader of a: no relation of b
					for _, r := range append(near.Relations, joined.Relations...) {
						if r.Dataset != a {
							t.Errorf("excluding %v: the reader of %s was shown %s of %s", exclude, a, r.ID, r.Dataset)
						}
					}
				}
				// Connections: a shortest path between the two (the reader
				// of both has two of them, either will do).
				if joined := entityIDs(joined.Nodes); len(joined) != c.shortest+1 ||
					!slices.Contains(joined, start.ID) || !slices.Contains(joined, end.ID) ||
					(c.shortest == 3 && !cmp.Equal(joined, sorted(slices.Clone(c.all[0])))) {
					t.Errorf("connections, excluding %v: %v, want a path of %d hops", exclude, joined, c.shortest)
				}
			}
		})
	}
}

// entityIDs are the entities' ids, sorted.
func entityIDs(es []casegraph.Entity) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.ID)
	}
	return sorted(out)
}

// sorted is ids, sorted (in place).
func sorted(ids []string) []string {
	slices.Sort(ids)
	return ids
}
