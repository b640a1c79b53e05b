package cypher

// What a view's save names, found through the read gate with the saver's
// rights: the entities and relations of its state and notes, by the ids
// the saver reads them by, and kept by real id (with the opaque ids a
// reader without clearance is shown them by), so that every reader is
// shown them through the gate again (viewshow.go).

import (
	"context"
	"fmt"
	"slices"
	"strings"

	casegraph "github.com/casegraph/casegraph"
)

// Statements of this file (statements/NAME.cypher.tmpl).
const (
	stmtViewEntityTargets   statement = "ViewEntityTargets"
	stmtViewRelationTargets statement = "ViewRelationTargets"
	stmtRelationsByOpaqueID statement = "RelationsByOpaqueID"
)

// viewTargets are the things a save names, by the key the saver named
// each by.
type viewTargets struct {
	entities, relations map[string]casegraph.ViewRef
}

// viewTargets looks up, with the caller's rights, every entity and
// relation the state and the notes name, and refuses the first the caller
// reads no such thing as (NOT_FOUND at its field: state.n[2],
// notes[0].targetId). A relation of a protected person hidden from the
// caller is named by its opaque id, and found among the relations of the
// protected people the view names. noteField is the field of note i in
// errors.
func (s *Store) viewTargets(ctx context.Context, state casegraph.ViewState, notes []casegraph.ViewNote, noteField func(i int) string) (viewTargets, error) {
	t := viewTargets{entities: map[string]casegraph.ViewRef{}, relations: map[string]casegraph.ViewRef{}}
	entityKeys, relationKeys := state.Keys()
	for _, n := range notes {
		if n.Target.Kind == casegraph.NodeRelation {
			relationKeys = append(relationKeys, n.Target.ID)
		} else {
			entityKeys = append(entityKeys, n.Target.ID)
		}
	}
	entityKeys, relationKeys = sortedOnce(entityKeys), sortedOnce(relationKeys)
	if len(entityKeys) > 0 {
		res, err := s.read(ctx, stmtViewEntityTargets, map[string]any{"keys": entityKeys})
		if err != nil {
			return t, err
		}
		for _, rec := range res.Records {
			key, id, opaque, err := refColumns(rec, "key", "id", "opaque")
			if err != nil {
				return t, internalError(string(stmtViewEntityTargets), err)
			}
			t.entities[key] = casegraph.ViewRef{ID: id, Opaque: opaque}
		}
	}
	if len(relationKeys) > 0 {
		res, err := s.read(ctx, stmtViewRelationTargets, map[string]any{"keys": relationKeys})
		if err != nil {
			return t, err
		}
		for _, rec := range res.Records {
			key, id, opaque, err := refColumns(rec, "key", "id", "opaque")
			end, _ := rec.Get("through")
			if err != nil {
				return t, internalError(string(stmtViewRelationTargets), err)
			}
			t.relations[key] = casegraph.ViewRef{ID: id, Opaque: opaque, End: stringOr(end)}
		}
	}
	// The relations named by an opaque id: among those of the protected
	// people the saver names by theirs.
	var opaque, ends []string
	for _, key := range relationKeys {
		if _, found := t.relations[key]; !found && strings.HasPrefix(key, casegraph.OpaqueIDPrefix) {
			opaque = append(opaque, key)
		}
	}
	for key, ref := range t.entities {
		if key == ref.Opaque {
			ends = append(ends, key)
		}
	}
	if len(opaque) > 0 && len(ends) > 0 {
		found, err := s.relationsByOpaqueID(ctx, slices.Sorted(slices.Values(ends)), opaque)
		if err != nil {
			return t, err
		}
		for key, f := range found {
			t.relations[key] = f.ref
		}
	}
	knows := func(names map[string]casegraph.ViewRef) func(string) bool {
		return func(key string) bool { _, ok := names[key]; return ok }
	}
	if err := state.Unknown(knows(t.entities), knows(t.relations)); err != nil {
		return t, err
	}
	for i, n := range notes {
		names, what := t.entities, "entity"
		if n.Target.Kind == casegraph.NodeRelation {
			names, what = t.relations, "relation"
		}
		if _, ok := names[n.Target.ID]; !ok {
			return t, casegraph.InField(noteField(i)+".targetId", casegraph.Errorf(casegraph.CodeNotFound, "no %s %q", what, n.Target.ID))
		}
	}
	return t, nil
}

