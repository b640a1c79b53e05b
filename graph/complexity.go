package graph

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
	c.Query.SavedQuery = func(child int, _ string, _ *int) int { return statementCost + child }
	c.Query.ShortestPath = func(child int, _, _ string, _ *model.PathFilter) int { return pathSearchCost + child }
	relations := func(child int, _ []model.RelationType, _ *model.Direction, first *int, _ *string) int {
		return 1 + child*pageSize(first)
	}
	c.Person.Relations = relations
	c.Organization.Relations = relations
	c.Event.Relations = relations
	c.Document.Relations = relations
	c.Place.Relations = relations
	c.Query.Entities = func(child int, _ *model.EntityFilter, _ *model.EntityOrder, first *int, _ *string) int {
		return statementCost + child*pageSize(first)
	}
	c.Query.Sources = func(child int, first *int, _ *string) int {
		return statementCost + child*pageSize(first)
	}
	c.Query.Changes = func(child int, _ *model.ChangeFilter, first *int, _ *string) int {
		return statementCost + child*pageSize(first)
	}
	c.Query.Search = func(child int, _ string, _ []model.EntityKind, _ []string, first *int, _ *string) int {
		return statementCost + child*pageSize(first)
	}
	c.Query.Suggest = func(child int, _ string, _ []model.EntityKind, _ []string, first *int) int {
		return statementCost + child*pageSize(first)
	}
	c.Query.Paths = func(child int, _, _ string, k *int, _ *model.PathFilter) int {
		n := casegraph.DefaultPaths
		if k != nil && *k >= 1 && *k <= casegraph.MaxPaths {
			n = *k
		}
		return pathSearchCost*n + child*n
	}
	// A subgraph's lists are long, but flat: weigh them by a tenth of the
	// limit, so a full neighbourhood of 1000 fits with a few fields each.
	c.Query.Neighborhood = func(child int, _ string, _ *int, _ *model.PathFilter, limit *int) int {
		n := casegraph.DefaultNeighborhoodSize
		if limit != nil && *limit >= 1 && *limit <= casegraph.MaxNeighborhoodSize {
			n = *limit
		}
		return pathSearchCost + child*max(1, n/10)
	}
	c.Query.Connections = func(child int, ids []string, _ *model.PathFilter) int {
		pairs := max(1, len(ids)*(len(ids)-1)/2)
		return pathSearchCost*pairs + child*pairs
	}
	return c
}

// What a statement and a path search cost, besides what they return.
const (
	statementCost  = 10
	pathSearchCost = 100
)

// pageSize is the page a list field asks for; an invalid size is refused
// when the field runs, so it counts as the largest here.
func pageSize(first *int) int {
	if first == nil {
		return casegraph.DefaultPageSize
	}
	if *first < 1 || *first > casegraph.MaxPageSize {
		return casegraph.MaxPageSize
	}
	return *first
}
