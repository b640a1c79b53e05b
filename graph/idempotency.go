package graph

// Idempotency keys: the field middleware that gives each mutation field of
// a request sent with an Idempotency-Key its own write key.

import (
	"context"

	"github.com/99designs/gqlgen/graphql"

	casegraph "github.com/casegraph/casegraph"
)

// IdempotentMutations is a field middleware that gives each mutation field
// of a request sent with an Idempotency-Key its own write key: the
// request's key and the field's alias (its name when it has none), with a
// hash of the field's name and arguments, and the hash of the request's
// mutation fields, to which the key is bound. A request of several
// mutations is so made of several writes, each made once; its retry (the
// same request, key and aliases) answers each field's first outcome.
func IdempotentMutations(ctx context.Context, next graphql.Resolver) (any, error) {
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
