package cypher_test

// The compiled read (ReadEntities): it agrees with the loaders and brings
// the properties asked for.

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/dataset"
)

// TestReadEntitiesAgreesWithTheLoaders checks the compiled read against
// the statements the loaders run one level at a time (EntitiesByID,
// RelationsOf, SourcesByID) on a generated graph with hubs: every page, in
// every direction and type filter, after a cursor, with its total, and the
// ends and sources, must be what those return.
func TestReadEntitiesAgreesWithTheLoaders(t *testing.T) {
	t.Parallel()
	// The import of 1,800 records and the first plan of the compiled
	// statement (four windows, each with its ends' pages) took 31 s of a
	// 30 s context under make test's load: the test checks agreement, not
	// time (cold planning is measured in bench/, issue 28).
	ctx := slowContext(t)
	ds := cyphertest.Dataset(t)
	s := cyphertest.Store(t, cypher.Options{})
	b, err := dataset.GenerateBatch(dataset.GenOptions{Entities: 300, Relations: 1500, Seed: 11, Dataset: ds})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dataset.Import(ctx, b, s, dataset.Options{}); err != nil {
		t.Fatal(err)
	}
	ids := []string{b.Entities[0].ID, b.Entities[1].ID, b.Entities[17].ID, b.Entities[150].ID, ds + ":no-such-entity"}
	someType := b.Relations[0].Type

	windows := []casegraph.RelationsRead{
		{Filter: casegraph.RelationFilter{Direction: casegraph.DirectionBoth}, Page: casegraph.Page{First: 5}, Total: true, Sources: true},
		{Filter: casegraph.RelationFilter{Direction: casegraph.DirectionOutgoing}, Page: casegraph.Page{First: 3}},
		{Filter: casegraph.RelationFilter{Direction: casegraph.DirectionIncoming, Types: []casegraph.RelationType{someType}}, Page: casegraph.Page{First: 2}, Total: true},
	}
	inner := casegraph.RelationsRead{Filter: casegraph.RelationFilter{Direction: casegraph.DirectionBoth}, Page: casegraph.Page{First: 4}, Total: true}
	read := &casegraph.EntityRead{Sources: true}
	for _, w := range windows {
		w.Ends = &casegraph.EntityRead{Relations: []casegraph.RelationsRead{inner}}
		read.Relations = append(read.Relations, w)
	}
	// The second page of the first window, after the first page's last id.
	first, err := s.RelationsOf(ctx, ids[:1], windows[0].Filter, windows[0].Page)
	if err != nil {
		t.Fatal(err)
	}
	if p := first[ids[0]]; len(p.Relations) > 0 {
		next := windows[0]
		next.Page.After = p.Relations[len(p.Relations)-1].ID
		next.Ends = nil
		read.Relations = append(read.Relations, next)
	}

	before := s.RoundTrips()
	got, err := s.ReadEntities(ctx, ids, read)
	if err != nil {
		t.Fatal(err)
	}
	if trips := s.RoundTrips() - before; trips != 1 {
		t.Errorf("ReadEntities took %d round trips, want 1", trips)
	}

	wantRoots, err := s.EntitiesByID(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantRoots, got.Roots); diff != "" {
		t.Errorf("roots (-want +got):\n%s", diff)
	}
	if len(got.Roots) != 4 {
		t.Errorf("%d roots, want 4 (one id names nothing)", len(got.Roots))
	}

	entities := map[string]casegraph.Entity{}
	for _, e := range got.Entities {
		entities[e.ID] = e
	}
	sources := map[string]bool{}
	for _, src := range got.Sources {
		sources[src.ID] = true
	}
	checked := 0
	for _, p := range got.Pages {
		want, err := s.RelationsOf(ctx, []string{p.EntityID}, p.Filter, p.Page)
		if err != nil {
			t.Fatal(err)
		}
		w := want[p.EntityID]
		if !p.Total {
			w.Total = 0
		}
		if w.Relations == nil {
			w.Relations = []casegraph.Relation{}
		}
		if diff := cmp.Diff(w, p.Result); diff != "" {
			t.Errorf("page of %s %+v %+v (-want +got):\n%s", p.EntityID, p.Filter, p.Page, diff)
		}
		for _, r := range p.Result.Relations {
			other := r.ToID
			if other == p.EntityID {
				other = r.FromID
			}
			withEnds := slices.Contains(ids, p.EntityID) && p.Page.After == "" // the second page reads no ends
			if _, ok := entities[other]; !ok && withEnds {
				t.Errorf("relation %s: its other end %s was not read", r.ID, other)
			}
		}
		checked++
	}
	if checked < len(read.Relations)*4 {
		t.Errorf("checked %d pages, want at least %d", checked, len(read.Relations)*4)
	}
	for _, id := range ids[:4] {
		for _, src := range wantRoots[id].SourceIDs {
			if !sources[src] {
				t.Errorf("source %s of %s was not read", src, id)
			}
		}
	}
}

