package cypher_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
)

// TestDeleteSourceRacesCitation: deleteSource and a write that cites the
// source, started together round after round, never leave a citation of a
// source that is gone: either the write commits first and the deletion is
// refused (CONFLICT), or the deletion does and the write is refused
// (BAD_USER_INPUT, no such source). Without the lock both took the source
// for unclaimed, and most rounds ended with both committed.
func TestDeleteSourceRacesCitation(t *testing.T) {
	t.Parallel()
	s := cyphertest.Store(t, cypher.Options{})
	ds := cyphertest.Dataset(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	ctx = casegraph.WithPrincipal(ctx, casegraph.Principal{ID: "test:editor", Role: casegraph.RoleEditor, Datasets: []string{ds}})
	keep := casegraph.Source{ID: ds + "-kept", Title: "Always there", Dataset: ds}
	if _, err := s.UpsertSource(ctx, keep); err != nil {
		t.Fatal(err)
	}
	org, err := s.UpsertEntity(ctx, casegraph.Entity{ID: ds + "-org", Kind: casegraph.KindOrganization, Name: "The firm", Dataset: ds, SourceIDs: []string{keep.ID}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// deleteSource looked for citations in the whole graph (it now reads
	// the datasets citing the source, once migrate's backfill has run):
	// on a database that holds others' benchmark graphs each round took
	// seconds, so rounds are few; 37 of 40 failed without the lock.
	const rounds = 20
	outcomes := map[string]int{}
	for i := range rounds {
		src := casegraph.Source{ID: fmt.Sprintf("%s-src-%d", ds, i), Title: "Soon gone", Dataset: ds}
		if _, err := s.UpsertSource(ctx, src); err != nil {
			t.Fatal(err)
		}
		person := casegraph.Entity{ID: fmt.Sprintf("%s-p-%d", ds, i), Kind: casegraph.KindPerson, Name: fmt.Sprint("Person ", i), Dataset: ds,
			SourceIDs: []string{keep.ID}}
		// Odd rounds race a relation's citation, even ones an entity's.
		cites := func() error {
			e := person
			e.SourceIDs = []string{keep.ID, src.ID}
			_, err := s.UpsertEntity(ctx, e, nil)
			return err
		}
		if i%2 == 1 {
			if _, err := s.UpsertEntity(ctx, person, nil); err != nil {
				t.Fatal(err)
			}
			cites = func() error {
				_, err := s.Link(ctx, casegraph.Relation{ID: fmt.Sprintf("%s-r-%d", ds, i), Type: "MEMBER_OF", FromID: person.ID, ToID: org.ID,
					Status: casegraph.StatusReported, SourceIDs: []string{src.ID}, Dataset: ds})
				return err
			}
		}
		var wg sync.WaitGroup
		start := make(chan struct{})
		var writeErr, deleteErr error
		wg.Go(func() { <-start; writeErr = cites() })
		wg.Go(func() { <-start; _, deleteErr = s.DeleteSource(ctx, src.ID) })
		close(start)
		wg.Wait()
		found, err := s.SourcesByID(casegraph.AsOperator(ctx), []string{src.ID})
		if err != nil {
			t.Fatal(err)
		}
		_, kept := found[src.ID]
		missing := !kept
		outcome := fmt.Sprintf("write %s, delete %s", codeOf(writeErr), codeOf(deleteErr))
		outcomes[outcome]++
		switch {
		case writeErr == nil && deleteErr == nil:
			t.Errorf("round %d: both committed: a citation of the deleted source %s", i, src.ID)
		case writeErr == nil && missing:
			t.Errorf("round %d: the write committed, and its source is gone", i)
		case writeErr != nil && casegraph.ErrorCode(writeErr) != casegraph.CodeBadUserInput,
			deleteErr != nil && casegraph.ErrorCode(deleteErr) != casegraph.CodeConflict:
			t.Errorf("round %d: %s (%v; %v)", i, outcome, writeErr, deleteErr)
		}
	}
	t.Logf("outcomes of %d rounds: %v", rounds, outcomes)
}

// codeOf names an error by its code, and no error "committed".
func codeOf(err error) string {
	if err == nil {
		return "committed"
	}
	return string(casegraph.ErrorCode(err))
}

// TestDeleteSourceAcrossDatasets: a source of one dataset cited only by a
// relation or an entity of another is not deleted (CONFLICT), however
// its citing datasets are read (the whole graph before migrate's
// backfill, those the source records after); once nothing cites it any
// more (the relation unlinked, the entity cites another source), it is,
// though its record still names the dataset that cited it.
func TestDeleteSourceAcrossDatasets(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 2*time.Minute)
	defer cancel()
	ds1, ds2 := cyphertest.Dataset(t), cyphertest.Dataset(t)
	s := cyphertest.Store(t, cypher.Options{})
	if err := s.MarkCitingDatasetsBackfilled(ctx); err != nil {
		t.Fatal(err)
	}
	x := casegraph.Source{ID: ds1 + ":x", Title: "X", Dataset: ds1}
	other := casegraph.Source{ID: ds2 + ":other", Title: "Other", Dataset: ds2}
	a := casegraph.Entity{ID: ds2 + ":a", Kind: casegraph.KindPerson, Name: "A", Dataset: ds2, SourceIDs: []string{other.ID}}
	b := casegraph.Entity{ID: ds2 + ":b", Kind: casegraph.KindOrganization, Name: "B", Dataset: ds2, SourceIDs: []string{x.ID}}
	if _, err := s.WriteBatch(ctx, []casegraph.Source{x, other}, []casegraph.Entity{a, b}, nil); err != nil {
		t.Fatal(err)
	}
	r := casegraph.Relation{ID: ds2 + ":r", Type: "MEMBER_OF", FromID: a.ID, ToID: b.ID, Status: casegraph.StatusReported, Dataset: ds2,
		SourceIDs: []string{x.ID}}
	if _, err := s.Link(ctx, r); err != nil {
		t.Fatal(err)
	}
	refused := func(why string) {
		t.Helper()
		if _, err := s.DeleteSource(ctx, x.ID); casegraph.ErrorCode(err) != casegraph.CodeConflict {
			t.Fatalf("%s: deleteSource answered %v, want CONFLICT", why, err)
		}
	}
	refused("cited by an entity and a relation of another dataset")
	b.SourceIDs = []string{other.ID}
	if _, err := s.UpsertEntity(ctx, b, nil); err != nil {
		t.Fatal(err)
	}
	refused("cited by a relation of another dataset")
	if _, err := s.Unlink(ctx, r.ID); err != nil {
		t.Fatal(err)
	}
	if citing, err := s.CitingDatasets(ctx, x.ID); err != nil || !slices.Contains(citing, ds2) {
		t.Fatalf("datasets citing x: %v (%v), want %s still recorded", citing, err, ds2)
	}
	if _, err := s.DeleteSource(ctx, x.ID); err != nil {
		t.Fatalf("deleteSource of a source nothing cites: %v", err)
	}
	found, err := s.SourcesByID(ctx, []string{x.ID})
	if err != nil {
		t.Fatal(err)
	}
	if _, kept := found[x.ID]; kept {
		t.Error("the source is still there")
	}
}
