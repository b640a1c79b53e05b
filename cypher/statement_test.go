package cypher

// Statement files and names: every constant names a file and every file is
// named, and every variant Go builds renders.

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	casegraph "github.com/casegraph/casegraph"
)

// statementConstants parses the package's Go files (not its tests) and
// returns its constants of type statement (value by identifier), how often
// each identifier is used besides its declaration, and the files.
func statementConstants(t *testing.T) (map[string]statement, map[string]int, []*ast.File, *token.FileSet) {
	t.Helper()
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	consts := map[string]statement{}
	decls := map[*ast.Ident]bool{}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				if typ, ok := vs.Type.(*ast.Ident); !ok || typ.Name != "statement" {
					continue
				}
				for i, name := range vs.Names {
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						t.Fatalf("statement constant %s: want a string literal", name.Name)
					}
					consts[name.Name] = statement(strings.Trim(lit.Value, `"`))
					decls[name] = true
				}
			}
		}
	}
	uses := map[string]int{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && !decls[id] {
				if _, isConst := consts[id.Name]; isConst {
					uses[id.Name]++
				}
			}
			return true
		})
	}
	return consts, uses, files, fset
}

// TestStatementNames proves that every statement constant names a file of
// statements/ and is used, that every file of statements/ is named by a
// constant, and that Go names statements only by constants: no string
// literal reaches a call that runs or looks up a statement.
func TestStatementNames(t *testing.T) {
	consts, uses, files, fset := statementConstants(t)
	byValue := map[statement]string{}
	for name, v := range consts {
		if other, dup := byValue[v]; dup {
			t.Errorf("%s and %s both name %s", name, other, v)
		}
		byValue[v] = name
		if uses[name] == 0 {
			t.Errorf("statement constant %s is never used", name)
		}
	}
	entries, err := fs.ReadDir(statementFiles, "statements")
	if err != nil {
		t.Fatal(err)
	}
	onDisk := map[statement]bool{}
	for _, e := range entries {
		if e.Name() == sharedFile {
			continue
		}
		base := statement(strings.TrimSuffix(strings.TrimSuffix(e.Name(), ".tmpl"), ".cypher"))
		onDisk[base] = true
		if _, ok := byValue[base]; !ok {
			t.Errorf("statements/%s: no statement constant names it, so nothing runs it", e.Name())
		}
	}
	for v, name := range byValue {
		if !onDisk[v] {
			t.Errorf("statement constant %s: no file statements/%s.cypher or .cypher.tmpl", name, v)
		}
	}
	// The argument that names the statement, by function.
	nameArg := map[string]int{"read": 1, "write": 1, "executeText": 1, "inBatches": 1, "run": 0, "statement": 0}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			var fn string
			switch c := call.Fun.(type) {
			case *ast.Ident:
				fn = c.Name
			case *ast.SelectorExpr:
				fn = c.Sel.Name
			}
			i, ok := nameArg[fn]
			if !ok || i >= len(call.Args) {
				return true
			}
			if lit, ok := call.Args[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				t.Errorf("%s: %s(%s): name the statement by its constant", fset.Position(lit.Pos()), fn, lit.Value)
			}
			return true
		})
	}
}

