package graph

import (
	"context"
	"errors"

	"github.com/vikstrous/dataloadgen"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/graph/model"
	"github.com/casegraph/casegraph/loaders"
)

// Helpers the resolvers share; they read through the request's loaders.

// entity loads one entity (or the one it was merged into); nil when there
// is none.
func entity(ctx context.Context, id string) (model.Entity, error) {
	e, err := loaders.For(ctx).Entity.Load(ctx, id)
	if errors.Is(err, dataloadgen.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return toEntity(e), nil
}

// relationEnd loads the entity at one end of a relation, which must exist.
func relationEnd(ctx context.Context, id string) (model.Entity, error) {
	e, err := entity(ctx, id)
	if err == nil && e == nil {
		return nil, casegraph.Errorf(casegraph.CodeNotFound, "the entity %q at the end of a relation is gone", id)
	}
	return e, err
}

// sources loads the sources with the ids, in their order; ids without a
// source (deleted since they were cited) are left out.
func sources(ctx context.Context, ids []string) ([]model.Source, error) {
	if len(ids) == 0 {
		return []model.Source{}, nil
	}
	found, err := loaders.For(ctx).Source.LoadAll(ctx, ids)
	out := make([]model.Source, 0, len(ids))
	var errs dataloadgen.ErrorSlice
	if errors.As(err, &errs) {
		for i, e := range errs {
			if e != nil && !errors.Is(e, dataloadgen.ErrNotFound) {
				return nil, e
			}
			if e == nil {
				out = append(out, toSource(found[i]))
			}
		}
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	for _, s := range found {
		out = append(out, toSource(s))
	}
	return out, nil
}

// relations loads one page of an entity's relations.
func relations(ctx context.Context, entityID string, types []model.RelationType, direction *model.Direction, first *int, after *string) (*model.RelationConnection, error) {
	f := relationFilterOf(types, direction)
	cursorFilter := loaders.NewRelationsKey("", f, casegraph.Page{})
	page, err := pageOf("relations", cursorFilter, first, after)
	if err != nil {
		return nil, err
	}
	p, err := loaders.For(ctx).Relations.Load(ctx, loaders.NewRelationsKey(entityID, f, page))
	if err != nil {
		return nil, err
	}
	conn := &model.RelationConnection{
		Edges:      make([]model.RelationEdge, len(p.Relations)),
		TotalCount: int(p.Total),
		PageInfo:   &model.PageInfo{HasNextPage: p.HasNext},
	}
	for i, r := range p.Relations {
		conn.Edges[i] = model.RelationEdge{Cursor: encodeCursor("relations", cursorFilter, r.ID), Node: toRelation(r)}
	}
	if n := len(p.Relations); n > 0 {
		conn.PageInfo.EndCursor = &conn.Edges[n-1].Cursor
	}
	return conn, nil
}
