package cypher

import (
	"cmp"
	"context"
	"errors"
	"maps"
	"slices"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
)

// The write gate (this file; the read gate is gate.go): every write,
// whatever surface it comes from (a GraphQL mutation, an import's batch
// over HTTP or from the command line, a merge, a dismissal, a deletion),
// passes one set of checks, in its own
// transaction, before it writes anything: the rules of gaterules.go, over
// what the transaction reads of the graph here. A caller that may write
// nothing at all (a reader, an anonymous caller) is refused first, before
// the database is asked anything, as is a row that needs nothing of the
// graph to be refused (a reserved id, a dataset the caller may not write);
// then each row is judged against what is stored. What was judged holds
// at the commit: the entities a write changes or removes are locked before
// they are read, its relation ids taken in the registry of relation ids
// (RelationStates), the sources it cites, writes or deletes locked
// (LockSources; an import's batch, which only cites them, locks them
// late, after its gate's reads and its entities, and compares them then
// with what was judged: HoldSources), and a relation's ends, read
// unlocked, are checked again by the statement that links them once it
// has locked them. A thing the caller may not read is judged as missing:
// an end or a target NOT_FOUND, an id to create taken (CONFLICT), in the
// same words as for another dataset's, and no refusal names what the
// caller may not read.

// Statements of this file (statements/NAME.cypher.tmpl).
const (
	stmtEntityStates   statement = "EntityStates"
	stmtRelationStates statement = "RelationStates"
	stmtSourceStates   statement = "SourceStates"
)

// writeGateUngated: the write gate's look-ups, which read what is stored
// whoever asks, for the gate to judge in Go; nothing of it goes back to
// the caller but the gate's refusals, which name only what it may read.
func writeGateUngated() ungated {
	return ungated{
		stmtEntityStates:   "the write gate's look-up (and lock) of the entities a write names, judged in Go",
		stmtRelationStates: "the write gate's look-up (and lock) of the relation ids a write names, judged in Go",
		stmtSourceStates:   "the write gate's look-up of the sources a write names, judged in Go",
	}
}

// gateChunk bounds the ids of one lookup of the gate.
const gateChunk = 10000

// gatePlan is everything one write will do, for the gate: the rows it
// creates or updates (casegraph.Writes), and the ids of what it changes
// or removes as it is (a merge's entities, a deletion's target).
type gatePlan struct {
	casegraph.Writes
	// expected is the version a single entity's upsert names, or nil.
	expected *int64
	// The entities, relations and sources the write changes or removes by
	// id: each must exist for the caller (gate.entity and its likes).
	entityIDs, relationIDs, sourceIDs []string
	// holdSourcesLate: the write locks the sources it cites late
	// (gate.holdSources, which it must then call before it locks any
	// relation's ends, and before it commits), not before it looks at
	// them. Only for a write that neither writes nor deletes sources
	// (ApplyWrites of entities and relations).
	holdSourcesLate bool
}

// planOf is the plan of rows, copied: the gate settles them (a protection
// kept, an end merged away), and the caller's own stay as they are.
func planOf(w casegraph.Writes) *gatePlan {
	w.Sources, w.Entities, w.Relations = slices.Clone(w.Sources), slices.Clone(w.Entities), slices.Clone(w.Relations)
	return &gatePlan{Writes: w}
}

// rows counts the rows the plan writes.
func (p *gatePlan) rows() int { return len(p.Sources) + len(p.Entities) + len(p.Relations) }

// gateMode is how the gate reads the graph.
type gateMode bool

const (
	// gateWrite, in a write's transaction: lock what it reads (entities,
	// relation ids) before reading it.
	gateWrite gateMode = true
	// gateCheck, an import's check before it writes: read only.
	gateCheck gateMode = false
)

// gate is one write's pass through the gate: the caller, and what is
// stored under every id the write names, as the gate read it.
type gate struct {
	ctx       context.Context
	caller    casegraph.Principal
	into      string
	entities  map[string]entityState
	relations map[string]storedRelation
	sources   map[string]casegraph.Source
	// ends are the stored entities that relations' ends were judged to
	// name (by the id they are written with).
	ends map[string]casegraph.Entity
	// planned is what the write itself holds: the kinds of its entities,
	// its sources (an end or a citation that the write creates).
	planned map[string]casegraph.Kind
	// plannedMore is the kind of an entity that the rest of a write too
	// large to hold holds (casegraph.MoreWrites.Kind), or nil.
	plannedMore    func(id string) (casegraph.Kind, bool)
	plannedSources map[string]bool
	// written are the sources the write itself holds, as it writes them
	// (what its citations are graded by, over what is stored).
	written map[string]casegraph.Source
	// citable is every source the write's citations are graded by
	// (graded): written over sources, made on first use.
	citable map[string]casegraph.Source
	// holdLate: the write locks the sources it cites late, and has not
	// yet (gatePlan.holdSourcesLate): held are those, in id order, and
	// cited the datasets whose claims cite each, noted with the locks
	// (note).
	holdLate bool
	held     []string
	cited    citingDatasets
}

