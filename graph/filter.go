package graph

// Glue for the filters and order of entities and the filter of searches,
// and the offsets and windows of search pages.

import (
	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/graph/model"
)

// entityFilterOf converts a filter of entities (its Validate checks it).
func entityFilterOf(in *model.EntityFilter) casegraph.EntityFilter {
	var f casegraph.EntityFilter
	if in == nil {
		return f
	}
	for _, k := range in.Kinds {
		f.Kinds = append(f.Kinds, kindFromModel(k))
	}
	f.Datasets = in.Datasets
	f.Category = deref(in.Category)
	f.DateFrom, f.DateTo = dateString(in.DateFrom), dateString(in.DateTo)
	for _, t := range in.HasRelation {
		f.HasRelation = append(f.HasRelation, casegraph.RelationType(t))
	}
	f.NameContains = deref(in.NameContains)
	if n := in.Near; n != nil {
		f.Near = &casegraph.Near{Coordinates: casegraph.Coordinates{Latitude: n.Latitude, Longitude: n.Longitude},
			Kilometres: n.Kilometres}
	}
	return f
}

// entitiesQueryOf is the request of entities without its page:
// casegraph.NewEntitiesRequest's defaults, and what the client gave.
func entitiesQueryOf(filter *model.EntityFilter, orderBy *model.EntityOrder) casegraph.EntitiesRequest {
	q := casegraph.NewEntitiesRequest()
	q.Filter = entityFilterOf(filter)
	if orderBy != nil {
		q.Order = entityOrderOf(*orderBy)
	}
	return q
}

func entityOrderOf(in model.EntityOrder) casegraph.EntityOrder {
	return casegraph.EntityOrder{Field: casegraph.EntityOrderField(in.Field), Desc: in.Direction == model.OrderDirectionDesc}
}

// searchFilterOf converts a search's filter (the request's Normalize
// checks it).
func searchFilterOf(kinds []model.EntityKind, datasets []string) casegraph.SearchFilter {
	var f casegraph.SearchFilter
	for _, k := range kinds {
		f.Kinds = append(f.Kinds, kindFromModel(k))
	}
	f.Datasets = datasets
	return f
}
