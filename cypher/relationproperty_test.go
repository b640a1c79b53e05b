package cypher_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
)

// relationPropertyGraph is a small graph with a relation of each type that
// carries type-specific properties, each with them set, and one with a
// protected end.
type relationPropertyGraph struct {
	ds        string
	src       casegraph.Source
	entities  []casegraph.Entity
	relations []casegraph.Relation
}

func newRelationPropertyGraph(t *testing.T) relationPropertyGraph {
	ds := cyphertest.Dataset(t)
	g := relationPropertyGraph{ds: ds, src: casegraph.Source{ID: ds + "-src", Title: "A source", Dataset: ds}}
	entity := func(id string, k casegraph.Kind, protected bool) string {
		e := casegraph.Entity{ID: ds + "-" + id, Kind: k, Name: id, Dataset: ds, SourceIDs: []string{g.src.ID}}
		e.Protected = protected
		g.entities = append(g.entities, e)
		return e.ID
	}
	anna, ivan, hidden := entity("anna", casegraph.KindPerson, false), entity("ivan", casegraph.KindPerson, false),
		entity("hidden", casegraph.KindPerson, true)
	firm, unit := entity("firm", casegraph.KindOrganization, false), entity("unit", casegraph.KindOrganization, false)
	share, amount, none := 51.5, 2_500_000.0, 0.0
	rel := func(id string, typ casegraph.RelationType, from, to, start string, a casegraph.RelationAttributes) {
		g.relations = append(g.relations, casegraph.Relation{ID: ds + "-" + id, Type: typ, FromID: from, ToID: to,
			StartDate: start, Status: casegraph.StatusReported, Dataset: ds, SourceIDs: []string{g.src.ID}, RelationAttributes: a})
	}
	rel("owns", "OWNS", anna, firm, "2010", casegraph.RelationAttributes{Share: &share})
	rel("paid", "PAID", firm, ivan, "2012-03", casegraph.RelationAttributes{Amount: &amount, Currency: "USD"})
	rel("funds", "FUNDS", unit, firm, "2012", casegraph.RelationAttributes{Amount: &none})
	rel("family", "FAMILY_OF", anna, ivan, "", casegraph.RelationAttributes{Relationship: casegraph.FamilyParent})
	rel("commands", "COMMANDS", ivan, unit, "2011-05", casegraph.RelationAttributes{Post: "commander, 4th Division", Rank: "brigadier general"})
	rel("held", "HELD_POSITION", anna, unit, "2009", casegraph.RelationAttributes{Post: "chief of staff", Rank: "colonel"})
	rel("director", "DIRECTOR_OF", ivan, firm, "2013", casegraph.RelationAttributes{Post: "chair"})
	rel("hidden-commands", "COMMANDS", hidden, unit, "2014", casegraph.RelationAttributes{Post: "deputy commander", Rank: "major"})
	return g
}