// entityState is what is stored under an id: the entity of that id, or
// the survivor of an id merged away (nil when none).
type entityState struct{ entity, survivor *casegraph.Entity }

// storedRelation is a stored relation as the gate read it: the relation
// (ends by real id), its content hash, and its ends' rights.
type storedRelation struct {
	casegraph.Relation
	hash     string
	from, to casegraph.Entity // dataset and protection only
}

// newGate starts a write's pass: the caller's, refused when it may write
// nothing at all (before anything about the data is looked up).
func newGate(ctx context.Context, p *gatePlan) (*gate, error) {
	caller, err := casegraph.Caller(ctx)
	if err != nil {
		return nil, err
	}
	if err := caller.MayWrite(); err != nil {
		return nil, err
	}
	g := &gate{ctx: ctx, caller: caller, into: p.Dataset, entities: map[string]entityState{},
		relations: map[string]storedRelation{}, sources: map[string]casegraph.Source{}, ends: map[string]casegraph.Entity{},
		planned: map[string]casegraph.Kind{}, plannedSources: map[string]bool{}, written: map[string]casegraph.Source{}}
	for _, e := range p.Entities {
		if _, twice := g.planned[e.ID]; !twice { // the first holds; judge refuses another kind
			g.planned[e.ID] = e.Kind
		}
	}
	for _, src := range p.Sources {
		g.plannedSources[src.ID] = true
		g.written[src.ID] = src
	}
	return g, nil
}

// precheck is the gate before a mutation's transaction: the caller's
// right to write at all and the rows' checks that need nothing of the
// graph, asking the database nothing. The gate in the transaction
// (passGate) checks them again, with the rest.
func precheck(ctx context.Context, p *gatePlan) error {
	g, err := newGate(ctx, p)
	if err != nil {
		return err
	}
	if refused := g.early(p); len(refused) > 0 {
		return p.refusal(refused[0])
	}
	return nil
}

// passGate is the whole gate in a write's transaction: it locks and reads
// what the plan names, and judges every row. It returns the gate, whose
// states the write goes on with (and its audit record's "before"), or the
// first refusal.
func passGate(ctx context.Context, run txRunner, p *gatePlan) (*gate, error) {
	g, err := newGate(ctx, p)
	if err != nil {
		return nil, err
	}
	if refused := g.early(p); len(refused) > 0 {
		return nil, p.refusal(refused[0])
	}
	if err := g.load(run, p, gateWrite); err != nil {
		return nil, err
	}
	if refused := g.judge(p, nil, newRepeats(p.Writes)); len(refused) > 0 {
		return nil, p.refusal(refused[0])
	}
	return g, nil
}

// refusal is the error a write answers for a refused row: the row's own
// error for a write of one row (a mutation), else one that says which.
func (p *gatePlan) refusal(r casegraph.Refusal) error {
	if p.rows() <= 1 {
		return r.Err
	}
	return r.Coded()
}

