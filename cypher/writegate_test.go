package cypher_test

// The write gate: what it refuses and what it lets through, reserved ids,
// and the registry of relation ids.

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/duplicate"
)

// gateFixture is two datasets, A and B, written by the operator: in A a
// protected witness employed by an organization (a relation uncleared
// callers see redacted) and a plain person who is a member of it; in B a
// person, an organization and a protected person of their own.
type gateFixture struct {
	s                           *cypher.Store
	a, b                        string
	srcA, srcB                  string
	witness, plain, org         string // in A
	rWitness, rPlain            string // in A: witness EMPLOYED_BY org, plain MEMBER_OF org
	xB, orgB, witnessB          string // in B
	opaque                      string // the witness's opaque id, as uncleared callers see it
	secrets                     []string
	readerA, editorA, clearedA  casegraph.Principal
	editorB, anonymous, adminAB casegraph.Principal
}

func newGateFixture(t *testing.T) gateFixture {
	t.Helper()
	f := gateFixture{s: cyphertest.Store(t, cypher.Options{}), a: cyphertest.Dataset(t), b: cyphertest.Dataset(t)}
	f.srcA, f.srcB = f.a+":src", f.b+":src"
	f.witness, f.plain, f.org = f.a+":witness-qz9", f.a+":plain", f.a+":org"
	f.rWitness, f.rPlain = f.a+":r-witness-qz9", f.a+":r-plain"
	f.xB, f.orgB, f.witnessB = f.b+":x", f.b+":org", f.b+":witness"
	f.secrets = []string{f.witness, "Qz9 Real Name", "qz9-quote", "qz9-role", f.rWitness}
	ctx := casegraph.AsOperator(testContext(t))
	person := func(id, ds, name string, protected bool) casegraph.Entity {
		src := f.srcA
		if ds == f.b {
			src = f.srcB
		}
		return casegraph.Entity{ID: id, Kind: casegraph.KindPerson, Name: name, Dataset: ds, SourceIDs: []string{src},
			Attributes: casegraph.Attributes{Protected: protected}}
	}
	org := func(id, ds, src string) casegraph.Entity {
		return casegraph.Entity{ID: id, Kind: casegraph.KindOrganization, Name: "Agency", Dataset: ds, SourceIDs: []string{src}}
	}
	if _, err := f.s.WriteBatch(ctx, []casegraph.Source{{ID: f.srcA, Title: "A's source", Dataset: f.a}, {ID: f.srcB, Title: "B's source", Dataset: f.b}},
		[]casegraph.Entity{person(f.witness, f.a, "Qz9 Real Name", true), person(f.plain, f.a, "Plain", false), org(f.org, f.a, f.srcA),
			person(f.xB, f.b, "In B", false), org(f.orgB, f.b, f.srcB), person(f.witnessB, f.b, "B's witness", true)}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := f.s.WriteBatch(ctx, nil, nil, []casegraph.Relation{
		{ID: f.rWitness, Type: "EMPLOYED_BY", FromID: f.witness, ToID: f.org, Role: "qz9-role", Quote: "qz9-quote", Status: casegraph.StatusReported, Dataset: f.a, SourceIDs: []string{f.srcA}},
		{ID: f.rPlain, Type: "MEMBER_OF", FromID: f.plain, ToID: f.org, Status: casegraph.StatusReported, Dataset: f.a, SourceIDs: []string{f.srcA}},
	}); err != nil {
		t.Fatal(err)
	}
	f.readerA = casegraph.Principal{ID: "key:reader-a", Role: casegraph.RoleReader, Datasets: []string{f.a}}
	f.editorA = casegraph.Principal{ID: "key:editor-a", Role: casegraph.RoleEditor, Datasets: []string{f.a}}
	f.clearedA = casegraph.Principal{ID: "key:cleared-a", Role: casegraph.RoleEditor, Datasets: []string{f.a}, Cleared: true}
	f.editorB = casegraph.Principal{ID: "key:editor-b", Role: casegraph.RoleEditor, Datasets: []string{f.b}}
	f.anonymous = casegraph.Anonymous([]string{f.a})
	f.adminAB = casegraph.Principal{ID: "key:admin", Role: casegraph.RoleAdmin}

	rels, err := f.s.RelationsOf(casegraph.WithPrincipal(ctx, f.editorA), []string{f.org}, casegraph.RelationFilter{Types: []casegraph.RelationType{"EMPLOYED_BY"}}, casegraph.Page{First: 10})
	if err != nil || len(rels[f.org].Relations) != 1 || !strings.HasPrefix(rels[f.org].Relations[0].FromID, "protected-") {
		t.Fatalf("the witness's opaque id, as editor A sees it: %+v, %v", rels, err)
	}
	f.opaque = rels[f.org].Relations[0].FromID
	return f
}

func (f gateFixture) entity(id, ds string) casegraph.Entity {
	src := f.srcA
	if ds == f.b {
		src = f.srcB
	}
	return casegraph.Entity{ID: id, Kind: casegraph.KindPerson, Name: "Changed", Dataset: ds, SourceIDs: []string{src}, KeepProtection: true}
}

func (f gateFixture) relation(id string, typ casegraph.RelationType, from, to string) casegraph.Relation {
	return casegraph.Relation{ID: id, Type: typ, FromID: from, ToID: to, Status: casegraph.StatusReported, Dataset: f.a, SourceIDs: []string{f.srcA}}
}

// TestWriteGate: every write, whichever method makes it (a mutation's or
// an import's batch, WriteBatch), passes the same checks before it
// writes: a reader or an anonymous caller is refused before the database
// is asked anything; an uncleared caller can neither lift nor set a
// protection, nor touch a protected person, who is as missing for it as
// an entity of a dataset it cannot read (taken for a write of its id,
// NOT_FOUND as an end, by real or opaque id); a relation id is one
// relation's whatever its type; reserved ids are nobody's to create;
// errors name nothing the caller may not read; and a refused write
// changes nothing.
func TestWriteGate(t *testing.T) {
	t.Parallel()
	f := newGateFixture(t)
	s := f.s
	protect := func(e casegraph.Entity, on bool) casegraph.Entity {
		e.KeepProtection, e.Protected = false, on
		return e
	}
	batch := func(entities []casegraph.Entity, relations []casegraph.Relation) func(context.Context) error {
		return func(ctx context.Context) error {
			_, err := s.WriteBatch(ctx, nil, entities, relations)
			return err
		}
	}
	upsert := func(e casegraph.Entity) func(context.Context) error {
		return func(ctx context.Context) error { _, err := s.UpsertEntity(ctx, e, nil); return err }
	}
	link := func(r casegraph.Relation) func(context.Context) error {
		return func(ctx context.Context) error { _, err := s.Link(ctx, r); return err }
	}
	const reserved = "protected-0123456789abcdef"
	tests := []struct {
		name string
		who  casegraph.Principal
		op   func(ctx context.Context) error
		want casegraph.Code
		// upFront: refused before the database is asked anything.
		upFront bool
		// sends are the secrets that the write names itself: an answer
		// may say them back (as it would a missing entity's id).
		sends []string
	}{
		{"batch over the witness without protected", f.editorA, batch([]casegraph.Entity{f.entity(f.witness, f.a)}, nil), casegraph.CodeConflict, false, []string{f.witness}},
		{"batch unprotects the witness", f.editorA, batch([]casegraph.Entity{protect(f.entity(f.witness, f.a), false)}, nil), casegraph.CodeConflict, false, []string{f.witness}},
		{"batch creates a protected person", f.editorA, batch([]casegraph.Entity{protect(f.entity(f.a+":new", f.a), true)}, nil), casegraph.CodeForbidden, false, nil},
		{"batch moves B's entity into A", f.editorA, batch([]casegraph.Entity{f.entity(f.xB, f.a)}, nil), casegraph.CodeConflict, false, nil},
		{"batch links to the witness by real id", f.editorA, batch(nil, []casegraph.Relation{f.relation(f.a+":r-new", "MEMBER_OF", f.witness, f.org)}), casegraph.CodeNotFound, false, []string{f.witness}},
		{"batch links to the witness by opaque id", f.editorA, batch(nil, []casegraph.Relation{f.relation(f.a+":r-new", "MEMBER_OF", f.opaque, f.org)}), casegraph.CodeNotFound, false, nil},
		{"batch links to B", f.editorA, batch(nil, []casegraph.Relation{f.relation(f.a+":r-new", "MEMBER_OF", f.plain, f.orgB)}), casegraph.CodeNotFound, false, nil},
		{"batch takes a relation id of another type", f.editorA, batch(nil, []casegraph.Relation{f.relation(f.rPlain, "EMPLOYED_BY", f.plain, f.org)}), casegraph.CodeConflict, false, nil},
		{"batch takes the redacted relation's id", f.editorA, batch(nil, []casegraph.Relation{f.relation(f.rWitness, "MEMBER_OF", f.plain, f.org)}), casegraph.CodeConflict, false, []string{f.rWitness}},
		{"batch by a reader", f.readerA, batch([]casegraph.Entity{f.entity(f.xB, f.a)}, nil), casegraph.CodeForbidden, true, nil},
		{"upsert the witness", f.editorA, upsert(f.entity(f.witness, f.a)), casegraph.CodeConflict, false, []string{f.witness}},
		{"upsert B's entity by editor A", f.editorA, upsert(f.entity(f.xB, f.a)), casegraph.CodeConflict, false, nil},
		{"upsert A's entity by editor B", f.editorB, upsert(f.entity(f.plain, f.a)), casegraph.CodeForbidden, false, nil},
		{"link with the redacted relation's id", f.editorA, link(f.relation(f.rWitness, "MEMBER_OF", f.plain, f.org)), casegraph.CodeConflict, false, []string{f.rWitness}},
		{"link to the witness by opaque id", f.editorA, link(f.relation(f.a+":r-new", "MEMBER_OF", f.opaque, f.org)), casegraph.CodeNotFound, false, nil},
		{"anonymous upserts the witness's id", f.anonymous, upsert(f.entity(f.witness, f.a)), casegraph.CodeForbidden, true, []string{f.witness}},
		{"reader upserts B's id", f.readerA, upsert(f.entity(f.xB, f.a)), casegraph.CodeForbidden, true, nil},
		{"reader upserts a free id", f.readerA, upsert(f.entity(f.a+":free", f.a)), casegraph.CodeForbidden, true, nil},
		{"reader links a taken relation id", f.readerA, link(f.relation(f.rWitness, "MEMBER_OF", f.plain, f.org)), casegraph.CodeForbidden, true, []string{f.rWitness}},
		{"reader upserts a taken source id", f.readerA, func(ctx context.Context) error {
			_, err := s.UpsertSource(ctx, casegraph.Source{ID: f.srcB, Title: "T", Dataset: f.a})
			return err
		}, casegraph.CodeForbidden, true, nil},
		{"reader deletes", f.readerA, func(ctx context.Context) error { _, err := s.DeleteEntity(ctx, f.plain); return err }, casegraph.CodeForbidden, true, nil},
		{"reader unlinks", f.readerA, func(ctx context.Context) error { _, err := s.Unlink(ctx, f.rWitness); return err }, casegraph.CodeForbidden, true, []string{f.rWitness}},
		{"reader deletes a source", f.readerA, func(ctx context.Context) error { _, err := s.DeleteSource(ctx, f.srcB); return err }, casegraph.CodeForbidden, true, nil},
		{"reader merges", f.readerA, func(ctx context.Context) error {
			_, err := s.MergeEntities(ctx, f.plain, []string{f.witness})
			return err
		}, casegraph.CodeForbidden, true, []string{f.witness}},
		{"reader dismisses", f.readerA, func(ctx context.Context) error {
			_, err := s.DismissDuplicate(ctx, duplicate.OrderedPair(f.plain, f.witness))
			return err
		}, casegraph.CodeForbidden, true, []string{f.witness}},
		{"delete B's source", f.editorA, func(ctx context.Context) error { _, err := s.DeleteSource(ctx, f.srcB); return err }, casegraph.CodeNotFound, false, nil},
		{"delete the witness", f.editorA, func(ctx context.Context) error { _, err := s.DeleteEntity(ctx, f.witness); return err }, casegraph.CodeNotFound, false, []string{f.witness}},
		{"unlink the witness's relation", f.editorA, func(ctx context.Context) error { _, err := s.Unlink(ctx, f.rWitness); return err }, casegraph.CodeNotFound, false, []string{f.rWitness}},
		{"merge the witness away", f.editorA, func(ctx context.Context) error {
			_, err := s.MergeEntities(ctx, f.plain, []string{f.witness})
			return err
		}, casegraph.CodeNotFound, false, []string{f.witness}},
		{"merge into the witness", f.editorA, func(ctx context.Context) error {
			_, err := s.MergeEntities(ctx, f.witness, []string{f.plain})
			return err
		}, casegraph.CodeNotFound, false, []string{f.witness}},
		{"dismiss the witness", f.editorA, func(ctx context.Context) error {
			_, err := s.DismissDuplicate(ctx, duplicate.OrderedPair(f.plain, f.witness))
			return err
		}, casegraph.CodeNotFound, false, []string{f.witness}},
		{"upsert a reserved id", f.adminAB, upsert(f.entity(reserved, f.a)), casegraph.CodeBadUserInput, true, nil},
		{"upsert the witness's opaque id", f.editorA, upsert(f.entity(f.opaque, f.a)), casegraph.CodeBadUserInput, true, nil},
		{"batch of the witness's opaque id", f.editorA, batch([]casegraph.Entity{f.entity(f.opaque, f.a)}, nil), casegraph.CodeBadUserInput, true, nil},
		{"batch of a reserved relation id", f.adminAB, batch(nil, []casegraph.Relation{f.relation(reserved, "MEMBER_OF", f.plain, f.org)}), casegraph.CodeBadUserInput, true, nil},
		{"link a reserved id", f.adminAB, link(f.relation(reserved, "MEMBER_OF", f.plain, f.org)), casegraph.CodeBadUserInput, true, nil},
		{"source of a reserved id", f.adminAB, func(ctx context.Context) error {
			_, err := s.UpsertSource(ctx, casegraph.Source{ID: reserved, Title: "T", Dataset: f.a})
			return err
		}, casegraph.CodeBadUserInput, true, nil},
		{"batch of a reserved source id", f.adminAB, func(ctx context.Context) error {
			_, err := s.WriteBatch(ctx, []casegraph.Source{{ID: reserved, Title: "T", Dataset: f.a}}, nil, nil)
			return err
		}, casegraph.CodeBadUserInput, true, nil},
		{"delete a dataset as an editor", f.editorA, func(ctx context.Context) error { _, err := s.DeleteDataset(ctx, f.a); return err }, casegraph.CodeForbidden, true, nil},
	}
	before := append(cyphertest.Snapshot(t, s, f.a), cyphertest.Snapshot(t, s, f.b)...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := casegraph.WithPrincipal(testContext(t), tt.who)
			trips := s.RoundTrips()
			err := tt.op(ctx)
			if got := casegraph.ErrorCode(err); got != tt.want {
				t.Errorf("got %s (%v), want %s", got, err, tt.want)
			}
			if n := s.RoundTrips() - trips; tt.upFront && n != 0 {
				t.Errorf("refused after %d round trips, want none", n)
			}
			if tt.who.Cleared || tt.who.IsAdmin() {
				return
			}
			for _, secret := range f.secrets {
				if !slices.Contains(tt.sends, secret) && strings.Contains(casegraph.ErrorMessage(err), secret) {
					t.Errorf("the error names %q, which the caller may not read: %v", secret, err)
				}
			}
		})
	}
	if after := append(cyphertest.Snapshot(t, s, f.a), cyphertest.Snapshot(t, s, f.b)...); !slices.Equal(before, after) {
		t.Errorf("refused writes changed the datasets:\nbefore %v\nafter  %v", before, after)
	}
}

