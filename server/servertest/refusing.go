package servertest

// Refusing, the store of the HTTP edge's tests: it refuses every call a
// test did not allow.

import (
	"context"
	"slices"
	"sync"
	"testing"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/server"
)

// Refusing is a store that refuses every call: each method returns a
// DATABASE_UNAVAILABLE error and fails the test, unless the test allowed
// that method beforehand (Allow), as a test of /readyz allows Ping. A test
// of the HTTP edge (limits, refusals, transports, error shape) runs the real
// handler over it: a request that reaches the data is a failure, which is a
// stronger check than counting round trips, and no Neo4j is needed.
type Refusing struct {
	t testing.TB

	mu      sync.Mutex
	allowed map[string]bool
	calls   []string
}

var _ server.Store = (*Refusing)(nil)

// NewRefusing returns a store that fails t when called.
func NewRefusing(t testing.TB) *Refusing {
	return &Refusing{t: t, allowed: map[string]bool{}}
}

// Allow lets the named methods be called: they still return the error, but
// do not fail the test.
func (r *Refusing) Allow(methods ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, m := range methods {
		r.allowed[m] = true
	}
}

// Calls are the methods called so far, in order.
func (r *Refusing) Calls() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.calls)
}

func (r *Refusing) refuse(method string) error {
	r.mu.Lock()
	r.calls = append(r.calls, method)
	allowed := r.allowed[method]
	r.mu.Unlock()
	if !allowed {
		r.t.Errorf("store.%s was called: this request should not reach the data", method)
	}
	return casegraph.Errorf(casegraph.CodeDatabaseUnavailable, "the database is unavailable (a test's refusing store, %s)", method)
}

// The methods of server.Store (every store of graph.Stores, the loaders',
// readiness's, the saved-query routes', the transfers' and the watches'),
// each refused.

// WithRequestSlots is not a call to the database: ctx is returned as it is.
func (r *Refusing) WithRequestSlots(ctx context.Context) context.Context { return ctx }

func (r *Refusing) Entities(context.Context, casegraph.EntitiesRequest) ([]casegraph.Entity, []string, bool, error) {
	return nil, nil, false, r.refuse("Entities")
}

func (r *Refusing) CountEntities(context.Context, casegraph.EntityFilter) (int64, error) {
	return 0, r.refuse("CountEntities")
}

func (r *Refusing) Sources(context.Context, casegraph.Page) ([]casegraph.Source, bool, error) {
	return nil, false, r.refuse("Sources")
}

func (r *Refusing) CountSources(context.Context) (int64, error) {
	return 0, r.refuse("CountSources")
}

func (r *Refusing) RelationsByID(context.Context, []string) (map[string]casegraph.Relation, error) {
	return nil, r.refuse("RelationsByID")
}

func (r *Refusing) ReadEntities(context.Context, []string, *casegraph.EntityRead) (casegraph.ReadResult, error) {
	return casegraph.ReadResult{}, r.refuse("ReadEntities")
}

func (r *Refusing) UpsertEntity(context.Context, casegraph.Entity, *int64) (casegraph.Entity, error) {
	return casegraph.Entity{}, r.refuse("UpsertEntity")
}

func (r *Refusing) DeleteEntity(context.Context, string) (int64, error) {
	return 0, r.refuse("DeleteEntity")
}

func (r *Refusing) MergeEntities(context.Context, string, []string) (casegraph.Entity, error) {
	return casegraph.Entity{}, r.refuse("MergeEntities")
}

func (r *Refusing) Link(context.Context, casegraph.Relation) (casegraph.Relation, error) {
	return casegraph.Relation{}, r.refuse("Link")
}

func (r *Refusing) Unlink(context.Context, string) (casegraph.Relation, error) {
	return casegraph.Relation{}, r.refuse("Unlink")
}

func (r *Refusing) UpsertSource(context.Context, casegraph.Source) (casegraph.Source, error) {
	return casegraph.Source{}, r.refuse("UpsertSource")
}

