package cypher_test

// The write gate under races: concurrent merges, an import racing a link,
// an import racing a protection.

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

// raceRounds is how many times each race is run: enough for both orders
// and the interleavings between them to come up on two cores.
const raceRounds = 25

// atOnce runs the functions at the same moment, each in its own
// goroutine, and returns their errors in order.
func atOnce(fns ...func() error) []error {
	errs := make([]error, len(fns))
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i, fn := range fns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[i] = fn()
		}()
	}
	close(start)
	wg.Wait()
	return errs
}

// raceFixture is a dataset and its editors for the races.
type raceFixture struct {
	s             *cypher.Store
	ds, src       string
	editor, other context.Context // two editors of ds
	cleared       context.Context // an editor of ds with clearance
	operator      context.Context
}

func newRaceFixture(t *testing.T) raceFixture {
	t.Helper()
	f := raceFixture{s: cyphertest.Store(t, cypher.Options{}), ds: cyphertest.Dataset(t)}
	f.src = f.ds + ":src"
	// The whole test's rounds (25 of them, each a race of writes, some
	// meeting deadlocks that are retried) share this: minutes, not
	// testContext's 30 seconds, which a loaded machine ran out (TIMEOUT,
	// OUTCOME_UNKNOWN). The tests are about who wins, not how fast.
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 5*time.Minute)
	t.Cleanup(cancel)
	editor := func(name string, cleared bool) context.Context {
		return casegraph.WithPrincipal(ctx, casegraph.Principal{ID: "key:" + name, Role: casegraph.RoleEditor, Datasets: []string{f.ds}, Cleared: cleared})
	}
	f.editor, f.other, f.cleared, f.operator = editor("one", false), editor("two", false), editor("cleared", true), casegraph.AsOperator(ctx)
	if _, err := f.s.WriteBatch(f.operator, []casegraph.Source{{ID: f.src, Title: "S", Dataset: f.ds}}, nil, nil); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f raceFixture) entity(id string, kind casegraph.Kind) casegraph.Entity {
	return casegraph.Entity{ID: id, Kind: kind, Name: id, Dataset: f.ds, SourceIDs: []string{f.src}, KeepProtection: true}
}

func (f raceFixture) relation(id string, typ casegraph.RelationType, from, to string) casegraph.Relation {
	return casegraph.Relation{ID: id, Type: typ, FromID: from, ToID: to, Status: casegraph.StatusReported, Dataset: f.ds, SourceIDs: []string{f.src}}
}

// outcome names an error by its code, "ok" for none.
func outcome(err error) string {
	if err == nil {
		return "ok"
	}
	return string(casegraph.ErrorCode(err))
}

// refusedAs fails the test for an error that is not one of the codes a
// lost race may answer.
func refusedAs(t *testing.T, what string, err error, codes ...casegraph.Code) {
	t.Helper()
	if err == nil {
		return
	}
	for _, c := range codes {
		if casegraph.ErrorCode(err) == c {
			return
		}
	}
	t.Errorf("%s: %s (%v), want success or one of %v", what, casegraph.ErrorCode(err), err, codes)
}

// TestConcurrentMerges: two editors merge the same two entities at once,
// each into the other or both the same way: one merge wins, the other
// finds its entity gone (NOT_FOUND), and the graph is whole: one
// survivor, both ids resolving to it, every relation moved to it, every
// degree right.
func TestConcurrentMerges(t *testing.T) {
	t.Parallel()
	f := newRaceFixture(t)
	for round := range raceRounds {
		a, b, c := fmt.Sprintf("%s:a%d", f.ds, round), fmt.Sprintf("%s:b%d", f.ds, round), fmt.Sprintf("%s:c%d", f.ds, round)
		if _, err := f.s.WriteBatch(f.operator, nil, []casegraph.Entity{f.entity(a, casegraph.KindPerson), f.entity(b, casegraph.KindPerson), f.entity(c, casegraph.KindOrganization)},
			[]casegraph.Relation{f.relation(a+"-c", "MEMBER_OF", a, c), f.relation(b+"-c", "EMPLOYED_BY", b, c)}); err != nil {
			t.Fatal(err)
		}
		second := []string{b, a} // each into the other
		if round%2 == 1 {
			second = []string{a, b} // both the same way
		}
		errs := atOnce(
			func() error { _, err := f.s.MergeEntities(f.editor, a, []string{b}); return err },
			func() error { _, err := f.s.MergeEntities(f.other, second[0], second[1:]); return err },
		)
		won := 0
		for i, err := range errs {
			if err == nil {
				won++
			}
			refusedAs(t, fmt.Sprintf("round %d, merge %d", round, i+1), err, casegraph.CodeNotFound)
		}
		found, err := f.s.EntitiesByID(f.operator, []string{a, b})
		if err != nil {
			t.Fatal(err)
		}
		survivor := found[a].ID
		if won != 1 || survivor == "" || found[b].ID != survivor {
			t.Errorf("round %d: %d merges won; %s resolves to %q, %s to %q: want one survivor for both", round, won, a, survivor, b, found[b].ID)
		}
		rels, err := f.s.RelationsOf(f.operator, []string{survivor}, casegraph.RelationFilter{}, casegraph.Page{First: 10})
		if err != nil {
			t.Fatal(err)
		}
		if n := rels[survivor].Total; n != 2 {
			t.Errorf("round %d: the survivor %s has %d relations, want both (2)", round, survivor, n)
		}
	}
	cyphertest.CheckDegrees(t, f.s, f.ds)
}

