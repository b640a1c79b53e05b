package cypher

import (
	"embed"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"text/template"

	casegraph "github.com/casegraph/casegraph"
)

// Every statement is a file of statements/: NAME.cypher as it runs, or
// NAME.cypher.tmpl, a template over the definitions of statements/shared.tmpl
// (the projections and filters every statement shares), rendered once at
// start-up for each of its variants (or, for ReadEntities, for each shape
// of read). Go names a statement by a constant of type statement, declared
// in the file of its noun, whose value is the file's NAME; a variant is
// named NAME/... (see the methods of statement). statement_test.go proves
// that every constant names a file and every file a constant.

//go:embed statements
var statementFiles embed.FS

// sharedFile holds the definitions the statement templates share.
const sharedFile = "shared.tmpl"

// statement names a statement: a file of statements/ (a constant), or one
// rendering of its template (a variant).
type statement string

// templates is every template of statements/ parsed into one set, once: the
// one template loader, for statements, compiled reads and migrations.
var templates = sync.OnceValues(func() (*template.Template, error) {
	t, err := template.New("statements").Option("missingkey=error").Funcs(templateFuncs).ParseFS(statementFiles, "statements/*.tmpl")
	if err != nil {
		return nil, fmt.Errorf("statement templates: %w", err)
	}
	return t, nil
})

// templateFuncs are the functions every template may call: the entity's
// properties come from the domain's table (casegraph.EntityPropertyRows).
var templateFuncs = template.FuncMap{
	// duplicateRow is DuplicateSubjects' row of an entity variable.
	"duplicateRow": duplicateRow,
	// entityProjection is the map projection of an entity variable: its
	// id, every property a read may return, and its kind.
	"entityProjection": func(v string) string { return entityProjection(v, casegraph.EntityProperties) },
	// relationProjection is the map projection of a relationship
	// variable: its id, properties, type and ends, redacted where an end
	// is hidden from the caller.
	"relationProjection": func(v string) string { return relationProjection(v, casegraph.RelationProperties) },
	// relationProjectionHidden is relationProjection for a statement that
	// has computed the relation's relationHidden test once, as the
	// variable named hidden (a smaller statement, quicker to plan).
	"relationProjectionHidden": func(v, hidden string) string {
		return relationProjectionOf(v, casegraph.RelationProperties, hidden, relationKeyOf(v, hidden))
	},
	// relationHidden is whether an end of the relation is hidden from the
	// caller.
	"relationHidden": relationHidden,
	// entityValues and relationValues are the same projections with the
	// properties named by the statement's parameters $entityProps and
	// $relationProps (one text for every selection; valuesByName decodes
	// them).
	"entityValues": entityValues,
	"relationValues": func(r string) string {
		hidden := relationHidden(r)
		return relationValuesOf(r, hidden, relationKeyOf(r, hidden))
	},
	// entityWith and relationWith are the same projections with the
	// properties named (a statement rendered for a selection's).
	"entityWith":   entityProjection,
	"relationWith": relationProjection,
	// relationKey is a relation's id as the caller sees it.
	"relationKey": relationKey,
	// relationOrder is relationKey read from the relation alone: a
	// page's order.
	"relationOrder": relationOrder,
	// The gate (gate.go): readable tests a dataset the caller may read;
	// lookupMatch and lookupEntity find an entity by a key as the caller
	// may name it (an opaque id for a protected entity it may not see);
	// hidden tests that an entity is protected from the caller.
	"readable":     readable,
	"lookupMatch":  lookupMatch,
	"lookupEntity": lookupEntity,
	"hidden":       hidden,
	// endID is an entity's id as the caller sees it.
	"endID":  endID,
	"notPad": notPad,
	// args makes a list of the arguments of a definition that takes more
	// than one (endChanged).
	"args": func(v ...string) []string { return v },
	// side makes the arguments of ReadEntities' registrySide: a page, the
	// registry's property of its side and of the other end, the arrows,
	// and whether to leave out self-loops.
	"side": func(v ...any) []any { return v },
	// relationAttributes names the type-specific relation properties
	// (casegraph.RelationPropertyTable), in table order.
	"relationAttributes": casegraph.RelationPropertyNames,
	// entityProperties names the properties a write sets, in table order.
	"entityProperties": func() []string {
		var names []string
		for p := range casegraph.EntityPropertyRows() {
			names = append(names, p.Name)
		}
		return names
	},
}