// keep is the state and the notes in real ids, and the references of what
// they name, as a version keeps them.
func (t viewTargets) keep(state casegraph.ViewState, notes []casegraph.ViewNote) (casegraph.ViewState, []casegraph.ViewNote, viewRefs) {
	var refs viewRefs
	entity := func(key string) (string, bool) {
		ref, ok := t.entities[key]
		if ok {
			refs.Entities = append(refs.Entities, ref)
		}
		return ref.ID, ok
	}
	relation := func(key string) (string, bool) {
		ref, ok := t.relations[key]
		if ok {
			refs.Relations = append(refs.Relations, ref)
		}
		return ref.ID, ok
	}
	kept := state.Rename(entity, relation)
	out := make([]casegraph.ViewNote, len(notes))
	for i, n := range notes {
		if n.Target.Kind == casegraph.NodeRelation {
			n.Target.ID, _ = relation(n.Target.ID)
		} else {
			n.Target.ID, _ = entity(n.Target.ID)
		}
		out[i] = n
	}
	return kept, out, refs.with(viewRefs{})
}

// with is the references of both, each real id once (r's first).
func (r viewRefs) with(o viewRefs) viewRefs {
	once := func(lists ...[]casegraph.ViewRef) []casegraph.ViewRef {
		seen := map[string]bool{}
		out := []casegraph.ViewRef{}
		for _, l := range lists {
			for _, ref := range l {
				if !seen[ref.ID] {
					seen[ref.ID] = true
					out = append(out, ref)
				}
			}
		}
		return out
	}
	return viewRefs{Entities: once(r.Entities, o.Entities), Relations: once(r.Relations, o.Relations)}
}

// only is the references of what a kept state and its notes name.
func (r viewRefs) only(state casegraph.ViewState, notes []casegraph.ViewNote) viewRefs {
	entities, relations := state.Keys()
	for _, n := range notes {
		if n.Target.Kind == casegraph.NodeRelation {
			relations = append(relations, n.Target.ID)
		} else {
			entities = append(entities, n.Target.ID)
		}
	}
	keep := func(refs []casegraph.ViewRef, ids []string) []casegraph.ViewRef {
		return slices.DeleteFunc(slices.Clone(refs), func(ref casegraph.ViewRef) bool { return !slices.Contains(ids, ref.ID) })
	}
	return viewRefs{Entities: keep(r.Entities, entities), Relations: keep(r.Relations, relations)}
}

// opaqueRelation is a relation RelationsByOpaqueID found: as the caller
// is shown it, and as a view keeps it.
type opaqueRelation struct {
	shown casegraph.Relation
	ref   casegraph.ViewRef
}

// relationsByOpaqueID finds, by their opaque ids, relations of the
// protected people with the opaque ids ends, as a caller who may not see
// them reads them, by opaque id.
func (s *Store) relationsByOpaqueID(ctx context.Context, ends, opaque []string) (map[string]opaqueRelation, error) {
	res, err := s.read(ctx, stmtRelationsByOpaqueID, map[string]any{"ends": ends, "opaque": opaque})
	if err != nil {
		return nil, err
	}
	out := make(map[string]opaqueRelation, len(res.Records))
	for _, rec := range res.Records {
		key, id, end, err := refColumns(rec, "key", "id", "through")
		if err != nil {
			return nil, internalError(string(stmtRelationsByOpaqueID), err)
		}
		r, err := relationFromRecord(rec)
		if err != nil {
			return nil, err
		}
		out[key] = opaqueRelation{shown: r, ref: casegraph.ViewRef{ID: id, Opaque: key, End: end}}
	}
	return out, nil
}

// refColumns reads three string columns of a record (null is "").
func refColumns(rec interface{ Get(string) (any, bool) }, a, b, c string) (string, string, string, error) {
	var out [3]string
	for i, col := range []string{a, b, c} {
		v, ok := rec.Get(col)
		if !ok {
			return "", "", "", fmt.Errorf("no column %s", col)
		}
		out[i] = stringOr(v)
	}
	if out[0] == "" || out[1] == "" {
		return "", "", "", fmt.Errorf("%s or %s is null", a, b)
	}
	return out[0], out[1], out[2], nil
}

// stringOr is a string value, or "" for null.
func stringOr(v any) string {
	s, _ := v.(string)
	return s
}
