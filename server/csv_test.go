package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

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
		"a,\"'=HYPERLINK(\"\"x\"\")\",SY,\"AUTHORED; FUNDS\",\"R1; R2\"\n" +
		"b,\"B, with a comma\",,,\n"
	if buf.String() != want {
		t.Errorf("csv:\n%s\nwant:\n%s", buf.String(), want)
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

// TestCSVListCellsAreQuoted: a list inside an element is one cell joined by
// "; ", which Excel in a ";" locale would split were it not quoted.
func TestCSVListCellsAreQuoted(t *testing.T) {
	doc, err := parser.ParseQuery(&ast.Source{Input: `{ entities { name aliases } }`})
	if err != nil {
		t.Fatal(err)
	}
	data := json.RawMessage(`{"entities": [{"name": "\u00a0=cmd", "aliases": ["A", "B"]}]}`)
	var buf bytes.Buffer
	if err := writeCSV(&buf, doc.Operations[0], data); err != nil {
		t.Fatal(err)
	}
	want := "name,aliases\n'\u00a0=cmd,\"A; B\"\n"
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("csv (-want +got):\n%s", diff)
	}
}
