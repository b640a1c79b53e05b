// Package graph is Casegraph's GraphQL boundary: the schema (schema/*.graphqls),
// thin resolvers that call a loader or the store, the generated executor
// (generated/) and models (model/), and the glue between models and the
// domain types. It holds no Cypher and reads no records.
package graph

import (
	"context"
	"encoding/json"

	"github.com/99designs/gqlgen/graphql"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/duplicate"
	"github.com/casegraph/casegraph/graph/generated"
)

// Store is what the resolvers need of the database beyond the loaders;
// *cypher.Store has it.
type Store interface {
	Entities(ctx context.Context, f casegraph.EntityFilter, order casegraph.EntityOrder, page casegraph.Page) ([]casegraph.Entity, []string, bool, error)
	CountEntities(ctx context.Context, f casegraph.EntityFilter) (int64, error)
	Sources(ctx context.Context, page casegraph.Page) ([]casegraph.Source, bool, error)
	CountSources(ctx context.Context) (int64, error)
	RelationsByID(ctx context.Context, ids []string) (map[string]casegraph.Relation, error)
	// ReadEntities reads entities and what read asks for under them in one
	// round trip (see readHere).
	ReadEntities(ctx context.Context, ids []string, read *casegraph.EntityRead) (casegraph.ReadResult, error)

	UpsertEntity(ctx context.Context, e casegraph.Entity, expected *int64) (casegraph.Entity, error)
	DeleteEntity(ctx context.Context, id string) (int64, error)
	MergeEntities(ctx context.Context, into string, from []string) (casegraph.Entity, error)
	Link(ctx context.Context, r casegraph.Relation) (casegraph.Relation, error)
	Unlink(ctx context.Context, id string) (casegraph.Relation, error)
	UpsertSource(ctx context.Context, s casegraph.Source) (casegraph.Source, error)

	Paths(ctx context.Context, from, to string, k int, f casegraph.PathFilter, o casegraph.PathOptions) ([]casegraph.Path, []casegraph.Source, error)
	Neighborhood(ctx context.Context, id string, depth, limit int, f casegraph.PathFilter, o casegraph.PathOptions) (casegraph.Subgraph, []casegraph.Source, error)
	Connections(ctx context.Context, ids []string, f casegraph.PathFilter, o casegraph.PathOptions) (casegraph.Subgraph, []casegraph.Source, error)
	CommonNeighbors(ctx context.Context, ids []string, limit int, f casegraph.PathFilter, o casegraph.PathOptions) (casegraph.CommonGround, []casegraph.Source, error)

	Search(ctx context.Context, words []string, f casegraph.SearchFilter, window int) ([]casegraph.SearchHit, error)
	SearchCounts(ctx context.Context, words []string, f casegraph.SearchFilter, facets bool) (casegraph.SearchCounts, error)
	Suggest(ctx context.Context, words []string, f casegraph.SearchFilter, window int) ([]casegraph.SearchHit, error)
	Timeline(ctx context.Context, id string, from, to casegraph.PartialDate) ([]casegraph.TimelineItem, []casegraph.Source, error)
	DatasetTimeline(ctx context.Context, q casegraph.DatasetTimelineQuery) ([]casegraph.TimelineItem, []casegraph.Source, bool, error)

	SaveQuery(ctx context.Context, q casegraph.SavedQuery) (casegraph.SavedQuery, error)
	SavedQuery(ctx context.Context, name string, version int64) (casegraph.SavedQuery, error)
	SavedQueryHistory(ctx context.Context, name string, limit int) ([]casegraph.SavedQuery, error)
	Datasets(ctx context.Context, name string) ([]casegraph.DatasetSummary, error)
	RemoveDataset(ctx context.Context, name string) (casegraph.DatasetDeletion, error)
	DeleteSource(ctx context.Context, id string) (casegraph.Source, error)
	SavedQueries(ctx context.Context, tag string, page casegraph.Page) ([]casegraph.SavedQuery, bool, error)
	CountSavedQueries(ctx context.Context, tag string) (int64, error)
	SavedQueryVersions(ctx context.Context, refs []casegraph.NodeRef) (map[string]casegraph.SavedQuery, error)
	DeleteSavedQuery(ctx context.Context, name string) (int64, error)

	DuplicateCandidates(ctx context.Context, q duplicate.Query) (duplicate.Page, error)
	DismissDuplicate(ctx context.Context, p duplicate.Pair) (duplicate.Dismissal, error)
	UndismissDuplicate(ctx context.Context, p duplicate.Pair) (bool, error)

	Changes(ctx context.Context, f casegraph.ChangeFilter, page casegraph.Page) ([]casegraph.Change, bool, error)
	CountChanges(ctx context.Context, f casegraph.ChangeFilter) (int64, error)

	CreateAPIKey(ctx context.Context, k casegraph.NewAPIKey, createdBy string) (casegraph.APIKey, string, error)
	APIKeys(ctx context.Context) ([]casegraph.APIKey, error)
	RevokeAPIKey(ctx context.Context, id string) (casegraph.APIKey, error)
}

// QueryRunner checks and runs saved queries' documents in-process, as the
// server would run them (the server provides it).
type QueryRunner interface {
	Check(ctx context.Context, document string, defaults json.RawMessage) error
	Run(ctx context.Context, document string, variables json.RawMessage) *graphql.Response
}

// Resolver is the root resolver; one serves every request. Per-request
// state (the loaders) travels in the context.
type Resolver struct {
	Store   Store
	Queries QueryRunner
	// Watches serve subscriptions; nil in a saved query's schema.
	Watches Watches
}

// NewSchema returns the executable schema over the store, with the
// complexity of list fields weighted by the page size they ask for.
// queries may be nil in the schema a saved query runs on: a run neither
// saves queries (it runs queries only) nor runs another saved query.
// watches may be nil where no subscription is served.
func NewSchema(store Store, queries QueryRunner, watches Watches) graphql.ExecutableSchema {
	return generated.NewExecutableSchema(generated.Config{
		Resolvers:  &Resolver{Store: store, Queries: queries, Watches: watches},
		Complexity: complexity(),
	})
}