// TestRelationPropertiesRoundTrip: every type-specific property, written
// by an import's batch and by link, reads back on every read of a
// relation (by id, an entity's relations, paths, the neighbourhood, the
// timeline, the export); writing the same again changes nothing; a link
// that leaves one out removes it.
func TestRelationPropertiesRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := slowContext(t)
	s := cyphertest.Store(t, cypher.Options{})
	g := newRelationPropertyGraph(t)
	for i, n := range []int{len(g.entities) + 1 + len(g.relations), 0} {
		changed, err := s.WriteBatch(ctx, []casegraph.Source{g.src}, g.entities, g.relations)
		if err != nil {
			t.Fatalf("WriteBatch: %v", err)
		}
		if changed != n {
			t.Errorf("write %d: changed = %d, want %d", i+1, changed, n)
		}
	}
	want := map[string]casegraph.Relation{}
	ids := make([]string, len(g.relations))
	for i, r := range g.relations {
		want[r.ID], ids[i] = r, r.ID
	}
	check := func(t *testing.T, where string, got []casegraph.Relation) {
		t.Helper()
		if len(got) == 0 {
			t.Errorf("%s: no relations", where)
		}
		for _, r := range got {
			w, ok := want[r.ID]
			if !ok {
				t.Errorf("%s: a relation %s never written", where, r.ID)
				continue
			}
			if diff := cmp.Diff(w.RelationAttributes, r.RelationAttributes); diff != "" {
				t.Errorf("%s: %s (-want +got):\n%s", where, r.ID, diff)
			}
		}
	}

	byID, err := s.RelationsByID(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	// Citations are another test's (citation_test.go): here, the properties.
	if diff := cmp.Diff(want, byID, cmpopts.EquateEmpty(), cmpopts.IgnoreFields(casegraph.Relation{}, "Citations")); diff != "" {
		t.Errorf("RelationsByID (-want +got):\n%s", diff)
	}
	anna, ivan := g.entities[0].ID, g.entities[1].ID
	pages, err := s.RelationsOf(ctx, []string{anna, ivan}, casegraph.RelationFilter{Direction: casegraph.DirectionBoth}, casegraph.Page{First: 20})
	if err != nil {
		t.Fatal(err)
	}
	check(t, "RelationsOf", append(pages[anna].Relations, pages[ivan].Relations...))
	q := casegraph.NewPathRequest(anna, ivan)
	if err := q.Normalize(); err != nil {
		t.Fatal(err)
	}
	paths, _, err := s.Paths(ctx, q, casegraph.PathRead{})
	if err != nil {
		t.Fatal(err)
	}
	var onPaths []casegraph.Relation
	for _, p := range paths {
		onPaths = append(onPaths, p.Relations...)
	}
	check(t, "Paths", onPaths)
	nq := casegraph.NewNeighborhoodRequest(anna)
	if err := nq.Normalize(); err != nil {
		t.Fatal(err)
	}
	sub, _, err := s.Neighborhood(ctx, nq, casegraph.PathRead{})
	if err != nil {
		t.Fatal(err)
	}
	check(t, "Neighborhood", sub.Relations)
	items, _, err := s.Timeline(ctx, casegraph.TimelineRequest{ID: ivan})
	if err != nil {
		t.Fatal(err)
	}
	var dated []casegraph.Relation
	for _, it := range items {
		if it.Relation != nil {
			dated = append(dated, *it.Relation)
		}
	}
	check(t, "Timeline", dated)
	var exported []casegraph.Relation
	if err := s.Export(ctx, []string{g.ds}, cypher.Exporter{
		Source:   func(casegraph.Source) error { return nil },
		Entity:   func(casegraph.Entity) error { return nil },
		Relation: func(r casegraph.Relation) error { exported = append(exported, r); return nil },
	}); err != nil {
		t.Fatal(err)
	}
	if len(exported) != len(g.relations) {
		t.Errorf("exported %d relations, want %d", len(exported), len(g.relations))
	}
	check(t, "Export", exported)

	// Link changes a share, then leaves the post out: the property goes.
	owns := g.relations[0]
	more := 75.0
	owns.Share = &more
	got, err := s.Link(ctx, owns)
	if err != nil {
		t.Fatal(err)
	}
	if got.Share == nil || *got.Share != 75 {
		t.Errorf("link's answer has share %v, want 75", got.Share)
	}
	director := g.relations[6]
	director.Post = ""
	if _, err := s.Link(ctx, director); err != nil {
		t.Fatal(err)
	}
	after, err := s.RelationsByID(ctx, []string{owns.ID, director.ID})
	if err != nil {
		t.Fatal(err)
	}
	if r := after[owns.ID]; r.Share == nil || *r.Share != 75 {
		t.Errorf("share after link: %v, want 75", r.Share)
	}
	if r := after[director.ID]; r.Post != "" {
		t.Errorf("post after a link without it: %q, want none", r.Post)
	}
	// The import of the first content writes them back, once.
	for i, n := range []int{2, 0} {
		changed, err := s.WriteBatch(ctx, nil, nil, g.relations)
		if err != nil {
			t.Fatal(err)
		}
		if changed != n {
			t.Errorf("import %d after the links: changed = %d, want %d", i+1, changed, n)
		}
	}
}

// TestRelationPropertiesRedacted: a relation with a protected end shows a
// caller without clearance none of its type-specific properties (nor its
// role or quote); a cleared caller sees them.
func TestRelationPropertiesRedacted(t *testing.T) {
	t.Parallel()
	ctx := slowContext(t)
	s := cyphertest.Store(t, cypher.Options{})
	g := newRelationPropertyGraph(t)
	if _, err := s.WriteBatch(ctx, []casegraph.Source{g.src}, g.entities, g.relations); err != nil {
		t.Fatal(err)
	}
	unit := g.entities[4].ID
	hiddenCommand := g.relations[len(g.relations)-1]
	for _, cleared := range []bool{false, true} {
		reader := casegraph.WithPrincipal(context.Background(), casegraph.Principal{ID: "test:reader", Role: casegraph.RoleReader,
			Datasets: []string{g.ds}, Cleared: cleared})
		reader, cancel := context.WithTimeout(reader, 2*time.Minute)
		defer cancel()
		pages, err := s.RelationsOf(reader, []string{unit}, casegraph.RelationFilter{Types: []casegraph.RelationType{"COMMANDS"},
			Direction: casegraph.DirectionIncoming}, casegraph.Page{First: 10})
		if err != nil {
			t.Fatal(err)
		}
		var sawHidden, sawOpen bool
		for _, r := range pages[unit].Relations {
			switch {
			case r.ID == hiddenCommand.ID:
				sawHidden = true
				if !cleared {
					t.Errorf("a caller without clearance sees %s by its id", r.ID)
				}
				if r.Post != hiddenCommand.Post || r.Rank != hiddenCommand.Rank {
					t.Errorf("a cleared caller sees post %q and rank %q, want %q and %q", r.Post, r.Rank, hiddenCommand.Post, hiddenCommand.Rank)
				}
			case r.FromID == g.entities[1].ID:
				sawOpen = true
				if r.Post == "" || r.Rank == "" {
					t.Errorf("the open command lost its post or rank: %+v", r.RelationAttributes)
				}
			default: // the hidden one, by its opaque id
				sawHidden = true
				if cleared {
					t.Errorf("a cleared caller sees %s by an opaque id", r.ID)
				}
				if r.RelationAttributes != (casegraph.RelationAttributes{}) {
					t.Errorf("a caller without clearance sees %+v of a relation with a protected end", r.RelationAttributes)
				}
			}
		}
		if !sawHidden || !sawOpen {
			t.Errorf("cleared %v: saw the hidden command %v, the open one %v", cleared, sawHidden, sawOpen)
		}
	}
}

// slowContext is testContext with the time these tests' many statements
// take on a busy machine.
func slowContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}
