package casegraph_test

import (
	"os"
	"path/filepath"
	"regexp"
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
// guide's table of the vocabulary.
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
}