// loadStatements reads every NAME.cypher file of statements/, and renders
// every NAME.cypher.tmpl for each of its variants (templateVariants; by
// default once, over the relation vocabulary, for statements that must
// name each relationship type, such as per-type index lookups).
func loadStatements() (map[statement]string, error) {
	entries, err := fs.ReadDir(statementFiles, "statements")
	if err != nil {
		return nil, fmt.Errorf("read statements: %w", err)
	}
	set, err := templates()
	if err != nil {
		return nil, err
	}
	out := make(map[statement]string, len(entries))
	for _, e := range entries {
		file := e.Name()
		switch {
		case file == sharedFile:
		case strings.HasSuffix(file, ".cypher"):
			b, err := fs.ReadFile(statementFiles, "statements/"+file)
			if err != nil {
				return nil, fmt.Errorf("read statement %s: %w", file, err)
			}
			text := strings.TrimSpace(string(b))
			if text == "" {
				return nil, fmt.Errorf("statement %s is empty", file)
			}
			out[statement(strings.TrimSuffix(file, ".cypher"))] = text
		case strings.HasSuffix(file, ".cypher.tmpl"):
			base := statement(strings.TrimSuffix(file, ".cypher.tmpl"))
			variants := []variant{{Name: base, Data: vocabularyData()}}
			if more, ok := templateVariants[base]; ok {
				if more == nil {
					continue // rendered for each read (ReadEntities)
				}
				variants = more()
			}
			for _, v := range variants {
				text, err := execute(set, file, v.Data)
				if err != nil {
					return nil, err
				}
				out[v.Name] = text
			}
		default:
			return nil, fmt.Errorf("statements/%s: neither NAME.cypher nor NAME.cypher.tmpl", file)
		}
	}
	return out, nil
}

// execute renders one template of the set.
func execute(set *template.Template, name string, data any) (string, error) {
	var b strings.Builder
	if err := set.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("template %s: %w", name, err)
	}
	return strings.TrimSpace(b.String()), nil
}

// render executes a template kept outside statements/ (a migration's) with
// the shared definitions at hand.
func render(name, text string, data any) (string, error) {
	set, err := templates()
	if err != nil {
		return "", err
	}
	t, err := set.Clone()
	if err == nil {
		_, err = t.New(name).Parse(text)
	}
	if err != nil {
		return "", fmt.Errorf("template %s: %w", name, err)
	}
	return execute(t, name, data)
}

// variant is one rendering of a statement template: its name and data.
type variant struct {
	Name statement
	Data any
}

