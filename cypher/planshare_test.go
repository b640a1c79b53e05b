package cypher

// Requests that differ in what Neo4j needs no new plan for share one: the
// same text, and parameters of the same types (the length class of a list
// is part of its type to Neo4j: planList).

import (
	"fmt"
	"reflect"
	"testing"

	casegraph "github.com/casegraph/casegraph"
)

// paramClass is what Neo4j keeps a plan by, of a parameter's value: its
// type, and a list's length class (0, 1, 2 to 10, 11 to 100, more).
func paramClass(v any) string {
	rv := reflect.ValueOf(v)
	if v == nil || rv.Kind() != reflect.Slice {
		return fmt.Sprintf("%T", v)
	}
	class := 0
	for n := 1; n < rv.Len(); n *= 10 {
		class++
	}
	if rv.Len() > 0 {
		class++
	}
	return fmt.Sprintf("%T/%d", v, class)
}

func paramClasses(params map[string]any) map[string]string {
	out := map[string]string{}
	for k, v := range params {
		out[k] = paramClass(v)
	}
	return out
}

// TestReadsOfOneShapeShareAPlan: reads of one shape that show other
// properties render one text, with parameters of the same classes
// (whether a property or none, one or thirty); and the caller's scope is
// of one class whether it holds none, one or 100 datasets, or every one.
func TestReadsOfOneShapeShareAPlan(t *testing.T) {
	shape := func(p *casegraph.Properties) *casegraph.EntityRead {
		return &casegraph.EntityRead{Properties: p, Relations: []casegraph.RelationsRead{{Page: casegraph.Page{First: 10},
			Ends: &casegraph.EntityRead{Relations: []casegraph.RelationsRead{{Page: casegraph.Page{First: 10}, Ends: &casegraph.EntityRead{}}}}}}}
	}
	reads := []*casegraph.EntityRead{
		shape(nil),
		shape(&casegraph.Properties{Entity: []string{}, Relation: []string{}}),
		shape(&casegraph.Properties{Entity: []string{"name"}, Relation: []string{}}),
		shape(&casegraph.Properties{Entity: []string{"name", "aliases", "description"}, Relation: []string{"role", "status"}}),
		shape(&casegraph.Properties{Entity: casegraph.EntityProperties[:12], Relation: casegraph.RelationProperties}),
	}
	reads0 := newReadStatements()
	var firstText string
	var firstParams map[string]string
	for i, read := range reads {
		level, key, params, err := compileRead(read, true, false, DefaultHubDegree)
		if err != nil {
			t.Fatal(err)
		}
		text, err := reads0.get(key, level)
		if err != nil {
			t.Fatal(err)
		}
		classes := paramClasses(params)
		if i == 0 {
			firstText, firstParams = text, classes
			continue
		}
		if text != firstText {
			t.Errorf("read %d: another text than read 0's", i)
		}
		if !reflect.DeepEqual(classes, firstParams) {
			t.Errorf("read %d: parameters of other classes: %v, read 0's %v", i, classes, firstParams)
		}
	}
	for _, n := range []int{0, 1, 2, 10, 11, 100} {
		names := make([]string, n)
		for i := range names {
			names[i] = fmt.Sprint("ds", i)
		}
		if got, want := paramClass(planList(names)), paramClass(planList([]string{"one"})); got != want {
			t.Errorf("%d names: class %s, one name's %s", n, got, want)
		}
		scope := scopeParams(casegraph.Scope{Limited: true, Datasets: names}, nil)
		full := scopeParams(casegraph.FullScope, nil)
		if got, want := paramClasses(scope), paramClasses(full); !reflect.DeepEqual(got, want) {
			t.Errorf("a scope of %d datasets: parameters of classes %v, every dataset's %v", n, got, want)
		}
	}
}

// TestStatementsGetTheParametersTheyName: a statement is sent the
// parameters its text names and no other (an unused $caller of another
// length class was another plan), and the caller's map stays whole.
func TestStatementsGetTheParametersTheyName(t *testing.T) {
	names := &paramNames{byText: map[string]map[string]bool{}}
	text := "MATCH (e:Entity {id: $id}) WHERE $callerCleared OR e.dataset IN $`readable` RETURN e.name AS name // $comment"
	params := map[string]any{"id": "x", "caller": "anonymous", "callerCleared": false, "readable": []string{"a"}, "callerIsAdmin": false, "comment": 1}
	for range 2 { // found, then kept
		got := names.only(text, params)
		want := map[string]any{"id": "x", "callerCleared": false, "readable": []string{"a"}, "comment": 1}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("sent %v, want %v", got, want)
		}
	}
	if len(params) != 6 {
		t.Errorf("the caller's parameters changed: %v", params)
	}
}

// TestPlanPadNamesNothing: what planList adds to the caller's datasets
// and a read's ids can name no dataset or entity (ValidateID refuses
// it), and is not "", the dataset of audit records of no dataset, which
// a caller limited to datasets would then have read (the access matrix's
// changes subscription caught it).
func TestPlanPadNamesNothing(t *testing.T) {
	if planPad == "" || casegraph.ValidateID("dataset", planPad) == nil {
		t.Errorf("planPad %q could name a dataset or an entity", planPad)
	}
}
