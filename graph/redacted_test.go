package graph_test

import (
	"regexp"
	"testing"

	casegraph "github.com/casegraph/casegraph"
)

// TestRedactedTimestamps: a caller without clearance who selects
// createdAt and updatedAt where a protected person appears (the ends of a
// relation, the person by its opaque id, as the explorer's entity panel
// asks) gets an answer without errors, the redacted entity's timestamps
// null and the others'. They were non-null in the schema, so the redacted
// entity's nulled the whole root field with INTERNAL.
func TestRedactedTimestamps(t *testing.T) {
	t.Parallel()
	f := newProtectedFixture(t)
	reader := f.h.Key(casegraph.NewAPIKey{Name: "reader", Role: casegraph.RoleReader, Datasets: []string{f.ds}})
	const ends = `query($id: ID!) { entity(id: $id) { id createdAt updatedAt
  relations(types: [EMPLOYED_BY]) { edges { node { from { id redacted createdAt updatedAt } to { id createdAt updatedAt } } } } } }`
	res := f.h.PostAs(reader, ends, map[string]any{"id": f.id("agency")})
	if len(res.Errors) > 0 {
		t.Fatalf("the ends of a redacted relation: %s", res.Raw)
	}
	agency := res.Data["entity"].(map[string]any)
	if agency["createdAt"] == nil || agency["updatedAt"] == nil {
		t.Errorf("the agency's timestamps are missing: %s", res.Raw)
	}
	edges := agency["relations"].(map[string]any)["edges"].([]any)
	if len(edges) != 1 {
		t.Fatalf("%d EMPLOYED_BY relations, want 1: %s", len(edges), res.Raw)
	}
	node := edges[0].(map[string]any)["node"].(map[string]any)
	witness, to := node["from"].(map[string]any), node["to"].(map[string]any)
	if witness["redacted"] != true || witness["createdAt"] != nil || witness["updatedAt"] != nil {
		t.Errorf("the redacted witness: %v, want redacted without timestamps", witness)
	}
	if to["createdAt"] == nil || to["updatedAt"] == nil {
		t.Errorf("the agency as the relation's end: %v, want its timestamps", to)
	}
	opaque := regexp.MustCompile(`protected-[0-9a-f]{16}`).FindString(res.Raw)
	panel := f.h.PostAs(reader, `query($id: ID!) { entity(id: $id) { id name aliases description updatedAt } }`, map[string]any{"id": opaque})
	if len(panel.Errors) > 0 || panel.Data["entity"] == nil {
		t.Errorf("the redacted witness by its opaque id, as the explorer asks: %s", panel.Raw)
	}
}
