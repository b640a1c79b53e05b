package server

// Fuzz tests of the tables of saved queries' results (csv.go).

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// FuzzCSVCells: whatever three strings a result holds, the CSV has a header
// and one row of three cells that encoding/csv reads back as the strings
// (each defused), no ";" outside quotes (Excel in ";" locales would split
// there), and each cell is the text or the text after an apostrophe, the
// apostrophe exactly when the text, past leading spaces and invisible
// format characters, starts a formula (or starts with a tab or carriage
// return).
func FuzzCSVCells(f *testing.F) {
	for _, seed := range [][3]string{
		{"Caesar", "", "plain"}, {"=1+1", "+1", "-1"}, {"@SUM(A1)", "\tx", "\rx"},
		{" =1", "\u00a0=1", "\u3000@x"}, {"\u200b=1", "\ufeff+1", "\u2028-1"}, {"\uff1d1", "a;b", "a,b"},
		{`say "x"`, "a\nb", "a\r\nb"}, {`\.`, " lead", "trail "}, {"';=1", "\"=1\"", "'=1"},
		{"\xff=1", "\x00", "\u00a0\u00a0\u00a0-"}, {"\v=1", "\f+1", "\u0085@"}, {"\u180e=1", "\u2060=1", "\u061c=1"},
	} {
		f.Add(seed[0], seed[1], seed[2])
	}
	op := operation(f, `{ search(text: "x") { edges { a: cursor b: matchedField c: cursor } } }`)
	f.Fuzz(func(t *testing.T, a, b, c string) {
		data, err := json.Marshal(map[string]any{"search": map[string]any{"edges": []map[string]string{{"a": a, "b": b, "c": c}}}})
		if err != nil {
			t.Fatal(err)
		}
		// What the result holds: JSON makes invalid UTF-8 into U+FFFD.
		var held struct {
			Search struct{ Edges []map[string]string }
		}
		if err := json.Unmarshal(data, &held); err != nil {
			t.Fatal(err)
		}
		texts := []string{held.Search.Edges[0]["a"], held.Search.Edges[0]["b"], held.Search.Edges[0]["c"]}

		var out bytes.Buffer
		if err := writeTable(&out, op, data, tableFormat{}); err != nil {
			t.Fatalf("writeTable: %v", err)
		}
		if i := unquotedSemicolon(out.String()); i >= 0 {
			t.Errorf("a ';' outside quotes at byte %d:\n%q", i, out.String())
		}
		rows, err := csv.NewReader(strings.NewReader(out.String())).ReadAll()
		if err != nil {
			t.Fatalf("encoding/csv cannot read it back: %v\n%q", err, out.String())
		}
		want := [][]string{{"search.edges#", "a", "b", "c"}, {"1", "", "", ""}}
		for i, text := range texts {
			want[1][i+1] = text
			if startsFormula(text) {
				want[1][i+1] = "'" + text
			}
			// encoding/csv reads a "\r\n" inside a quoted cell as "\n".
			want[1][i+1] = strings.ReplaceAll(want[1][i+1], "\r\n", "\n")
		}
		if diff := cmp.Diff(want, rows); diff != "" {
			t.Errorf("read back (-want +got):\n%s\nCSV: %q", diff, out.String())
		}
	})
}

// FuzzCSVRow: a row of any cells that are valid UTF-8 reads back with
// encoding/csv as the same cells, and a cell with a comma, semicolon,
// quote or line break, or a leading space of any kind, is quoted.
func FuzzCSVRow(f *testing.F) {
	for _, seed := range []string{"", "a", "a,b", "a;b", `"`, "\n", "\r", " a", "\u00a0a", `\.`, "a\"b;c,d\re\nf"} {
		f.Add(seed, "next")
	}
	f.Fuzz(func(t *testing.T, cell, next string) {
		if !utf8.ValidString(cell) || !utf8.ValidString(next) {
			return // cells come from JSON, always valid UTF-8
		}
		var out bytes.Buffer
		w := bufio.NewWriter(&out)
		writeRow(w, []string{cell, next})
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		first, _ := utf8.DecodeRuneInString(cell)
		mustQuote := strings.ContainsAny(cell, ",;\"\r\n") || unicode.IsSpace(first)
		if mustQuote && !strings.HasPrefix(out.String(), `"`) {
			t.Errorf("%q is written unquoted: %q", cell, out.String())
		}
		if i := unquotedSemicolon(out.String()); i >= 0 {
			t.Errorf("a ';' outside quotes at byte %d: %q", i, out.String())
		}
		r := csv.NewReader(strings.NewReader(out.String()))
		row, err := r.Read()
		if err != nil {
			t.Fatalf("encoding/csv cannot read %q: %v", out.String(), err)
		}
		want := []string{strings.ReplaceAll(cell, "\r\n", "\n"), strings.ReplaceAll(next, "\r\n", "\n")}
		if diff := cmp.Diff(want, row); diff != "" {
			t.Errorf("read back (-want +got):\n%s\nCSV: %q", diff, out.String())
		}
	})
}

// startsFormula says, independently of defuse, when a cell needs its
// apostrophe.
func startsFormula(s string) bool {
	if strings.HasPrefix(s, "\t") || strings.HasPrefix(s, "\r") {
		return true
	}
	rest := strings.TrimLeftFunc(s, func(r rune) bool {
		return unicode.In(r, unicode.White_Space, unicode.Zs, unicode.Cf)
	})
	r, _ := utf8.DecodeRuneInString(rest)
	switch r {
	case '=', '+', '-', '@', '＝', '＋', '－', '＠':
		return true
	}
	return false
}

// unquotedSemicolon returns the offset of the first ";" outside a quoted
// field of CSV text, or -1.
func unquotedSemicolon(text string) int {
	quoted := false
	for i, c := range text {
		switch {
		case c == '"':
			quoted = !quoted
		case c == ';' && !quoted:
			return i
		}
	}
	return -1
}
