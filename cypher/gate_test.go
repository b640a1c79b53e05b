package cypher

// The read gate's checks: every statement goes through it, or is declared
// ungated beside its constants, and the checker catches those that do not.

import (
	"fmt"
	"go/ast"
	"strings"
	"testing"

	casegraph "github.com/casegraph/casegraph"
)

// gateTestForms renders the gate's tests as the templates do.
func gateTestForms(t *testing.T) gateForms {
	t.Helper()
	set, err := templates()
	if err != nil {
		t.Fatal(err)
	}
	return gateForms{changeReadable: func(v string) []cypherToken {
		text, err := execute(set, "changeReadable", v)
		if err != nil {
			t.Fatal(err)
		}
		return tokenizeCypher(text)
	}}
}

// gateTestReads are shapes of ReadEntities to render: a root alone, with
// sources, pages of relations one way and the other, with totals and
// sources, and their ends two levels down.
func gateTestReads() []*casegraph.EntityRead {
	end := &casegraph.EntityRead{Sources: true, Relations: []casegraph.RelationsRead{
		{Filter: casegraph.RelationFilter{Direction: casegraph.DirectionOutgoing}, Total: true, Sources: true,
			Ends: &casegraph.EntityRead{Sources: true}},
	}}
	return []*casegraph.EntityRead{
		{},
		{Sources: true},
		{Relations: []casegraph.RelationsRead{{Total: true}}},
		{Relations: []casegraph.RelationsRead{
			{Filter: casegraph.RelationFilter{Types: []casegraph.RelationType{casegraph.RelationType("AUTHORED")}, Direction: casegraph.DirectionIncoming},
				Page: casegraph.Page{Backward: true}, Total: true, Sources: true},
			{Total: true, Ends: end},
		}},
		{Sources: true, Relations: []casegraph.RelationsRead{{Ends: end, Total: true}, {Filter: casegraph.RelationFilter{Direction: casegraph.DirectionOutgoing}}}},
	}
}

// gateTestStatements renders every statement: every variant of every
// file of statements/, and ReadEntities for each shape of gateTestReads,
// rendered for callers who may read every dataset (name suffix /all)
// and for those who may not (/scoped).
func gateTestStatements(t *testing.T) map[statement]string {
	t.Helper()
	loaded, err := loadStatements()
	if err != nil {
		t.Fatal(err)
	}
	reads := newReadStatements()
	for i, read := range gateTestReads() {
		for _, scoped := range []bool{false, true} {
			level, _, _, err := compileRead(read, scoped, scoped, DefaultHubDegree)
			if err != nil {
				t.Fatal(err)
			}
			text, err := reads.render(level)
			if err != nil {
				t.Fatal(err)
			}
			name := stmtReadEntities + statement("/"+string(rune('a'+i)))
			if scoped {
				loaded[name+"/scoped"] = text
			} else {
				loaded[name+"/all"] = text
			}
		}
	}
	// The command statements as a narrow selection renders them.
	narrow := &casegraph.Properties{Entity: []string{"name"}, Relation: []string{"role"}}
	set, err := templates()
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []statement{stmtCommandChain, stmtWhoWasInCommand} {
		for i, read := range []casegraph.CommandRead{{Properties: narrow}, {WithSources: true, Properties: narrow},
			{WithSources: true, RelationSourcesOnly: true, Properties: narrow}} {
			v, err := commandVariantOf(casegraph.DefaultCommandLevels, read)
			if err != nil {
				t.Fatal(err)
			}
			text, err := execute(set, string(stmt)+".cypher.tmpl", v)
			if err != nil {
				t.Fatal(err)
			}
			loaded[commandStatementName(stmt, casegraph.DefaultCommandLevels, read)+statement(fmt.Sprintf("/narrow%d", i))] = text
		}
	}
	return loaded
}

