package server

// The table rule of saved queries' results as CSV or TSV (csv.go).

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/graph"
)

// operation validates a query against the schema, as runSaved does, so
// that its fields know their types.
func operation(t testing.TB, q string) *ast.OperationDefinition {
	t.Helper()
	doc, err := gqlparser.LoadQueryWithRules(graph.NewSchema(graph.Stores{}, nil, nil).Schema(), q, validationRules())
	if err != nil {
		t.Fatal(err)
	}
	return doc.Operations[0]
}

func TestTableRule(t *testing.T) {
	const entities = `{"meta": {"name": "M"}, "entities": {"edges": [
  {"node": {"id": "a", "name": "=HYPERLINK(\"x\")", "nationality": "SY", "aliases": ["A1", "A2"], "relations": {"edges": [
    {"node": {"type": "AUTHORED", "quote": null, "to": {"name": "R1"}}}, {"node": {"type": "FUNDS", "quote": "q", "to": {"name": "R2"}}}]}}},
  {"node": {"id": "b", "name": "B, with a comma", "aliases": [], "relations": {"edges": []}}}
]}}`
	const entitiesQuery = `{
  meta: entity(id: "x") { name }
  entities { edges { node { id name ... on Person { nationality } aliases relations { edges { node { type quote to { name } } } } } } }
}`
	const paths = `{"paths": [
  {"length": 2, "steps": [
    {"forward": true, "from": {"name": "A"}, "to": {"name": "B"}, "relation": {"type": "AUTHORED", "quote": null, "sources": [{"title": "S1"}, {"title": null}]}},
    {"forward": false, "from": {"name": "B"}, "to": {"name": "C"}, "relation": {"type": "FUNDS", "quote": "q2", "sources": []}}]},
  {"length": 1, "steps": [
    {"forward": true, "from": {"name": "A"}, "to": {"name": "C"}, "relation": {"type": "ARMS", "quote": "q3", "sources": [{"title": "S3"}]}}]}
]}`
	const pathsQuery = `{ paths(from: "a", to: "c", k: 2) { length steps { forward from { name } to { name } relation { type quote sources { title } } } } }`
	tests := []struct {
		name, query, data string
		format            tableFormat
		want              string
	}{
		{"the first list, parents repeated, lists as JSON cells, nulls in their place", entitiesQuery, entities, tableFormat{},
			"entities.edges#,meta.name,node.id,node.name,node.nationality,node.aliases,node.relations.edges.node.type,node.relations.edges.node.quote,node.relations.edges.node.to.name\n" +
				"1,M,a,\"'=HYPERLINK(\"\"x\"\")\",SY,\"[\"\"A1\"\",\"\"A2\"\"]\",\"[\"\"AUTHORED\"\",\"\"FUNDS\"\"]\",\"[null,\"\"q\"\"]\",\"[\"\"R1\"\",\"\"R2\"\"]\"\n" +
				"2,M,b,\"B, with a comma\",,[],[],[],[]\n"},
		{"rows= a deeper list", entitiesQuery, entities, tableFormat{rows: []string{"entities", "edges", "node", "relations", "edges"}},
			"entities.edges#,entities.edges.node.relations.edges#,meta.name,entities.edges.node.id,entities.edges.node.name,entities.edges.node.nationality,entities.edges.node.aliases,node.type,node.quote,node.to.name\n" +
				"1,1,M,a,\"'=HYPERLINK(\"\"x\"\")\",SY,\"[\"\"A1\"\",\"\"A2\"\"]\",AUTHORED,,R1\n" +
				"1,2,M,a,\"'=HYPERLINK(\"\"x\"\")\",SY,\"[\"\"A1\"\",\"\"A2\"\"]\",FUNDS,q,R2\n"},
		{"paths are tables of steps", pathsQuery, paths, tableFormat{},
			"paths#,paths.steps#,paths.length,forward,from.name,to.name,relation.type,relation.quote,relation.sources.title\n" +
				"1,1,2,true,A,B,AUTHORED,,\"[\"\"S1\"\",null]\"\n" +
				"1,2,2,false,B,C,FUNDS,q2,[]\n" +
				"2,1,1,true,A,C,ARMS,q3,\"[\"\"S3\"\"]\"\n"},
		{"no path: the header alone", pathsQuery, `{"paths": []}`, tableFormat{},
			"paths#,paths.steps#,paths.length,forward,from.name,to.name,relation.type,relation.quote,relation.sources.title\n"},
		{"a null on the way: the header alone", `{ shortestPath(from: "a", to: "b") { length steps { from { name } } } }`, `{"shortestPath": null}`, tableFormat{},
			"shortestPath.steps#,shortestPath.length,from.name\n"},
		{"no list: the first root field is the row", `{ relation(id: "r") { type from { name } status } }`, `{"relation": {"type": "FUNDS", "from": {"name": "Qatar"}, "status": "ALLEGED"}}`, tableFormat{},
			"type,from.name,status\nFUNDS,Qatar,ALLEGED\n"},
		{"no list and null: the header alone", `{ relation(id: "r") { type } }`, `{"relation": null}`, tableFormat{}, "type\n"},
		{"a list of scalars as rows", `{ entity(id: "x") { name aliases } }`, `{"entity": {"name": "Caesar", "aliases": ["قيصر", "=x"]}}`, tableFormat{rows: []string{"entity", "aliases"}},
			"entity.aliases#,entity.name,aliases\n1,Caesar,قيصر\n2,Caesar,'=x\n"},
		{"TSV escapes tabs, breaks and backslashes", `{ relation(id: "r") { type quote } }`, `{"relation": {"type": "FUNDS", "quote": "a\tb\nc\\d"}}`, tableFormat{tsv: true},
			"type\tquote\nFUNDS\ta\\tb\\nc\\\\d\n"},
		{"a byte-order mark for Excel", `{ relation(id: "r") { type } }`, `{"relation": {"type": "FUNDS"}}`, tableFormat{bom: true}, "\ufefftype\nFUNDS\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := writeTable(&buf, operation(t, tt.query), json.RawMessage(tt.data), tt.format); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, buf.String()); diff != "" {
				t.Errorf("table (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTableRowsRefused(t *testing.T) {
	op := operation(t, `{ entities { edges { node { name } } } }`)
	err := writeTable(&bytes.Buffer{}, op, json.RawMessage(`{}`), tableFormat{rows: []string{"entities", "nodes"}})
	if casegraph.ErrorCode(err) != casegraph.CodeBadUserInput || !strings.Contains(err.Error(), "lists it selects: entities.edges") {
		t.Errorf("rows=entities.nodes: %v, want BAD_USER_INPUT naming entities.edges", err)
	}
}

func TestDefuse(t *testing.T) {
	tests := []struct {
		name, cell, want string
	}{
		{"plain text", "Caesar", "Caesar"},
		{"empty", "", ""},
		{"formula", "=1+1", "'=1+1"},
		{"plus", "+1", "'+1"},
		{"minus", "-1", "'-1"},
		{"at", "@SUM(A1)", "'@SUM(A1)"},
		{"tab first", "\tx", "'\tx"},
		{"carriage return first", "\rx", "'\rx"},
		{"after spaces", "  =HYPERLINK(\"x\")", "'  =HYPERLINK(\"x\")"},
		{"after a no-break space", "\u00a0=1+1", "'\u00a0=1+1"},
		{"after a narrow no-break space", "\u202f@x", "'\u202f@x"},
		{"after an ideographic space", "\u3000+1", "'\u3000+1"},
		{"after a newline", "\n=1", "'\n=1"},
		{"after a zero-width space", "\u200b=1", "'\u200b=1"},
		{"after a byte-order mark", "\ufeff=1", "'\ufeff=1"},
		{"full-width equals", "\uff1d1+1", "'\uff1d1+1"},
		{"spaces then text", "  Caesar", "  Caesar"},
		{"formula character inside", "a=b", "a=b"},
		{"apostrophe already", "'=1", "'=1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := defuse(tt.cell); got != tt.want {
				t.Errorf("defuse(%q) = %q, want %q", tt.cell, got, tt.want)
			}
		})
	}
}

func TestWriteRowQuotes(t *testing.T) {
	tests := []struct {
		name string
		row  []string
		want string
	}{
		{"plain", []string{"a", "b"}, "a,b\n"},
		{"empty cells", []string{"", ""}, ",\n"},
		{"comma", []string{"a,b"}, "\"a,b\"\n"},
		{"semicolon (a separator in many locales)", []string{"a;b", "c"}, "\"a;b\",c\n"},
		{"quote", []string{`say "x"`}, "\"say \"\"x\"\"\"\n"},
		{"newline", []string{"a\nb"}, "\"a\nb\"\n"},
		{"carriage return", []string{"a\rb"}, "\"a\rb\"\n"},
		{"leading space", []string{" a"}, "\" a\"\n"},
		{"leading no-break space", []string{"\u00a0a"}, "\"\u00a0a\"\n"},
		{"end-of-data marker", []string{`\.`}, "\"\\.\"\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			w := bufio.NewWriter(&buf)
			writeRow(w, tt.row)
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, buf.String()); diff != "" {
				t.Errorf("row (-want +got):\n%s", diff)
			}
		})
	}
}
