package cypher_test

// Pages of an entity's relations sorted without reading their ends
// (relationOrder): the order, the cursor, redaction and the migration.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/dataset"
)

// smallHub is an organization with n members, every fifth protected.
func smallHub(ds string, n int) (dataset.Batch, string) {
	src := casegraph.Source{ID: ds + ":src", Title: "Register", Dataset: ds}
	hub := casegraph.Entity{ID: ds + ":hub", Kind: casegraph.KindOrganization, Name: "Ministry", Dataset: ds, SourceIDs: []string{src.ID}}
	b := dataset.Batch{Sources: []casegraph.Source{src}, Entities: []casegraph.Entity{hub}, SourceLines: []int{1}, EntityLines: []int{2}}
	for i := range n {
		p := casegraph.Entity{ID: fmt.Sprintf("%s:p%02d", ds, i), Kind: casegraph.KindPerson, Name: fmt.Sprintf("Member %d", i),
			Dataset: ds, SourceIDs: []string{src.ID}}
		p.Protected = i%5 == 2
		b.Entities, b.EntityLines = append(b.Entities, p), append(b.EntityLines, len(b.EntityLines)+2)
		b.Relations = append(b.Relations, member(ds, i, p.ID, hub.ID))
		b.RelationLines = append(b.RelationLines, 1000+i)
	}
	return b, hub.ID
}

// importedHub imports smallHub of n members into a dataset and a store of
// the test's own.
func importedHub(t *testing.T, ctx context.Context, n int) (*cypher.Store, string, dataset.Batch, string) {
	t.Helper()
	ds := cyphertest.Dataset(t)
	s := cyphertest.Store(t, cypher.Options{})
	b, hub := smallHub(ds, n)
	if _, err := dataset.Import(ctx, b, s, dataset.Options{}); err != nil {
		t.Fatal(err)
	}
	return s, ds, b, hub
}

func member(ds string, i int, from, to string) casegraph.Relation {
	return casegraph.Relation{ID: fmt.Sprintf("%s:r%02d", ds, i), Type: "MEMBER_OF", FromID: from, ToID: to,
		Status: casegraph.StatusReported, Dataset: ds, SourceIDs: []string{ds + ":src"}}
}

// pageThrough reads every page of the hub's relations, size at a time,
// by both statements (the compiled read and RelationsOf, which must
// agree), calling between after each page.
func pageThrough(t *testing.T, s *cypher.Store, ctx context.Context, hub string, size int, between func(page int)) []casegraph.Relation {
	t.Helper()
	return pagesAgree(t, s, ctx, hub, casegraph.RelationFilter{Direction: casegraph.DirectionBoth}, size, false, between)
}

// pagesAgree reads every page of the entity's relations that f lets
// through, size at a time, forward or backward, by the compiled read
// and by RelationsOf (the expansion), and fails the test where they
// differ; it calls between after each page, and returns the compiled
// read's relations in the order read.
func pagesAgree(t *testing.T, s *cypher.Store, ctx context.Context, id string, f casegraph.RelationFilter, size int, backward bool, between func(page int)) []casegraph.Relation {
	t.Helper()
	var out []casegraph.Relation
	after := ""
	for page := 0; ; page++ {
		if page > 10000 {
			t.Fatalf("%v backward=%t: no last page after %d pages", f, backward, page)
		}
		p := casegraph.Page{First: size, After: after, Backward: backward}
		res, err := s.ReadEntities(ctx, []string{id}, &casegraph.EntityRead{Relations: []casegraph.RelationsRead{{Filter: f, Page: p}}})
		if err != nil {
			t.Fatal(err)
		}
		of, err := s.RelationsOf(ctx, []string{id}, f, p)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Pages) == 0 {
			// An entity the caller may not read (or name by that id).
			if len(of[id].Relations) > 0 {
				t.Fatalf("%v: the compiled read finds no entity, RelationsOf %v", f, ids(of[id].Relations))
			}
			return out
		}
		got := res.Pages[0].Result
		if want := ids(of[id].Relations); !slices.Equal(want, ids(got.Relations)) {
			t.Fatalf("%v backward=%t page %d: the compiled read %v, RelationsOf %v", f, backward, page, ids(got.Relations), want)
		}
		out = append(out, got.Relations...)
		if !got.HasNext || len(got.Relations) == 0 {
			return out
		}
		if backward {
			after = got.Relations[0].ID
		} else {
			after = got.Relations[len(got.Relations)-1].ID
		}
		if between != nil {
			between(page)
		}
	}
}

func ids(rs []casegraph.Relation) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.ID
	}
	return out
}

