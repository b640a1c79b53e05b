package cypher_test

// Entities' degree: kept by every write, under concurrent links, and
// backfilled.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/dataset"
)

// degreeGraph is a small graph across two datasets: a hub organization with
// members, a place, and, in the other dataset, a person and a place linked
// to the hub both ways.
type degreeGraph struct {
	ds, other string
	src       casegraph.Source
	entities  []casegraph.Entity
	relations []casegraph.Relation
}

func newDegreeGraph(t *testing.T) degreeGraph {
	g := degreeGraph{ds: cyphertest.Dataset(t), other: cyphertest.Dataset(t)}
	g.src = casegraph.Source{ID: g.ds + ":src", Title: "A source", Dataset: g.ds}
	entity := func(ds, id string, kind casegraph.Kind) {
		g.entities = append(g.entities, casegraph.Entity{ID: g.id(id), Kind: kind, Name: id, Dataset: ds, SourceIDs: []string{g.src.ID}})
	}
	entity(g.ds, "hub", casegraph.KindOrganization)
	entity(g.ds, "p1", casegraph.KindPerson)
	entity(g.ds, "p2", casegraph.KindPerson)
	entity(g.ds, "p3", casegraph.KindPerson)
	entity(g.ds, "place", casegraph.KindPlace)
	entity(g.other, "q", casegraph.KindPerson)
	entity(g.other, "qplace", casegraph.KindPlace)
	for _, r := range []struct {
		ds, id, from string
		typ          casegraph.RelationType
		to           string
	}{
		{g.ds, "r1", "p1", "MEMBER_OF", "hub"},
		{g.ds, "r2", "p2", "MEMBER_OF", "hub"},
		{g.ds, "r3", "p3", "MEMBER_OF", "hub"},
		{g.ds, "r4", "p1", "EMPLOYED_BY", "hub"}, // a second relation between the same two
		{g.ds, "r5", "hub", "LOCATED_IN", "place"},
		{g.ds, "r6", "p2", "FUNDS", "p1"}, // between the two a merge folds together
		{g.other, "r7", "q", "MEMBER_OF", "hub"},
		{g.ds, "r8", "hub", "LOCATED_IN", "qplace"},
	} {
		g.relations = append(g.relations, casegraph.Relation{ID: g.id(r.id), Type: r.typ, FromID: g.id(r.from), ToID: g.id(r.to),
			Status: casegraph.StatusReported, Dataset: r.ds, SourceIDs: []string{g.src.ID}})
	}
	return g
}

func (g degreeGraph) id(s string) string { return g.ds + ":" + s }

// selfLoop writes r10, from the place to itself. The write gate refuses
// self-loops, but data written before it may hold them, and the
// statements must not miscount one (it counts once).
func (g degreeGraph) selfLoop(ctx context.Context, s *cypher.Store) error {
	return s.RunTestStatement(ctx, "SelfLoop", map[string]any{"entity": g.id("place"), "id": g.id("r10"), "dataset": g.ds, "source": g.src.ID})
}