// TestWriteGateAllows: what the gate lets through, it writes: a cleared
// editor writes over a protected person, who stays protected when the
// write leaves protection out, and links to it; a write by the operator
// (the command line's import) is the operator's.
func TestWriteGateAllows(t *testing.T) {
	t.Parallel()
	f := newGateFixture(t)
	s := f.s
	cleared := casegraph.WithPrincipal(testContext(t), f.clearedA)
	if _, err := s.WriteBatch(cleared, nil, []casegraph.Entity{f.entity(f.witness, f.a)}, nil); err != nil {
		t.Fatalf("a cleared editor's batch over the witness: %v", err)
	}
	if _, err := s.WriteBatch(cleared, nil, nil, []casegraph.Relation{f.relation(f.a+":r-new", "MEMBER_OF", f.witness, f.org)}); err != nil {
		t.Fatalf("a cleared editor links the witness: %v", err)
	}
	got, err := s.Entity(cleared, f.witness)
	if err != nil || !got.Protected || got.Name != "Changed" {
		t.Errorf("the witness after a cleared batch that left protection out: %+v, %v; want it protected and renamed", got, err)
	}
	op := casegraph.AsOperator(testContext(t))
	if _, err := s.WriteBatch(op, nil, []casegraph.Entity{f.entity(f.xB, f.b)}, nil); err != nil {
		t.Errorf("the operator's batch: %v", err)
	}
}

