package graph

// Relay's node(id) and nodes(ids): the nodes of every type the ids name,
// one statement per type.

import (
	"context"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/graph/model"
	"github.com/casegraph/casegraph/loaders"
)

// nodes answers node(id) and nodes(ids): the nodes the ids name, in their
// order, nil for each there is none of or the caller may not read (every
// read below applies the caller's scope, so the two look alike). One
// statement per type asked for: the entities with everything selected
// under them (as entity(id) reads them), the relations, the sources, the
// saved queries' and the kept views' versions. The entities are read with those of the
// operation's other root fields that name entities (rootEntities): one
// statement however many node, nodes and entity fields it has.
func (r *Resolver) nodes(ctx context.Context, refs []casegraph.NodeRef) ([]model.Node, error) {
	byType := map[casegraph.NodeType][]string{}
	var savedRefs, viewRefs []casegraph.NodeRef
	for _, ref := range refs {
		switch ref.Type {
		case casegraph.NodeSavedQuery:
			savedRefs = append(savedRefs, ref)
			continue
		case casegraph.NodeSavedView:
			viewRefs = append(viewRefs, ref)
			continue
		}
		byType[ref.Type] = append(byType[ref.Type], ref.ID)
	}
	found := map[casegraph.NodeType]map[string]model.Node{}
	if ids := byType[casegraph.NodeEntity]; len(ids) > 0 {
		res, err := r.rootEntities(ctx, ids)
		if err != nil {
			return nil, err
		}
		found[casegraph.NodeEntity] = map[string]model.Node{}
		for _, id := range ids {
			if e, ok := res.Roots[id]; ok {
				found[casegraph.NodeEntity][id] = toEntity(e)
			}
		}
	}
	if ids := byType[casegraph.NodeRelation]; len(ids) > 0 {
		rels, err := r.RelationStore.RelationsByID(ctx, ids)
		if err != nil {
			return nil, err
		}
		found[casegraph.NodeRelation] = map[string]model.Node{}
		for id, rel := range rels {
			found[casegraph.NodeRelation][id] = toRelation(rel)
		}
	}
	if ids := byType[casegraph.NodeSource]; len(ids) > 0 {
		srcs, err := loaders.Sources(ctx, ids)
		if err != nil {
			return nil, err
		}
		found[casegraph.NodeSource] = map[string]model.Node{}
		for id, s := range srcs {
			found[casegraph.NodeSource][id] = new(toSource(s))
		}
	}
	var saved map[string]casegraph.SavedQuery
	if len(savedRefs) > 0 {
		var err error
		if saved, err = r.SavedQueryStore.SavedQueryVersions(ctx, savedRefs); err != nil {
			return nil, err
		}
	}
	var views map[string]casegraph.SavedView
	if len(viewRefs) > 0 {
		var err error
		if views, err = r.SavedViewStore.SavedViewVersions(ctx, viewRefs); err != nil {
			return nil, err
		}
	}
	out := make([]model.Node, len(refs))
	for i, ref := range refs {
		switch ref.Type {
		case casegraph.NodeSavedQuery:
			if q, ok := saved[casegraph.SavedQueryNodeID(ref.ID, ref.Version)]; ok {
				out[i] = toSavedQuery(q)
			}
			continue
		case casegraph.NodeSavedView:
			if v, ok := views[casegraph.SavedViewNodeID(ref.ID, ref.Version)]; ok {
				out[i] = toSavedView(v)
			}
			continue
		}
		if n, ok := found[ref.Type][ref.ID]; ok {
			out[i] = n
		}
	}
	return out, nil
}
