package cypher

import (
	"fmt"
	"slices"
	"strings"

	casegraph "github.com/casegraph/casegraph"
)

// The rules of the write gate (writegate.go), row by row: early, those that
// need nothing of the graph; judge, those against what is stored; and the
// targets of a write that changes or removes something as it is (entity,
// relation, source).

// early judges every row by what needs nothing of the graph: its ids are
// not of a reserved form, it belongs to the write's one dataset when the
// write has one, and the caller may write its dataset (so that a dataset
// it may not write is refused before any existence is revealed). An end
// of a relation named by a reserved id (an opaque one) names nothing a
// write can reach: NOT_FOUND, as any end the caller cannot see.
func (g *gate) early(p *gatePlan) []casegraph.Refusal {
	var out []casegraph.Refusal
	refuse := func(kind casegraph.RowKind, i int, err error) {
		if err != nil {
			out = append(out, casegraph.Refusal{Kind: kind, Index: i, Err: err})
		}
	}
	for i, src := range p.Sources {
		refuse(casegraph.RowSource, i, g.row("source", src.ID, src.Dataset))
	}
	for i, e := range p.Entities {
		refuse(casegraph.RowEntity, i, g.row("entity", e.ID, e.Dataset))
	}
	for i, r := range p.Relations {
		err := g.row("relation", r.ID, r.Dataset)
		if err == nil {
			_, err = casegraph.Spec(r.Type)
		}
		for _, end := range []struct{ field, id string }{{"from", r.FromID}, {"to", r.ToID}} {
			if err == nil && casegraph.IsReservedID(end.id) {
				err = noEntity(end.field, end.id)
			}
		}
		refuse(casegraph.RowRelation, i, err)
	}
	return out
}

// row is early's rule for any row: its id (of the form every id has, and
// not of a reserved one: the edges check it too, and the store's own
// callers, the operator's commands and tests, are held to it here), its
// dataset.
func (g *gate) row(what, id, dataset string) error {
	if err := casegraph.ValidateID("id", id); err != nil {
		return err
	}
	if err := casegraph.CheckNewID("id", id); err != nil {
		return err
	}
	if g.into != "" && dataset != g.into {
		return casegraph.Errorf(casegraph.CodeBadUserInput, "a %s of dataset %q; this import is into %q", what, dataset, g.into)
	}
	return casegraph.CheckWrite(g.ctx, dataset)
}

// judge judges every row that early let through (refused lists those it
// did not) against what load read, and settles them for the write: an
// entity's protection kept, a relation's ends merged away named by their
// survivors. seen is what it remembers of ids given more than once, over
// every part of one write that it judges (CheckWrites's chunks).
func (g *gate) judge(p *gatePlan, refused []casegraph.Refusal, seen *repeats) []casegraph.Refusal {
	skip := map[casegraph.RowKind]map[int]bool{}
	for _, r := range refused {
		if skip[r.Kind] == nil {
			skip[r.Kind] = map[int]bool{}
		}
		skip[r.Kind][r.Index] = true
	}
	var out []casegraph.Refusal
	refuse := func(kind casegraph.RowKind, i int, err error) {
		if err != nil {
			out = append(out, casegraph.Refusal{Kind: kind, Index: i, Err: err})
		}
	}
	for i := range p.Sources {
		if !skip[casegraph.RowSource][i] {
			refuse(casegraph.RowSource, i, g.upsertSource(p.Sources[i]))
		}
	}
	for i := range p.Entities {
		if !skip[casegraph.RowEntity][i] {
			e := &p.Entities[i]
			err := g.upsertEntity(e, p.expected)
			if seen.entities[e.ID] {
				if k, twice := seen.kinds[e.ID]; err == nil && twice && k != e.Kind {
					err = casegraph.Errorf(casegraph.CodeConflict, "entity %q is given twice, as a %s and as a %s", e.ID, k, e.Kind)
				}
				seen.kinds[e.ID] = e.Kind
			}
			refuse(casegraph.RowEntity, i, err)
		}
	}
	// A relation id given twice names one relation: the same type and ends.
	for i := range p.Relations {
		if !skip[casegraph.RowRelation][i] {
			r := &p.Relations[i]
			err := g.link(r)
			if seen.relations[r.ID] {
				first, twice := seen.given[r.ID]
				if err == nil && twice && (first.Type != r.Type || first.FromID != r.FromID || first.ToID != r.ToID) {
					err = casegraph.Errorf(casegraph.CodeConflict, "relation %q is given twice, as %s from %q to %q and as %s from %q to %q",
						r.ID, first.Type, first.FromID, first.ToID, r.Type, r.FromID, r.ToID)
				}
				if !twice && err == nil {
					seen.given[r.ID] = relationEnds{Type: r.Type, FromID: r.FromID, ToID: r.ToID}
				}
			}
			refuse(casegraph.RowRelation, i, err)
		}
	}
	return out
}