// TestReservedIDs: what holds a reserved id (written before the gate
// refused them) is found for migrate's report, and the gate lets nobody
// write it again.
func TestReservedIDs(t *testing.T) {
	t.Parallel()
	s := cyphertest.Store(t, cypher.Options{})
	ds := cyphertest.Dataset(t)
	ctx := casegraph.AsOperator(testContext(t))
	entity, source := casegraph.OpaqueIDPrefix+ds, "source~"+ds
	if err := s.RunTestStatement(ctx, "Squatters", map[string]any{"entity": entity, "source": source, "dataset": ds}); err != nil {
		t.Fatal(err)
	}
	total, sample, err := s.ReservedIDs(ctx, 10000)
	if err != nil {
		t.Fatal(err)
	}
	if total < 2 || !slices.Contains(sample, entity) || !slices.Contains(sample, source) {
		t.Errorf("ReservedIDs: %d, %v; want at least %s and %s", total, sample, entity, source)
	}
	_, err = s.UpsertEntity(ctx, casegraph.Entity{ID: entity, Kind: casegraph.KindPerson, Name: "Again", Dataset: ds, SourceIDs: []string{source}}, nil)
	if code := casegraph.ErrorCode(err); code != casegraph.CodeBadUserInput {
		t.Errorf("the operator upserts a held reserved id: %s (%v), want BAD_USER_INPUT", code, err)
	}
	if _, err := s.DeleteEntity(ctx, entity); err != nil {
		t.Errorf("the operator deletes a held reserved id: %v", err)
	}
}

