package graph

// The complexity model (what each field costs the database), the server's
// limit under it, and the limit of a saved query run inside a request.

import (
	"context"

	gqlcomplexity "github.com/99designs/gqlgen/complexity"
	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/vektah/gqlparser/v2/ast"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/graph/generated"
	"github.com/casegraph/casegraph/graph/model"
)

// ComplexityLimit is the server's complexity limit under this package's
// model (complexity): scalar and enum fields cost nothing.
func ComplexityLimit(limit int) *extension.ComplexityLimit {
	return extension.FixedComplexityLimit(limit, complexityOptions...)
}

// Complexity is an operation's complexity under this package's model, as
// ComplexityLimit measures it (saved queries are checked with it).
func Complexity(ctx context.Context, es graphql.ExecutableSchema, op *ast.OperationDefinition, vars map[string]any) int {
	return gqlcomplexity.Calculate(ctx, es, op, vars, complexityOptions...)
}

var complexityOptions = []gqlcomplexity.Option{gqlcomplexity.WithFixedScalarValue(0)}

// complexity prices a query by what the database does for it, so that the
// server's limit bounds work, not typing:
//   - a scalar or enum field costs nothing: it rides in the projection of
//     the row it belongs to;
//   - an object costs one (a row, or a lookup), plus what is selected in it;
//   - a list costs its items (the page it asks for) times one item's cost;
//   - a root field that starts a statement of its own costs statementCost,
//     and a path search pathSearchCost, so that one request cannot hold a
//     share of the connection pool by aliasing many of them.
//
// A depth-2 exploration of 1,000 ends (10 entities, 10 relations each, 10
// of theirs, names and types) costs about 3,500 and fits the default limit
// of 5,000; the same with 20 entities, or a page of 100 relations under a
// page of 100, does not.
func complexity() generated.ComplexityRoot {
	var c generated.ComplexityRoot
	c.Query.Entity = func(child int, _ string) int { return statementCost + child }
	c.Query.Relation = func(child int, _ string) int { return statementCost + child }
	c.Query.Source = func(child int, _ string) int { return statementCost + child }
	c.Query.Timeline = func(child int, _ string, _, _ *model.PartialDate) int { return statementCost + child }
	// An explanation runs up to 12 path searches (the search, the same to
	// the deepest depth, and one without each of 10 conditions): priced
	// as 12 searches of its depth.
	c.Query.PathExplanation = func(child int, from, to string, f *model.PathFilter) int {
		return 12*pathSearchCost*depthFactor(shortestPathQueryOf(from, to, f).Filter) + child
	}
	// A dataset's timeline reads, for each relation type and for events,
	// the datasets' dated items in date order by index as far as the page
	// needs (a heavy statement, like a search); its list holds up to first
	// items.
	c.Query.DatasetTimeline = func(child int, datasets []string, from, to model.PartialDate, first *int) int {
		q := datasetTimelineQueryOf(datasets, from, to, first)
		return pathSearchCost + within(q.First, casegraph.MaxDatasetTimeline)*child
	}
	// Duplicate suggestions read a whole dataset and compare its names:
	// priced as a path search, and the page.
	c.Query.DuplicateCandidates = func(child int, _ string, _ []model.EntityKind, first *int, _ *string) int {
		return pathSearchCost + child*windowSize(first, nil)
	}
	// The datasets' list reads every dataset's entities and relations to
	// count them (its names alone, every entity's dataset in the index):
	// priced as a path search, so that aliasing it cannot hold the
	// database (60 aliases of the counted list took 13.4 s on 100k
	// entities and 500k relations).
	c.Query.Datasets = func(child int) int { return pathSearchCost + child }
	// A chain of command is one statement whose work grows with its
	// levels: priced as a statement, and what is selected once a level.
	c.Query.CommandChain = func(child int, unitID string, at model.PartialDate, maxLevels *int, _ *model.Reliability, _ *int) int {
		q := commandChainQueryOf(unitID, at, maxLevels, nil, nil)
		return statementCost + child*within(q.MaxLevels, casegraph.MaxCommandLevels)
	}
	// Who was in command reads every tie of an incident and a chain for
	// each unit: priced as a path search, and its units' chains as a
	// subgraph's list is (a tenth of them, at least one).
	c.Query.WhoWasInCommand = func(child int, incidentID string, maxLevels, maxUnits *int, _ *model.Reliability, _ *int) int {
		q := whoWasInCommandQueryOf(incidentID, maxLevels, maxUnits, nil, nil)
		return pathSearchCost + child*max(1, within(q.MaxUnits, casegraph.MaxIncidentUnits)/10)
	}
	c.IncidentUnit.Chain = func(child int) int {
		return child * casegraph.DefaultCommandLevels
	}
	c.Query.SavedQuery = func(child int, _ string, _ *int) int { return statementCost + child }
	// A kept view is read, then what it names through the gate (three
	// statements at most, however many views); its entities, when
	// something is selected under them, by a compiled read of their own,
	// a list as long as a subgraph's, weighed as one.
	c.Query.SavedView = func(child int, _ string, _ *int) int { return 4*statementCost + child }
	c.Query.SavedViewVersions = func(child int, name string, first *int) int {
		return 4*statementCost + child*within(savedViewVersionsQueryOf(name, first).First, casegraph.MaxSavedQueryVersions)
	}
	c.Query.SavedViews = func(child int, first *int, _ *string, last *int, _ *string) int {
		return 4*statementCost + child*windowSize(first, last)
	}
	c.SavedView.Entities = func(child int) int { return statementCost + child*max(1, casegraph.MaxViewEntities/100) }
	c.SavedViewConnection.TotalCount = func(int) int { return statementCost }
	c.Query.ShortestPath = func(child int, from, to string, f *model.PathFilter) int {
		return pathSearchCost*depthFactor(shortestPathQueryOf(from, to, f).Filter) + child
	}
	// A path watch searches at its start and again after changes: priced
	// as a shortest path (the caps bound how many a caller holds). A
	// changes subscription reads the feed: a statement.
	c.Subscription.WatchPath = func(child int, from, to string, f *model.PathFilter, _ *string) int {
		return pathSearchCost*depthFactor(shortestPathQueryOf(from, to, f).Filter) + child
	}
	c.Subscription.Changes = func(child int, _ []string, _ *string) int { return statementCost + child }
	relations := func(child int, _ []model.RelationType, _ *model.Direction, first *int, _ *string, last *int, _ *string) int {
		return 1 + child*windowSize(first, last)
	}
	c.Person.Relations = relations
	c.Organization.Relations = relations
	c.Event.Relations = relations
	c.Document.Relations = relations
	c.Place.Relations = relations
	// An entity's identifiers and coordinates are values of its row, like
	// its scalars (at most casegraph.MaxIdentifiers): they cost nothing.
	inRow := func(child int) int { return child }
	c.Person.Identifiers, c.Organization.Identifiers, c.Place.Coordinates = inRow, inRow, inRow
	c.Query.Entities = func(child int, _ *model.EntityFilter, _ *model.EntityOrder, first *int, _ *string, last *int, _ *string) int {
		return statementCost + child*windowSize(first, last)
	}
	c.Query.Sources = func(child int, first *int, _ *string, last *int, _ *string) int {
		return statementCost + child*windowSize(first, last)
	}
	c.Query.SavedQueries = func(child int, _ *string, first *int, _ *string, last *int, _ *string) int {
		return statementCost + child*windowSize(first, last)
	}
	c.Query.Changes = func(child int, _ *model.ChangeFilter, first *int, _ *string, last *int, _ *string) int {
		return statementCost + child*windowSize(first, last)
	}
	c.Query.Search = func(child int, _ string, _ []model.EntityKind, _ []string, first *int, _ *string, last *int, _ *string) int {
		return statementCost + child*windowSize(first, last)
	}
	// A search's totalCount and facets start a statement of their own (one
	// for both), a full-text count of every match: each is priced as a
	// statement, so that aliasing cheap count-only searches cannot hold
	// the pool. The root multiplies them by the page like the rest of its
	// connection, which errs on the dear side.
	c.SearchConnection.TotalCount = func(int) int { return statementCost }
	c.ChangeConnection.TotalCount = func(int) int { return statementCost }
	c.SavedQueryConnection.TotalCount = func(int) int { return statementCost }
	c.SearchConnection.Facets = func(child int) int { return statementCost + child }
	c.Query.Suggest = func(child int, prefix string, kinds []model.EntityKind, datasets []string, first *int) int {
		return statementCost + child*within(suggestQueryOf(prefix, kinds, datasets, first).First, casegraph.MaxSuggest)
	}
	c.Query.Paths = func(child int, from, to string, k *int, f *model.PathFilter) int {
		q := pathQueryOf(from, to, k, f)
		n := within(q.K, casegraph.MaxPaths)
		return pathSearchCost*n*depthFactor(q.Filter) + child*n
	}
	// A subgraph's lists are long, but flat: weigh them by a tenth of the
	// limit, so a full neighbourhood of 1000 fits with a few fields each.
	// A neighbourhood's search fans out with its depth: each level costs
	// as much again as the one before, doubled.
	c.Query.Neighborhood = func(child int, id string, depth *int, f *model.PathFilter, limit *int) int {
		q := neighborhoodQueryOf(id, depth, limit, f)
		n, d := within(q.Limit, casegraph.MaxNeighborhoodSize), within(q.Depth, casegraph.MaxNeighborhood)
		return pathSearchCost*(1<<(d-1)) + child*max(1, n/10)
	}
	// nodes: a statement for each type asked for (at most four), and what
	// is selected under each node.
	c.Query.Nodes = func(child int, ids []string) int {
		return 4*statementCost + child*max(1, len(ids))
	}
	c.Query.Connections = func(child int, ids []string, f *model.PathFilter) int {
		q := connectionsQueryOf(ids, f)
		pairs := max(1, len(q.Pairs()))
		return pathSearchCost*pairs*depthFactor(q.Filter) + child*pairs
	}
	// Common neighbours: one hop from each entity asked about, weighed
	// like a neighbourhood of depth 1 for each; the list like a
	// neighbourhood's.
	c.Query.CommonNeighbors = func(child int, ids []string, f *model.PathFilter, limit *int) int {
		q := commonNeighborsQueryOf(ids, limit, f)
		return pathSearchCost*max(1, len(q.IDs)) + child*max(1, within(q.Limit, casegraph.MaxCommonNeighbors)/10)
	}
	return c
}

