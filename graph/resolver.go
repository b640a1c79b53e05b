// Package graph is Casegraph's GraphQL boundary: the schema (schema/*.graphqls),
// thin resolvers that call the store or a loader, the generated executor
// (generated/) and models (model/), and the glue between models and the
// domain types. It holds no Cypher and reads no records.
package graph

import (
	"context"

	casegraph "github.com/casegraph/casegraph"
)

// Store is what the resolvers need from the database; *cypher.Store has it.
type Store interface {
	EntitiesByID(ctx context.Context, ids []string) (map[string]casegraph.Entity, error)
}

// Resolver is the root resolver; one serves every request.
type Resolver struct {
	Store Store
}