func (r *Refusing) Paths(context.Context, casegraph.PathRequest, casegraph.PathRead) ([]casegraph.Path, []casegraph.Source, error) {
	return nil, nil, r.refuse("Paths")
}

func (r *Refusing) Neighborhood(context.Context, casegraph.NeighborhoodRequest, casegraph.PathRead) (casegraph.Subgraph, []casegraph.Source, error) {
	return casegraph.Subgraph{}, nil, r.refuse("Neighborhood")
}

func (r *Refusing) Connections(context.Context, casegraph.ConnectionsRequest, casegraph.PathRead) (casegraph.Subgraph, []casegraph.Source, error) {
	return casegraph.Subgraph{}, nil, r.refuse("Connections")
}

func (r *Refusing) CommonNeighbors(context.Context, casegraph.CommonNeighborsRequest, casegraph.PathRead) (casegraph.CommonGround, []casegraph.Source, error) {
	return casegraph.CommonGround{}, nil, r.refuse("CommonNeighbors")
}

func (r *Refusing) Search(context.Context, casegraph.SearchRequest) (casegraph.SearchPage, error) {
	return casegraph.SearchPage{}, r.refuse("Search")
}

func (r *Refusing) SearchCounts(context.Context, casegraph.SearchRequest, bool) (casegraph.SearchCounts, error) {
	return casegraph.SearchCounts{}, r.refuse("SearchCounts")
}

func (r *Refusing) Suggest(context.Context, casegraph.SuggestRequest) ([]casegraph.SearchHit, error) {
	return nil, r.refuse("Suggest")
}

func (r *Refusing) Timeline(context.Context, casegraph.TimelineRequest) ([]casegraph.TimelineItem, casegraph.TimelineRefs, error) {
	return nil, casegraph.TimelineRefs{}, r.refuse("Timeline")
}

func (r *Refusing) DatasetTimeline(context.Context, casegraph.DatasetTimelineRequest) ([]casegraph.TimelineItem, casegraph.TimelineRefs, bool, error) {
	return nil, casegraph.TimelineRefs{}, false, r.refuse("DatasetTimeline")
}

func (r *Refusing) CommandChain(context.Context, casegraph.CommandChainRequest, casegraph.CommandRead) (casegraph.CommandChain, []casegraph.Source, error) {
	return casegraph.CommandChain{}, nil, r.refuse("CommandChain")
}

func (r *Refusing) WhoWasInCommand(context.Context, casegraph.WhoWasInCommandRequest, casegraph.CommandRead) (casegraph.IncidentCommand, []casegraph.Source, error) {
	return casegraph.IncidentCommand{}, nil, r.refuse("WhoWasInCommand")
}

func (r *Refusing) SaveQuery(context.Context, casegraph.SavedQuery) (casegraph.SavedQuery, error) {
	return casegraph.SavedQuery{}, r.refuse("SaveQuery")
}

func (r *Refusing) CheckWrites(context.Context, casegraph.Writes, *casegraph.MoreWrites) ([]casegraph.Refusal, error) {
	return nil, r.refuse("CheckWrites")
}

func (r *Refusing) ApplyWrites(context.Context, casegraph.Writes) (int, error) {
	return 0, r.refuse("ApplyWrites")
}

func (r *Refusing) RecordImport(context.Context, string, int, int, int) error {
	return r.refuse("RecordImport")
}

func (r *Refusing) MissingDatasets(context.Context, []string) ([]string, error) {
	return nil, r.refuse("MissingDatasets")
}

func (r *Refusing) Export(context.Context, []string, casegraph.ExportSink) error {
	return r.refuse("Export")
}

func (r *Refusing) Datasets(context.Context, string) ([]casegraph.DatasetSummary, error) {
	return nil, r.refuse("Datasets")
}

func (r *Refusing) DatasetNames(context.Context) ([]string, error) {
	return nil, r.refuse("DatasetNames")
}