// TestDegreeKeptByEveryWrite writes the graph in every way the service can,
// and after each write checks that every entity's degree is the number of
// its relations.
func TestDegreeKeptByEveryWrite(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	s := cyphertest.Store(t, cypher.Options{})
	g := newDegreeGraph(t)
	relation := func(id string) casegraph.Relation {
		for _, r := range g.relations {
			if r.ID == g.id(id) {
				return r
			}
		}
		t.Fatalf("no relation %s", id)
		return casegraph.Relation{}
	}
	changedRole := relation("r1")
	changedRole.Role = "chair"
	linked := casegraph.Relation{ID: g.id("r9"), Type: "EMPLOYED_BY", FromID: g.id("p2"), ToID: g.id("hub"),
		Status: casegraph.StatusReported, Dataset: g.ds, SourceIDs: []string{g.src.ID}}
	relinked := linked
	relinked.Role = "clerk"

	steps := []struct {
		name  string
		write func() error
	}{
		{"import entities", func() error {
			_, err := s.WriteBatch(ctx, []casegraph.Source{g.src}, g.entities, nil)
			return err
		}},
		// One batch, several rows on the hub and two between p1 and the hub.
		{"import relations", func() error {
			_, err := s.WriteBatch(ctx, nil, nil, g.relations)
			return err
		}},
		{"a self-loop, written before the gate", func() error { return g.selfLoop(ctx, s) }},
		{"import the same relations again", func() error {
			_, err := s.WriteBatch(ctx, nil, nil, g.relations)
			return err
		}},
		{"import a changed relation", func() error {
			_, err := s.WriteBatch(ctx, nil, nil, []casegraph.Relation{changedRole})
			return err
		}},
		{"link", func() error {
			_, err := s.Link(ctx, linked)
			return err
		}},
		{"link again with the same id", func() error {
			_, err := s.Link(ctx, relinked)
			return err
		}},
		{"unlink", func() error {
			_, err := s.Unlink(ctx, linked.ID)
			return err
		}},
		{"unlink a self-loop", func() error {
			_, err := s.Unlink(ctx, g.id("r10"))
			return err
		}},
		{"merge", func() error {
			_, err := s.MergeEntities(ctx, g.id("p1"), []string{g.id("p2")})
			return err
		}},
		{"delete an entity", func() error {
			_, err := s.DeleteEntity(ctx, g.id("p3"))
			return err
		}},
		{"delete the other dataset", func() error {
			_, err := s.DeleteDataset(ctx, g.other)
			return err
		}},
	}
	for _, step := range steps {
		if err := step.write(); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		t.Run(step.name, func(t *testing.T) {
			cyphertest.CheckDegrees(t, s, g.ds, g.other)
		})
	}
}