// templateVariants lists the statements rendered more than once (one for
// each sort order, say), and (nil) the one rendered for each read; any
// other template is rendered once, over the relation vocabulary.
var templateVariants = map[statement]func() []variant{
	stmtEntities:                 entityOrderVariants,
	stmtSources:                  directionVariants(stmtSources),
	stmtSavedQueries:             directionVariants(stmtSavedQueries),
	stmtSavedViews:               directionVariants(stmtSavedViews),
	stmtChanges:                  directionVariants(stmtChanges),
	stmtRelationsOf:              directionVariants(stmtRelationsOf),
	stmtCountEntities:            filterVariants(stmtCountEntities),
	stmtExportSources:            datasetVariants(stmtExportSources),
	stmtExportEntities:           datasetVariants(stmtExportEntities),
	stmtExportRelations:          datasetVariants(stmtExportRelations),
	stmtBackfillDegree:           datasetVariants(stmtBackfillDegree),
	stmtBackfillRelationIDs:      datasetVariants(stmtBackfillRelationIDs),
	stmtBackfillProtectedEnds:    datasetVariants(stmtBackfillProtectedEnds),
	stmtBackfillRelationEnds:     datasetVariants(stmtBackfillRelationEnds),
	stmtSharedRelationIDs:        datasetVariants(stmtSharedRelationIDs),
	stmtMigrateRelationCitations: datasetVariants(stmtMigrateRelationCitations),
	stmtMigrateEntityCitations:   datasetVariants(stmtMigrateEntityCitations),
	stmtBackfillCitingDatasets:   datasetVariants(stmtBackfillCitingDatasets),
	stmtCitingClaims:             datasetVariants(stmtCitingClaims),
	stmtDeleteSource:             datasetVariants(stmtDeleteSource),
	stmtUpsertRelation:           typeVariants(stmtUpsertRelation),
	stmtDeleteRelation:           typeVariants(stmtDeleteRelation),
	stmtPaths:                    pathVariants(stmtPaths),
	stmtConnections:              pathVariants(stmtConnections),
	stmtNeighborhood:             pathVariants(stmtNeighborhood),
	stmtCommonNeighbors:          sourceVariants(stmtCommonNeighbors),
	stmtEntityStates:             gateVariants(stmtEntityStates),
	stmtRelationStates:           gateVariants(stmtRelationStates),
	stmtCommandChain:             commandVariants(stmtCommandChain),
	stmtWhoWasInCommand:          commandVariants(stmtWhoWasInCommand),
	stmtSearch:                   searchVariants,
	stmtReadEntities:             nil,
}

// datasetVariants renders a statement twice: for all data (NAME/all), and
// for the data of $datasets (NAME/datasets), which finds it by the dataset
// index. One statement for both would hold "$datasets IS NULL OR ...",
// which the planner cannot answer from an index: every lookup would scan
// every entity.
func datasetVariants(name statement) func() []variant {
	return func() []variant {
		return []variant{
			{Name: name.byDatasets(nil), Data: map[string]any{"Datasets": false, "Types": vocabularyData().Types}},
			{Name: name.byDatasets([]string{"any"}), Data: map[string]any{"Datasets": true, "Types": vocabularyData().Types}},
		}
	}
}

// directionVariants renders a list's statement twice: reading forward
// from a cursor (NAME/forward) and backward (NAME/backward), since a
// statement cannot take its sort direction as a parameter.
func directionVariants(name statement) func() []variant {
	return func() []variant {
		return []variant{
			{Name: name.paged(casegraph.Page{}), Data: map[string]any{"Backward": false}},
			{Name: name.paged(casegraph.Page{Backward: true}), Data: map[string]any{"Backward": true}},
		}
	}
}

// paged names the variant of a directionVariants statement for a page.
func (name statement) paged(p casegraph.Page) statement {
	if p.Backward {
		return name + "/backward"
	}
	return name + "/forward"
}

// byDatasets names the variant of a datasetVariants statement.
func (name statement) byDatasets(datasets []string) statement {
	if len(datasets) > 0 {
		return name + "/datasets"
	}
	return name + "/all"
}

// typeVariants renders a statement for every relation type (NAME/TYPE),
// over that type's typeData: Cypher plans an index lookup by a
// relationship's id only when its type is written in the statement.
func typeVariants(name statement) func() []variant {
	return func() []variant {
		var out []variant
		for _, t := range vocabularyData().Types {
			out = append(out, variant{Name: name.ofType(casegraph.RelationType(t.Type)), Data: t})
		}
		return out
	}
}

// ofType names the variant of a typeVariants statement.
func (name statement) ofType(t casegraph.RelationType) statement {
	return name + "/" + statement(t)
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

func (s *Store) statement(name statement) string {
	text, ok := s.statements[name]
	if !ok {
		// Statement names are constants in this package; a test runs every
		// one of them, so this is a programming error caught before release.
		panic("cypher: no statement named " + string(name))
	}
	return text
}
