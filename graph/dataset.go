package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/graph/model"
)

// Glue for datasets.

func toDataset(d casegraph.DatasetSummary) model.Dataset {
	out := model.Dataset{Name: d.Name, Entities: int(d.Entities), Relations: int(d.Relations), Sources: int(d.Sources)}
	if !d.LastChange.IsZero() {
		t := d.LastChange
		out.LastChange = &t
	}
	return out
}

// namesOnly says whether the datasets field's selection asks for nothing
// but the names (the explorer's dataset pickers), which DatasetNames
// answers without counting what every dataset holds.
func namesOnly(ctx context.Context) bool {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || !graphql.HasOperationContext(ctx) {
		return false
	}
	for _, f := range graphql.CollectFields(graphql.GetOperationContext(ctx), fc.Field.Selections, nil) {
		if f.Name != "name" && f.Name != "__typename" {
			return false
		}
	}
	return true
}