// checkPages checks a caller's pages: in the order of the ids it sees,
// each once, a relation to a protected person shown to an uncleared
// caller by opaque ids only, and to a cleared one as it is.
func checkPages(t *testing.T, got []casegraph.Relation, cleared bool, protected map[string]bool, want int) {
	t.Helper()
	shown := ids(got)
	if !slices.IsSorted(shown) || len(slices.Compact(slices.Clone(shown))) != len(shown) {
		t.Errorf("cleared=%t: pages not in the order of the ids shown, or repeating one: %v", cleared, shown)
	}
	if len(got) != want {
		t.Errorf("cleared=%t: %d relations, want %d", cleared, len(got), want)
	}
	for _, r := range got {
		masked := strings.HasPrefix(r.ID, "protected-")
		if !cleared && masked != strings.HasPrefix(r.FromID, "protected-") {
			t.Errorf("uncleared: relation %s from %s: an opaque id for the relation exactly when its end is one", r.ID, r.FromID)
		}
		if !cleared && protected[r.FromID] {
			t.Errorf("uncleared: relation %s shows the protected person %s", r.ID, r.FromID)
		}
		if cleared && masked {
			t.Errorf("cleared: relation %s shown by its opaque id", r.ID)
		}
	}
}

// TestHubPagesByTheRelationAlone pages a hub's relations for an uncleared
// and a cleared caller: in the order of the ids each sees (as before the
// order was read from the relations alone), redacted as before; with
// relations added and removed between pages, none skipped or repeated;
// after people are protected and unprotected (the writes keep each
// relation's record, protectedEnd); and over relations written before
// the record was kept, then filled by the migration, idempotently.
func TestHubPagesByTheRelationAlone(t *testing.T) {
	t.Parallel()
	ctx := slowContext(t)
	s, ds, b, hub := importedHub(t, ctx, 30)
	protected := map[string]bool{}
	for _, e := range b.Entities {
		protected[e.ID] = e.Protected
	}
	callers := hubCallers()
	for _, cleared := range []bool{false, true} {
		name := map[bool]string{false: "uncleared", true: "cleared"}[cleared]
		checkPages(t, pageThrough(t, s, callers[name], hub, 4, nil), cleared, protected, 30)
	}

	// Between pages: relations added before and after the cursor, one
	// removed that was read and one not yet read.
	var added, removed []string
	got := pageThrough(t, s, callers["uncleared"], hub, 4, func(page int) {
		if page != 1 {
			return
		}
		for _, i := range []int{40, 41} {
			p := casegraph.Entity{ID: fmt.Sprintf("%s:p%02d", ds, i), Kind: casegraph.KindPerson, Name: "Newcomer", Dataset: ds, SourceIDs: []string{ds + ":src"}}
			if _, err := s.WriteBatch(ctx, nil, []casegraph.Entity{p}, []casegraph.Relation{member(ds, i, p.ID, hub)}); err != nil {
				t.Fatal(err)
			}
			added = append(added, member(ds, i, p.ID, hub).ID)
		}
		for _, i := range []int{0, 29} {
			if _, err := s.Unlink(ctx, member(ds, i, "", "").ID); err != nil {
				t.Fatal(err)
			}
			removed = append(removed, member(ds, i, "", "").ID)
		}
	})
	seen := map[string]int{}
	for _, r := range got {
		seen[r.ID]++
	}
	for i := range 30 {
		id := member(ds, i, "", "").ID
		if !protected[fmt.Sprintf("%s:p%02d", ds, i)] && id != removed[1] && seen[id] != 1 {
			t.Errorf("relation %s read %d times across pages, want once", id, seen[id])
		}
	}
	if seen[removed[1]] != 0 || seen[added[0]] != 1 || seen[added[1]] != 1 {
		t.Errorf("after the cursor: removed %s read %d times, added %v read %d and %d times, want 0, 1, 1",
			removed[1], seen[removed[1]], added, seen[added[0]], seen[added[1]])
	}

	// Protection changed both ways.
	var changed []casegraph.Entity
	for _, e := range b.Entities[1:5] {
		e.Protected = !e.Protected
		protected[e.ID] = e.Protected
		changed = append(changed, e)
	}
	if _, err := s.WriteBatch(ctx, nil, changed, nil); err != nil {
		t.Fatal(err)
	}
	for _, cleared := range []bool{false, true} {
		name := map[bool]string{false: "uncleared", true: "cleared"}[cleared]
		checkPages(t, pageThrough(t, s, callers[name], hub, 4, nil), cleared, protected, 30)
	}

	// Written before the record was kept: the ends decide, until the
	// migration records it.
	drv := cyphertest.Driver(t)
	if _, err := neo4j.ExecuteQuery(ctx, drv, "MATCH (e:Entity {dataset: $ds})-[r]->() REMOVE r.protectedEnd", map[string]any{"ds": ds},
		neo4j.EagerResultTransformer); err != nil {
		t.Fatal(err)
	}
	checkPages(t, pageThrough(t, s, callers["uncleared"], hub, 4, nil), false, protected, 30)
	for i, want := range []int64{30, 0} {
		n, err := s.BackfillProtectedEnds(ctx, []string{ds})
		if err != nil {
			t.Fatal(err)
		}
		if n != want {
			t.Errorf("BackfillProtectedEnds run %d recorded %d relations, want %d", i+1, n, want)
		}
	}
	checkPages(t, pageThrough(t, s, callers["uncleared"], hub, 4, nil), false, protected, 30)
}

