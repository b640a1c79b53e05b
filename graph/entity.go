package graph

import (
	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/graph/model"
)

// toEntity turns a domain entity into the GraphQL type of its kind.
func toEntity(e casegraph.Entity) model.Entity {
	desc := optional(e.Description)
	switch e.Kind {
	case casegraph.KindPerson:
		return model.Person{ID: e.ID, Kind: model.EntityKindPerson, Name: e.Name, Aliases: nonNil(e.Aliases),
			Description: desc, Dataset: e.Dataset, Nationality: optional(e.Nationality)}
	case casegraph.KindOrganization:
		return model.Organization{ID: e.ID, Kind: model.EntityKindOrganization, Name: e.Name, Aliases: nonNil(e.Aliases),
			Description: desc, Dataset: e.Dataset, Category: optional(e.Category)}
	case casegraph.KindEvent:
		return model.Event{ID: e.ID, Kind: model.EntityKindEvent, Name: e.Name, Aliases: nonNil(e.Aliases),
			Description: desc, Dataset: e.Dataset, Category: optional(e.Category),
			StartDate: optional(e.StartDate), EndDate: optional(e.EndDate)}
	case casegraph.KindDocument:
		var pages *int
		if e.PageCount > 0 {
			pages = &e.PageCount
		}
		return model.Document{ID: e.ID, Kind: model.EntityKindDocument, Name: e.Name, Aliases: nonNil(e.Aliases),
			Description: desc, Dataset: e.Dataset, Category: optional(e.Category),
			PublishedAt: optional(e.PublishedAt), PageCount: pages, URL: optional(e.URL)}
	default: // casegraph.KindPlace; the store only returns known kinds.
		return model.Place{ID: e.ID, Kind: model.EntityKindPlace, Name: e.Name, Aliases: nonNil(e.Aliases),
			Description: desc, Dataset: e.Dataset}
	}
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
