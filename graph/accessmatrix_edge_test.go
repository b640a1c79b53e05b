package graph_test

import (
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
)

// The access matrix's cells of nested fields that return an entity where
// no root field's cell reads it already: a relation edge's neighbor
// (RelationEdge), whose every such field has a cell, named
// "Query.entity (RelationEdge.field)" (a cell of entity: that is where
// relations are listed).

// edgeCells are the cells of RelationEdge's entity fields.
func edgeCells(f matrixFixture) map[string]matrixOp {
	ends := `id name aliases description ... on Entity { dataset }`
	edges := `relations(first: 10) { totalCount edges { cursor direction neighbor { ` + ends + ` } node { id role quote } } }`
	return map[string]matrixOp{
		// The report's neighbors: A's author, and A's protected witness;
		// B's organization's: A's author (a relation crossing datasets)
		// and B's protected witness.
		"Query.entity (RelationEdge.neighbor)": {send: gql(`query($report: ID!, $org: ID!) { report: entity(id: $report) { `+edges+` }
			org: entity(id: $org) { `+edges+` } }`, map[string]any{"report": f.report, "org": f.org}), want: readsA, shows: "Nyx Alphanice"},
		// The same hubs (matrixHubDegree) read from the other end of the
		// registry's order: the last page (no cursor), a page of one
		// merging both sides, and each side alone.
		"Query.entity (a hub's pages from the end)": {send: gql(`query($report: ID!, $org: ID!) {
			report: entity(id: $report) { last: `+relationsPage("last: 10")+` one: `+relationsPage("last: 1")+` in: `+relationsPage("last: 10, direction: INCOMING")+` }
			org: entity(id: $org) { last: `+relationsPage("last: 10")+` one: `+relationsPage("first: 1")+` in: `+relationsPage("first: 10, direction: INCOMING")+` out: `+relationsPage("last: 10, direction: OUTGOING")+` } }`,
			map[string]any{"report": f.report, "org": f.org}), want: readsA, shows: "Nyx Alphanice"},
	}
}

// relationsPage is a page of relations with the given arguments, showing
// both ends and the neighbor.
func relationsPage(args string) string {
	ends := `id name aliases description ... on Entity { dataset }`
	return `relations(` + args + `) { totalCount edges { cursor direction neighbor { ` + ends + ` } node { id role quote from { ` + ends + ` } to { ` + ends + ` } } } }`
}

// withEdgeCells adds edgeCells to the root fields' cells, and fails the
// test for a field of RelationEdge that returns an entity and has none.
func withEdgeCells(t *testing.T, schema *ast.Schema, fields map[string]matrixOp, f matrixFixture) map[string]matrixOp {
	t.Helper()
	for name, o := range edgeCells(f) {
		fields[name] = o
	}
	for _, fd := range schema.Types["RelationEdge"].Fields {
		if fd.Type.Name() != "Entity" {
			continue
		}
		if _, ok := fields["Query.entity (RelationEdge."+fd.Name+")"]; !ok {
			t.Errorf("RelationEdge.%s returns an entity and has no cell in the access matrix: add it to edgeCells", fd.Name)
		}
	}
	return fields
}
