package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"

	casegraph "github.com/casegraph/casegraph"
)

// IdempotentMutations is a field middleware that gives each mutation field
// of a request sent with an Idempotency-Key its own write key: the
// request's key and the field's alias (its name when it has none), with a
// hash of the field's name and arguments. A request of several mutations
// is so made of several writes, each made once; its retry (the same
// request, key and aliases) answers each field's first outcome.
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
	return next(casegraph.WithWriteKey(ctx, wk))
}
