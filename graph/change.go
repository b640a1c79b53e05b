package graph

// Glue for the audit log: its filter in, its changes out.

import (
	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/graph/model"
)

// changeFilterOf converts and checks the audit log's filter.
func changeFilterOf(in *model.ChangeFilter) (casegraph.ChangeFilter, error) {
	var f casegraph.ChangeFilter
	if in == nil {
		return f, nil
	}
	f.EntityID, f.Dataset, f.Principal = deref(in.EntityID), deref(in.Dataset), deref(in.Principal)
	if f.EntityID != "" {
		// A relation's targets are its own id: take its node id too.
		id, err := casegraph.BareID(casegraph.NodeRelation, "entityId", f.EntityID)
		if err != nil {
			return f, err
		}
		f.EntityID = id
	}
	if s := deref(in.Since); s != "" {
		t, err := casegraph.ParseSince(s)
		if err != nil {
			return f, err
		}
		f.Since = t
	}
	return f, f.Validate()
}

func toChange(c casegraph.Change) *model.Change {
	out := &model.Change{ID: c.ID, At: c.At, Principal: c.Principal, Operation: c.Operation, Targets: c.Targets, Fields: []model.FieldChange{}}
	if c.Dataset != "" {
		out.Dataset = &c.Dataset
	}
	for _, f := range c.Fields {
		fc := model.FieldChange{Field: f.Field}
		if f.Old != "null" {
			fc.Old = &f.Old
		}
		if f.New != "null" {
			fc.New = &f.New
		}
		out.Fields = append(out.Fields, fc)
	}
	return out
}
