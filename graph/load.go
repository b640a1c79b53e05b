package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/graph/model"
	"github.com/casegraph/casegraph/loaders"
)

// Helpers the resolvers share; they read through the request's loaders.

// sources loads the sources with the ids, in their order; ids without a
// source (deleted since they were cited) are left out.
func sources(ctx context.Context, ids []string) ([]model.Source, error) {
	byID, err := loaders.Sources(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]model.Source, 0, len(ids))
	for _, id := range ids {
		if s, ok := byID[id]; ok {
			out = append(out, toSource(s))
		}
	}
	return out, nil
}

// relationsWindow checks the arguments of a relations field and returns
// the filter and page they ask for; the resolver and the compiled read
// (entityRead) both take them from here, so they name the same page.
func relationsWindow(types []model.RelationType, direction *model.Direction, w window) (casegraph.RelationFilter, casegraph.Page, error) {
	f := relationFilterOf(types, direction)
	page, err := pageOf("relations", relationsCursorKey(f), w)
	if err != nil {
		return f, page, err
	}
	return f, page, f.Validate()
}

// relationsCursorKey is what a relations cursor is bound to: the filter,
// not the entity, so a page's cursor works for the next page.
func relationsCursorKey(f casegraph.RelationFilter) loaders.RelationsKey {
	return loaders.NewRelationsKey("", f, casegraph.Page{})
}

// relations loads one page of an entity's relations.
func relations(ctx context.Context, entityID string, types []model.RelationType, direction *model.Direction, w window) (*model.RelationConnection, error) {
	f, page, err := relationsWindow(types, direction, w)
	if err != nil {
		return nil, err
	}
	cursorFilter := relationsCursorKey(f)
	p, err := loaders.Relations(ctx, entityID, f, page)
	if err != nil {
		return nil, err
	}
	cs, shows := newCursors("relations", cursorFilter), edgesShownAt(ctx)
	edges, info := connection(p.Relations, page, p.HasNext, func(_ int, r casegraph.Relation) (string, model.RelationEdge) {
		var c string
		if shows.cursors {
			c = cs.after(r.ID)
		}
		return c, relationEdge(c, entityID, r, shows.nodes)
	})
	return &model.RelationConnection{Edges: edges, TotalCount: int(p.Total), PageInfo: info}, nil
}

// edgesShown is what a connection's selection shows of its edges: a
// cursor (an edge's, or the page's first or last), an edge's node.
type edgesShown struct{ cursors, nodes bool }

// edgesShownAt is edgesShown of the connection field being resolved at
// ctx, with its fragments, aliases and directives as gqlgen collects
// them (of any type condition: a field that may show counts as shown);
// everything outside an operation. A page of relations builds what is
// shown only: a cursor (a checksum and an encoding) and a relation's
// model for each edge were 7% of the server's CPU on W3, which shows
// neither (bench/README.md).
func edgesShownAt(ctx context.Context) edgesShown {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || !graphql.HasOperationContext(ctx) {
		return edgesShown{cursors: true, nodes: true}
	}
	op := graphql.GetOperationContext(ctx)
	var s edgesShown
	for _, f := range graphql.CollectFields(op, fc.Field.Selections, nil) {
		switch f.Name {
		case "edges":
			for _, e := range graphql.CollectFields(op, f.Selections, nil) {
				s.cursors = s.cursors || e.Name == "cursor"
				s.nodes = s.nodes || e.Name == "node"
			}
		case "pageInfo":
			for _, p := range graphql.CollectFields(op, f.Selections, nil) {
				s.cursors = s.cursors || p.Name == "startCursor" || p.Name == "endCursor"
			}
		}
	}
	return s
}

// relationEdge is an edge of the relations of the entity with id
// entityID (as the caller sees it: a protected entity's opaque id, which
// the relation's ends then show too): the end that is not the entity is
// its neighbor, and which end that is its direction. Its node (the
// relation's model) is built when node says it is shown.
func relationEdge(cursor, entityID string, r casegraph.Relation, node bool) model.RelationEdge {
	e := model.RelationEdge{Cursor: cursor, Direction: model.DirectionOutgoing, NeighborID: r.ToID}
	if node {
		e.Node = toRelation(r)
	}
	if r.FromID != entityID {
		e.Direction, e.NeighborID = model.DirectionIncoming, r.FromID
	}
	return e
}

// relationEnds loads the entity that each of many objects names (id: the
// end of a relation or a step, an edge's neighbour, a pair's entity) in
// one call (gqlgen batch resolvers hand the whole list over at once). A
// missing end is an error for its item only. An entity at the end of many
// of them (the listed entity, at one end of each of its relations) is
// loaded and converted once, and its model shared.
func relationEnds[T any](ctx context.Context, objs []T, id func(T) string) ([]model.Entity, error) {
	at := make(map[string]int, len(objs)) // id -> its index in ids
	ids := make([]string, 0, len(objs))
	for _, o := range objs {
		if _, ok := at[id(o)]; !ok {
			at[id(o)] = len(ids)
			ids = append(ids, id(o))
		}
	}
	models := make([]model.Entity, len(ids))
	errs := make([]error, len(ids))
	for i, r := range loaders.Entities(ctx, ids) {
		switch {
		case r.Found:
			models[i] = toEntity(r.Value)
		case r.Err != nil:
			errs[i] = r.Err
		default:
			errs[i] = casegraph.Errorf(casegraph.CodeNotFound, "the entity %q at the end of a relation is gone", ids[i])
		}
	}
	out := make([]model.Entity, len(objs))
	var batchErrs graphql.BatchErrorList
	for i, o := range objs {
		j := at[id(o)]
		out[i] = models[j]
		if errs[j] != nil {
			if batchErrs == nil {
				batchErrs = make(graphql.BatchErrorList, len(objs))
			}
			batchErrs[i] = errs[j]
		}
	}
	if batchErrs != nil {
		return out, batchErrs
	}
	return out, nil
}

// sourceLists loads the sources of many relations in one call, each list in
// its order; ids without a source are left out.
func sourceLists(ctx context.Context, lists [][]string) ([][]model.Source, error) {
	var ids []string
	seen := map[string]bool{}
	for _, l := range lists {
		for _, id := range l {
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	byID, err := loaders.Sources(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([][]model.Source, len(lists))
	for i, l := range lists {
		out[i] = make([]model.Source, 0, len(l))
		for _, id := range l {
			if s, ok := byID[id]; ok {
				out[i] = append(out[i], toSource(s))
			}
		}
	}
	return out, nil
}