// TestStatementsGoThroughTheGate renders every statement and reads it as
// Cypher (comments and string literals removed): every pattern element
// that reads the graph, and every node a procedure yields, must pass the
// gate's own test for its variable in its MATCH (gatecheck_test.go), and
// a statement that shows entities or relations must redact protected
// people for a caller without clearance ($callerCleared). A statement
// that returns no graph data to a caller is declared ungated next to its
// constant, with its reason; each declared one must need it.
func TestStatementsGoThroughTheGate(t *testing.T) {
	forms := gateTestForms(t)
	exempt := map[statement]string{}
	for _, list := range ungatedStatements() {
		for name, why := range list {
			if _, dup := exempt[name]; dup {
				t.Errorf("%s is declared ungated twice", name)
			}
			if strings.TrimSpace(why) == "" {
				t.Errorf("%s is declared ungated without a reason", name)
			}
			exempt[name] = why
		}
	}
	for name, text := range gateTestStatements(t) {
		base := statement(strings.SplitN(string(name), "/", 2)[0])
		allDatasets := base == stmtReadEntities && strings.HasSuffix(string(name), "/all")
		violations := checkGate(text, forms, allDatasets)
		if _, ok := exempt[base]; ok {
			if len(violations) == 0 {
				t.Errorf("%s is declared ungated, but goes through the gate: take it off the list", name)
			}
			continue
		}
		for _, v := range violations {
			t.Errorf("%s: %s", name, v)
		}
		stripped := stripCypher(text)
		if (strings.Contains(stripped, "labels(") || strings.Contains(stripped, "type(")) && !strings.Contains(stripped, "$callerCleared") {
			t.Errorf("%s shows entities or relations without redacting protected people ($callerCleared)", name)
		}
	}
}

// TestUngatedNextToConstants: every statement declared ungated is
// declared in the file that declares its constant, by a function that
// ungatedStatements collects.
func TestUngatedNextToConstants(t *testing.T) {
	consts, _, files, fset := statementConstants(t)
	constFile := map[string]string{}
	collected := map[string]bool{}
	type decl struct{ fn, file string }
	var decls []decl
	for _, f := range files {
		file := fset.Position(f.Pos()).Filename
		ast.Inspect(f, func(n ast.Node) bool {
			if vs, ok := n.(*ast.ValueSpec); ok {
				for _, name := range vs.Names {
					if _, ok := consts[name.Name]; ok {
						constFile[name.Name] = file
					}
				}
			}
			return true
		})
	}
	for _, f := range files {
		file := fset.Position(f.Pos()).Filename
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			ast.Inspect(fn, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CallExpr:
					if id, ok := n.Fun.(*ast.Ident); ok && fn.Name.Name == "ungatedStatements" {
						collected[id.Name] = true
					}
				case *ast.CompositeLit:
					if typ, ok := n.Type.(*ast.Ident); !ok || typ.Name != "ungated" {
						return true
					}
					decls = append(decls, decl{fn.Name.Name, file})
					for _, elt := range n.Elts {
						key, ok := elt.(*ast.KeyValueExpr).Key.(*ast.Ident)
						if !ok {
							t.Errorf("%s: declare an ungated statement by its constant", fset.Position(elt.Pos()))
						} else if constFile[key.Name] != file {
							t.Errorf("%s is declared ungated in %s, not next to its constant (%s)", key.Name, file, constFile[key.Name])
						}
					}
				}
				return true
			})
		}
	}
	for _, d := range decls {
		if !collected[d.fn] {
			t.Errorf("%s (%s) declares ungated statements, but ungatedStatements does not collect it", d.fn, d.file)
		}
	}
}

// lookedUp finds the entity e that $id names through the gate.
func lookedUp() string { return lookupMatch("$id", "e") + "\nWITH " + lookupEntity("e") + " AS e" }

// registryRead is a page of a registry side as ReadEntities reads it:
// the entity e that $id names, its :RelationId rows (of label, RelationId
// unless given) found by rowTest, and for each the other end o found by
// its id (id) under endTest, and the relationship between e and o.
func registryRead(rowTest, id, endTest string, label ...string) string {
	return lookedUp() +
		" MATCH (c:" + append(label, "RelationId")[0] + ") USING INDEX c:RelationId(fromId, id) WHERE " + rowTest +
		" CALL (e, c) { MATCH (o:Entity {id: " + id + "}) WHERE " + endTest +
		" MATCH (e)-[x:AUTHORED|FUNDS]-(o) WHERE x.id = c.id AND " + readable("x") + " RETURN x, o } RETURN x.id, o.id"
}