// TestRelationIDRegistry: relations written before the registry of
// relation ids are found all the same (by their own type, or by every
// type when named by id alone), migrate registers them and reports an id
// two of them hold, and from then on no write gives the id a third type.
func TestRelationIDRegistry(t *testing.T) {
	t.Parallel()
	f := newGateFixture(t)
	s, ctx := f.s, casegraph.AsOperator(testContext(t))
	impostor := f.a + ":impostor"
	if err := s.RunTestStatement(ctx, "Impostors", map[string]any{"id": impostor, "from": f.plain, "to": f.org, "dataset": f.a, "source": f.srcA}); err != nil {
		t.Fatal(err)
	}
	// Unregistered, the MEMBER_OF one is found by its own type (and the
	// write registers it).
	if _, err := s.WriteBatch(ctx, nil, nil, []casegraph.Relation{f.relation(impostor, "MEMBER_OF", f.plain, f.org)}); err != nil {
		t.Errorf("rewriting an unregistered relation: %v", err)
	}
	if _, err := s.BackfillRelationIDs(ctx, []string{f.a}); err != nil {
		t.Errorf("BackfillRelationIDs: %v", err)
	}
	if n, err := s.BackfillRelationIDs(ctx, []string{f.a}); err != nil || n != 0 {
		t.Errorf("BackfillRelationIDs again: %d, %v; want none", n, err)
	}
	total, sample, err := s.SharedRelationIDs(ctx, []string{f.a}, 10000)
	if err != nil || total < 1 || !slices.Contains(sample, impostor) {
		t.Errorf("SharedRelationIDs: %d, %v, %v; want %s among them", total, sample, err, impostor)
	}
	_, err = s.Link(ctx, f.relation(impostor, "RELATED_TO", f.plain, f.org))
	if code := casegraph.ErrorCode(err); code != casegraph.CodeConflict {
		t.Errorf("a third type for the id: %s (%v), want CONFLICT", code, err)
	}
	for range 2 { // each of the two, named by id alone
		if _, err := s.Unlink(ctx, impostor); err != nil {
			t.Errorf("unlink: %v", err)
		}
	}
	if _, err := s.Unlink(ctx, impostor); casegraph.ErrorCode(err) != casegraph.CodeNotFound {
		t.Errorf("unlink a third time: %v, want NOT_FOUND", err)
	}
	cyphertest.CheckDegrees(t, s, f.a)
}

