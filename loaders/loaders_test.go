package loaders

// The loaders' keys.

import (
	"testing"

	casegraph "github.com/casegraph/casegraph"
)

func TestRelationsKeyIgnoresTypeOrder(t *testing.T) {
	page := casegraph.Page{First: 10, After: "r-5"}
	a := NewRelationsKey("e1", casegraph.RelationFilter{Types: []casegraph.RelationType{"FUNDS", "ARMS", "FUNDS"}, Direction: casegraph.DirectionOutgoing}, page)
	b := NewRelationsKey("e1", casegraph.RelationFilter{Types: []casegraph.RelationType{"ARMS", "FUNDS"}, Direction: casegraph.DirectionOutgoing}, page)
	if a != b {
		t.Errorf("keys differ by type order: %+v, %+v", a, b)
	}
	f, p := a.filter()
	if len(f.Types) != 2 || f.Types[0] != "ARMS" || f.Direction != casegraph.DirectionOutgoing || p != page {
		t.Errorf("filter() = %+v, %+v", f, p)
	}
	if f, _ := NewRelationsKey("e1", casegraph.RelationFilter{}, page).filter(); f.Types != nil {
		t.Errorf("no types should mean every type, got %v", f.Types)
	}
}