func (r *Refusing) RemoveDataset(context.Context, string) (casegraph.DatasetDeletion, error) {
	return casegraph.DatasetDeletion{}, r.refuse("RemoveDataset")
}

func (r *Refusing) DeleteSource(context.Context, string) (casegraph.Source, error) {
	return casegraph.Source{}, r.refuse("DeleteSource")
}

func (r *Refusing) SavedQueryHistory(context.Context, string, int) ([]casegraph.SavedQuery, error) {
	return nil, r.refuse("SavedQueryHistory")
}

func (r *Refusing) SavedQuery(context.Context, string, int64) (casegraph.SavedQuery, error) {
	return casegraph.SavedQuery{}, r.refuse("SavedQuery")
}

func (r *Refusing) SavedQueries(context.Context, string, casegraph.Page) ([]casegraph.SavedQuery, bool, error) {
	return nil, false, r.refuse("SavedQueries")
}

func (r *Refusing) CountSavedQueries(context.Context, string) (int64, error) {
	return 0, r.refuse("CountSavedQueries")
}

func (r *Refusing) SavedQueryVersions(context.Context, []casegraph.NodeRef) (map[string]casegraph.SavedQuery, error) {
	return nil, r.refuse("SavedQueryVersions")
}

func (r *Refusing) DeleteSavedQuery(context.Context, string) (int64, error) {
	return 0, r.refuse("DeleteSavedQuery")
}

func (r *Refusing) SavedDocument(context.Context, string) (bool, error) {
	return false, r.refuse("SavedDocument")
}

func (r *Refusing) EntitiesByID(context.Context, []string) (map[string]casegraph.Entity, error) {
	return nil, r.refuse("EntitiesByID")
}

func (r *Refusing) SourcesByID(context.Context, []string) (map[string]casegraph.Source, error) {
	return nil, r.refuse("SourcesByID")
}

func (r *Refusing) RelationsOf(context.Context, []string, casegraph.RelationFilter, casegraph.Page) (map[string]casegraph.RelationPage, error) {
	return nil, r.refuse("RelationsOf")
}

func (r *Refusing) Ping(context.Context) error {
	return r.refuse("Ping")
}

func (r *Refusing) ProbeWrite(context.Context) error {
	return r.refuse("ProbeWrite")
}

func (r *Refusing) SchemaApplied(context.Context) ([]string, error) {
	return nil, r.refuse("SchemaApplied")
}

func (r *Refusing) APIKeyByID(context.Context, string) (casegraph.APIKey, string, bool, error) {
	return casegraph.APIKey{}, "", false, r.refuse("APIKeyByID")
}

func (r *Refusing) TouchAPIKey(context.Context, string) error {
	return r.refuse("TouchAPIKey")
}

func (r *Refusing) Changes(context.Context, casegraph.ChangeFilter, casegraph.Page) ([]casegraph.Change, bool, error) {
	return nil, false, r.refuse("Changes")
}

func (r *Refusing) CountChanges(context.Context, casegraph.ChangeFilter) (int64, error) {
	return 0, r.refuse("CountChanges")
}

func (r *Refusing) CreateAPIKey(context.Context, casegraph.NewAPIKey, string) (casegraph.APIKey, string, error) {
	return casegraph.APIKey{}, "", r.refuse("CreateAPIKey")
}

func (r *Refusing) APIKeys(context.Context) ([]casegraph.APIKey, error) {
	return nil, r.refuse("APIKeys")
}

func (r *Refusing) RevokeAPIKey(context.Context, string) (casegraph.APIKey, error) {
	return casegraph.APIKey{}, r.refuse("RevokeAPIKey")
}

func (r *Refusing) ChangeFeed(context.Context, int64, []string, int) ([]casegraph.Change, error) {
	return nil, r.refuse("ChangeFeed")
}

func (r *Refusing) ChangeHead(context.Context) (int64, error) {
	return 0, r.refuse("ChangeHead")
}