// CheckWrites judges a whole write (an import's file) as the gate would
// in its transaction, without writing or locking anything, and returns
// every refusal (none: the write would pass, unless the graph changes
// before it is written; the gate of each batch's transaction has the last
// word). It lets an import refuse a file whole, every bad row listed,
// before it writes any of it. It judges the rows checkChunk at a time,
// each chunk in a read transaction against what it names of the graph
// (copied for the gate to settle), so that a file of millions of rows is
// not held in memory again, with its states, beside the caller's rows;
// what spans chunks (the kinds of the write's entities, the sources it
// writes, ids it gives twice) is the whole write's.
//
// more, when not nil, yields more of the write's entities and relations,
// a part at a time, after w's (a file too large to hold, read again:
// dataset.ReadFile); their refusals count their rows on from w's entities
// and relations (Index). Those rows must not give an id that w or another
// of them gives: the caller has refused such rows already (dataset.Check),
// and nothing of them is remembered here, so that their millions of ids
// are not held.
func (s *Store) CheckWrites(ctx context.Context, w casegraph.Writes, more *casegraph.MoreWrites) ([]casegraph.Refusal, error) {
	all := &gatePlan{Writes: w} // read only: each chunk is copied (planOf)
	g, err := newGate(ctx, all)
	if err != nil {
		return nil, err
	}
	var moreEntities func(func([]casegraph.Entity) error) error
	var moreRelations func(func([]casegraph.Relation) error) error
	if more != nil {
		g.plannedMore, moreEntities, moreRelations = more.Kind, more.Entities, more.Relations
	}
	seen := newRepeats(w)
	var refused []casegraph.Refusal
	// judge judges a chunk whose first row is row start of its kind: its
	// rows that need nothing of the graph to be refused (early), then the
	// rest against what a read transaction of its own reads (the driver
	// keeps every statement's parameters until its transaction ends, so
	// that one transaction for a file of millions of relations held all
	// their ids and types again).
	judge := func(chunk casegraph.Writes, start int) error {
		p := planOf(chunk)
		skip := g.early(p)
		g.forget()
		if err := s.inRead(ctx, "CheckWrites", func(run txRunner) error { return g.load(run, p, gateCheck) }); err != nil {
			return err
		}
		for _, r := range append(skip, g.judge(p, skip, seen)...) {
			r.Index += start
			refused = append(refused, r)
		}
		return nil
	}
	err = inChecks(w.Sources, nil, func(rows []casegraph.Source) casegraph.Writes {
		return casegraph.Writes{Dataset: w.Dataset, Sources: rows}
	}, judge)
	if err == nil {
		err = inChecks(w.Entities, moreEntities, func(rows []casegraph.Entity) casegraph.Writes {
			return casegraph.Writes{Dataset: w.Dataset, Entities: rows}
		}, judge)
	}
	if err == nil {
		err = inChecks(w.Relations, moreRelations, func(rows []casegraph.Relation) casegraph.Writes {
			return casegraph.Writes{Dataset: w.Dataset, Relations: rows}
		}, judge)
	}
	if err != nil {
		return nil, err
	}
	g.forget()
	order := map[casegraph.RowKind]int{casegraph.RowSource: 0, casegraph.RowEntity: 1, casegraph.RowRelation: 2}
	slices.SortStableFunc(refused, func(a, b casegraph.Refusal) int {
		return cmp.Or(cmp.Compare(order[a.Kind], order[b.Kind]), cmp.Compare(a.Index, b.Index))
	})
	return refused, nil
}

// checkChunk bounds the rows CheckWrites judges at once.
var checkChunk = 50000

// inChecks calls judge with rows, then with every part that more yields
// (when not nil), checkChunk rows at a time, each chunk as the Writes of
// holds it, with the place of its first row among them all.
func inChecks[T any](rows []T, more func(func([]T) error) error, of func([]T) casegraph.Writes,
	judge func(chunk casegraph.Writes, start int) error) error {
	start := 0
	chunks := func(rows []T) error {
		for k := 0; k < len(rows); k += checkChunk {
			if err := judge(of(rows[k:min(k+checkChunk, len(rows))]), start+k); err != nil {
				return err
			}
		}
		start += len(rows)
		return nil
	}
	if err := chunks(rows); err != nil || more == nil {
		return err
	}
	return more(chunks)
}

// forget drops what the gate read of the graph (its states, not what the
// write holds), for CheckWrites's next chunk.
func (g *gate) forget() {
	clear(g.entities)
	clear(g.relations)
	clear(g.sources)
	clear(g.ends)
	g.citable = nil
}

// inRead runs fn in one read transaction, whose statements read what is
// stored whoever asks (inTx).
func (s *Store) inRead(ctx context.Context, name string, fn func(run txRunner) error) error {
	release, err := s.admit(ctx, light)
	if err != nil {
		return err
	}
	defer release()
	session, err := s.session(ctx, neo4j.AccessModeRead)
	if err != nil {
		return err
	}
	defer session.Close(ctx)
	tx, err := session.BeginTransaction(ctx, neo4j.WithTxTimeout(remaining(ctx)))
	if err != nil {
		return mapError(ctx, name, err)
	}
	defer tx.Close(ctx)
	err = fn(s.inTx(ctx, tx))
	var coded *casegraph.Error
	if err == nil || errors.As(err, &coded) {
		return err
	}
	return mapError(ctx, name, err)
}

