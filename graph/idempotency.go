package graph

// Idempotency keys: the field middleware that gives each mutation field of
// a request sent with an Idempotency-Key its own write key.

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	casegraph "github.com/casegraph/casegraph"
)

// IdempotentMutations is the handler extension (srv.Use) that puts
// mutationKey in the field middleware of a mutation sent with an
// Idempotency-Key, and of no other operation. As gqlgen's AroundFields it
// ran for every field of every request, a closure and a lookup in the
// context each: an answer of a nested read has thousands of fields, of
// which none is a mutation's.
type IdempotentMutations struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = IdempotentMutations{}

// ExtensionName names the extension.
func (IdempotentMutations) ExtensionName() string { return "IdempotentMutations" }

// Validate accepts any schema.
func (IdempotentMutations) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationContext wraps the field middleware of a mutation sent
// with an Idempotency-Key in mutationKey.
func (IdempotentMutations) MutateOperationContext(ctx context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil || oc.Operation.Operation != ast.Mutation {
		return nil
	}
	if _, ok := casegraph.IdempotencyKeyFrom(ctx); !ok {
		return nil
	}
	next := oc.ResolverMiddleware
	oc.ResolverMiddleware = func(ctx context.Context, resolve graphql.Resolver) (any, error) {
		return mutationKey(ctx, func(ctx context.Context) (any, error) { return next(ctx, resolve) })
	}
	return nil
}

// mutationKey is a field middleware that gives each mutation field
// of a request sent with an Idempotency-Key its own write key: the
// request's key and the field's alias (its name when it has none), with a
// hash of the field's name and arguments, and the hash of the request's
// mutation fields, to which the key is bound. A request of several
// mutations is so made of several writes, each made once; its retry (the
// same request, key and aliases) answers each field's first outcome.
func mutationKey(ctx context.Context, next graphql.Resolver) (any, error) {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || fc.Object != "Mutation" {
		return next(ctx)
	}
	key, ok := casegraph.IdempotencyKeyFrom(ctx)
	if !ok {
		return next(ctx)
	}
	// The arguments as parsed, after variables and defaults: a retry that
	// inlines what the first request sent as variables still matches.
	wk, err := casegraph.DeriveWriteKey(key, fc.Field.Alias, fc.Field.Name, fc.Args)
	if err != nil {
		return nil, err
	}
	// The key is the whole request's: bound to its mutation fields, so
	// that a request with other fields (whatever their aliases) is
	// refused, not made under the same key.
	oc := graphql.GetOperationContext(ctx)
	var fields []casegraph.OperationField
	for _, f := range graphql.CollectFields(oc, oc.Operation.SelectionSet, []string{"Mutation"}) {
		fields = append(fields, casegraph.OperationField{ResponseName: f.Alias, Name: f.Name, Args: f.ArgumentMap(oc.Variables)})
	}
	if wk.Operation, err = casegraph.OperationHash(fields); err != nil {
		return nil, err
	}
	wk.Request = key
	return next(casegraph.WithWriteKey(ctx, wk))
}