// What a statement and a path search cost, besides what they return.
const (
	statementCost  = 10
	pathSearchCost = 100
)

// depthFactor weighs a path search by its filter's depth: up to the
// default depth (4) it costs pathSearchCost, and each hop beyond doubles
// it, as the frontiers a bidirectional search may expand grow with it
// (depth 8 costs 16 times depth 4).
func depthFactor(f casegraph.PathFilter) int {
	return 1 << max(0, within(f.MaxDepth, casegraph.MaxMaxDepth)-casegraph.DefaultMaxDepth)
}

// within is a request's count as the model prices it: the request's own
// value (its default when the client gave none, see pathQueryOf and the
// others), or, when out of 1..most, most. Normalize refuses such a count
// when the field runs; counting it as the largest here keeps a refused
// field from being priced below what a valid one may cost.
func within(n, most int) int {
	if n < 1 || n > most {
		return most
	}
	return n
}

// SavedRunLimit is the complexity limit of a saved query run inside a
// request: what the request's own complexity leaves of limit (the runner
// records it with WithSpentComplexity before the run's operation replaces
// the request's in the context), so that a request cannot escape the limit
// by running saved queries. A run with no request around it (GET
// /queries/{name}) has the whole limit.
func SavedRunLimit(limit int) *extension.ComplexityLimit {
	c := extension.FixedComplexityLimit(limit, complexityOptions...)
	c.Func = func(ctx context.Context, _ *graphql.OperationContext) int {
		spent, _ := ctx.Value(spentKey{}).(int)
		return max(0, limit-spent)
	}
	return c
}

type spentKey struct{}

// WithSpentComplexity records, for a saved query run inside a request,
// the complexity of the request around it (from ctx's operation, when it
// has one and its complexity was measured).
func WithSpentComplexity(ctx context.Context) context.Context {
	if !graphql.HasOperationContext(ctx) {
		return ctx
	}
	if stats := extension.GetComplexityStats(ctx); stats != nil {
		return context.WithValue(ctx, spentKey{}, stats.Complexity)
	}
	return ctx
}

// windowSize is the page size of a connection's first or last, as the
// field will read it (casegraph.PageWindow); an invalid window is refused
// when the field runs, so it counts as the largest page here.
func windowSize(first, last *int) int {
	n, _, err := casegraph.PageWindow{First: first, Last: last}.Size()
	if err != nil {
		return casegraph.MaxPageSize
	}
	return n
}
