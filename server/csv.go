package server

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/vektah/gqlparser/v2/ast"

	casegraph "github.com/casegraph/casegraph"
)

// The CSV rule, for GET /queries/{name}?format=csv: the first list in the
// result, looking depth-first in the order the query selects fields, is
// the table, one row per element. The columns are the leaf fields the
// query selects under it, named by their path from the element, joined by
// dots (aliases are the names); a list inside an element gives one column
// per leaf path, its values joined by "; "; a null is an empty cell. A
// list of scalars is one column named by the list's path. A cell that a
// spreadsheet would take for a formula starts with an apostrophe; a cell
// with a comma, a semicolon, a quote or a line break is quoted.

// writeCSV writes data (a GraphQL result's data, JSON) as CSV by the rule.
func writeCSV(w io.Writer, op *ast.OperationDefinition, data json.RawMessage) error {
	var root map[string]any
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	if err := dec.Decode(&root); err != nil || root == nil {
		return casegraph.Errorf(casegraph.CodeBadUserInput, "the result has no data to make rows of")
	}
	list, sel, path, ok := firstList(op.SelectionSet, root, nil)
	if !ok {
		return casegraph.Errorf(casegraph.CodeBadUserInput, "the result has no list to make rows of; CSV needs one (use format=json)")
	}
	columns := leafPaths(sel, nil)
	scalarList := len(columns) == 0
	if scalarList {
		columns = [][]string{{strings.Join(path, ".")}}
	}
	cw := bufio.NewWriter(w)
	header := make([]string, len(columns))
	for i, c := range columns {
		header[i] = strings.Join(c, ".")
	}
	writeRow(cw, header)
	for _, el := range list {
		row := make([]string, len(columns))
		for i, c := range columns {
			if scalarList {
				row[i] = cell([]any{el})
			} else {
				row[i] = cell(values(el, c))
			}
		}
		writeRow(cw, row)
	}
	return cw.Flush()
}

// writeRow writes one CSV row (RFC 4180, "\n" line ends). It quotes more
// than encoding/csv does: a cell with a ";" too, because Excel in the many
// locales whose list separator is ";" splits an unquoted cell there; and a
// cell that starts with any Unicode space, which some readers trim. A
// failed write is kept by the bufio.Writer and returned by its Flush.
func writeRow(w *bufio.Writer, row []string) {
	for i, f := range row {
		if i > 0 {
			w.WriteByte(',')
		}
		if !needsQuotes(f) {
			w.WriteString(f)
			continue
		}
		w.WriteByte('"')
		w.WriteString(strings.ReplaceAll(f, `"`, `""`))
		w.WriteByte('"')
	}
	w.WriteByte('\n')
}

func needsQuotes(f string) bool {
	if f == "" {
		return false
	}
	if f == `\.` || strings.ContainsAny(f, ",;\"\r\n") {
		return true
	}
	r, _ := utf8.DecodeRuneInString(f)
	return unicode.IsSpace(r)
}

// fields lists the fields of a selection set in order, fragments inlined.
func fields(set ast.SelectionSet) []*ast.Field {
	var out []*ast.Field
	for _, s := range set {
		switch s := s.(type) {
		case *ast.Field:
			out = append(out, s)
		case *ast.InlineFragment:
			out = append(out, fields(s.SelectionSet)...)
		case *ast.FragmentSpread:
			if s.Definition != nil {
				out = append(out, fields(s.Definition.SelectionSet)...)
			}
		}
	}
	return out
}

func responseKey(f *ast.Field) string {
	if f.Alias != "" {
		return f.Alias
	}
	return f.Name
}

func firstList(set ast.SelectionSet, obj map[string]any, path []string) ([]any, ast.SelectionSet, []string, bool) {
	for _, f := range fields(set) {
		key := responseKey(f)
		p := append(append([]string{}, path...), key)
		switch v := obj[key].(type) {
		case []any:
			return v, f.SelectionSet, p, true
		case map[string]any:
			if l, s, lp, ok := firstList(f.SelectionSet, v, p); ok {
				return l, s, lp, true
			}
		}
	}
	return nil, nil, nil, false
}

// leafPaths lists the paths to the leaf fields of a selection set, in
// order, each once.
func leafPaths(set ast.SelectionSet, prefix []string) [][]string {
	var out [][]string
	seen := map[string]bool{}
	for _, f := range fields(set) {
		p := append(append([]string{}, prefix...), responseKey(f))
		var more [][]string
		if len(f.SelectionSet) == 0 {
			more = [][]string{p}
		} else {
			more = leafPaths(f.SelectionSet, p)
		}
		for _, m := range more {
			if k := strings.Join(m, "."); !seen[k] {
				seen[k] = true
				out = append(out, m)
			}
		}
	}
	return out
}

// values follows a path from v, through lists, and returns the leaves.
func values(v any, path []string) []any {
	if len(path) == 0 {
		if list, ok := v.([]any); ok {
			return list
		}
		return []any{v}
	}
	switch x := v.(type) {
	case map[string]any:
		return values(x[path[0]], path[1:])
	case []any:
		var out []any
		for _, el := range x {
			out = append(out, values(el, path)...)
		}
		return out
	}
	return nil
}

func cell(vs []any) string {
	parts := make([]string, 0, len(vs))
	for _, v := range vs {
		switch x := v.(type) {
		case nil:
			continue
		case string:
			parts = append(parts, x)
		case json.Number:
			parts = append(parts, x.String())
		case bool:
			parts = append(parts, fmt.Sprint(x))
		default:
			b, _ := json.Marshal(x)
			parts = append(parts, string(b))
		}
	}
	return defuse(strings.Join(parts, "; "))
}

// defuse keeps a spreadsheet from reading a cell as a formula: names and
// quotes come from sources no one controls, and "=HYPERLINK(...)" must
// stay text. A cell that starts with = + - @ or a tab or carriage return
// gets a leading apostrophe (the OWASP advice for CSV injection), and so
// does one where = + - @ (or their full-width forms, which some
// spreadsheets take too) follow leading spaces of any kind (a no-break
// space, an ideographic space) or invisible format characters (a zero-width
// space, a byte-order mark): spreadsheets skip those before a formula.
func defuse(s string) string {
	if s == "" {
		return s
	}
	if s[0] == '\t' || s[0] == '\r' {
		return "'" + s
	}
	r, _ := utf8.DecodeRuneInString(strings.TrimLeftFunc(s, skippedBeforeFormula))
	if strings.ContainsRune(formulaStarts, r) {
		return "'" + s
	}
	return s
}

// formulaStarts are the characters that make a cell a formula.
const formulaStarts = "=+-@\uff1d\uff0b\uff0d\uff20"

// skippedBeforeFormula reports whether a spreadsheet may skip r before the
// start of a formula: a space (unicode.IsSpace: ASCII spaces, U+0085,
// U+00A0, U+1680, U+2000-200A, U+2028, U+2029, U+202F, U+205F, U+3000) or
// a format character (U+200B-200F, U+2060, U+FEFF ...).
func skippedBeforeFormula(r rune) bool {
	return unicode.IsSpace(r) || unicode.Is(unicode.Cf, r)
}
