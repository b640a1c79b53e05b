package graph

import (
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
