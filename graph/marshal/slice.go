// Package marshal writes the lists of a GraphQL answer: gqlgen's generated
// code calls Slice (graph/generate rewrites its calls to
// graphql.MarshalSliceConcurrently) for every list of objects.
//
// gqlgen marshals each element of such a list in a goroutine of its own,
// so that resolvers that read per object (through the request's loaders)
// ask at once and are batched. Where nothing under the list reads per
// object, the goroutines buy nothing: the compiled read has already
// fetched what the list shows, and batch resolvers take the whole list at
// once. They cost: each goroutine starts on a small stack and grows it,
// copying it, as the generated code descends (a fifth of the server's CPU
// on W2, an entity's 20 relations with both ends; bench/README.md). Slice
// marshals such a list in the caller's goroutine, and the others as gqlgen
// does.
package marshal

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

// PerObject names the fields whose resolvers are called once for each
// object (not batch resolvers), by the type they are selected on (an
// object, or an interface one of whose implementations has such a
// resolver): type name, then field name. graph/generate writes the
// schema's, from gqlgen's own reading of it.
type PerObject map[string]map[string]bool

// Slice marshals a list of length elements with marshal, one after the
// other when nothing in the selection under the list (sel, with its
// fragments) is resolved per object, and as gqlgen's
// MarshalSliceConcurrently (whose arguments it takes) otherwise.
func Slice(ctx context.Context, sel ast.SelectionSet, perObject PerObject, length int, workerLimit int64, omitPanicHandler bool,
	marshal func(ctx context.Context, i int) graphql.Marshaler) graphql.Array {
	if length < 2 || readsPerObject(sel, perObject) {
		return graphql.MarshalSliceConcurrently(ctx, length, workerLimit, omitPanicHandler, marshal)
	}
	out := make(graphql.Array, length)
	for i := range length {
		out[i] = element(ctx, i, omitPanicHandler, marshal)
	}
	return out
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