// registryMismatches lists the relations of the dataset whose :RelationId
// registry node does not hold their ends' ids and page key (pageKey:
// redactedId when an end is protected, else the id), and registry nodes
// left over of relations that are gone.
func registryMismatches(t *testing.T, ctx context.Context, ds string) []string {
	t.Helper()
	res, err := neo4j.ExecuteQuery(ctx, cyphertest.Driver(t), `
MATCH (a:Entity)-[r]->(b:Entity) WHERE r.dataset = $ds
OPTIONAL MATCH (c:RelationId {id: r.id})
WITH r, a, b, c, CASE WHEN coalesce(a.protected, false) OR coalesce(b.protected, false) THEN r.redactedId ELSE r.id END AS key
WHERE c IS NULL OR c.fromId IS NULL OR c.fromId <> a.id OR c.toId IS NULL OR c.toId <> b.id
   OR c.pageKey IS NULL OR c.pageKey <> key OR c.type <> type(r) OR c.rel IS NULL OR c.rel <> elementId(r)
RETURN r.id + ': ' + coalesce(c.fromId, '-') + ' ' + coalesce(c.toId, '-') + ' ' + coalesce(c.pageKey, '-') + ' ' + coalesce(c.rel, '-') AS bad
UNION ALL
MATCH (c:RelationId) WHERE c.id STARTS WITH $ds + ':'
  AND NOT EXISTS { MATCH (:Entity {id: c.fromId})-[r]->(:Entity {id: c.toId}) WHERE r.id = c.id }
RETURN 'left over ' + c.id AS bad`, map[string]any{"ds": ds}, neo4j.EagerResultTransformer)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, rec := range res.Records {
		s, _ := rec.Get("bad")
		out = append(out, s.(string))
	}
	return out
}

