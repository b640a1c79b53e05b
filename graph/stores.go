package graph

import (
	"context"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/duplicate"
)

// What the resolvers ask of the database, one small interface per noun
// (the consumer's, as the loaders declare theirs): each resolver file
// uses the store of its noun, and a test of one noun needs only its few
// methods. One *cypher.Store is all of them; so is the edge tests'
// refusing store (server/servertest). Every request type a method takes
// has been normalized (or validated) by the resolver; the store checks
// only what needs the graph.

// EntityStore lists, counts, reads and writes entities.
type EntityStore interface {
	Entities(ctx context.Context, q casegraph.EntitiesRequest) ([]casegraph.Entity, []string, bool, error)
	CountEntities(ctx context.Context, f casegraph.EntityFilter) (int64, error)
	// ReadEntities reads entities and what read asks for under them in one
	// round trip (see readHere).
	ReadEntities(ctx context.Context, ids []string, read *casegraph.EntityRead) (casegraph.ReadResult, error)
	UpsertEntity(ctx context.Context, e casegraph.Entity, expected *int64) (casegraph.Entity, error)
	DeleteEntity(ctx context.Context, id string) (int64, error)
	MergeEntities(ctx context.Context, into string, from []string) (casegraph.Entity, error)
}

// RelationStore reads relations by id and writes them.
type RelationStore interface {
	RelationsByID(ctx context.Context, ids []string) (map[string]casegraph.Relation, error)
	Link(ctx context.Context, r casegraph.Relation) (casegraph.Relation, error)
	Unlink(ctx context.Context, id string) (casegraph.Relation, error)
}

// SourceStore lists, counts and writes sources.
type SourceStore interface {
	Sources(ctx context.Context, page casegraph.Page) ([]casegraph.Source, bool, error)
	CountSources(ctx context.Context) (int64, error)
	UpsertSource(ctx context.Context, s casegraph.Source) (casegraph.Source, error)
	DeleteSource(ctx context.Context, id string) (casegraph.Source, error)
}

// DatasetStore lists and removes datasets.
type DatasetStore interface {
	Datasets(ctx context.Context, name string) ([]casegraph.DatasetSummary, error)
	// DatasetNames is the names Datasets would list, counting nothing.
	DatasetNames(ctx context.Context) ([]string, error)
	RemoveDataset(ctx context.Context, name string) (casegraph.DatasetDeletion, error)
}

// PathStore runs the path searches; read says what of the answer the
// selection asks for besides entities and relations.
type PathStore interface {
	Paths(ctx context.Context, q casegraph.PathRequest, read casegraph.PathRead) ([]casegraph.Path, []casegraph.Source, error)
	Neighborhood(ctx context.Context, q casegraph.NeighborhoodRequest, read casegraph.PathRead) (casegraph.Subgraph, []casegraph.Source, error)
	Connections(ctx context.Context, q casegraph.ConnectionsRequest, read casegraph.PathRead) (casegraph.Subgraph, []casegraph.Source, error)
	CommonNeighbors(ctx context.Context, q casegraph.CommonNeighborsRequest, read casegraph.PathRead) (casegraph.CommonGround, []casegraph.Source, error)
}

// SearchStore runs full-text searches, their counts, and suggestions.
type SearchStore interface {
	// Search ranks q's candidates and returns the page q shows of them.
	Search(ctx context.Context, q casegraph.SearchRequest) (casegraph.SearchPage, error)
	// SearchCounts counts q's matches; facets (the selection asks for
	// them) adds the counts by kind and dataset.
	SearchCounts(ctx context.Context, q casegraph.SearchRequest, facets bool) (casegraph.SearchCounts, error)
	Suggest(ctx context.Context, q casegraph.SuggestRequest) ([]casegraph.SearchHit, error)
}

// TimelineStore reads an entity's timeline and datasets' timelines.
type TimelineStore interface {
	Timeline(ctx context.Context, q casegraph.TimelineRequest) ([]casegraph.TimelineItem, casegraph.TimelineRefs, error)
	DatasetTimeline(ctx context.Context, q casegraph.DatasetTimelineRequest) ([]casegraph.TimelineItem, casegraph.TimelineRefs, bool, error)
}

