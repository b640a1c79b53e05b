package cypher_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
)

// hooks is a cypher.Observer that runs each function set, once, after
// the first statement of its name, in whichever goroutine ran it: between
// that statement and the write's next one, with its transaction open.
type hooks struct {
	mu sync.Mutex
	on map[string]func()
}

// set replaces the hooks still to run with on.
func (h *hooks) set(on map[string]func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.on = on
}

// ran says whether every hook set has run.
func (h *hooks) ran() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.on) == 0
}

func (h *hooks) ObserveStatement(name string, _ time.Duration, _ error) {
	h.mu.Lock()
	do := h.on[name]
	delete(h.on, name)
	h.mu.Unlock()
	if do != nil {
		do()
	}
}

// TestBatchHoldsItsSourcesLate: a batch of relations locks the sources it
// cites only after its gate has read them (HoldSources, before it locks
// the relations' ends), so a deletion or a change of one of them can
// commit in between, after its gate judged it. The batch must see it
// there: a source deleted refuses the batch (its gate, judging again,
// finds the citation of a source that is gone), and a source whose
// reliability changed has the batch's citations graded by the new one. Without the comparison the
// first batch commits citations of a deleted source, and the second
// grades them by a reliability the source no longer has.
func TestBatchHoldsItsSourcesLate(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 2*time.Minute)
	defer cancel()
	ds := cyphertest.Dataset(t)
	hook := &hooks{}
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
		// After SourceStates, the gate's last look-up.
		hook.set(map[string]func(){"SourceStates": func() { _, deleted = s.DeleteSource(ctx, gone.ID) }})
		_, err := s.ApplyWrites(ctx, casegraph.Writes{Dataset: ds, Relations: []casegraph.Relation{relation("r1", a, b, kept.ID, gone.ID)}})
		if !hook.ran() || deleted != nil {
			t.Fatalf("the deletion beside the batch: ran %v, %v", hook.ran(), deleted)
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
		hook.set(map[string]func(){"SourceStates": func() {
			k := kept
			k.Reliability = casegraph.ReliabilityE
			_, changed = s.UpsertSource(ctx, k)
		}})
		if _, err := s.ApplyWrites(ctx, casegraph.Writes{Dataset: ds, Relations: []casegraph.Relation{relation("r2", c, d, kept.ID)}}); err != nil {
			t.Fatal(err)
		}
		if !hook.ran() || changed != nil {
			t.Fatalf("the change beside the batch: ran %v, %v", hook.ran(), changed)
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

// TestBatchWaitsForADeletionOfItsSource: the batch's HoldSources finds a
// source it cites while deleteSource holds its lock, waits for the
// deletion's commit, and then holds a source that is gone: the batch is
// judged again (and refuses the citation, BAD_USER_INPUT), as when the
// deletion committed before it looked, not an internal error.
func TestBatchWaitsForADeletionOfItsSource(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 2*time.Minute)
	defer cancel()
	ds := cyphertest.Dataset(t)
	locked, deleted := make(chan struct{}), make(chan error, 1)
	hook := &hooks{}
	s := cyphertest.Store(t, cypher.Options{Observer: hook})
	gone := casegraph.Source{ID: ds + ":gone", Title: "Gone", Dataset: ds}
	a := casegraph.Entity{ID: ds + ":a", Kind: casegraph.KindPerson, Name: "A", Dataset: ds}
	b := casegraph.Entity{ID: ds + ":b", Kind: casegraph.KindOrganization, Name: "B", Dataset: ds}
	if _, err := s.WriteBatch(ctx, []casegraph.Source{gone}, []casegraph.Entity{a, b}, nil); err != nil {
		t.Fatal(err)
	}
	hook.set(map[string]func(){
		// In the batch, its gate's look-ups done (SourceStates is the
		// last), before HoldSources: the deletion starts, and the batch
		// goes on once the deletion holds the lock.
		"SourceStates": func() {
			go func() { _, err := s.DeleteSource(ctx, gone.ID); deleted <- err }()
			<-locked
		},
		// In the deletion, its lock taken: it holds it while the batch's
		// HoldSources reaches the source and waits for it.
		"LockSources": func() { close(locked); time.Sleep(time.Second) },
	})
	_, err := s.ApplyWrites(ctx, casegraph.Writes{Dataset: ds, Relations: []casegraph.Relation{{ID: ds + ":r", Type: "MEMBER_OF",
		FromID: a.ID, ToID: b.ID, Status: casegraph.StatusReported, Dataset: ds, SourceIDs: []string{gone.ID}}}})
	if derr := <-deleted; derr != nil {
		t.Fatalf("the deletion: %v", derr)
	}
	if casegraph.ErrorCode(err) != casegraph.CodeBadUserInput {
		t.Fatalf("the batch citing the source deleted while it waited answered %v, want BAD_USER_INPUT", err)
	}
	if found, err := s.RelationsByID(ctx, []string{ds + ":r"}); err != nil || len(found) != 0 {
		t.Fatalf("the batch's relation: %v, %v; want none", found, err)
	}
}

// TestBatchNotesItsCitingDatasets: a batch that holds its sources late
// records there the datasets whose claims cite them (HoldSources, in place
// of NoteCitingDatasets), for an entity's citations and a relation's
// alike: a source of one dataset cited by a batch of entities of a second
// and one of relations of a third is regraded in both when its
// reliability changes, and is not deleted while they cite it, the
// datasets it records being all that either looks through.
func TestBatchNotesItsCitingDatasets(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 2*time.Minute)
	defer cancel()
	s := cyphertest.Store(t, cypher.Options{})
	if err := s.MarkCitingDatasetsBackfilled(ctx); err != nil {
		t.Fatal(err)
	}
	ds1, ds2, ds3 := cyphertest.Dataset(t), cyphertest.Dataset(t), cyphertest.Dataset(t)
	x := casegraph.Source{ID: ds1 + ":x", Title: "X", Dataset: ds1, Reliability: casegraph.ReliabilityC}
	if _, err := s.ApplyWrites(ctx, casegraph.Writes{Dataset: ds1, Sources: []casegraph.Source{x}}); err != nil {
		t.Fatal(err)
	}
	e := casegraph.Entity{ID: ds2 + ":e", Kind: casegraph.KindPerson, Name: "E", Dataset: ds2, SourceIDs: []string{x.ID}}
	if _, err := s.ApplyWrites(ctx, casegraph.Writes{Dataset: ds2, Entities: []casegraph.Entity{e}}); err != nil {
		t.Fatal(err)
	}
	a := casegraph.Entity{ID: ds3 + ":a", Kind: casegraph.KindPerson, Name: "A", Dataset: ds3}
	b := casegraph.Entity{ID: ds3 + ":b", Kind: casegraph.KindOrganization, Name: "B", Dataset: ds3}
	if _, err := s.ApplyWrites(ctx, casegraph.Writes{Dataset: ds3, Entities: []casegraph.Entity{a, b}}); err != nil {
		t.Fatal(err)
	}
	r := casegraph.Relation{ID: ds3 + ":r", Type: "MEMBER_OF", FromID: a.ID, ToID: b.ID, Status: casegraph.StatusReported, Dataset: ds3,
		SourceIDs: []string{x.ID}}
	if _, err := s.ApplyWrites(ctx, casegraph.Writes{Dataset: ds3, Relations: []casegraph.Relation{r}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DeleteSource(ctx, x.ID); casegraph.ErrorCode(err) != casegraph.CodeConflict {
		t.Fatalf("deleting the source the batches cite: %v, want CONFLICT", err)
	}
	x.Reliability = casegraph.ReliabilityA
	if _, err := s.UpsertSource(ctx, x); err != nil {
		t.Fatal(err)
	}
	gotE, err := s.Entity(ctx, e.ID)
	if err != nil {
		t.Fatal(err)
	}
	rels, err := s.RelationsByID(ctx, []string{r.ID})
	if err != nil {
		t.Fatal(err)
	}
	for what, cs := range map[string][]casegraph.Citation{"the entity": gotE.Citations, "the relation": rels[r.ID].Citations} {
		if got := casegraph.Grades(cs); len(got) != 1 || got[0][0] != 'A' {
			t.Errorf("%s's citation graded %v after the source became A, want A", what, got)
		}
	}
}

// TestBatchBesideLinks: batches of an import and links, at once, citing
// one source and linking to one hub, take their locks in one order
// (entities, relation ids, sources, then ends: gate.holdSources), so they
// queue rather than deadlock: every write succeeds, and Neo4j reports
// next to no deadlock (each one a transaction rolled back and run again).
// With the batch's sources taken after its ends, Neo4j reported 116 to
// 124 deadlocks in the 160 writes.
func TestBatchBesideLinks(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 5*time.Minute)
	defer cancel()
	ds := cyphertest.Dataset(t)
	deadlocks := &deadlockCount{}
	s := cyphertest.Store(t, cypher.Options{Observer: deadlocks})
	src := casegraph.Source{ID: ds + ":s", Title: "S", Dataset: ds}
	hub := casegraph.Entity{ID: ds + ":hub", Kind: casegraph.KindOrganization, Name: "Hub", Dataset: ds}
	people := make([]casegraph.Entity, 400)
	for i := range people {
		people[i] = casegraph.Entity{ID: fmt.Sprintf("%s:p%d", ds, i), Kind: casegraph.KindPerson, Name: fmt.Sprint("P", i), Dataset: ds}
	}
	if _, err := s.WriteBatch(ctx, []casegraph.Source{src}, append(people, hub), nil); err != nil {
		t.Fatal(err)
	}
	const rounds, batches, links = 20, 2, 6
	var failed atomic.Int64
	for round := range rounds {
		var wg sync.WaitGroup
		for w := range batches {
			wg.Go(func() {
				rels := make([]casegraph.Relation, 200)
				for i := range rels {
					rels[i] = casegraph.Relation{ID: fmt.Sprintf("%s:b%d-%d-%d", ds, round, w, i), Type: "MEMBER_OF", FromID: people[(w*200+i)%len(people)].ID,
						ToID: hub.ID, Status: casegraph.StatusReported, Dataset: ds, SourceIDs: []string{src.ID}}
				}
				if _, err := s.ApplyWrites(ctx, casegraph.Writes{Dataset: ds, Relations: rels}); err != nil {
					failed.Add(1)
					t.Errorf("round %d, batch %d: %v", round, w, err)
				}
			})
		}
		for i := range links {
			wg.Go(func() {
				p := people[(round*37+i*11)%len(people)]
				if _, err := s.Link(ctx, casegraph.Relation{ID: fmt.Sprintf("%s:l%d-%d", ds, round, i), Type: "EMPLOYED_BY", FromID: p.ID,
					ToID: hub.ID, Status: casegraph.StatusReported, Dataset: ds, SourceIDs: []string{src.ID}}); err != nil {
					failed.Add(1)
					t.Errorf("round %d, link %d: %v", round, i, err)
				}
			})
		}
		wg.Wait()
	}
	writes := rounds * (batches + links)
	t.Logf("%d writes, %d failed, %d deadlocks met", writes, failed.Load(), deadlocks.n.Load())
	if n := deadlocks.n.Load(); n > int64(writes/20) {
		t.Errorf("%d deadlocks in %d writes: the batches and links lock in different orders", n, writes)
	}
	cyphertest.CheckDegrees(t, s, ds)
}

// deadlockCount counts the statements Neo4j rolled back as deadlocked.
type deadlockCount struct{ n atomic.Int64 }

func (c *deadlockCount) ObserveStatement(_ string, _ time.Duration, err error) {
	if err != nil && strings.Contains(err.Error(), "DeadlockDetected") {
		c.n.Add(1)
	}
}