// TestRelationIDRegistryMarked: over all the data, the registry's
// backfill scans every relationship once; run again, it sends only the
// read of the mark it left, never the scan, and registers nothing.
func TestRelationIDRegistryMarked(t *testing.T) {
	sent := &statementNames{}
	s := cyphertest.Store(t, cypher.Options{Observer: sent})
	// The first run may scan a large shared database (a developer's
	// benchmark datasets): a longer deadline than a test's.
	first, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 10*time.Minute)
	defer cancel()
	if _, err := s.BackfillRelationIDs(first, nil); err != nil {
		t.Fatalf("BackfillRelationIDs: %v", err)
	}
	ctx := casegraph.AsOperator(testContext(t))
	sent.reset()
	n, err := s.BackfillRelationIDs(ctx, nil)
	if err != nil || n != 0 {
		t.Errorf("BackfillRelationIDs again: %d, %v; want none", n, err)
	}
	if got := sent.names(); !slices.Equal(got, []string{"DataMigrationDone"}) {
		t.Errorf("BackfillRelationIDs again sent %v; want only the mark's read, DataMigrationDone", got)
	}
}

// statementNames records the names of the statements a store sends.
type statementNames struct {
	mu   sync.Mutex
	sent []string
}

func (o *statementNames) ObserveStatement(name string, _ time.Duration, _ error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.sent = append(o.sent, name)
}

