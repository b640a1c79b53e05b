package server

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

func TestCSVRule(t *testing.T) {
	doc, err := parser.ParseQuery(&ast.Source{Input: `query {
  meta: entity(id: "x") { name }
  entities { edges { node { id name ... on Person { nationality } relations { edges { node { type to { name } } } } } } }
}`})
	if err != nil {
		t.Fatal(err)
	}
	data := json.RawMessage(`{"meta": {"name": "ignored"}, "entities": {"edges": [
  {"node": {"id": "a", "name": "=HYPERLINK(\"x\")", "nationality": "SY", "relations": {"edges": [
    {"node": {"type": "AUTHORED", "to": {"name": "R1"}}}, {"node": {"type": "FUNDS", "to": {"name": "R2"}}}]}}},
  {"node": {"id": "b", "name": "B, with a comma", "relations": {"edges": []}}}
]}}`)
	var buf bytes.Buffer
	if err := writeCSV(&buf, doc.Operations[0], data); err != nil {
		t.Fatal(err)
	}
	want := "node.id,node.name,node.nationality,node.relations.edges.node.type,node.relations.edges.node.to.name\n" +
		"a,\"'=HYPERLINK(\"\"x\"\")\",SY,AUTHORED; FUNDS,R1; R2\n" +
		"b,\"B, with a comma\",,,\n"
	if buf.String() != want {
		t.Errorf("csv:\n%s\nwant:\n%s", buf.String(), want)
	}
}
