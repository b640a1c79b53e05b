package graph

import (
	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/graph/generated"
	"github.com/casegraph/casegraph/graph/model"
)

// complexity weighs list fields by how many items they may return, so the
// server's complexity limit bounds the work a query can ask for: a page of
// 100 entities, each with a page of 100 relations, each with its two ends,
// costs about 100 * 100 * 3.
func complexity() generated.ComplexityRoot {
	var c generated.ComplexityRoot
	relations := func(child int, _ []model.RelationType, _ *model.Direction, first *int, _ *string) int {
		return 1 + child*pageSize(first)
	}
	c.Person.Relations = relations
	c.Organization.Relations = relations
	c.Event.Relations = relations
	c.Document.Relations = relations
	c.Place.Relations = relations
	c.Query.Entities = func(child int, _ *model.EntityFilter, _ *model.EntityOrder, first *int, _ *string) int {
		return 1 + child*pageSize(first)
	}
	c.Query.Sources = func(child int, first *int, _ *string) int {
		return 1 + child*pageSize(first)
	}
	c.Query.Search = func(child int, _ string, _ []model.EntityKind, _ []string, first *int, _ *string) int {
		return 1 + child*pageSize(first)
	}
	c.Query.Suggest = func(child int, _ string, _ []model.EntityKind, _ []string, first *int) int {
		return 1 + child*pageSize(first)
	}
	c.Query.Paths = func(child int, _, _ string, k *int, _ *model.PathFilter) int {
		n := 3
		if k != nil && *k >= 1 && *k <= casegraph.MaxPaths {
			n = *k
		}
		return 1 + child*n
	}
	// A subgraph's lists are long, but flat: weigh them by a tenth of the
	// limit, so a full neighbourhood of 1000 fits with a few fields each.
	c.Query.Neighborhood = func(child int, _ string, _ *int, _ *model.PathFilter, limit *int) int {
		n := 100
		if limit != nil && *limit >= 1 && *limit <= casegraph.MaxNeighborhoodSize {
			n = *limit
		}
		return 1 + child*max(1, n/10)
	}
	c.Query.Connections = func(child int, ids []string, _ *model.PathFilter) int {
		return 1 + child*max(1, len(ids)*(len(ids)-1)/2)
	}
	return c
}

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