// load reads what is stored under every id the plan names: its entities,
// its relations' ends and ids, the sources it writes, cites or removes.
// A write's gate (gateWrite) first locks the entities it writes or removes
// and takes its relation ids in the :RelationId registry, each in id
// order, entities first. A relation's ends are read without a lock (a
// hub's would queue every import behind another): the statement that
// links them locks them, and refuses the write when one has changed since
// it was judged (gate.seen).
func (g *gate) load(run txRunner, p *gatePlan, mode gateMode) error {
	var written, ends, sourceIDs []string
	for _, src := range p.Sources {
		sourceIDs = append(sourceIDs, src.ID)
	}
	for _, e := range p.Entities {
		written = append(written, e.ID)
		sourceIDs = append(sourceIDs, casegraph.CitedSourceIDs(e.Cited())...)
	}
	written = append(written, p.entityIDs...)
	relations := make([]map[string]any, 0, len(p.Relations)+len(p.relationIDs))
	for _, r := range p.Relations {
		ends = append(ends, r.FromID, r.ToID)
		relations = append(relations, map[string]any{"id": r.ID, "type": string(r.Type)})
		sourceIDs = append(sourceIDs, casegraph.CitedSourceIDs(r.Cited())...)
	}
	for _, id := range p.relationIDs {
		relations = append(relations, map[string]any{"id": id, "type": nil}) // of any type
	}
	sourceIDs = append(sourceIDs, p.sourceIDs...)

	written = sortedOnce(written)
	if err := inChunks(run, stmtEntityStates.inGate(mode), "ids", written, g.readEntity); err != nil {
		return err
	}
	ends = slices.DeleteFunc(sortedOnce(ends), func(id string) bool { _, read := slices.BinarySearch(written, id); return read })
	if err := inChunks(run, stmtEntityStates+"/ends", "ids", ends, g.readEntity); err != nil {
		return err
	}
	slices.SortFunc(relations, func(a, b map[string]any) int { return cmp.Compare(a["id"].(string), b["id"].(string)) })
	if err := inChunks(run, stmtRelationStates.inGate(mode), "rows", relations, g.readRelation); err != nil {
		return err
	}
	sourceIDs = sortedOnce(sourceIDs)
	switch {
	case mode == gateWrite && p.holdSourcesLate && len(p.Sources) == 0 && len(p.sourceIDs) == 0:
		// Locked late (holdSources), and what is read here unlocked is
		// compared then with what they are.
		g.holdLate, g.held, g.cited = true, sourceIDs, citingDatasets{}
	case mode == gateWrite:
		// A write that cites a source and deleteSource both lock it (in
		// id order) before they look: whichever comes second waits, then
		// sees what the first did, so no citation outlives its source.
		if err := inChunks(run, stmtLockSources, "ids", sourceIDs, func(*neo4j.Record) error { return nil }); err != nil {
			return err
		}
	}
	return inChunks(run, stmtSourceStates, "ids", sourceIDs, g.readSource)
}

// staleJudgement is the error of a write whose gate judged something
// that changed before the write held it: the transaction is rolled back
// and tried again (classifyWriteError), its gate judging anew; should
// the retries run out, the caller has err, a coded error.
type staleJudgement struct{ err error }

func (s staleJudgement) Error() string { return s.err.Error() }
func (s staleJudgement) Unwrap() error { return s.err }

// holdSources locks the sources a write cites late (gate.holdLate; for
// any other write, or once it has, it does nothing): in id order
// (HoldSources), noting the datasets citing them (note), and compares
// each with what the gate judged the write by. A source deleted since, or
// changed, makes the write CONFLICT and, a staleJudgement, tried again:
// its gate then refuses a citation of a source gone (BAD_USER_INPUT) or
// grades by the source as it is.
// deleteSource locks a source before it looks for what cites it, so once
// this holds them, nothing the write judged of its sources can change
// before it commits, and a deletion that came first has been seen here
// (one that holds the lock when this looks is waited for: the seek of
// the source's id waits for its commit, then finds none).
//
// Late, but before a relation's ends (CreateRelations, UpdateRelations):
// every write takes its entities, relation ids, sources and then ends in
// that order (a link: LockSources, then UpsertRelation's ends), so a
// batch and a link that share a source and an end queue rather than
// deadlock. Taken after the ends, Neo4j reported 116 to 124 deadlocks in
// TestBatchBesideLinks' 160 writes; taken here, none.
func (g *gate) holdSources(run txRunner) error {
	if !g.holdLate {
		return nil
	}
	g.holdLate = false // what is noted from now on is noted at once
	rows := make([]map[string]any, len(g.held))
	for i, id := range g.held {
		rows[i] = map[string]any{"id": id, "datasets": slices.Sorted(maps.Keys(g.cited[id]))}
	}
	now := make(map[string]casegraph.Source, len(g.held))
	if err := inChunks(run, stmtHoldSources, "rows", rows, func(rec *neo4j.Record) error {
		src, err := sourceFrom(rec)
		now[src.ID] = src
		return err
	}); err != nil {
		return err
	}
	for _, id := range g.held {
		judged, was := g.sources[id]
		if is, ok := now[id]; ok != was || is != judged {
			return staleJudgement{casegraph.Errorf(casegraph.CodeConflict,
				"source %q changed while this write was written: send it again", id)}
		}
	}
	return nil
}

