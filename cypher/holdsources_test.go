package cypher_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
)

// midWrite is a cypher.Observer that runs do, once, in the goroutine of
// the write that has just run the statement named after: between that
// statement and the write's next one, with the write's transaction open.
type midWrite struct {
	after string
	fired atomic.Bool
	do    func()
}

func (m *midWrite) ObserveStatement(name string, _ time.Duration, _ error) {
	if name == m.after && m.fired.CompareAndSwap(false, true) {
		m.do()
	}
}

// TestBatchHoldsItsSourcesLast: a batch of relations locks the sources it
// cites only with its last statement (HoldSources), so a deletion or a
// change of one of them can commit while the batch is being written, after
// its gate judged it. The batch must see it there: a source deleted
// refuses the batch (its gate, judging again, finds the citation of a
// source that is gone), and a source whose reliability changed has the
// batch's citations graded by the new one. Without the comparison the
// first batch commits citations of a deleted source, and the second
// grades them by a reliability the source no longer has.
func TestBatchHoldsItsSourcesLast(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 2*time.Minute)
	defer cancel()
	ds := cyphertest.Dataset(t)
	hook := &midWrite{after: "CreateRelations"}
	s := cyphertest.Store(t, cypher.Options{Observer: hook})
	kept := casegraph.Source{ID: ds + ":kept", Title: "Kept", Dataset: ds, Reliability: casegraph.ReliabilityB}
	gone := casegraph.Source{ID: ds + ":gone", Title: "Gone", Dataset: ds, Reliability: casegraph.ReliabilityB}
	a := casegraph.Entity{ID: ds + ":a", Kind: casegraph.KindPerson, Name: "A", Dataset: ds}
	b := casegraph.Entity{ID: ds + ":b", Kind: casegraph.KindOrganization, Name: "B", Dataset: ds}
	c := casegraph.Entity{ID: ds + ":c", Kind: casegraph.KindPerson, Name: "C", Dataset: ds}
	d := casegraph.Entity{ID: ds + ":d", Kind: casegraph.KindOrganization, Name: "D", Dataset: ds}
	if _, err := s.WriteBatch(ctx, []casegraph.Source{kept, gone}, []casegraph.Entity{a, b, c, d}, nil); err != nil {
		t.Fatal(err)
	}
	// Each case has ends of its own: what one leaves (were it wrong) is
	// not what the other's concurrent write waits for.
	relation := func(id string, from, to casegraph.Entity, cites ...string) casegraph.Relation {
		return casegraph.Relation{ID: ds + ":" + id, Type: "MEMBER_OF", FromID: from.ID, ToID: to.ID,
			Status: casegraph.StatusReported, Dataset: ds, SourceIDs: cites}
	}

	t.Run("a source deleted", func(t *testing.T) {
		var deleted error
		hook.fired.Store(false)
		hook.do = func() { _, deleted = s.DeleteSource(ctx, gone.ID) }
		_, err := s.ApplyWrites(ctx, casegraph.Writes{Dataset: ds, Relations: []casegraph.Relation{relation("r1", a, b, kept.ID, gone.ID)}})
		if !hook.fired.Load() || deleted != nil {
			t.Fatalf("the deletion beside the batch: ran %v, %v", hook.fired.Load(), deleted)
		}
		if casegraph.ErrorCode(err) != casegraph.CodeBadUserInput {
			t.Fatalf("the batch citing the deleted source answered %v, want BAD_USER_INPUT", err)
		}
		found, err := s.RelationsByID(ctx, []string{ds + ":r1"})
		if err != nil {
			t.Fatal(err)
		}
		if len(found) != 0 {
			t.Fatalf("the batch committed a citation of a deleted source: %+v", found)
		}
	})

	t.Run("a source changed", func(t *testing.T) {
		var changed error
		hook.fired.Store(false)
		hook.do = func() {
			k := kept
			k.Reliability = casegraph.ReliabilityE
			_, changed = s.UpsertSource(ctx, k)
		}
		if _, err := s.ApplyWrites(ctx, casegraph.Writes{Dataset: ds, Relations: []casegraph.Relation{relation("r2", c, d, kept.ID)}}); err != nil {
			t.Fatal(err)
		}
		if !hook.fired.Load() || changed != nil {
			t.Fatalf("the change beside the batch: ran %v, %v", hook.fired.Load(), changed)
		}
		found, err := s.RelationsByID(ctx, []string{ds + ":r2"})
		if err != nil {
			t.Fatal(err)
		}
		r, ok := found[ds+":r2"]
		if !ok || len(r.Citations) != 1 {
			t.Fatalf("the batch's relation: %+v", found)
		}
		if got := string(r.Citations[0].Grade); len(got) == 0 || got[0] != 'E' {
			t.Fatalf("the citation is graded %q, want by the source's reliability now, E", got)
		}
	})
}