// CommandStore reads chains of command and who was in command at an
// incident; read says what the selection asks for (sources, properties).
type CommandStore interface {
	CommandChain(ctx context.Context, q casegraph.CommandChainRequest, read casegraph.CommandRead) (casegraph.CommandChain, []casegraph.Source, error)
	WhoWasInCommand(ctx context.Context, q casegraph.WhoWasInCommandRequest, read casegraph.CommandRead) (casegraph.IncidentCommand, []casegraph.Source, error)
}

// SavedQueryStore saves, lists, reads and deletes saved queries.
type SavedQueryStore interface {
	SaveQuery(ctx context.Context, q casegraph.SavedQuery) (casegraph.SavedQuery, error)
	SavedQuery(ctx context.Context, name string, version int64) (casegraph.SavedQuery, error)
	SavedQueryHistory(ctx context.Context, name string, limit int) ([]casegraph.SavedQuery, error)
	SavedQueries(ctx context.Context, tag string, page casegraph.Page) ([]casegraph.SavedQuery, bool, error)
	CountSavedQueries(ctx context.Context, tag string) (int64, error)
	SavedQueryVersions(ctx context.Context, refs []casegraph.NodeRef) (map[string]casegraph.SavedQuery, error)
	DeleteSavedQuery(ctx context.Context, name string) (int64, error)
}

// SavedViewStore saves, annotates, lists, reads and deletes kept views;
// every view it returns is shown to the caller through the read gate.
type SavedViewStore interface {
	SaveView(ctx context.Context, v casegraph.SavedView) (casegraph.SavedView, error)
	AnnotateView(ctx context.Context, name string, note casegraph.ViewNote) (casegraph.SavedView, error)
	SavedView(ctx context.Context, name string, version int64) (casegraph.SavedView, error)
	SavedViewHistory(ctx context.Context, name string, limit int) ([]casegraph.SavedView, error)
	SavedViews(ctx context.Context, page casegraph.Page) ([]casegraph.SavedView, bool, error)
	CountSavedViews(ctx context.Context) (int64, error)
	SavedViewVersions(ctx context.Context, refs []casegraph.NodeRef) (map[string]casegraph.SavedView, error)
	DeleteSavedView(ctx context.Context, name string) (int64, error)
}

// DuplicateStore suggests duplicate entities and records dismissals.
type DuplicateStore interface {
	DuplicateCandidates(ctx context.Context, q duplicate.Request) (duplicate.Page, error)
	DismissDuplicate(ctx context.Context, p duplicate.Pair) (duplicate.Dismissal, error)
	UndismissDuplicate(ctx context.Context, p duplicate.Pair) (bool, error)
}

// ChangeStore reads the audit log.
type ChangeStore interface {
	Changes(ctx context.Context, f casegraph.ChangeFilter, page casegraph.Page) ([]casegraph.Change, bool, error)
	CountChanges(ctx context.Context, f casegraph.ChangeFilter) (int64, error)
}

// KeyStore makes, lists and revokes API keys.
type KeyStore interface {
	CreateAPIKey(ctx context.Context, k casegraph.NewAPIKey, createdBy string) (casegraph.APIKey, string, error)
	APIKeys(ctx context.Context) ([]casegraph.APIKey, error)
	RevokeAPIKey(ctx context.Context, id string) (casegraph.APIKey, error)
}

// Stores are the resolvers' stores, one for each noun. A field left nil
// is a store the schema does not call (a test's schema that is only read,
// or priced, calls none).
type Stores struct {
	EntityStore     EntityStore
	RelationStore   RelationStore
	SourceStore     SourceStore
	DatasetStore    DatasetStore
	PathStore       PathStore
	SearchStore     SearchStore
	TimelineStore   TimelineStore
	CommandStore    CommandStore
	SavedQueryStore SavedQueryStore
	SavedViewStore  SavedViewStore
	DuplicateStore  DuplicateStore
	ChangeStore     ChangeStore
	KeyStore        KeyStore
}