// TestStatementVariants proves that every name Go builds for a statement
// resolves to a loaded statement, and that every loaded statement is one
// Go can build.
func TestStatementVariants(t *testing.T) {
	consts, _, _, _ := statementConstants(t)
	loaded, err := loadStatements()
	if err != nil {
		t.Fatal(err)
	}
	built := map[statement]bool{}
	for _, stmt := range consts {
		if _, hasVariants := templateVariants[stmt]; !hasVariants {
			built[stmt] = true // rendered once, under its own name
		}
	}
	built[stmtCountEntities.byFilter(casegraph.EntityFilter{Near: &casegraph.Near{}})] = true
	for _, stmt := range []statement{stmtCountEntities, stmtExportSources, stmtExportEntities, stmtExportRelations, stmtBackfillDegree, stmtBackfillRelationIDs, stmtBackfillProtectedEnds, stmtBackfillRelationEnds, stmtSharedRelationIDs,
		stmtMigrateRelationCitations, stmtMigrateEntityCitations, stmtBackfillCitingDatasets, stmtCitingClaims, stmtDeleteSource} {
		built[stmt.byDatasets(nil)], built[stmt.byDatasets([]string{"d"})] = true, true
	}
	for field := range entityOrders {
		for _, desc := range []bool{false, true} {
			o := casegraph.EntityOrder{Field: field, Desc: desc}
			for _, back := range []bool{false, true} {
				for _, f := range entityFilterScopes {
					built[entityOrderName(o, f, back)] = true
					if entityOrders[field].ByDataset && f.Near == nil {
						built[entityOrderName(o, f, back).seek()] = true
					}
				}
			}
		}
	}
	for _, stmt := range []statement{stmtSources, stmtSavedQueries, stmtSavedViews, stmtChanges, stmtRelationsOf} {
		built[stmt.paged(casegraph.Page{})], built[stmt.paged(casegraph.Page{Backward: true})] = true, true
	}
	for _, stmt := range []statement{stmtEntityStates, stmtRelationStates} {
		built[stmt.inGate(gateWrite)], built[stmt.inGate(gateCheck)] = true, true
	}
	built[stmtEntityStates+"/ends"] = true
	built[searchStatement(false)], built[searchStatement(true)] = true, true
	for _, typ := range casegraph.RelationTypes() {
		built[stmtUpsertRelation.ofType(typ)], built[stmtDeleteRelation.ofType(typ)] = true, true
	}
	// A path statement's variant for a filter that excludes something, and
	// its open one.
	path := func(name statement) {
		built[openVariant(name, map[string]any{"types": []string{"X"}})], built[openVariant(name, map[string]any{"types": nil})] = true, true
	}
	for _, o := range []casegraph.PathRead{{WithSources: true}, {WithSources: false}} {
		path(withSources(stmtCommonNeighbors, o))
	}
	for _, d := range []casegraph.PathDirection{casegraph.PathAny, casegraph.PathOutgoing} {
		for depth := 1; depth <= casegraph.MaxMaxDepth; depth++ {
			for _, o := range []casegraph.PathRead{{WithSources: true}, {WithSources: false}} {
				for _, k := range pathKs {
					path(withSources(pathStatementName(stmtPaths, depth, d, k), o))
				}
				path(withSources(pathStatementName(stmtConnections, depth, d, 0), o))
				if depth <= casegraph.MaxNeighborhood {
					path(withSources(pathStatementName(stmtNeighborhood, depth, d, 0), o))
				}
			}
		}
	}
	for levels := 1; levels <= casegraph.MaxCommandLevels; levels++ {
		for _, o := range []casegraph.CommandRead{{WithSources: true}, {WithSources: false}} {
			built[commandStatementName(stmtCommandChain, levels, o)] = true
			built[commandStatementName(stmtWhoWasInCommand, levels, o)] = true
		}
	}
	var missing, unbuilt []string
	for name := range built {
		if loaded[name] == "" {
			missing = append(missing, string(name))
		}
	}
	for name := range loaded {
		if !built[name] {
			unbuilt = append(unbuilt, string(name))
		}
	}
	slices.Sort(missing)
	slices.Sort(unbuilt)
	if len(missing) > 0 {
		t.Errorf("names Go builds that no statement has: %v", missing)
	}
	if len(unbuilt) > 0 {
		t.Errorf("statements no name of Go reaches: %v", unbuilt)
	}
}

// TestEntityOrdersCoverTheDomain: Entities has a statement for every sort
// key casegraph.EntitiesRequest lets through, and for no other.
func TestEntityOrdersCoverTheDomain(t *testing.T) {
	for _, field := range casegraph.EntityOrderFields() {
		if _, ok := entityOrders[field]; !ok {
			t.Errorf("no statement sorts by %s", field)
		}
	}
	if len(entityOrders) != len(casegraph.EntityOrderFields()) {
		t.Errorf("%d sort keys have statements, the domain knows %d", len(entityOrders), len(casegraph.EntityOrderFields()))
	}
}

// TestRelationStatesSeeksByIndex: each type's branch of RelationStates
// seeks its relation id index by hint. The statement keeps its first plan
// (replan=skip), and a plan made on a database holding little (the seed
// alone) could scan a type instead; an import's batch of relations then
// ran past the memory a transaction may use (the heavy-load drill).
func TestRelationStatesSeeksByIndex(t *testing.T) {
	loaded, err := loadStatements()
	if err != nil {
		t.Fatal(err)
	}
	branch := regexp.MustCompile(`MATCH \(\)-\[r:(\w+) \{id: id\}\]->\(\)( USING INDEX r:(\w+)\(id\))?`)
	for _, mode := range []gateMode{gateWrite, gateCheck} {
		name := stmtRelationStates.inGate(mode)
		found := branch.FindAllStringSubmatch(loaded[name], -1)
		if len(found) != len(casegraph.RelationTypes()) {
			t.Errorf("%s: %d branches, want one a relation type (%d)", name, len(found), len(casegraph.RelationTypes()))
		}
		for _, m := range found {
			if m[3] != m[1] {
				t.Errorf("%s: the branch of %s seeks no index of its own: %q", name, m[1], m[0])
			}
		}
	}
}
