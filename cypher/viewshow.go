package cypher

// A kept view shown to a reader: everything it names read through the
// read gate with the reader's rights, by the reads nodes(ids) makes (the
// compiled read of entities, RelationsByID), and a relation of a
// protected person hidden from the reader through that person
// (RelationsByOpaqueID); then its state and notes shown in the ids the
// reader reads, without what the reader may not read
// (casegraph.SavedView.Show). Three statements at most, however many
// views are shown at once, the first two sent together.

import (
	"context"

	"golang.org/x/sync/errgroup"

	casegraph "github.com/casegraph/casegraph"
)

// showViews shows kept views to the caller.
func (s *Store) showViews(ctx context.Context, kept []keptView) ([]casegraph.SavedView, error) {
	var entityKeys, relationIDs []string
	for _, k := range kept {
		for _, ref := range k.refs.Entities {
			entityKeys = append(entityKeys, ref.ID)
			if ref.Opaque != "" {
				entityKeys = append(entityKeys, ref.Opaque)
			}
		}
		for _, ref := range k.refs.Relations {
			relationIDs = append(relationIDs, ref.ID)
		}
	}
	// The entities and the relations are read at once, each by its own
	// statement: neither needs the other's answer, and a view's read
	// waits for the slower of the two alone.
	read := casegraph.ReadResult{Roots: map[string]casegraph.Entity{}}
	byID := map[string]casegraph.Relation{}
	g, gctx := errgroup.WithContext(ctx)
	if entityKeys = sortedOnce(entityKeys); len(entityKeys) > 0 {
		g.Go(func() (err error) {
			read, err = s.ReadEntities(gctx, entityKeys, nil)
			return err
		})
	}
	if relationIDs = sortedOnce(relationIDs); len(relationIDs) > 0 {
		g.Go(func() (err error) {
			byID, err = s.RelationsByID(gctx, relationIDs)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	// What RelationsByID does not show the caller, and a caller without
	// clearance is shown by opaque id: the relations of protected people.
	var opaque, ends []string
	for _, k := range kept {
		for _, ref := range k.refs.Relations {
			if _, found := byID[ref.ID]; !found && ref.Opaque != "" && ref.End != "" {
				opaque, ends = append(opaque, ref.Opaque), append(ends, ref.End)
			}
		}
	}
	hidden := map[string]opaqueRelation{}
	if len(opaque) > 0 && !casegraph.ScopeFrom(ctx).Cleared {
		var err error
		if hidden, err = s.relationsByOpaqueID(ctx, sortedOnce(ends), sortedOnce(opaque)); err != nil {
			return nil, err
		}
	}

	entities := map[string]casegraph.Entity{}
	for _, e := range read.Roots {
		entities[e.ID] = e
	}
	relations := map[string]casegraph.Relation{}
	for _, r := range byID {
		relations[r.ID] = r
	}
	for _, h := range hidden {
		relations[h.shown.ID] = h.shown
	}
	out := make([]casegraph.SavedView, len(kept))
	for i, k := range kept {
		shownEntities := map[string]casegraph.Shown{}
		for _, ref := range k.refs.Entities {
			if e, ok := read.Roots[ref.ID]; ok {
				shownEntities[ref.ID] = casegraph.Shown{ID: e.ID, Hidden: e.Redacted}
			} else if e, ok := read.Roots[ref.Opaque]; ok && ref.Opaque != "" {
				shownEntities[ref.ID] = casegraph.Shown{ID: e.ID, Hidden: true}
			}
		}
		shownRelations := map[string]casegraph.Shown{}
		for _, ref := range k.refs.Relations {
			if r, ok := byID[ref.ID]; ok {
				shownRelations[ref.ID] = casegraph.Shown{ID: r.ID}
			} else if h, ok := hidden[ref.Opaque]; ok && ref.Opaque != "" && h.ref.ID == ref.ID {
				shownRelations[ref.ID] = casegraph.Shown{ID: h.shown.ID, Hidden: true}
			}
		}
		v := k.view.Show(shownEntities, shownRelations)
		ids, _ := v.State.Keys()
		v.Entities = make([]casegraph.Entity, 0, len(ids))
		for _, id := range ids {
			v.Entities = append(v.Entities, entities[id])
		}
		v.Relations = make([]casegraph.Relation, 0, len(v.State.Relations))
		for _, id := range v.State.Relations {
			v.Relations = append(v.Relations, relations[id])
		}
		out[i] = v
	}
	return out, nil
}