// A read brings only the properties asked for, besides ids, kinds, types
// and ends.
func TestReadEntitiesBringsTheAskedProperties(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	ds := cyphertest.Dataset(t)
	s := cyphertest.Store(t, cypher.Options{})
	src := casegraph.Source{ID: ds + ":s", Title: "A source", Dataset: ds}
	a := casegraph.Entity{ID: ds + ":a", Kind: casegraph.KindPerson, Name: "A", Aliases: []string{"Alpha"}, Description: "the first",
		Dataset: ds, SourceIDs: []string{src.ID}, Attributes: casegraph.Attributes{Nationality: "GB"}}
	b := casegraph.Entity{ID: ds + ":b", Kind: casegraph.KindPlace, Name: "B", Description: "the second", Dataset: ds, SourceIDs: []string{src.ID}}
	conf := 0.5
	r := casegraph.Relation{ID: ds + ":r", Type: "LOCATED_IN", FromID: a.ID, ToID: b.ID, Status: casegraph.StatusReported,
		Confidence: &conf, Quote: "there", Dataset: ds, SourceIDs: []string{src.ID}}
	if _, err := s.WriteBatch(ctx, []casegraph.Source{src}, []casegraph.Entity{a, b}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.WriteBatch(ctx, nil, nil, []casegraph.Relation{r}); err != nil {
		t.Fatal(err)
	}
	read := &casegraph.EntityRead{
		Relations: []casegraph.RelationsRead{{Filter: casegraph.RelationFilter{Direction: casegraph.DirectionBoth},
			Page: casegraph.Page{First: 5}, Ends: &casegraph.EntityRead{}}},
		Properties: &casegraph.Properties{Entity: []string{"name"}, Relation: []string{"confidence"}},
	}
	got, err := s.ReadEntities(ctx, []string{a.ID}, read)
	if err != nil {
		t.Fatal(err)
	}
	want := []casegraph.Entity{
		{ID: a.ID, Kind: casegraph.KindPerson, Name: "A", Version: 1},
		{ID: b.ID, Kind: casegraph.KindPlace, Name: "B", Version: 1},
	}
	if diff := cmp.Diff(want, got.Entities); diff != "" {
		t.Errorf("entities (-want +got):\n%s", diff)
	}
	wantRel := casegraph.Relation{ID: r.ID, Type: r.Type, FromID: a.ID, ToID: b.ID, Confidence: &conf}
	if len(got.Pages) != 1 || len(got.Pages[0].Result.Relations) != 1 {
		t.Fatalf("pages: %+v", got.Pages)
	}
	if diff := cmp.Diff(wantRel, got.Pages[0].Result.Relations[0]); diff != "" {
		t.Errorf("relation (-want +got):\n%s", diff)
	}

	read.Properties = &casegraph.Properties{Entity: []string{"name", "description; MATCH (n) DETACH DELETE n"}}
	if _, err := s.ReadEntities(ctx, []string{a.ID}, read); casegraph.ErrorCode(err) != casegraph.CodeInternal {
		t.Errorf("a property outside the vocabulary: err %v, want INTERNAL", err)
	}
}

// TestReadReadsOnlyThePropertiesAsked: the compiled read reads each
// property asked for once an entity, and none of the names planList pads
// the list with (a read of every padded name was half the hits of an
// entity's page of 20 relations with their ends). Asking for seven more
// properties costs seven hits more an entity read, not nothing more; a
// read that read the padded names costs the same for one and for eight.
func TestReadReadsOnlyThePropertiesAsked(t *testing.T) {
	t.Parallel()
	ctx := slowContext(t)
	s := cyphertest.Store(t, cypher.Options{})
	_, id := cyphertest.LoadSeed(t, s)
	root := id("caesar-report")
	hits := func(entityProps, relationProps []string) int64 {
		t.Helper()
		read := &casegraph.EntityRead{
			Relations:  []casegraph.RelationsRead{{Filter: casegraph.RelationFilter{Direction: casegraph.DirectionBoth}, Page: casegraph.Page{First: 20}, Ends: &casegraph.EntityRead{}}},
			Properties: &casegraph.Properties{Entity: entityProps, Relation: relationProps},
		}
		n, rows, err := s.ReadEntitiesDBHits(ctx, []string{root}, read)
		if err != nil {
			t.Fatal(err)
		}
		if rows != 1 {
			t.Fatalf("%d rows for one entity", rows)
		}
		return n
	}
	page, err := s.RelationsOf(ctx, []string{root}, casegraph.RelationFilter{Direction: casegraph.DirectionBoth}, casegraph.Page{First: 20})
	if err != nil {
		t.Fatal(err)
	}
	relations := len(page[root].Relations)
	if relations < 3 {
		t.Fatalf("the seed's %s has %d relations: the test wants a few", root, relations)
	}
	one := hits([]string{"name"}, nil)
	eight := hits([]string{"name", "aliases", "description", "nationality", "birthDate", "deathDate", "gender", "birthPlace"}, nil)
	t.Logf("%d relations: %d hits for one property, %d for eight", relations, one, eight)
	if want := int64(7 * (1 + relations)); eight-one != want {
		t.Errorf("seven more entity properties cost %d hits more, want %d (7 for each of %d entities)", eight-one, want, 1+relations)
	}
	withRole := hits([]string{"name"}, []string{"role"})
	if want := int64(relations); withRole-one != want {
		t.Errorf("one relation property cost %d hits more, want %d (one a relation)", withRole-one, want)
	}
}

// TestReadSeeksOnlyTheIdsAsked: the compiled read seeks the ids it is
// given, not the padding planList adds to them (each pad was seeked like
// an id that names nothing, three index seeks, on every entity read). An
// id that names nothing costs its seeks; were the pads seeked too, asking
// for one more such id would cost nothing more, since it takes a pad's
// place in the list.
func TestReadSeeksOnlyTheIdsAsked(t *testing.T) {
	t.Parallel()
	ctx := slowContext(t)
	s := cyphertest.Store(t, cypher.Options{})
	_, id := cyphertest.LoadSeed(t, s)
	read := &casegraph.EntityRead{Properties: &casegraph.Properties{Entity: []string{"name"}}}
	hits := func(ids ...string) (int64, int) {
		t.Helper()
		n, rows, err := s.ReadEntitiesDBHits(ctx, ids, read)
		if err != nil {
			t.Fatal(err)
		}
		return n, rows
	}
	known := id("caesar-report")
	one, rows := hits(known)
	if rows != 1 {
		t.Fatalf("%d rows for one entity", rows)
	}
	withMissing, rows := hits(known, id("no-such-entity"))
	if rows != 1 {
		t.Fatalf("%d rows for one entity and an id that names none", rows)
	}
	t.Logf("%d hits for one entity, %d with an id that names none beside it", one, withMissing)
	if withMissing <= one {
		t.Errorf("an id that names nothing cost %d hits more, want more than none: the padding is seeked as ids are", withMissing-one)
	}
}
