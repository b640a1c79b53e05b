package cypher

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"text/template"

	casegraph "github.com/casegraph/casegraph"
)

//go:embed queries/*.cypher queries/*.cypher.tmpl
var queryFiles embed.FS

// loadStatements reads every NAME.cypher file of dir, and renders every
// NAME.cypher.tmpl over the relation vocabulary (for statements that must
// name each relationship type, such as per-type index lookups).
func loadStatements(fsys fs.FS, dir string) (map[string]string, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("read statements: %w", err)
	}
	out := make(map[string]string, len(entries))
	for _, e := range entries {
		b, err := fs.ReadFile(fsys, path.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("read statement %s: %w", e.Name(), err)
		}
		name, text := e.Name(), string(b)
		if !strings.HasSuffix(name, ".tmpl") {
			if text = strings.TrimSpace(text); text == "" {
				return nil, fmt.Errorf("statement %s is empty", name)
			}
			out[strings.TrimSuffix(name, ".cypher")] = text
			continue
		}
		base := strings.TrimSuffix(name, ".cypher.tmpl")
		variants := []variant{{Name: base, Data: vocabularyData()}}
		if more, ok := templateVariants[base]; ok {
			variants = more()
		}
		for _, v := range variants {
			rendered, err := render(name, text, v.Data)
			if err != nil {
				return nil, err
			}
			out[v.Name] = strings.TrimSpace(rendered)
		}
	}
	return out, nil
}

// variant is one rendering of a statement template: its name and data.
type variant struct {
	Name string
	Data any
}

// templateVariants lists the statements rendered more than once (one for
// each sort order, say); any other template is rendered once, over the
// relation vocabulary.
var templateVariants = map[string]func() []variant{
	"Entities":        entityOrderVariants,
	"CountEntities":   datasetVariants("CountEntities"),
	"ExportSources":   datasetVariants("ExportSources"),
	"ExportEntities":  datasetVariants("ExportEntities"),
	"ExportRelations": datasetVariants("ExportRelations"),
	"BackfillDegree":  datasetVariants("BackfillDegree"),
	"UpsertRelation":  typeVariants("UpsertRelation"),
	"DeleteRelation":  typeVariants("DeleteRelation"),
}

// datasetVariants renders a statement twice: for all data (NAME/all), and
// for the data of $datasets (NAME/datasets), which finds it by the dataset
// index. One statement for both would hold "$datasets IS NULL OR ...",
// which the planner cannot answer from an index: every lookup would scan
// every entity.
func datasetVariants(name string) func() []variant {
	return func() []variant {
		return []variant{
			{Name: name + "/all", Data: map[string]any{"Datasets": false}},
			{Name: name + "/datasets", Data: map[string]any{"Datasets": true}},
		}
	}
}

// byDatasets names the variant of a datasetVariants statement.
func byDatasets(name string, datasets []string) string {
	if len(datasets) > 0 {
		return name + "/datasets"
	}
	return name + "/all"
}

// typeVariants renders a statement for every relation type (NAME/TYPE),
// over that type's typeData: Cypher plans an index lookup by a
// relationship's id only when its type is written in the statement.
func typeVariants(name string) func() []variant {
	return func() []variant {
		var out []variant
		for _, t := range vocabularyData().Types {
			out = append(out, variant{Name: name + "/" + t.Type, Data: t})
		}
		return out
	}
}

// typeData is one relation type as templates see it.
type typeData struct {
	Type  string // AUTHORED
	Lower string // authored
}

func vocabularyData() struct{ Types []typeData } {
	var d struct{ Types []typeData }
	for _, t := range casegraph.RelationTypes() {
		d.Types = append(d.Types, typeData{Type: string(t), Lower: strings.ToLower(string(t))})
	}
	return d
}

// render executes a statement template, which may use the shared
// definitions of paths/filters.tmpl (such as the entity projection).
func render(name, text string, data any) (string, error) {
	t, err := template.New(name).Option("missingkey=error").ParseFS(pathFiles, "paths/filters.tmpl")
	if err == nil {
		t, err = t.New(name).Parse(text)
	}
	if err != nil {
		return "", fmt.Errorf("template %s: %w", name, err)
	}
	var b strings.Builder
	if err := t.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("template %s: %w", name, err)
	}
	return b.String(), nil
}

func (s *Store) statement(name string) string {
	text, ok := s.statements[name]
	if !ok {
		// Statement names are constants in this package; a test runs every
		// one of them, so this is a programming error caught before release.
		panic("cypher: no statement named " + name)
	}
	return text
}
