package cypher_test

import (
	"context"
	"fmt"
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
	// deleteSource looks for citations in the whole graph: on a database
	// that holds others' benchmark graphs (a million relationships) each
	// round takes seconds, so rounds are few; 37 of 40 failed without the lock.
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
