package casegraph_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	casegraph "github.com/casegraph/casegraph"
)

// TestVocabularyTable: every type reads both ways and joins some kinds;
// no two types share a label (the FtM reader tells types of one schema
// apart by it); and every FtM schema the table names has exactly one
// default type, which another tool's interval of that schema is read as.
func TestVocabularyTable(t *testing.T) {
	labels := map[string]casegraph.RelationType{}
	defaults := map[string][]casegraph.RelationType{}
	for _, s := range casegraph.Vocabulary() {
		if s.Label == "" || s.InverseLabel == "" || len(s.FromKinds) == 0 || len(s.ToKinds) == 0 {
			t.Errorf("%s: a label, an inverse label and the kinds of both ends, please: %+v", s.Type, s)
		}
		if other, ok := labels[s.Label]; ok {
			t.Errorf("%s and %s share the label %q", s.Type, other, s.Label)
		}
		labels[s.Label] = s.Type
		if s.FtM.Schema == "" {
			if s.FtM.Default || s.FtM.From != "" || s.FtM.To != "" {
				t.Errorf("%s: FtM ends or a default without a schema: %+v", s.Type, s.FtM)
			}
			continue
		}
		if s.FtM.From == "" || s.FtM.To == "" || s.FtM.From == s.FtM.To {
			t.Errorf("%s: the FtM %s needs two ends: %+v", s.Type, s.FtM.Schema, s.FtM)
		}
		if _, ok := defaults[s.FtM.Schema]; !ok {
			defaults[s.FtM.Schema] = nil
		}
		if s.FtM.Default {
			defaults[s.FtM.Schema] = append(defaults[s.FtM.Schema], s.Type)
		}
	}
	for schema, types := range defaults {
		if len(types) != 1 {
			t.Errorf("FtM %s: default types %v, want exactly one", schema, types)
		}
	}
}

// TestVocabularyDocumented: every type has its place in the analyst's
// guide's table of the vocabulary, whose third column names the
// type-specific properties of each type exactly ("OWNS: `share`; PAID,
// FUNDS: `amount`, `currency`"); and the guide's table of those
// properties names, for each, the types that carry it.
func TestVocabularyDocumented(t *testing.T) {
	guide, err := os.ReadFile(filepath.Join("docs", "analyst.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, ty := range casegraph.RelationTypes() {
		if !regexp.MustCompile(`\b` + string(ty) + `\b`).Match(guide) {
			t.Errorf("docs/analyst.md does not name %s", ty)
		}
	}
	typeWord := regexp.MustCompile(`\b[A-Z][A-Z_]+[A-Z]\b`)
	types := func(cell string) []string {
		var out []string
		for _, w := range typeWord.FindAllString(cell, -1) {
			if _, err := casegraph.Spec(casegraph.RelationType(w)); err == nil {
				out = append(out, w)
			}
		}
		return out
	}
	props := regexp.MustCompile("`([a-z]+)`")
	names := func(cell string) []string {
		var out []string
		for _, m := range props.FindAllStringSubmatch(cell, -1) {
			out = append(out, m[1])
		}
		return out
	}
	documented := map[string][]string{} // type -> its properties, by the vocabulary table
	for _, row := range tableRows(t, string(guide), "| what | types | their own properties |") {
		for _, ty := range types(row[1]) {
			documented[ty] = []string{}
		}
		for _, part := range strings.Split(row[2], ";") {
			ts, ps, ok := strings.Cut(part, ":")
			if !ok {
				continue
			}
			for _, ty := range types(ts) {
				documented[ty] = append(documented[ty], names(ps)...)
			}
		}
	}
	for _, s := range casegraph.Vocabulary() {
		got, ok := documented[string(s.Type)]
		if !ok {
			t.Errorf("%s has no row in the guide's table of the vocabulary", s.Type)
			continue
		}
		if want := append([]string{}, s.Properties...); !slices.Equal(sorted(want), sorted(got)) {
			t.Errorf("the guide gives %s the properties %v, the vocabulary %v", s.Type, got, want)
		}
	}
	rules := map[string][]string{}
	for _, row := range tableRows(t, string(guide), "| property | types | rule |") {
		for _, p := range names(row[0]) {
			rules[p] = types(row[1])
		}
	}
	for _, p := range casegraph.RelationPropertyTable() {
		var want []string
		for _, ty := range p.Types() {
			want = append(want, string(ty))
		}
		if got, ok := rules[p.Name]; !ok {
			t.Errorf("the guide's table of relation properties has no row for %s", p.Name)
		} else if !slices.Equal(sorted(want), sorted(got)) {
			t.Errorf("the guide says %v carry %s, the vocabulary %v", got, p.Name, want)
		}
	}
}

// tableRows returns the cells of the rows of the Markdown table under the
// header line, or fails the test.
func tableRows(t *testing.T, doc, header string) [][]string {
	t.Helper()
	_, rest, ok := strings.Cut(doc, header+"\n")
	if !ok {
		t.Fatalf("docs/analyst.md has no table %s", header)
	}
	var rows [][]string
	for _, line := range strings.Split(rest, "\n")[1:] { // after the |---| line
		if !strings.HasPrefix(line, "|") {
			break
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		if len(cells) != 3 {
			t.Fatalf("a row of %d cells, want 3: %s", len(cells), line)
		}
		rows = append(rows, cells)
	}
	return rows
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}
