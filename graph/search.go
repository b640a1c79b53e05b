package graph

// Glue for full-text search: the statements a search's selection needs,
// and its facets out.

import (
	"context"

	"github.com/99designs/gqlgen/graphql"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/graph/model"
)

// searchSelection is what a search's selection asks for, so that the
// resolver runs only the statements it needs: the ranked page (Search)
// for edges and pageInfo, the counts (SearchCounts, one statement for
// both) for totalCount and facets.
type searchSelection struct {
	page, counts, facets bool
}

func searchSelectionOf(ctx context.Context) searchSelection {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || !graphql.HasOperationContext(ctx) {
		return searchSelection{page: true, counts: true, facets: true}
	}
	var sel searchSelection
	for _, f := range graphql.CollectFields(graphql.GetOperationContext(ctx), fc.Field.Selections, nil) {
		switch f.Name {
		case "edges", "pageInfo":
			sel.page = true
		case "totalCount":
			sel.counts = true
		case "facets":
			sel.counts, sel.facets = true, true
		}
	}
	return sel
}

// shownProperties is what the whole operation shows of any entity
// (operationProperties: the search's hits go into the request's loaders),
// never nil within an operation; nil outside one (every property).
func shownProperties(ctx context.Context) []string {
	if !graphql.HasOperationContext(ctx) {
		return nil
	}
	shown := operationProperties(graphql.GetOperationContext(ctx)).Entity
	if shown == nil {
		shown = []string{}
	}
	return shown
}

// searchCursorKey is what a search's cursors are bound to: a cursor of
// another search's words or filter is refused.
func searchCursorKey(q casegraph.SearchRequest) any {
	return struct {
		Words []string
		F     casegraph.SearchFilter
	}{q.Words, q.Filter}
}

// suggestQueryOf is the request of suggest: casegraph.NewSuggestRequest's
// defaults, and what the client gave.
func suggestQueryOf(prefix string, kinds []model.EntityKind, datasets []string, first *int) casegraph.SuggestRequest {
	q := casegraph.NewSuggestRequest(prefix)
	given(&q.First, first)
	q.Filter = searchFilterOf(kinds, datasets)
	return q
}

func toSearchFacets(c casegraph.SearchCounts) *model.SearchFacets {
	out := &model.SearchFacets{Kinds: make([]model.KindCount, len(c.Kinds)), Datasets: make([]model.DatasetCount, len(c.Datasets))}
	for i, k := range c.Kinds {
		out.Kinds[i] = model.KindCount{Kind: kindToModel(k.Kind), Count: int(k.Count)}
	}
	for i, d := range c.Datasets {
		out.Datasets[i] = model.DatasetCount{Dataset: d.Dataset, Count: int(d.Count)}
	}
	return out
}