// repeats is what judge remembers of the entities and relations whose id
// a write gives more than once (entities, relations): the kind of the
// last entity of each judged, and the type and ends of the first relation
// of each that passed. Only those ids are remembered, so that a write of
// millions of distinct ids keeps nothing of them.
type repeats struct {
	entities, relations map[string]bool
	kinds               map[string]casegraph.Kind
	given               map[string]relationEnds
}

// relationEnds is what two rows of one relation id must agree on.
type relationEnds struct {
	Type         casegraph.RelationType
	FromID, ToID string
}

// newRepeats finds the ids that w gives more than once.
func newRepeats(w casegraph.Writes) *repeats {
	return &repeats{
		entities:  givenTwice(len(w.Entities), func(i int) string { return w.Entities[i].ID }),
		relations: givenTwice(len(w.Relations), func(i int) string { return w.Relations[i].ID }),
		kinds:     map[string]casegraph.Kind{},
		given:     map[string]relationEnds{},
	}
}

// givenTwice is the set of ids that the n rows (id(i) the id of row i)
// give more than once: by sorting the rows' places, not a set of every
// id.
func givenTwice(n int, id func(i int) string) map[string]bool {
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(id(int(a)), id(int(b))) })
	var out map[string]bool
	for k := 1; k < n; k++ {
		if x := id(int(order[k])); x == id(int(order[k-1])) {
			if out == nil {
				out = map[string]bool{}
			}
			out[x] = true
		}
	}
	return out
}

// sees says whether the caller may see a stored entity (its dataset, and
// clearance when it is protected).
func (g *gate) sees(e casegraph.Entity) bool { return casegraph.CanSee(g.ctx, e) }

// elsewhere says whether what is stored in dataset is out of the write's
// one dataset.
func (g *gate) elsewhere(dataset string) bool { return g.into != "" && dataset != g.into }

func taken(what, id string) error {
	return casegraph.Errorf(casegraph.CodeConflict, "the %s %q is taken; choose another", what, id)
}

func noEntity(field, id string) error {
	return casegraph.InField(field, casegraph.Errorf(casegraph.CodeNotFound, "no entity with id %q", id))
}

// upsertEntity: an id held by what the caller may not see (or, for a
// write into one dataset, by another dataset's) is taken; one the caller
// sees must be of the same kind, in a dataset it may write, not merged
// away, and at the version the write names; protection is kept when the
// write leaves it out, and set or lifted only with clearance; the sources
// cited must exist for the caller.
func (g *gate) upsertEntity(e *casegraph.Entity, expected *int64) error {
	st := g.entities[e.ID]
	switch {
	case st.entity != nil:
		old := st.entity
		if !g.sees(*old) || g.elsewhere(old.Dataset) {
			return taken("id", e.ID)
		}
		if err := casegraph.CheckWrite(g.ctx, old.Dataset); err != nil {
			return err
		}
		if old.Kind != e.Kind {
			return casegraph.Errorf(casegraph.CodeConflict, "entity %q is a %s; the kind of an entity never changes", e.ID, old.Kind)
		}
		if e.KeepProtection {
			e.Protected = old.Protected
		}
		if err := casegraph.CheckProtect(g.ctx, old.Protected, e.Protected); err != nil {
			return err
		}
		if expected != nil && *expected != old.Version {
			return casegraph.Errorf(casegraph.CodeConflict, "entity %q is at version %d, not %d: reload it and apply the change again", e.ID, old.Version, *expected)
		}
	case st.survivor != nil:
		if !g.sees(*st.survivor) || g.elsewhere(st.survivor.Dataset) {
			return taken("id", e.ID)
		}
		return casegraph.Errorf(casegraph.CodeConflict, "entity %q was merged into %q; update that one", e.ID, st.survivor.ID)
	default:
		if expected != nil {
			return casegraph.Errorf(casegraph.CodeNotFound, "no entity with id %q to update at version %d", e.ID, *expected)
		}
		if e.KeepProtection {
			e.Protected = false
		}
		if err := casegraph.CheckProtect(g.ctx, false, e.Protected); err != nil {
			return err
		}
	}
	return g.cites(e.Cited())
}

// link: both ends must exist for the caller (the write's own entities,
// or stored ones it may see; an id merged away names its survivor) and be
// of kinds the type may join; the sources cited must exist for it; and a
// relation id held by any relation (of any type) is taken, unless the
// caller may read that relation and it has this type and these ends.
func (g *gate) link(r *casegraph.Relation) error {
	spec, err := casegraph.Spec(r.Type)
	if err != nil {
		return err
	}
	from, fromKind, err := g.end("from", r.FromID)
	if err != nil {
		return err
	}
	to, toKind, err := g.end("to", r.ToID)
	if err != nil {
		return err
	}
	r.FromID, r.ToID = from, to
	if from == to {
		return casegraph.Errorf(casegraph.CodeBadUserInput, "from and to are the same entity, %q", from)
	}
	if err := spec.CheckKinds(fromKind, toKind); err != nil {
		return err
	}
	if err := g.cites(r.Cited()); err != nil {
		return err
	}
	old, ok := g.relations[r.ID]
	if !ok {
		return nil
	}
	if !g.reads(old) || g.elsewhere(old.Dataset) {
		return taken("relation id", r.ID)
	}
	if err := casegraph.CheckWrite(g.ctx, old.Dataset); err != nil {
		return err
	}
	if old.Type != r.Type || old.FromID != r.FromID || old.ToID != r.ToID {
		return casegraph.Errorf(casegraph.CodeConflict,
			"relation %q exists as %s from %q to %q; an id names one relation", r.ID, old.Type, old.FromID, old.ToID)
	}
	return nil
}

