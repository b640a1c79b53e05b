package loaders

import (
	"context"
	"errors"

	"github.com/vikstrous/dataloadgen"

	casegraph "github.com/casegraph/casegraph"
)

// What resolvers call: each function reads through the loaders of the
// request in ctx (it panics when there are none: a wiring bug), and
// reports a missing key as found == false, not as the batching library's
// error.

// Result is what a batch load found for one key.
type Result[V any] struct {
	Value V
	// Found is false when there is no such key (and Err is nil).
	Found bool
	// Err is why the load failed for this key.
	Err error
}

// Entity returns the entity with the id, or the one it was merged into;
// found is false when there is none.
func Entity(ctx context.Context, id string) (e casegraph.Entity, found bool, err error) {
	return loadOne(ctx, forRequest(ctx).entity, id)
}

// Entities loads the entities with the ids in one batch; the results are
// in the order of the ids.
func Entities(ctx context.Context, ids []string) []Result[casegraph.Entity] {
	return loadAll(ctx, forRequest(ctx).entity, ids)
}

// Source returns the source with the id; found is false when there is
// none.
func Source(ctx context.Context, id string) (s casegraph.Source, found bool, err error) {
	return loadOne(ctx, forRequest(ctx).source, id)
}

// Sources loads the sources with the ids in one batch, by id; an id without
// a source (deleted since it was cited) is absent. The error is the first
// of a load that failed.
func Sources(ctx context.Context, ids []string) (map[string]casegraph.Source, error) {
	out := make(map[string]casegraph.Source, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	for i, r := range loadAll(ctx, forRequest(ctx).source, ids) {
		if r.Err != nil {
			return nil, r.Err
		}
		if r.Found {
			out[ids[i]] = r.Value
		}
	}
	return out, nil
}

// Relations returns one page of an entity's relations; pages of several
// entities with the same filter and window are read in one round trip.
func Relations(ctx context.Context, entityID string, f casegraph.RelationFilter, page casegraph.Page) (casegraph.RelationPage, error) {
	return forRequest(ctx).relations.Load(ctx, NewRelationsKey(entityID, f, page))
}

// Prime puts entities and sources that a statement returned into the
// request's cache, so that their resolvers need no round trip.
func Prime(ctx context.Context, entities []casegraph.Entity, sources []casegraph.Source) {
	forRequest(ctx).prime(entities, sources)
}

// Read returns the result of the compiled read named key (any comparable
// value), running run the first time the request asks for it and holding
// what it returned in the request's cache (see hold).
func Read(ctx context.Context, key any, run func() (casegraph.ReadResult, error)) (casegraph.ReadResult, error) {
	l := forRequest(ctx)
	return l.reads.do(key, func() (casegraph.ReadResult, error) {
		res, err := run()
		if err == nil {
			l.hold(res)
		}
		return res, err
	})
}

// Hold puts what a compiled read returned into the request's cache.
func Hold(ctx context.Context, res casegraph.ReadResult) {
	forRequest(ctx).hold(res)
}

func loadOne[K comparable, V any](ctx context.Context, l *dataloadgen.Loader[K, V], key K) (V, bool, error) {
	v, err := l.Load(ctx, key)
	if errors.Is(err, dataloadgen.ErrNotFound) {
		return v, false, nil
	}
	return v, err == nil, err
}

func loadAll[K comparable, V any](ctx context.Context, l *dataloadgen.Loader[K, V], keys []K) []Result[V] {
	values, err := l.LoadAll(ctx, keys)
	out := make([]Result[V], len(keys))
	var itemErrs dataloadgen.ErrorSlice
	if err != nil && !errors.As(err, &itemErrs) {
		for i := range out {
			out[i].Err = err
		}
		return out
	}
	for i := range out {
		switch {
		case len(itemErrs) > i && errors.Is(itemErrs[i], dataloadgen.ErrNotFound):
		case len(itemErrs) > i && itemErrs[i] != nil:
			out[i].Err = itemErrs[i]
		default:
			out[i] = Result[V]{Value: values[i], Found: true}
		}
	}
	return out
}