// TestImportRacesLink: an import's batch and a link write the same
// relation id at once, as relations of two types: one of them holds the
// id, never both (the other is refused, CONFLICT), and the id names one
// relation afterwards.
func TestImportRacesLink(t *testing.T) {
	t.Parallel()
	f := newRaceFixture(t)
	wins := map[string]int{}
	defer func() { t.Logf("won: %v", wins) }()
	for round := range raceRounds {
		p, org, id := fmt.Sprintf("%s:p%d", f.ds, round), fmt.Sprintf("%s:org%d", f.ds, round), fmt.Sprintf("%s:r%d", f.ds, round)
		if _, err := f.s.WriteBatch(f.operator, nil, []casegraph.Entity{f.entity(p, casegraph.KindPerson), f.entity(org, casegraph.KindOrganization)}, nil); err != nil {
			t.Fatal(err)
		}
		errs := atOnce(
			func() error {
				_, err := f.s.WriteBatch(f.editor, nil, nil, []casegraph.Relation{f.relation(id, "MEMBER_OF", p, org)})
				return err
			},
			func() error { _, err := f.s.Link(f.other, f.relation(id, "EMPLOYED_BY", p, org)); return err },
		)
		won := 0
		for i, err := range errs {
			if err == nil {
				won++
				wins[[]string{"import", "link"}[i]]++
			}
			refusedAs(t, fmt.Sprintf("round %d, write %d", round, i+1), err, casegraph.CodeConflict)
		}
		rels, err := f.s.RelationsOf(f.operator, []string{p}, casegraph.RelationFilter{}, casegraph.Page{First: 10})
		if err != nil {
			t.Fatal(err)
		}
		holders := 0
		for _, r := range rels[p].Relations {
			if r.ID == id {
				holders++
			}
		}
		if won != 1 || holders != 1 {
			t.Errorf("round %d: %d writes won, %d relations hold %s; want one and one", round, won, holders, id)
		}
	}
	cyphertest.CheckDegrees(t, f.s, f.ds)
}

// TestImportRacesProtection: an uncleared editor's import creates an
// entity (saying nothing of protection) while a cleared editor creates it
// protected: the import never lifts the protection, so the entity is
// protected exactly when the cleared write went through, and a loser is
// refused (CONFLICT), never half-written.
func TestImportRacesProtection(t *testing.T) {
	t.Parallel()
	f := newRaceFixture(t)
	outcomes := map[string]int{}
	defer func() { t.Logf("import, cleared upsert: %v", outcomes) }()
	for round := range raceRounds {
		id := fmt.Sprintf("%s:w%d", f.ds, round)
		protected := f.entity(id, casegraph.KindPerson)
		protected.KeepProtection, protected.Protected = false, true
		errs := atOnce(
			func() error {
				_, err := f.s.WriteBatch(f.editor, nil, []casegraph.Entity{f.entity(id, casegraph.KindPerson)}, nil)
				return err
			},
			func() error { _, err := f.s.UpsertEntity(f.cleared, protected, nil); return err },
		)
		outcomes[outcome(errs[0])+", "+outcome(errs[1])]++
		refusedAs(t, fmt.Sprintf("round %d, the import", round), errs[0], casegraph.CodeConflict)
		refusedAs(t, fmt.Sprintf("round %d, the cleared upsert", round), errs[1], casegraph.CodeConflict)
		got, err := f.s.Entity(f.operator, id)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if got.Protected != (errs[1] == nil) {
			t.Errorf("round %d: protected = %v, but the cleared upsert answered %v (the import: %v)", round, got.Protected, errs[1], errs[0])
		}
	}
}
