package cypher_test

// Duplicate suggestions' runs: kept while the graph is unchanged, shared
// by requests that come together, and never shared across scopes.

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/duplicate"
)

// TestDuplicateRunKept: the next page of an unchanged graph comes from the
// run of the first (two statements: the feed's head and the page's
// entities, not a run of at least four), and a change starts a new run.
// Other tests write to the same database meanwhile: the check waits for a
// moment when nothing commits between the two pages (the feed's head the
// same before and after).
func TestDuplicateRunKept(t *testing.T) {
	t.Parallel()
	s := cyphertest.Store(t, cypher.Options{})
	ctx := casegraph.AsOperator(context.Background())
	ds := cyphertest.Dataset(t)
	src := casegraph.Source{ID: ds + ":src", Title: "A source", Dataset: ds}
	var people []casegraph.Entity
	for _, name := range []string{"John Robert Smith", "J. R. Smith", "Mohammed Haddad", "Muhammad Hadad"} {
		people = append(people, casegraph.Entity{ID: ds + ":" + name, Kind: casegraph.KindPerson, Name: name, Dataset: ds, SourceIDs: []string{src.ID}})
	}
	if _, err := s.WriteBatch(ctx, []casegraph.Source{src}, people, nil); err != nil {
		t.Fatal(err)
	}
	q := duplicate.Request{Dataset: ds, First: 1, Limits: duplicate.DefaultLimits()}
	first, err := s.DuplicateCandidates(ctx, q)
	if err != nil || len(first.Candidates) != 1 || !first.HasNext {
		t.Fatalf("first page: %+v, %v", first, err)
	}
	last := first.Candidates[0]
	q.After = &duplicate.Cursor{Score: last.Score, Pair: last.Pair}
	for deadline := time.Now().Add(20 * time.Second); ; {
		if time.Now().After(deadline) {
			t.Fatal("no moment without a commit for 20 s: the kept run was never checked")
		}
		before, err := s.ChangeHead(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.DuplicateCandidates(ctx, q); err != nil { // a run, if the head moved
			t.Fatal(err)
		}
		trips := s.RoundTrips()
		second, err := s.DuplicateCandidates(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		n := s.RoundTrips() - trips
		after, err := s.ChangeHead(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if before != after {
			continue // a commit came between: a new run was right
		}
		if n != 2 || len(second.Candidates) != 1 || second.Candidates[0].Pair == last.Pair {
			t.Errorf("second page of an unchanged graph: %d statements, %+v; want 2, the next pair", n, second.Candidates)
		}
		break
	}

	// A dismissal is a change: the pair is gone from the next run.
	admin := casegraph.WithPrincipal(ctx, casegraph.Principal{ID: "test:admin", Role: casegraph.RoleAdmin, Datasets: []string{casegraph.AllDatasets}})
	if _, err := s.DismissDuplicate(admin, last.Pair); err != nil {
		t.Fatal(err)
	}
	q.After = nil
	again, err := s.DuplicateCandidates(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if again.Total != first.Total-1 || (len(again.Candidates) > 0 && again.Candidates[0].Pair == last.Pair) {
		t.Errorf("after dismissing %v: %d candidates, first %+v; want %d without it", last.Pair, again.Total, again.Candidates, first.Total-1)
	}
}

// subjectReads counts the reads of a dataset's entities for duplicate
// suggestions: one a run.
type subjectReads struct{ n atomic.Int64 }

func (o *subjectReads) ObserveStatement(name string, _ time.Duration, _ error) {
	if name == "DuplicateSubjects" {
		o.n.Add(1)
	}
}

// TestDuplicateRunShared: 16 requests that ask at once for the list of a
// graph nobody changes meanwhile share one run. (Other tests write to the
// database: the check waits for 16 requests between which nothing
// committed.)
func TestDuplicateRunShared(t *testing.T) {
	t.Parallel()
	ctx := casegraph.AsOperator(context.Background())
	ds := cyphertest.Dataset(t)
	setup := cyphertest.Store(t, cypher.Options{})
	src := casegraph.Source{ID: ds + ":src", Title: "A source", Dataset: ds}
	var people []casegraph.Entity
	for _, name := range []string{"John Robert Smith", "J. R. Smith", "Mohammed Haddad", "Muhammad Hadad"} {
		people = append(people, casegraph.Entity{ID: ds + ":" + name, Kind: casegraph.KindPerson, Name: name, Dataset: ds, SourceIDs: []string{src.ID}})
	}
	if _, err := setup.WriteBatch(ctx, []casegraph.Source{src}, people, nil); err != nil {
		t.Fatal(err)
	}
	q := duplicate.Request{Dataset: ds, First: 10, Limits: duplicate.DefaultLimits()}
	for deadline := time.Now().Add(20 * time.Second); ; {
		if time.Now().After(deadline) {
			t.Fatal("no moment without a commit for 20 s: the shared run was never checked")
		}
		reads := &subjectReads{}
		s := cyphertest.Store(t, cypher.Options{Observer: reads}) // nothing kept yet
		before, err := s.ChangeHead(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if page, err := s.DuplicateCandidates(ctx, q); err != nil || page.Total != 2 {
					t.Errorf("%+v, %v; want 2 candidates", page, err)
				}
			}()
		}
		wg.Wait()
		after, err := s.ChangeHead(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if before != after {
			continue // a commit came between: more than one run was right
		}
		if n := reads.n.Load(); n != 1 {
			t.Errorf("16 requests at once: %d runs, want 1", n)
		}
		break
	}
}

// TestDuplicateRunsByScope: a run kept for a caller with clearance never
// serves one without: the protected person in the cleared caller's pairs
// is not in the other's, though nothing changed between the two.
func TestDuplicateRunsByScope(t *testing.T) {
	t.Parallel()
	s := cyphertest.Store(t, cypher.Options{})
	ctx := casegraph.AsOperator(context.Background())
	ds := cyphertest.Dataset(t)
	src := casegraph.Source{ID: ds + ":src", Title: "A source", Dataset: ds}
	witness := casegraph.Entity{ID: ds + ":witness", Kind: casegraph.KindPerson, Name: "Wqnine Zorbalova", Attributes: casegraph.Attributes{Protected: true}, Dataset: ds, SourceIDs: []string{src.ID}}
	double := casegraph.Entity{ID: ds + ":double", Kind: casegraph.KindPerson, Name: "W. Zorbalova", Dataset: ds, SourceIDs: []string{src.ID}}
	if _, err := s.WriteBatch(ctx, []casegraph.Source{src}, []casegraph.Entity{witness, double}, nil); err != nil {
		t.Fatal(err)
	}
	as := func(cleared bool) context.Context {
		return casegraph.WithPrincipal(ctx, casegraph.Principal{ID: fmt.Sprint("test:", cleared), Role: casegraph.RoleReader, Datasets: []string{ds}, Cleared: cleared})
	}
	q := duplicate.Request{Dataset: ds, First: 10, Limits: duplicate.DefaultLimits()}
	for deadline := time.Now().Add(20 * time.Second); ; {
		if time.Now().After(deadline) {
			t.Fatal("no moment without a commit for 20 s: the scopes of kept runs were never checked")
		}
		before, err := s.ChangeHead(ctx)
		if err != nil {
			t.Fatal(err)
		}
		seen, err := s.DuplicateCandidates(as(true), q)
		if err != nil || seen.Total != 1 {
			t.Fatalf("with clearance: %+v, %v; want the pair with the witness", seen, err)
		}
		unseen, err := s.DuplicateCandidates(as(false), q)
		if err != nil {
			t.Fatal(err)
		}
		after, err := s.ChangeHead(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if before != after {
			continue // a commit came between: the second ran again anyway
		}
		if unseen.Total != 0 {
			t.Errorf("without clearance, after a caller with it: %+v; want no pair (the witness is not there)", unseen.Candidates)
		}
		break
	}
}