// TestDegreeUnderConcurrentLinks links and unlinks many entities to one hub
// at once: every increment and decrement must count.
func TestDegreeUnderConcurrentLinks(t *testing.T) {
	t.Parallel()
	// 192 writes on one hub, retried on deadlocks, beside the rest of the
	// suite on two cores: the deadline is generous, since the test is about
	// the counts, not the time (a cold first run alone takes ~20 s).
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 2*time.Minute)
	t.Cleanup(cancel)
	s := cyphertest.Store(t, cypher.Options{})
	ds := cyphertest.Dataset(t)
	src := casegraph.Source{ID: ds + ":src", Title: "A source", Dataset: ds}
	const spokes, rounds = 16, 4
	entities := []casegraph.Entity{{ID: ds + ":hub", Kind: casegraph.KindOrganization, Name: "Hub", Dataset: ds, SourceIDs: []string{src.ID}}}
	for i := range spokes {
		entities = append(entities, casegraph.Entity{ID: fmt.Sprintf("%s:p%d", ds, i), Kind: casegraph.KindPerson,
			Name: fmt.Sprintf("Person %d", i), Dataset: ds, SourceIDs: []string{src.ID}})
	}
	if _, err := s.WriteBatch(ctx, []casegraph.Source{src}, entities, nil); err != nil {
		t.Fatal(err)
	}

	var wg sync.WaitGroup
	errs := make(chan error, spokes)
	for i := range spokes {
		wg.Go(func() {
			errs <- churn(ctx, s, ds, i, rounds)
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	cyphertest.CheckDegrees(t, s, ds)
}

// churn links spoke i to the hub two ways each round and unlinks one of
// them, so that the hub ends with rounds relations from it.
func churn(ctx context.Context, s *cypher.Store, ds string, i, rounds int) error {
	for round := range rounds {
		for _, typ := range []casegraph.RelationType{"MEMBER_OF", "EMPLOYED_BY"} {
			r := casegraph.Relation{ID: fmt.Sprintf("%s:r%d-%d-%s", ds, i, round, typ), Type: typ,
				FromID: fmt.Sprintf("%s:p%d", ds, i), ToID: ds + ":hub", Status: casegraph.StatusReported, Dataset: ds,
				SourceIDs: []string{ds + ":src"}}
			if _, err := s.Link(ctx, r); err != nil {
				return fmt.Errorf("link %s: %w", r.ID, err)
			}
		}
		id := fmt.Sprintf("%s:r%d-%d-EMPLOYED_BY", ds, i, round)
		if _, err := s.Unlink(ctx, id); err != nil {
			return fmt.Errorf("unlink %s: %w", id, err)
		}
	}
	return nil
}

// writtenDegreeGraph writes newDegreeGraph into a store of the test's.
func writtenDegreeGraph(t *testing.T, ctx context.Context) (*cypher.Store, degreeGraph) {
	t.Helper()
	s := cyphertest.Store(t, cypher.Options{})
	g := newDegreeGraph(t)
	if _, err := s.WriteBatch(ctx, []casegraph.Source{g.src}, g.entities, g.relations); err != nil {
		t.Fatal(err)
	}
	return s, g
}

// TestBackfillDegree counts the relations of entities written before
// degrees were kept, and leaves them alone when run again.
func TestBackfillDegree(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	s, g := writtenDegreeGraph(t, ctx)
	if err := g.selfLoop(ctx, s); err != nil {
		t.Fatal(err)
	}
	if err := s.RunTestStatement(ctx, "ForgetDegrees", map[string]any{"dataset": g.ds}); err != nil {
		t.Fatal(err)
	}
	if wrong, err := s.WrongDegrees(ctx, []string{g.ds}); err != nil || len(wrong) != 5 {
		t.Fatalf("before the backfill: %d entities without a degree (err %v), want 5", len(wrong), err)
	}
	for i, want := range []int64{5, 0} {
		n, err := s.BackfillDegree(ctx, []string{g.ds})
		if err != nil {
			t.Fatal(err)
		}
		if n != want {
			t.Errorf("backfill %d counted %d entities, want %d", i+1, n, want)
		}
	}
	cyphertest.CheckDegrees(t, s, g.ds, g.other)
}

// TestEntitiesByDegree lists a dataset's entities by the degree every
// write keeps, most connected first and least, ties by id, page after
// page; an entity whose degree migrate has not counted yet (written by
// another tool) is not listed in that order until it is counted.
func TestEntitiesByDegree(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	s, g := writtenDegreeGraph(t, ctx)
	list := func(desc bool) []string {
		t.Helper()
		var out []string
		page := casegraph.Page{First: 2}
		for range 10 {
			q := casegraph.EntitiesRequest{Filter: casegraph.EntityFilter{Datasets: []string{g.ds}},
				Order: casegraph.EntityOrder{Field: casegraph.OrderByDegree, Desc: desc}, Page: page}
			got, keys, more, err := s.Entities(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range got {
				out = append(out, strings.TrimPrefix(e.ID, g.ds+":"))
			}
			if !more {
				return out
			}
			page.After, page.AfterKey = got[len(got)-1].ID, keys[len(keys)-1]
		}
		t.Fatal("no last page")
		return nil
	}
	// hub 7 (r1-r5, r7, r8), p1 3, p2 2, p3 1, place 1.
	if got, want := list(true), []string{"hub", "p1", "p2", "p3", "place"}; !slices.Equal(got, want) {
		t.Errorf("most connected first: %v, want %v", got, want)
	}
	if got, want := list(false), []string{"p3", "place", "p2", "p1", "hub"}; !slices.Equal(got, want) {
		t.Errorf("least connected first: %v, want %v", got, want)
	}
	if err := s.RunTestStatement(ctx, "ForgetDegrees", map[string]any{"dataset": g.ds}); err != nil {
		t.Fatal(err)
	}
	if got := list(true); len(got) != 0 {
		t.Errorf("entities without a degree listed by degree: %v", got)
	}
	if _, err := s.BackfillDegree(ctx, []string{g.ds}); err != nil {
		t.Fatal(err)
	}
	if got, want := list(true), []string{"hub", "p1", "p2", "p3", "place"}; !slices.Equal(got, want) {
		t.Errorf("after migrate counted them: %v, want %v", got, want)
	}
}

// TestEntitiesByDegreeOfSomeDatasets: a caller limited to some datasets
// (and a filter by datasets) reads each dataset's most connected apart
// and merges them (Entities' seek variant): every page, forward and
// backward, in the degree's order with ties by id, holds the entities it
// may read of those datasets and no other (none of a dataset it may not
// read, no protected person hidden from it), each once.
func TestEntitiesByDegreeOfSomeDatasets(t *testing.T) {
	t.Parallel()
	ctx := slowContext(t)
	s := cyphertest.Store(t, cypher.Options{})
	seed, _ := cyphertest.LoadSeed(t, s) // a protected person among them
	generated := func(seedValue uint64) string {
		ds := cyphertest.Dataset(t) // its own name, which the test's clean-up deletes
		b, err := dataset.GenerateBatch(dataset.GenOptions{Entities: 60, Relations: 200, Seed: seedValue, Dataset: ds})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := dataset.Import(ctx, b, s, dataset.Options{}); err != nil {
			t.Fatal(err)
		}
		return ds
	}
	gen, other := generated(3), generated(4)
	reader := casegraph.WithPrincipal(ctx, casegraph.Principal{ID: "some-datasets", Role: casegraph.RoleReader, Datasets: []string{seed, gen}})

	type item struct {
		id     string
		degree int
	}
	// pages lists every page of the order for the caller, forward from the
	// start or backward from the end, in the order's order.
	pages := func(ctx context.Context, f casegraph.EntityFilter, desc, backward bool) []item {
		t.Helper()
		var out []item
		page := casegraph.Page{First: 7, Backward: backward}
		for range 100 {
			got, keys, more, err := s.Entities(ctx, casegraph.EntitiesRequest{Filter: f, Order: casegraph.EntityOrder{Field: casegraph.OrderByDegree, Desc: desc}, Page: page})
			if err != nil {
				t.Fatal(err)
			}
			items := make([]item, len(got))
			for i, e := range got {
				var n int
				if _, err := fmt.Sscan(keys[i], &n); err != nil {
					t.Fatalf("key %q: %v", keys[i], err)
				}
				items[i] = item{e.ID, n}
			}
			if backward {
				out = append(items, out...)
			} else {
				out = append(out, items...)
			}
			if !more || len(got) == 0 {
				return out
			}
			edge := len(got) - 1
			if backward {
				edge = 0
			}
			page.After, page.AfterKey = got[edge].ID, keys[edge]
		}
		t.Fatal("no last page")
		return nil
	}
	// want: the caller's entities of the datasets, by id (an order that
	// reads no dataset apart).
	want := func(datasets ...string) []string {
		t.Helper()
		var out []string
		page := casegraph.Page{First: 100}
		for {
			got, _, more, err := s.Entities(reader, casegraph.EntitiesRequest{Filter: casegraph.EntityFilter{Datasets: datasets}, Order: casegraph.EntityOrder{Field: casegraph.OrderByID}, Page: page})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range got {
				out = append(out, e.ID)
			}
			if !more {
				return out
			}
			page.After = got[len(got)-1].ID
			page.AfterKey = page.After
		}
	}
	for name, c := range map[string]struct {
		f    casegraph.EntityFilter
		want []string
	}{
		"limited":              {casegraph.EntityFilter{}, want(seed, gen)},
		"limited and filtered": {casegraph.EntityFilter{Datasets: []string{gen, other}}, want(gen)},
	} {
		if len(c.want) < 20 {
			t.Fatalf("%s: %d entities: the test wants more than pages of 7", name, len(c.want))
		}
		for _, desc := range []bool{true, false} {
			forward := pages(reader, c.f, desc, false)
			ids := make([]string, len(forward))
			for i, it := range forward {
				ids[i] = it.id
				if i == 0 {
					continue
				}
				prev := forward[i-1]
				inOrder := prev.degree > it.degree || (prev.degree == it.degree && prev.id < it.id)
				if !desc {
					inOrder = prev.degree < it.degree || (prev.degree == it.degree && prev.id < it.id)
				}
				if !inOrder {
					t.Errorf("%s desc=%t: %v before %v", name, desc, prev, it)
				}
			}
			if got := slices.Sorted(slices.Values(ids)); !slices.Equal(got, slices.Sorted(slices.Values(c.want))) {
				t.Errorf("%s desc=%t: listed %v, want %v", name, desc, got, c.want)
			}
			if backward := pages(reader, c.f, desc, true); !slices.Equal(backward, forward) {
				t.Errorf("%s desc=%t: backward %v, forward %v", name, desc, backward, forward)
			}
		}
	}
	// The seed's protected person is in none of the lists (want reads by
	// id through the same gate): it is hidden from this uncleared caller.
	for _, id := range want(seed, gen) {
		if strings.HasPrefix(id, casegraph.OpaqueIDPrefix) || strings.HasSuffix(id, ":caesar") {
			t.Errorf("the protected person %s is listed to an uncleared caller", id)
		}
	}
}
