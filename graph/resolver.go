// Package graph is Casegraph's GraphQL boundary: the schema (schema/*.graphqls),
// thin resolvers that call a loader or the store, the generated executor
// (generated/) and models (model/), and the glue between models and the
// domain types. It holds no Cypher and reads no records.
package graph

import (
	"context"
	"encoding/json"

	"github.com/99designs/gqlgen/graphql"

	"github.com/casegraph/casegraph/graph/generated"
)

// QueryRunner checks and runs saved queries' documents in-process, as the
// server would run them (the server provides it).
type QueryRunner interface {
	Check(ctx context.Context, document string, defaults json.RawMessage) error
	Run(ctx context.Context, document string, variables json.RawMessage) *graphql.Response
}

// Resolver is the root resolver; one serves every request. Per-request
// state (the loaders) travels in the context. Each resolver calls the
// store of its noun (stores.go).
type Resolver struct {
	Stores
	Queries QueryRunner
	// Watches serve subscriptions; nil in a saved query's schema.
	Watches Watches
}

// NewSchema returns the executable schema over the stores, with the
// complexity of list fields weighted by the page size they ask for.
// queries may be nil in the schema a saved query runs on: a run neither
// saves queries (it runs queries only) nor runs another saved query.
// watches may be nil where no subscription is served.
func NewSchema(stores Stores, queries QueryRunner, watches Watches) graphql.ExecutableSchema {
	return generated.NewExecutableSchema(generated.Config{
		Resolvers:  &Resolver{Stores: stores, Queries: queries, Watches: watches},
		Complexity: complexity(),
	})
}