// end finds a relation's end: the id it is written with, and its kind.
func (g *gate) end(field, id string) (string, casegraph.Kind, error) {
	if kind, ok := g.planned[id]; ok {
		return id, kind, nil
	}
	if g.plannedMore != nil {
		if kind, ok := g.plannedMore(id); ok {
			return id, kind, nil
		}
	}
	st := g.entities[id]
	e := st.entity
	if e == nil {
		e = st.survivor
	}
	if e == nil || !g.sees(*e) {
		return "", "", noEntity(field, id)
	}
	g.ends[e.ID] = *e
	return e.ID, e.Kind, nil
}

// seen is a relation's end as the gate judged it, for the statement that
// links it to check, once it has locked it, that it has not changed its
// dataset or protection since ("endChanged" of statements/shared.tmpl): nil
// for an end the write itself holds.
func (g *gate) seen(id string) any {
	e, ok := g.ends[id]
	if !ok {
		return nil
	}
	return map[string]any{"dataset": e.Dataset, "protected": e.Protected}
}

// endsChanged refuses a write whose relation's end changed while it was
// written (changedEnds, a relation write's last guard).
func endsChanged(id string) error {
	return casegraph.Errorf(casegraph.CodeConflict, "an end of relation %q changed while it was written: send the write again", id)
}

// reads says whether the caller may read a stored relation: its dataset,
// and both ends.
func (g *gate) reads(r storedRelation) bool {
	return g.caller.CanRead(r.Dataset) && g.sees(r.from) && g.sees(r.to)
}

// cites: every source cited is the write's own, or stored and readable by
// the caller (one it may not read is as missing). A missing one is refused
// at its citation's field (citations[1].sourceId: the claim's citations
// as settled, which is how Validate names them too; sourceIds given the
// old way are its citations in their order), for a form to show it there.
func (g *gate) cites(cs []casegraph.Citation) error {
	for i, c := range cs {
		if g.plannedSources[c.SourceID] {
			continue
		}
		if src, ok := g.sources[c.SourceID]; !ok || !g.caller.CanRead(src.Dataset) {
			return casegraph.InField(fmt.Sprintf("citations[%d].sourceId", i),
				casegraph.Errorf(casegraph.CodeBadUserInput, "no source with id %q (create it first)", c.SourceID))
		}
	}
	return nil
}

// upsertSource: an id held in a dataset the caller may not read (or, for
// a write into one dataset, in another) is taken; one it reads must be in
// a dataset it may write.
func (g *gate) upsertSource(src casegraph.Source) error {
	old, ok := g.sources[src.ID]
	if !ok {
		return nil
	}
	if !g.caller.CanRead(old.Dataset) || g.elsewhere(old.Dataset) {
		return taken("source id", src.ID)
	}
	return casegraph.CheckWrite(g.ctx, old.Dataset)
}

// entity is the stored entity that a write changes or removes as it is (a
// merge's, a deletion's, a dismissal's; named in the plan's entityIDs):
// NOT_FOUND unless the caller may see it, FORBIDDEN unless it may write
// its dataset. An id merged away names nothing here.
func (g *gate) entity(id string) (casegraph.Entity, error) {
	st := g.entities[id]
	if st.entity == nil || !g.sees(*st.entity) {
		return casegraph.Entity{}, casegraph.Errorf(casegraph.CodeNotFound, "no entity with id %q", id)
	}
	return *st.entity, casegraph.CheckWrite(g.ctx, st.entity.Dataset)
}

// relation is entity for a stored relation (the plan's relationIDs):
// NOT_FOUND unless the caller may read it and both its ends.
func (g *gate) relation(id string) (casegraph.Relation, error) {
	r, ok := g.relations[id]
	if !ok || !g.reads(r) {
		return casegraph.Relation{}, casegraph.Errorf(casegraph.CodeNotFound, "no relation with id %q", id)
	}
	return r.Relation, casegraph.CheckWrite(g.ctx, r.Dataset)
}

// source is entity for a stored source (the plan's sourceIDs).
func (g *gate) source(id string) (casegraph.Source, error) {
	src, ok := g.sources[id]
	if !ok || !g.caller.CanRead(src.Dataset) {
		return casegraph.Source{}, casegraph.Errorf(casegraph.CodeNotFound, "no source %q", id)
	}
	return src, casegraph.CheckWrite(g.ctx, src.Dataset)
}
