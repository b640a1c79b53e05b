// Package marshal writes the lists of a GraphQL answer: gqlgen's generated
// code calls Slice (graph/generate rewrites its calls to
// graphql.MarshalSliceConcurrently) for every list of objects.
//
// gqlgen marshals each element of such a list in a goroutine of its own,
// so that the resolvers under it that read through the request's loaders
// ask at once and are batched (a loader sends what was asked within a
// millisecond). Where what the list shows is already in hand (a compiled
// read brought it, and primed the loaders), the goroutines buy nothing
// and cost: each starts on a small stack and grows it, copying it, as the
// generated code descends (16% of the server's CPU on W2, an entity's 20
// relations with both ends; bench/README.md). Slice marshals a list in
// the caller's goroutine unless a field under it is resolved per object
// (those resolvers read through the loaders by design), and switches the
// rest of the list to gqlgen's way as soon as an element has had the
// loaders send a batch: its data was not in hand (a page the loaders
// read, whose relations' ends they must read too), and the others must
// then ask together.
package marshal

import (
	"context"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

// PerObject names the fields whose resolvers are called once for each
// object (not batch resolvers), by the type they are selected on (an
// object, or an interface one of whose implementations has such a
// resolver): type name, then field name. graph/generate writes the
// schema's, from gqlgen's own reading of it.
type PerObject map[string]map[string]bool

// Slice marshals a list of length elements with marshal: as gqlgen's
// MarshalSliceConcurrently (whose arguments it takes) when a field of the
// selection under the list (sel, with its fragments) is resolved per
// object, or when gqlgen.yml bounds its workers (worker_limit: none here);
// otherwise one element after the other while the count of
// batches the request's loaders have sent (fetches: loaders.Fetches)
// stays as it was, and every element after one that moved it at once.
func Slice(ctx context.Context, sel ast.SelectionSet, perObject PerObject, fetches func(context.Context) func() int64,
	length int, workerLimit int64, omitPanicHandler bool, marshal func(ctx context.Context, i int) graphql.Marshaler) graphql.Array {
	if length < 2 || workerLimit > 0 || readsPerObject(sel, perObject) {
		return graphql.MarshalSliceConcurrently(ctx, length, workerLimit, omitPanicHandler, marshal)
	}
	fetched := fetches(ctx)
	out := make(graphql.Array, length)
	for i := range length {
		sent := fetched()
		out[i] = element(ctx, i, omitPanicHandler, marshal)
		if fetched() != sent {
			atOnce(ctx, out, i+1, omitPanicHandler, marshal)
			break
		}
	}
	return out
}

// atOnce marshals the elements of out from the one at from on, each in a
// goroutine, as gqlgen does.
func atOnce(ctx context.Context, out graphql.Array, from int, omitPanicHandler bool, marshal func(ctx context.Context, i int) graphql.Marshaler) {
	var wg sync.WaitGroup
	for i := from; i < len(out); i++ {
		wg.Go(func() { out[i] = element(ctx, i, omitPanicHandler, marshal) })
	}
	wg.Wait()
}

// element marshals the element at i in its own field context, as gqlgen
// does: a panic becomes the element's error and a null.
func element(ctx context.Context, i int, omitPanicHandler bool, marshal func(ctx context.Context, i int) graphql.Marshaler) (out graphql.Marshaler) {
	ctx = graphql.WithFieldContext(ctx, &graphql.FieldContext{Index: &i})
	if !omitPanicHandler {
		defer func() {
			if r := recover(); r != nil {
				graphql.AddError(ctx, graphql.Recover(ctx, r))
				out = graphql.Null
			}
		}()
	}
	return marshal(ctx, i)
}

// readsPerObject says whether a field of sel, at any depth and through
// any fragment, is resolved per object.
func readsPerObject(sel ast.SelectionSet, perObject PerObject) bool {
	for _, s := range sel {
		switch s := s.(type) {
		case *ast.Field:
			if s.ObjectDefinition != nil && perObject[s.ObjectDefinition.Name][s.Name] {
				return true
			}
			if readsPerObject(s.SelectionSet, perObject) {
				return true
			}
		case *ast.InlineFragment:
			if readsPerObject(s.SelectionSet, perObject) {
				return true
			}
		case *ast.FragmentSpread:
			if s.Definition == nil || readsPerObject(s.Definition.SelectionSet, perObject) {
				return true
			}
		}
	}
	return false
}
