package server

import (
	"bufio"
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/vektah/gqlparser/v2/ast"

	casegraph "github.com/casegraph/casegraph"
)

// The table rule, for GET /queries/{name}?format=csv (or tsv): a result
// becomes one table whose columns depend only on the query, never on the
// data, so that a script reads every answer the same way.
//
// Rows: one per element of the rows list, chosen by rows= (a dotted path
// of response keys, aliases being the keys) or else the first list the
// query selects, looking depth-first in the order it selects fields. A
// path (a Path, as in paths) is a table of its steps: rows go one level
// down, to steps, when the query selects them. Without any list, the
// first root field is the one row. A null on the way to the rows is no
// row: an empty answer is a header and nothing else.
//
// Columns, in this order:
//   - one index per list on the way to the rows, named by its path and
//     "#", counting from 1 (paths#, paths.steps#);
//   - every leaf field the query selects, in its order: those under the
//     rows named by their path from the row (from.name), the others by
//     their full path (paths.length, entity.name), repeated on every row.
//
// A leaf reached through a list that is not on the way to the rows (the
// sources of a step, an entity's aliases) is one cell holding a JSON array
// of its values in their order, nulls kept, so no value moves into
// another's place; a null is an empty cell. A cell that a spreadsheet
// would take for a formula starts with an apostrophe. In CSV a cell with a
// comma, a semicolon, a quote or a line break is quoted; in TSV a tab, a
// line break or a backslash is written as \t, \n, \r or \\.

// tableFormat says how writeTable writes the table.
type tableFormat struct {
	tsv bool
	// bom starts the table with a byte-order mark, which Excel needs to
	// read UTF-8 (an Arabic alias, say) as UTF-8.
	bom bool
	// rows is the rows= path, or nil for the default.
	rows []string
}

// column is one column of the table: an index of a list on the way to the
// rows (level > 0), or a leaf field's path from the root.
type column struct {
	name  string
	path  []string
	level int
}

// writeTable writes data (a GraphQL result's data, JSON) by the rule.
func writeTable(w io.Writer, op *ast.OperationDefinition, data json.RawMessage, format tableFormat) error {
	var root map[string]any
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	if err := dec.Decode(&root); err != nil {
		return casegraph.Errorf(casegraph.CodeBadUserInput, "the result has no data to make rows of")
	}
	rows, err := rowsPath(op.SelectionSet, format.rows)
	if err != nil {
		return err
	}
	columns := tableColumns(op.SelectionSet, rows)
	bw := bufio.NewWriter(w)
	if format.bom {
		bw.WriteString("\ufeff")
	}
	write := writeRow
	if format.tsv {
		write = writeTSVRow
	}
	header := make([]string, len(columns))
	for i, c := range columns {
		header[i] = c.name
	}
	write(bw, header)
	forEachRow(root, rows, nil, nil, func(objects []any, indexes []int) {
		row := make([]string, len(columns))
		for i, c := range columns {
			if c.level > 0 {
				row[i] = strconv.Itoa(indexes[c.level-1] + 1)
				continue
			}
			row[i] = tableCell(objects, rows, c.path)
		}
		write(bw, row)
	})
	return bw.Flush()
}

// rowsStep is one field on the way from the root to the rows.
type rowsStep struct {
	key  string
	list bool
}

// rowsPath finds the way to the rows: the rows= path when given, else the
// first list the selection has (a list of paths going on to their steps),
// else the first root field.
func rowsPath(set ast.SelectionSet, want []string) ([]rowsStep, error) {
	if want != nil {
		var out []rowsStep
		all := set
		for i, key := range want {
			f := fieldByKey(set, key)
			if f == nil || (len(f.SelectionSet) == 0 && i < len(want)-1) {
				return nil, casegraph.Errorf(casegraph.CodeBadUserInput, "rows: the query selects no %s; lists it selects: %s",
					strings.Join(want[:i+1], "."), strings.Join(listPaths(all, nil), ", "))
			}
			out = append(out, rowsStep{key: key, list: isList(f)})
			set = f.SelectionSet
		}
		return out, nil
	}
	if found := firstListPath(set); found != nil {
		return found, nil
	}
	fs := fields(set)
	if len(fs) == 0 {
		return nil, casegraph.Errorf(casegraph.CodeBadUserInput, "the query selects nothing to make rows of")
	}
	return []rowsStep{{key: responseKey(fs[0])}}, nil
}

// firstListPath is the way to the first list, depth-first; a list of paths
// goes on to their steps.
func firstListPath(set ast.SelectionSet) []rowsStep {
	for _, f := range fields(set) {
		step := rowsStep{key: responseKey(f), list: isList(f)}
		if step.list {
			out := []rowsStep{step}
			if f.Definition != nil && f.Definition.Type.Name() == "Path" {
				if steps := fieldByKey(f.SelectionSet, "steps"); steps != nil {
					out = append(out, rowsStep{key: "steps", list: true})
				}
			}
			return out
		}
		if rest := firstListPath(f.SelectionSet); rest != nil {
			return append([]rowsStep{step}, rest...)
		}
	}
	return nil
}