// TestGateCheckCatches: the checker refuses statements that read the
// graph around the gate, however the gate's text appears elsewhere, and
// passes the gate's own forms.
func TestGateCheckCatches(t *testing.T) {
	forms := gateTestForms(t)
	r := readable
	tests := []struct {
		name, text string
		ok         bool
	}{
		{"gated", "MATCH (e:Entity) WHERE " + r("e") + " RETURN e.id", true},
		{"gated inline", "MATCH (e:Entity WHERE e.name = $n AND " + r("e") + ") RETURN e.id", true},
		{"no gate", "MATCH (e:Entity) RETURN e.id", false},
		{"a kind label", "MATCH (e:Person) RETURN e.id", false},
		{"a source", "MATCH (s:Source) RETURN s.id", false},
		{"the gate in a comment", "MATCH (e:Entity) // WHERE " + r("e") + "\nRETURN e.id", false},
		{"the gate in a block comment", "MATCH (e:Entity) /* WHERE " + r("e") + " */ RETURN e.id", false},
		{"the gate in a string", "MATCH (e:Entity) WHERE e.name <> '" + r("e") + "' RETURN e.id", false},
		{"the gate of another variable", "MATCH (e:Entity), (o:Entity) WHERE " + r("e") + " RETURN o.id", false},
		{"the gate in an OR", "MATCH (e:Entity) WHERE e.id = $id OR " + r("e") + " RETURN e.id", false},
		{"the gate after the match", "MATCH (e:Entity) WITH e WHERE " + r("e") + " RETURN e.id", false},
		{"the gate in the result", "MATCH (e:Entity) RETURN CASE WHEN " + r("e") + " THEN e.id END", false},
		{"a relationship", "MATCH (e:Entity)-[r]-(o:Entity) WHERE " + r("e") + " AND " + r("o") + " RETURN r.id", false},
		{"a relationship's other end", "MATCH (e:Entity)-[r]-(o) WHERE " + r("e") + " AND " + r("r") + " RETURN o.id", false},
		{"a relationship gated", "MATCH (e:Entity)-[r]-(o) WHERE " + r("e") + " AND " + r("r") + " AND " + r("o") + " RETURN o.id", true},
		{"an anonymous relationship", "MATCH (e:Entity)--(o:Entity) WHERE " + r("e") + " AND " + r("o") + " RETURN o.id", false},
		{"a relationship by id, ends untested", "MATCH ()-[r:AUTHORED {id: $id}]->() WHERE " + r("r") + " RETURN r.id", false},
		{"a relationship by id, protected ends", "MATCH ()-[r:AUTHORED {id: $id}]->() WHERE " + r("r") + " AND " + r("startNode(r)") + " AND " + r("endNode(r)") + " RETURN r.id", false},
		{"a relationship by id", "MATCH ()-[r:AUTHORED {id: $id}]->() WHERE " + r("r") + " AND " + r("startNode(r)") + " AND " + r("endNode(r)") +
			" AND NOT " + hidden("startNode(r)") + " AND NOT " + hidden("endNode(r)") + " RETURN r.id", true},
		{"an entity by its real id", "MATCH (e:Entity {id: $id}) WHERE " + r("e") + " RETURN e.id", false},
		{"an entity by its real id in the WHERE", "MATCH (e:Entity) WHERE e.id = $id AND " + r("e") + " RETURN e.id", false},
		{"an entity by its real id in the WHERE, the other way", "MATCH (e:Entity) WHERE " + r("e") + " AND $id = e.id RETURN e.id", false},
		{"an entity by its real ids in the WHERE", "MATCH (e:Entity) WHERE e.id IN $ids AND " + r("e") + " RETURN e.id", false},
		{"an entity by its real id in the WHERE, not hidden", "MATCH (e:Entity) WHERE e.id = $id AND " + r("e") + " AND NOT " + hidden("e") + " RETURN e.id", true},
		{"an entity after a cursor's id", "MATCH (e:Entity) WHERE e.id > $after AND " + r("e") + " RETURN e.id", true},
		{"an entity by its opaque id", "MATCH (e:Entity {redactedId: $id}) WHERE " + r("e") + " AND NOT " + hidden("e") + " RETURN e.id", false},
		{"a lookup", lookupMatch("$id", "e") + "\nWITH " + lookupEntity("e") + " AS e MATCH (e)-[r]-(o) WHERE " + r("r") + " AND " + r("o") + " RETURN o.id", true},
		{"an end of a registry row", registryRead("c.fromId = e.id", "c.toId", r("o")), true},
		{"an end of a registry row, the row's other side", registryRead("e.id = c.toId", "c.fromId", r("o")), true},
		{"an end of a registry row of a matched entity", "MATCH (e:Entity) WHERE " + r("e") + " MATCH (c:RelationId) WHERE c.toId = e.id" +
			" CALL (e, c) { MATCH (o:Entity {id: c.fromId}) WHERE " + r("o") + " MATCH (e)<-[x:AUTHORED]-(o) WHERE x.id = c.id AND " + r("x") + " RETURN x, o }" +
			" RETURN x.id, o.id", true},
		{"an end of a registry row, ungated", registryRead("c.fromId = e.id", "c.toId", "o.name <> ''"), false},
		{"an end of a registry row, its relationship ungated", lookedUp() +
			" MATCH (c:RelationId) WHERE c.fromId = e.id MATCH (o:Entity {id: c.toId}) WHERE " + r("o") + " MATCH (e)-[x:AUTHORED]->(o) WHERE x.id = c.id RETURN o.id", false},
		{"an entity by a parameter, after a registry row", registryRead("c.fromId = e.id", "$id", r("o")), false},
		{"an entity by a registry row's other property", registryRead("c.fromId = e.id", "c.id", r("o")), false},
		{"an entity by an expression of a registry row", registryRead("c.fromId = e.id", "coalesce(c.toId, $id)", r("o")), false},
		{"an entity by a registry row's id, carried as a value", lookedUp() +
			" MATCH (c:RelationId) WHERE c.fromId = e.id WITH e, c.toId AS other MATCH (o:Entity {id: other}) WHERE " + r("o") + " RETURN o.id", false},
		{"a registry row by a parameter", registryRead("c.fromId = $id", "c.toId", r("o")), false},
		{"a registry row by its own id", registryRead("c.id = $id", "c.toId", r("o")), false},
		{"a registry row in an OR", registryRead("(c.fromId = e.id OR c.fromId = $id)", "c.toId", r("o")), false},
		{"a registry row of a value", "UNWIND $ids AS key MATCH (c:RelationId) WHERE c.fromId = key MATCH (o:Entity {id: c.toId}) WHERE " + r("o") + " RETURN o.id", false},
		{"a registry row of a value's id", "UNWIND $rows AS key MATCH (c:RelationId) WHERE c.fromId = key.id MATCH (o:Entity {id: c.toId}) WHERE " + r("o") + " RETURN o.id", false},
		{"a registry row of a value's id, through a UNION", "UNWIND $rows AS key CALL (key) { WITH key AS e RETURN e UNION" +
			" MATCH (e:Entity {redactedId: key.id}) WHERE " + r("e") + " AND " + hidden("e") + " RETURN e } MATCH (c:RelationId) WHERE c.fromId = e.id MATCH (o:Entity {id: c.toId}) WHERE " + r("o") + " RETURN o.id", false},
		{"a registry row bound in the same MATCH", lookedUp() +
			" MATCH (c:RelationId), (o:Entity {id: c.toId}) WHERE c.fromId = e.id AND " + r("o") + " RETURN o.id", false},
		{"a registry row of another label", registryRead("c.fromId = e.id", "c.toId", r("o"), "SavedQuery"), false},
		{"an entity's opaque id from a registry row", lookedUp() +
			" MATCH (c:RelationId) WHERE c.fromId = e.id MATCH (o:Entity {redactedId: c.toId}) WHERE " + r("o") + " RETURN o.id", false},
		{"a tombstone's name", "MATCH (m:MergedEntity)-[:MERGED_INTO]->(e:Entity) WHERE " + r("e") + " RETURN m.id", false},
		{"a pattern in an expression", "MATCH (e:Entity) WHERE " + r("e") + " RETURN [(e)-[r]-(o) | o.id]", false},
		{"an unbound node", "MATCH (n) RETURN n", false},
		{"a value as a node", "UNWIND $ids AS key MATCH (key)-[r]-(o) WHERE " + r("r") + " RETURN o.id", false},
		{"a variable of another subquery", "MATCH (e:Entity) WHERE " + r("e") +
			" RETURN COUNT { MATCH (e)-[r]-(o) WHERE " + r("r") + " AND " + r("o") + " } AS a, COUNT { MATCH (e)-[r]-(o) } AS b", false},
		{"a subquery that imports nothing", "MATCH (e:Entity) WHERE " + r("e") + " CALL () { MATCH (e)-[r]-(o) WHERE " + r("r") + " AND " + r("o") + " RETURN o } RETURN o.id", false},
		{"a degree, scoped", "MATCH (e:Entity) WHERE " + r("e") + " RETURN COUNT { (e)-[:AUTHORED]-() } AS n", false},
		{"a procedure's nodes", "CALL db.index.fulltext.queryNodes('entity_search', $q) YIELD node RETURN node.id", false},
		{"a procedure's nodes gated", "CALL db.index.fulltext.queryNodes('entity_search', $q) YIELD node WHERE " + r("node") + " RETURN node.id", true},
		{"another procedure", "CALL apoc.meta.data() YIELD label RETURN label", false},
		{"a shortest path", "MATCH (a:Entity), (b:Entity) WHERE " + r("a") + " AND " + r("b") + " MATCH p = shortestPath((a)-[*1..3]-(b)) RETURN p", false},
		{"a shortest path gated", "MATCH (a:Entity), (b:Entity) WHERE " + r("a") + " AND " + r("b") + " MATCH p = shortestPath((a)-[*1..3]-(b))" +
			" WHERE all(r IN relationships(p) WHERE " + r("r") + ") AND all(y IN nodes(p) WHERE " + r("y") + ") RETURN p", true},
		{"a quantified path, ungated hops", "MATCH (a:Entity) WHERE " + r("a") + " MATCH p = (a)((x)-[r]-(y:Entity)){1,3}(b) RETURN p", false},
		{"a quantified path", "MATCH (a:Entity) WHERE " + r("a") + " MATCH p = (a)((x)-[r WHERE " + r("r") + "]-(y:Entity WHERE " + r("y") + ")){1,3}(b) RETURN p", true},
		{"an audit record", "MATCH (c:Change) RETURN c.id", false},
		{"a write", "MATCH (e:Entity) WHERE " + r("e") + " SET e.name = $n", false},
		{"no graph data", "MATCH (q:SavedQuery)-[:VERSION]->(v:SavedQueryVersion) RETURN v.name", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := checkGate(tt.text, forms, false)
			if tt.ok && len(got) > 0 {
				t.Errorf("refused %s:\n%s", tt.text, strings.Join(got, "\n"))
			}
			if !tt.ok && len(got) == 0 {
				t.Errorf("passed %s", tt.text)
			}
		})
	}
	if got := checkGate("MATCH (e:Entity) WHERE "+r("e")+" RETURN COUNT { (e)-[:AUTHORED]-() } AS n", forms, true); len(got) > 0 {
		t.Errorf("a degree for a caller who may read every dataset: %v", got)
	}
	if got := checkGate("MATCH (c:Change) WHERE "+tokensText(forms.changeReadable("c"))+" RETURN c.id", forms, false); len(got) > 0 {
		t.Errorf("a gated audit record: %v", got)
	}
}