func (o *statementNames) reset() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.sent = nil
}

func (o *statementNames) names() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.sent)
}

// TestGateRefusesMalformedIDs: the store's own callers (the operator's
// commands, tests) are held to the form of an id as the edges are: an
// empty id, or one with a space or a tilde, is refused with
// BAD_USER_INPUT at every kind of write, and nothing is written. The
// store used to make a source with the id "" for them.
func TestGateRefusesMalformedIDs(t *testing.T) {
	t.Parallel()
	s := cyphertest.Store(t, cypher.Options{})
	ds := cyphertest.Dataset(t)
	ctx := casegraph.AsOperator(testContext(t))
	src := casegraph.Source{ID: ds + "-src", Title: "Register", Dataset: ds}
	if _, err := s.UpsertSource(ctx, src); err != nil {
		t.Fatal(err)
	}
	a := casegraph.Entity{ID: ds + "-a", Kind: casegraph.KindPerson, Name: "A", Dataset: ds, SourceIDs: []string{src.ID}}
	b := casegraph.Entity{ID: ds + "-b", Kind: casegraph.KindOrganization, Name: "B", Dataset: ds, SourceIDs: []string{src.ID}}
	if _, err := s.WriteBatch(ctx, nil, []casegraph.Entity{a, b}, nil); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"", " ", ds + " x", ds + "~x"} {
		writes := map[string]func() error{
			"source": func() error {
				_, err := s.UpsertSource(ctx, casegraph.Source{ID: id, Title: "Nameless", Dataset: ds})
				return err
			},
			"entity": func() error {
				_, err := s.UpsertEntity(ctx, casegraph.Entity{ID: id, Kind: casegraph.KindPerson, Name: "Nameless", Dataset: ds, SourceIDs: []string{src.ID}}, nil)
				return err
			},
			"relation": func() error {
				_, err := s.Link(ctx, casegraph.Relation{ID: id, Type: "MEMBER_OF", FromID: a.ID, ToID: b.ID, Status: casegraph.StatusReported,
					Dataset: ds, SourceIDs: []string{src.ID}})
				return err
			},
			"batch": func() error {
				_, err := s.WriteBatch(ctx, []casegraph.Source{{ID: id, Title: "Nameless", Dataset: ds}}, nil, nil)
				return err
			},
		}
		for kind, write := range writes {
			if code := casegraph.ErrorCode(write()); code != casegraph.CodeBadUserInput {
				t.Errorf("%s with the id %q: %s, want BAD_USER_INPUT", kind, id, code)
			}
		}
	}
	got, err := s.SourcesByID(ctx, []string{"", " "})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 {
		t.Errorf("sources written with malformed ids: %v", got)
	}
	n, err := s.CountEntities(ctx, casegraph.EntityFilter{Datasets: []string{ds}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.ReadEntities(ctx, []string{a.ID}, &casegraph.EntityRead{Relations: []casegraph.RelationsRead{
		{Filter: casegraph.RelationFilter{Direction: casegraph.DirectionBoth}, Page: casegraph.Page{First: 10}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 || len(res.Pages) != 1 || len(res.Pages[0].Result.Relations) != 0 {
		t.Errorf("after the refusals: %d entities, pages %+v; want the 2 written and no relation", n, res.Pages)
	}
}