// TestRelationRegistryEnds checks that every write keeps each relation's
// :RelationId registry node holding its ends' ids, its page key (the
// keys of a hub's page read in order from the registry) and its
// relationship's element id (rel: how a page row finds it): an import
// (CreateRelations), a link (UpsertRelation), people protected and
// unprotected (UpsertEntities), a merge that moves relations to the
// survivor (MergeEntity), an unlink and a deletion; and that the
// migration fills them on data written before they were kept, once.
func TestRelationRegistryEnds(t *testing.T) {
	t.Parallel()
	ctx := slowContext(t)
	s, ds, b, hub := importedHub(t, ctx, 12)
	check := func(step string) {
		t.Helper()
		if bad := registryMismatches(t, ctx, ds); len(bad) > 0 {
			t.Errorf("after %s, registry nodes not as their relations: %v", step, bad)
		}
	}
	check("the import")

	// A link, from a second hub to a protected member and to an open one.
	hub2 := casegraph.Entity{ID: ds + ":hub2", Kind: casegraph.KindOrganization, Name: "Second ministry", Dataset: ds, SourceIDs: []string{ds + ":src"}}
	if _, err := s.WriteBatch(ctx, nil, []casegraph.Entity{hub2}, nil); err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{2, 3} {
		r := member(ds, 50+i, b.Entities[1+i].ID, hub2.ID)
		if _, err := s.Link(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	check("links")

	// Protection changed both ways (members 2 and 7 were protected).
	var changed []casegraph.Entity
	for _, i := range []int{1, 2, 6, 7} {
		e := b.Entities[1+i]
		e.Protected = !e.Protected
		changed = append(changed, e)
	}
	if _, err := s.WriteBatch(ctx, nil, changed, nil); err != nil {
		t.Fatal(err)
	}
	check("protection changed")

	// A merge: the second hub's relations move to the first.
	if _, err := s.MergeEntities(ctx, hub, []string{hub2.ID}); err != nil {
		t.Fatal(err)
	}
	check("a merge")

	// An unlink and a deletion.
	if _, err := s.Unlink(ctx, member(ds, 4, "", "").ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DeleteEntity(ctx, b.Entities[1+5].ID); err != nil {
		t.Fatal(err)
	}
	check("an unlink and a deletion")

	// Written before the registry kept them: the migration fills them, once.
	if _, err := neo4j.ExecuteQuery(ctx, cyphertest.Driver(t), `
MATCH (:Entity {dataset: $ds})-[r]->() MATCH (c:RelationId {id: r.id}) REMOVE c.fromId, c.toId, c.pageKey, c.rel`,
		map[string]any{"ds": ds}, neo4j.EagerResultTransformer); err != nil {
		t.Fatal(err)
	}
	if bad := registryMismatches(t, ctx, ds); len(bad) == 0 {
		t.Fatal("the registry's ends were not removed")
	}
	for i, want := range []int64{12, 0} {
		n, err := s.BackfillRelationEnds(ctx, []string{ds})
		if err != nil {
			t.Fatal(err)
		}
		if n != want {
			t.Errorf("BackfillRelationEnds run %d recorded %d relations, want %d", i+1, n, want)
		}
	}
	check("the migration")
}

// TestHubPagesFromTheRegistry pages a hub (over DefaultHubDegree relations)
// read in order from the :RelationId registry (ReadEntities) against the
// expansion RelationsOf still runs, page by page: after a merge moved a second hub's relations
// (incoming and outgoing, of two types) to it, for both callers, each
// direction and a type, forward and backward.
func TestHubPagesFromTheRegistry(t *testing.T) {
	t.Parallel()
	ctx := slowContext(t)
	ds := cyphertest.Dataset(t)
	s := cyphertest.Store(t, cypher.Options{})
	b, hub := smallHub(ds, 520)
	hub2 := casegraph.Entity{ID: ds + ":hub2", Kind: casegraph.KindOrganization, Name: "Second ministry", Dataset: ds, SourceIDs: []string{ds + ":src"}}
	b.Entities, b.EntityLines = append(b.Entities, hub2), append(b.EntityLines, 500)
	for i := range 6 {
		r := member(ds, 1000+i, b.Entities[1+i].ID, hub2.ID)
		r.Type = "EMPLOYED_BY"
		b.Relations, b.RelationLines = append(b.Relations, r), append(b.RelationLines, 600+i)
	}
	org3 := casegraph.Entity{ID: ds + ":org3", Kind: casegraph.KindOrganization, Name: "Fund", Dataset: ds, SourceIDs: []string{ds + ":src"}}
	b.Entities, b.EntityLines = append(b.Entities, org3), append(b.EntityLines, 501)
	funds := member(ds, 1070, hub2.ID, org3.ID)
	funds.Type = "FUNDS"
	b.Relations, b.RelationLines = append(b.Relations, funds), append(b.RelationLines, 700)
	if _, err := dataset.Import(ctx, b, s, dataset.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.MergeEntities(ctx, hub, []string{hub2.ID}); err != nil {
		t.Fatal(err)
	}
	filters := map[string]casegraph.RelationFilter{
		"both":        {Direction: casegraph.DirectionBoth},
		"incoming":    {Direction: casegraph.DirectionIncoming},
		"outgoing":    {Direction: casegraph.DirectionOutgoing},
		"employed_by": {Direction: casegraph.DirectionBoth, Types: []casegraph.RelationType{"EMPLOYED_BY"}},
	}
	for name, ctx := range hubCallers() {
		for fname, f := range filters {
			for _, backward := range []bool{false, true} {
				seen := pagesAgree(t, s, ctx, hub, f, 40, backward, nil)
				want := map[string]int{"both": 527, "incoming": 526, "outgoing": 1, "employed_by": 6}[fname]
				if len(seen) != want {
					t.Errorf("%s %s backward=%t: %d relations over the pages, want %d", name, fname, backward, len(seen), want)
				}
			}
		}
	}
}

// TestHubReadAgreesWithTheExpansion reads every entity of a small graph
// of two datasets past a hub degree of 1 (so from the :RelationId
// registry, registrySide) against RelationsOf's expansion, page by page
// of one, in every direction, forward and backward: for readers of
// every dataset, cleared or not, and for readers of one dataset each, to
// whom the hub is partly readable (one relation of the other dataset
// joins two of the first's); a protected member among them, and a
// self-loop (data written before the write gate refused them), which
// both registry sides hold and the expansion reads once.
func TestHubReadAgreesWithTheExpansion(t *testing.T) {
	t.Parallel()
	ctx := slowContext(t)
	s := cyphertest.Store(t, cypher.Options{HubDegree: 1})
	g := newDegreeGraph(t)
	for i := range g.entities {
		g.entities[i].Protected = g.entities[i].ID == g.id("p3")
	}
	// A relation of the other dataset between two of the first's.
	g.relations = append(g.relations, casegraph.Relation{ID: g.id("r11"), Type: "EMPLOYED_BY", FromID: g.id("p2"), ToID: g.id("hub"),
		Status: casegraph.StatusReported, Dataset: g.other, SourceIDs: []string{g.src.ID}})
	if _, err := s.WriteBatch(ctx, []casegraph.Source{g.src}, g.entities, g.relations); err != nil {
		t.Fatal(err)
	}
	if err := g.selfLoop(ctx, s); err != nil {
		t.Fatal(err)
	}
	place := g.id("place")
	both := casegraph.RelationFilter{Direction: casegraph.DirectionBoth}
	read := &casegraph.EntityRead{Relations: []casegraph.RelationsRead{{Filter: both, Page: casegraph.Page{First: 10}}}}
	// The self-loop has no registry node before migrate registers it, and
	// the place (two relations) is read from the registry alone.
	res, err := s.ReadEntities(ctx, []string{place}, read)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(res.Pages[0].Result.Relations); slices.Contains(got, g.id("r10")) || len(got) != 1 {
		t.Fatalf("before the backfill, the place's page is %v: want its one registered relation, so read from the registry", got)
	}
	for _, backfill := range []func(context.Context, []string) (int64, error){s.BackfillRelationIDs, s.BackfillProtectedEnds, s.BackfillRelationEnds} {
		if _, err := backfill(ctx, []string{g.ds, g.other}); err != nil {
			t.Fatal(err)
		}
	}
	reader := func(cleared bool, datasets ...string) context.Context {
		return casegraph.WithPrincipal(ctx, casegraph.Principal{ID: "hub-reader", Role: casegraph.RoleReader, Datasets: datasets, Cleared: cleared})
	}
	callers := map[string]context.Context{
		"uncleared, every dataset": reader(false, casegraph.AllDatasets),
		"cleared, every dataset":   reader(true, casegraph.AllDatasets),
		"uncleared, its own":       reader(false, g.ds),
		"cleared, its own":         reader(true, g.ds),
		"the other's":              reader(false, g.other),
	}
	for name, ctx := range callers {
		for _, id := range []string{"hub", "place", "p1", "p2", "p3", "q"} {
			for _, dir := range []casegraph.Direction{casegraph.DirectionBoth, casegraph.DirectionIncoming, casegraph.DirectionOutgoing} {
				for _, backward := range []bool{false, true} {
					t.Run(fmt.Sprintf("%s/%s/%s/backward=%t", name, id, dir, backward), func(t *testing.T) {
						pagesAgree(t, s, ctx, g.id(id), casegraph.RelationFilter{Direction: dir}, 1, backward, nil)
					})
				}
			}
		}
	}
	got := ids(pagesAgree(t, s, callers["cleared, every dataset"], place, both, 10, false, nil))
	if !slices.Equal(got, []string{g.id("r10"), g.id("r5")}) {
		t.Errorf("the place's relations: %v, want its self-loop once and the hub's r5", got)
	}

	// A row's relationship found by its element id (rel) or, where the
	// row has none or one that names another relationship (a store
	// copied by a tool that renumbers them), between the row's two ends:
	// the same pages either way.
	for _, state := range []struct{ name, stmt string }{
		{"stale", `MATCH (c:RelationId) WHERE c.id STARTS WITH $ds + ':' WITH collect(c) AS cs
UNWIND range(0, size(cs) - 1) AS i WITH cs[i] AS c, cs[(i + 1) % size(cs)].rel AS other SET c.rel = other`},
		{"missing", `MATCH (c:RelationId) WHERE c.id STARTS WITH $ds + ':' REMOVE c.rel`},
	} {
		if _, err := neo4j.ExecuteQuery(ctx, cyphertest.Driver(t), state.stmt, map[string]any{"ds": g.ds}, neo4j.EagerResultTransformer); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"uncleared, every dataset", "uncleared, its own"} {
			for _, id := range []string{"hub", "place", "p3"} {
				for _, dir := range []casegraph.Direction{casegraph.DirectionBoth, casegraph.DirectionIncoming, casegraph.DirectionOutgoing} {
					t.Run(fmt.Sprintf("rel %s/%s/%s/%s", state.name, name, id, dir), func(t *testing.T) {
						pagesAgree(t, s, callers[name], g.id(id), casegraph.RelationFilter{Direction: dir}, 1, false, nil)
					})
				}
			}
		}
	}
}