// listPaths names the lists a selection has, for a refused rows=.
func listPaths(set ast.SelectionSet, prefix []string) []string {
	var out []string
	for _, f := range fields(set) {
		p := append(append([]string{}, prefix...), responseKey(f))
		if isList(f) {
			out = append(out, strings.Join(p, "."))
		}
		out = append(out, listPaths(f.SelectionSet, p)...)
	}
	return out
}

// isList says whether a field is a list, by the schema the query was
// validated against.
func isList(f *ast.Field) bool {
	return f.Definition != nil && f.Definition.Type.Elem != nil
}

func fieldByKey(set ast.SelectionSet, key string) *ast.Field {
	for _, f := range fields(set) {
		if responseKey(f) == key {
			return f
		}
	}
	return nil
}

// tableColumns lists the columns: the indexes of the lists on the way,
// then the leaves, each path once.
func tableColumns(set ast.SelectionSet, rows []rowsStep) []column {
	var out []column
	var way []string
	for _, step := range rows {
		way = append(way, step.key)
		if step.list {
			out = append(out, column{name: strings.Join(way, ".") + "#", level: len(out) + 1})
		}
	}
	seen := map[string]bool{}
	for _, leaf := range leafPaths(set, nil) {
		k := strings.Join(leaf, ".")
		if seen[k] {
			continue
		}
		seen[k] = true
		name := k
		if under := sharedPrefix(leaf, rows); under == len(rows) && len(leaf) > under {
			name = strings.Join(leaf[under:], ".")
		} else if under == len(rows) {
			name = leaf[len(leaf)-1] // the rows are scalars: the list's own name
		}
		out = append(out, column{name: name, path: leaf})
	}
	return out
}

// sharedPrefix is how many steps of the way to the rows a path follows.
func sharedPrefix(path []string, rows []rowsStep) int {
	n := 0
	for n < len(path) && n < len(rows) && path[n] == rows[n].key {
		n++
	}
	return n
}

// forEachRow walks to the rows, calling emit for each with the objects on
// the way (objects[0] the root, objects[i] the value after i steps) and the
// indexes of the lists on the way.
func forEachRow(v any, rows []rowsStep, objects []any, indexes []int, emit func([]any, []int)) {
	objects = append(objects, v)
	if len(objects) == len(rows)+1 {
		emit(objects, indexes)
		return
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return // a null on the way: no rows below it
	}
	step := rows[len(objects)-1]
	next := obj[step.key]
	if !step.list {
		if next != nil {
			forEachRow(next, rows, objects, indexes, emit)
		}
		return
	}
	list, _ := next.([]any)
	for i, el := range list {
		forEachRow(el, rows, slices.Clone(objects), append(slices.Clone(indexes), i), emit)
	}
}

// tableCell is a leaf's cell on a row: followed from the deepest object of
// the row that its path shares, a scalar, or a JSON array when the rest of
// its path goes through a list.
func tableCell(objects []any, rows []rowsStep, path []string) string {
	under := sharedPrefix(path, rows)
	v, throughList := follow(objects[under], path[under:])
	if v == nil {
		return ""
	}
	if throughList {
		b, _ := json.Marshal(v)
		return defuse(string(b))
	}
	return scalarCell(v)
}

// follow takes a path from v; across a list it maps over the elements
// (a null element stays null), and says whether it crossed one.
func follow(v any, path []string) (any, bool) {
	if list, ok := v.([]any); ok {
		out := make([]any, len(list))
		for i, el := range list {
			out[i], _ = follow(el, path)
		}
		return out, true
	}
	if len(path) == 0 {
		return v, false
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	return follow(obj[path[0]], path[1:])
}

func scalarCell(v any) string {
	switch x := v.(type) {
	case string:
		return defuse(x)
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	}
	b, _ := json.Marshal(v)
	return defuse(string(b))
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

// writeTSVRow writes one TSV row: cells joined by tabs, with a tab, a line
// break or a backslash in a cell escaped (\t, \n, \r, \\), the
// convention of PostgreSQL's text format and "linear TSV", so a row is
// always one line.
func writeTSVRow(w *bufio.Writer, row []string) {
	for i, f := range row {
		if i > 0 {
			w.WriteByte('\t')
		}
		tsvEscaper.WriteString(w, f)
	}
	w.WriteByte('\n')
}

var tsvEscaper = strings.NewReplacer("\\", "\\\\", "\t", "\\t", "\n", "\\n", "\r", "\\r")

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