// note records the datasets whose claims the write makes cite each
// source (citingDatasets.note): now, or, for a write that locks its
// sources late and has not yet, with those locks (holdSources).
func (g *gate) note(run txRunner, cited citingDatasets) error {
	if !g.holdLate {
		return cited.note(run)
	}
	for id, datasets := range cited {
		if g.cited[id] == nil {
			g.cited[id] = map[string]bool{}
		}
		maps.Copy(g.cited[id], datasets)
	}
	return nil
}

// sortedOnce sorts ids and drops those given twice.
func sortedOnce(ids []string) []string {
	slices.Sort(ids)
	return slices.Compact(ids)
}

// inChunks runs a lookup of a list (in the order given, at most gateChunk
// a statement, as the parameter named param) and reads each record it
// returns.
func inChunks[T any](run txRunner, stmt statement, param string, list []T, read func(*neo4j.Record) error) error {
	for start := 0; start < len(list); start += gateChunk {
		recs, err := run(stmt, map[string]any{param: list[start:min(start+gateChunk, len(list))]})
		if err != nil {
			return err
		}
		for _, rec := range recs {
			if err := read(rec); err != nil {
				return internalError(stmt, err)
			}
		}
	}
	return nil
}

func (g *gate) readEntity(rec *neo4j.Record) error {
	key, err := getString(rec, "key")
	if err != nil {
		return err
	}
	var st entityState
	for col, dst := range map[string]**casegraph.Entity{"entity": &st.entity, "survivor": &st.survivor} {
		m, err := getMap(rec, col)
		if err != nil {
			return err
		}
		if m == nil {
			continue
		}
		e, err := entityFromMap(m)
		if err != nil {
			return err
		}
		*dst = &e
	}
	g.entities[key] = st
	return nil
}

func (g *gate) readRelation(rec *neo4j.Record) error {
	m, err := getMap(rec, "relation")
	if err != nil {
		return err
	}
	var st storedRelation
	if st.Relation, err = relationFromMap(m); err != nil {
		return err
	}
	if st.hash, err = getString(rec, "hash"); err != nil {
		return err
	}
	for _, end := range []struct {
		e       *casegraph.Entity
		ds, pro string
	}{{&st.from, "fromDataset", "fromProtected"}, {&st.to, "toDataset", "toProtected"}} {
		if end.e.Dataset, err = getString(rec, end.ds); err != nil {
			return err
		}
		if end.e.Protected, _, err = neo4j.GetRecordValue[bool](rec, end.pro); err != nil {
			return err
		}
	}
	g.relations[st.ID] = st
	return nil
}

func (g *gate) readSource(rec *neo4j.Record) error {
	src, err := sourceFrom(rec)
	if err != nil {
		return err
	}
	g.sources[src.ID] = src
	return nil
}

// gateVariants renders a gate lookup for a write (NAME/write: it locks or
// takes what it reads first; .Lock and .Claim are set), for a check
// (NAME/check) and, for EntityStates, for relations' ends (NAME/ends).
func gateVariants(name statement) func() []variant {
	return func() []variant {
		data := func(locks, ends bool) map[string]any {
			return map[string]any{"Types": vocabularyData().Types, "Lock": locks, "Claim": locks, "Ends": ends}
		}
		out := []variant{{Name: name.inGate(gateWrite), Data: data(true, false)}, {Name: name.inGate(gateCheck), Data: data(false, false)}}
		if name == stmtEntityStates {
			out = append(out, variant{Name: name + "/ends", Data: data(false, true)})
		}
		return out
	}
}

// inGate names the variant of a gate lookup for the mode.
func (name statement) inGate(mode gateMode) statement {
	if mode == gateWrite {
		return name + "/write"
	}
	return name + "/check"
}
