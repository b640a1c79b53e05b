package cypher_test

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

// TestMigrateCitations: data written before citations (a quote and
// sourceIds) migrates into citations with nothing lost: every source
// cited, the quote on the first source's citation, grades from the
// sources' reliability; counted; and a second run changes nothing.
func TestMigrateCitations(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	ds := cyphertest.Dataset(t)
	s := cyphertest.Store(t, cypher.Options{})
	graded := casegraph.Source{ID: ds + ":graded", Title: "Graded", Publisher: "P", Dataset: ds, Reliability: casegraph.ReliabilityB}
	plain := casegraph.Source{ID: ds + ":plain", Title: "Plain", Dataset: ds}
	a := casegraph.Entity{ID: ds + ":a", Kind: casegraph.KindPerson, Name: "A", Dataset: ds, SourceIDs: []string{graded.ID}}
	b := casegraph.Entity{ID: ds + ":b", Kind: casegraph.KindOrganization, Name: "B", Dataset: ds, SourceIDs: []string{plain.ID}}
	if _, err := s.WriteBatch(ctx, []casegraph.Source{graded, plain}, []casegraph.Entity{a, b}, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.RunTestStatement(ctx, "OldShape", map[string]any{"a": a.ID, "b": b.ID, "dataset": ds, "graded": graded.ID, "plain": plain.ID}); err != nil {
		t.Fatal(err)
	}
	got, err := s.MigrateCitations(ctx, []string{ds})
	if err != nil {
		t.Fatal(err)
	}
	// b was written with citations already; a and the three relations not.
	if want := (cypher.CitationMigration{Relations: 3, Quoted: 2, QuotedOfSeveral: 1, Entities: 1}); got != want {
		t.Errorf("MigrateCitations = %+v, want %+v", got, want)
	}
	rels, err := s.RelationsByID(ctx, []string{ds + ":one", ds + ":two", ds + ":none"})
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string][]casegraph.Citation{
		ds + ":one":  {{SourceID: graded.ID, Quote: "one source", Credibility: 6, Grade: "B6"}},
		ds + ":two":  {{SourceID: plain.ID, Quote: "of the first", Credibility: 6, Grade: "F6"}, {SourceID: graded.ID, Credibility: 6, Grade: "B6"}},
		ds + ":none": {{SourceID: graded.ID, Credibility: 6, Grade: "B6"}, {SourceID: plain.ID, Credibility: 6, Grade: "F6"}},
	} {
		if diff := cmp.Diff(want, rels[id].Citations); diff != "" {
			t.Errorf("%s: citations (-want +got):\n%s", id, diff)
		}
		// What the migration stored is what a write grades: one rule.
		if diff := cmp.Diff(casegraph.GradeCitations(want, map[string]casegraph.Source{graded.ID: graded, plain.ID: plain}), rels[id].Citations); diff != "" {
			t.Errorf("%s: migrated grades differ from GradeCitations (-write +migrated):\n%s", id, diff)
		}
	}
	if q := rels[ds+":two"].Quote; q != "of the first" {
		t.Errorf("the old quote reads %q, want it kept", q)
	}
	e, err := s.Entity(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []casegraph.Citation{{SourceID: graded.ID, Credibility: 6, Grade: "B6"}, {SourceID: plain.ID, Credibility: 6, Grade: "F6"}}
	if diff := cmp.Diff(want, e.Citations); diff != "" {
		t.Errorf("entity citations (-want +got):\n%s", diff)
	}
	if again, err := s.MigrateCitations(ctx, []string{ds}); err != nil || again != (cypher.CitationMigration{}) {
		t.Errorf("MigrateCitations again: %+v, %v; want nothing", again, err)
	}
	// Importing the same relation the old way after the migration rewrites
	// nothing: its hash is the old shape's.
	r := casegraph.Relation{ID: ds + ":none", Type: "RELATED_TO", FromID: a.ID, ToID: b.ID, Status: casegraph.StatusReported,
		Dataset: ds, SourceIDs: []string{graded.ID, plain.ID}}
	if _, err := s.WriteBatch(ctx, nil, nil, []casegraph.Relation{r}); err != nil {
		t.Fatal(err)
	}
	cyphertest.CheckDegrees(t, s, ds)
}

// TestRegradeOnSourceChange: a relation's grades follow its sources:
// independent publishers confirm (credibility 1), a source's new
// reliability or publisher grades the claims citing it again.
func TestRegradeOnSourceChange(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	ds := cyphertest.Dataset(t)
	s := cyphertest.Store(t, cypher.Options{})
	x := casegraph.Source{ID: ds + ":x", Title: "X", Publisher: "Paper X", Dataset: ds, Reliability: casegraph.ReliabilityB}
	y := casegraph.Source{ID: ds + ":y", Title: "Y", Publisher: "Paper Y", Dataset: ds, Reliability: casegraph.ReliabilityC}
	a := casegraph.Entity{ID: ds + ":a", Kind: casegraph.KindPerson, Name: "A", Dataset: ds,
		Citations: []casegraph.Citation{{SourceID: x.ID, Credibility: 4}, {SourceID: y.ID, Credibility: 2}}}
	b := casegraph.Entity{ID: ds + ":b", Kind: casegraph.KindOrganization, Name: "B", Dataset: ds, SourceIDs: []string{x.ID}}
	r := casegraph.Relation{ID: ds + ":r", Type: "MEMBER_OF", FromID: a.ID, ToID: b.ID, Status: casegraph.StatusReported, Dataset: ds,
		Citations: []casegraph.Citation{{SourceID: x.ID, Quote: "x says", Credibility: 3}, {SourceID: y.ID, Quote: "y says", Credibility: 3}}}
	if _, err := s.WriteBatch(ctx, []casegraph.Source{x, y}, []casegraph.Entity{a, b}, []casegraph.Relation{r}); err != nil {
		t.Fatal(err)
	}
	grades := func() (entity, relation []string) {
		t.Helper()
		e, err := s.Entity(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		rels, err := s.RelationsByID(ctx, []string{r.ID})
		if err != nil {
			t.Fatal(err)
		}
		return casegraph.Grades(e.Citations), casegraph.Grades(rels[r.ID].Citations)
	}
	e, rel := grades()
	// The entity: x is confirmed by y (2), y not by x (4).
	if diff := cmp.Diff([]string{"B1", "C2"}, e); diff != "" {
		t.Errorf("entity grades (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"B1", "C1"}, rel); diff != "" {
		t.Errorf("relation grades (-want +got):\n%s", diff)
	}
	y.Publisher, y.Reliability = "paper x", casegraph.ReliabilityA // now one publisher
	if _, err := s.UpsertSource(ctx, y); err != nil {
		t.Fatal(err)
	}
	e, rel = grades()
	if diff := cmp.Diff([]string{"B4", "A2"}, e); diff != "" {
		t.Errorf("entity grades after y changed (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"B3", "A3"}, rel); diff != "" {
		t.Errorf("relation grades after y changed (-want +got):\n%s", diff)
	}
}

// TestRegradeAcrossDatasets: a source cited from two datasets (by an
// import's batch, a link and a merge) records both, so that a change of its
// reliability regrades the claims of both, found by their datasets; so
// does a claim an import adds after, and a source whose record predates
// citingDatasets once migrate's backfill has run.
func TestRegradeAcrossDatasets(t *testing.T) {
	t.Parallel()
	// Two minutes, not testContext's 30 seconds for the whole test: on a
	// fresh database, beside the package's other tests, its writes are the
	// first to plan the regrade's statements (CitingClaims' branch for
	// every relation type), and in CI once that alone ran the 30 seconds
	// out. The test is about what is regraded, not how fast.
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 2*time.Minute)
	defer cancel()
	ds1, ds2 := cyphertest.Dataset(t), cyphertest.Dataset(t)
	both := []string{ds1, ds2}
	slices.Sort(both)
	s := cyphertest.Store(t, cypher.Options{})
	if err := s.MarkCitingDatasetsBackfilled(ctx); err != nil {
		t.Fatal(err)
	}
	x := casegraph.Source{ID: ds1 + ":x", Title: "X", Publisher: "Paper X", Dataset: ds1, Reliability: casegraph.ReliabilityB}
	a := casegraph.Entity{ID: ds1 + ":a", Kind: casegraph.KindPerson, Name: "A", Dataset: ds1, SourceIDs: []string{x.ID}}
	b := casegraph.Entity{ID: ds2 + ":b", Kind: casegraph.KindOrganization, Name: "B", Dataset: ds2, SourceIDs: []string{x.ID}}
	c := casegraph.Entity{ID: ds2 + ":c", Kind: casegraph.KindOrganization, Name: "C", Dataset: ds2}
	d := casegraph.Entity{ID: ds2 + ":d", Kind: casegraph.KindOrganization, Name: "D", Dataset: ds2}
	if _, err := s.WriteBatch(ctx, []casegraph.Source{x}, []casegraph.Entity{a, b}, nil); err != nil {
		t.Fatal(err)
	}
	// c cites no source of ds1 until it takes d's by a merge; the link is
	// of ds2 and cites x.
	y := casegraph.Source{ID: ds2 + ":y", Title: "Y", Publisher: "Paper Y", Dataset: ds2}
	c.SourceIDs, d.SourceIDs = []string{y.ID}, []string{x.ID}
	if _, err := s.WriteBatch(ctx, []casegraph.Source{y}, []casegraph.Entity{c, d}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.MergeEntities(ctx, c.ID, []string{d.ID}); err != nil {
		t.Fatal(err)
	}
	r := casegraph.Relation{ID: ds2 + ":r", Type: "MEMBER_OF", FromID: a.ID, ToID: b.ID, Status: casegraph.StatusReported, Dataset: ds2,
		Citations: []casegraph.Citation{{SourceID: x.ID, Quote: "x says", Credibility: 3}}}
	if _, err := s.Link(ctx, r); err != nil {
		t.Fatal(err)
	}
	citing, err := s.CitingDatasets(ctx, x.ID)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(citing)
	if diff := cmp.Diff(both, citing); diff != "" {
		t.Errorf("datasets citing x (-want +got):\n%s", diff)
	}
	grades := func() map[string][]string {
		t.Helper()
		got := map[string][]string{}
		for _, id := range []string{a.ID, b.ID, c.ID} {
			e, err := s.Entity(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			got[id] = casegraph.Grades(e.Citations)
		}
		rels, err := s.RelationsByID(ctx, []string{r.ID})
		if err != nil {
			t.Fatal(err)
		}
		got[r.ID] = casegraph.Grades(rels[r.ID].Citations)
		return got
	}
	regraded := func(reliability casegraph.Reliability, want map[string][]string) {
		t.Helper()
		x.Reliability = reliability
		if _, err := s.UpsertSource(ctx, x); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, grades()); diff != "" {
			t.Errorf("grades after x became %s (-want +got):\n%s", reliability, diff)
		}
	}
	// c cites y (F, the default) and, from d, x.
	regraded(casegraph.ReliabilityD, map[string][]string{a.ID: {"D6"}, b.ID: {"D6"}, c.ID: {"F6", "D6"}, r.ID: {"D3"}})

	// A claim that an import adds after is regraded too.
	e := casegraph.Entity{ID: ds2 + ":e", Kind: casegraph.KindPerson, Name: "E", Dataset: ds2, SourceIDs: []string{x.ID}}
	if _, err := s.WriteBatch(ctx, nil, []casegraph.Entity{e}, nil); err != nil {
		t.Fatal(err)
	}
	x.Reliability = casegraph.ReliabilityA
	if _, err := s.UpsertSource(ctx, x); err != nil {
		t.Fatal(err)
	}
	got, err := s.Entity(ctx, e.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"A6"}, casegraph.Grades(got.Citations)); diff != "" {
		t.Errorf("grades of the claim imported after (-want +got):\n%s", diff)
	}

	// A source as written before sources recorded their citing datasets:
	// the backfill records them again.
	if err := s.ForgetCitingDatasets(ctx, x.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.BackfillCitingDatasets(ctx, []string{ds1, ds2}); err != nil {
		t.Fatal(err)
	}
	if citing, err = s.CitingDatasets(ctx, x.ID); err != nil {
		t.Fatal(err)
	}
	slices.Sort(citing)
	if diff := cmp.Diff(both, citing); diff != "" {
		t.Errorf("datasets citing x after the backfill (-want +got):\n%s", diff)
	}
	regraded(casegraph.ReliabilityC, map[string][]string{a.ID: {"C6"}, b.ID: {"C6"}, c.ID: {"F6", "C6"}, r.ID: {"C3"}})
}
