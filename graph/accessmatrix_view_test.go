package graph_test

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
)

// The access matrix's cells of kept views: the root fields (savedView,
// savedViews, savedViewVersions, saveView, annotateView,
// deleteSavedView), every field of SavedView that returns entities, and
// mayChange (what the caller may do with a view), each named
// "Query.savedView (SavedView.field)". The fixture's view is public
// and names both datasets' entities and relations, the protected people
// among them, with a note on each of several: every caller opens it, and
// each must be shown only what it reads (the markers of the matrix, in
// the state, the entities, the relations and the notes).

// saveMatrixView saves the fixture's view as its cleared admin, under a
// name that says nothing of the datasets (every caller may read it).
func saveMatrixView(t *testing.T, f matrixFixture) string {
	t.Helper()
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	name := "matrix-view-" + hex.EncodeToString(b)
	t.Cleanup(func() {
		f.h.Post(`mutation($n: String!) { deleteSavedView(name: $n) { versions } }`, map[string]any{"n": name})
	})
	var drawn []any
	for i, id := range []string{f.nice, f.report, f.protA, f.org, f.protB} {
		drawn = append(drawn, []any{id, i * 10, 0, ""})
	}
	note := func(kind, id, text string) map[string]any {
		return map[string]any{"targetKind": kind, "targetId": id, "text": text}
	}
	f.h.MustPost(`mutation($in: SaveViewInput!) { saveView(input: $in) { version } }`, map[string]any{"in": map[string]any{
		"name": name, "title": "Matrix view", "visibility": "PUBLIC",
		"state": map[string]any{"n": drawn, "r": []string{f.authored, f.a + ":witness", f.cross, f.relB},
			"p": map[string]any{"f": f.protA, "t": f.org, "k": 1, "q": map[string]any{"excludeIds": []string{f.protB}}, "c": 0}, "e": f.protB},
		"notes": []any{
			note("ENTITY", f.nice, "alphaquote noted"), note("ENTITY", f.protA, "alphawitnessbio noted"),
			note("ENTITY", f.org, "bravorole noted"), note("ENTITY", f.protB, "bravowitnessbio noted"),
			note("RELATION", f.cross, "crossquote noted"), note("RELATION", f.relB, "bravowitnessquote noted"),
		}}})
	return name
}

// viewCells are the cells of kept views.
func viewCells(f matrixFixture) map[string]matrixOp {
	ends := `id name aliases description ... on Entity { dataset }`
	rel := `id type role quote from { ` + ends + ` } to { ` + ends + ` }`
	view := `id name title state datasets notes { targetKind targetId text } entities { ` + ends + ` } relations { ` + rel + ` }`
	vars := map[string]any{"n": f.view}
	saveIn := func(name string) map[string]any {
		return map[string]any{"name": name, "title": "Mine", "visibility": "DATASETS", "datasets": []string{f.a},
			"state": map[string]any{"n": []any{[]any{f.nice, 0, 0, ""}}, "r": []string{f.authored}}}
	}
	// named is a view name of cell i's, deleted when the cell ends.
	named := func(t *testing.T, what string, i int) string {
		name := fmt.Sprintf("matrix-%s-%s-%d", what, f.view[len("matrix-view-"):], i)
		t.Cleanup(func() {
			f.h.Post(`mutation($n: String!) { deleteSavedView(name: $n) { versions } }`, map[string]any{"n": name})
		})
		return name
	}
	// victim saves a view of A as the admin for cell i to change.
	victim := func(t *testing.T, what string, i int) string {
		name := named(t, what, i)
		f.h.MustPost(`mutation($in: SaveViewInput!) { saveView(input: $in) { version } }`, map[string]any{"in": saveIn(name)})
		return name
	}
	adminsOnly := func(c matrixCaller) string {
		switch {
		case c.admin:
			return "ok"
		case c.writer():
			return "FORBIDDEN|NOT_FOUND" // not its view (or a note on what it does not read)
		}
		return "FORBIDDEN"
	}
	return map[string]matrixOp{
		"Query.savedView":         {send: gql(`query($n: String!) { savedView(name: $n) { `+view+` } }`, vars), want: readsA, shows: "Nyx Alphanice"},
		"Query.savedViews":        {send: gql(`{ savedViews(first: 100) { totalCount edges { cursor node { `+view+` } } } }`, nil), want: everyone, shows: "Matrix view"},
		"Query.savedViewVersions": {send: gql(`query($n: String!) { savedViewVersions(name: $n) { version `+view+` } }`, vars), want: readsA, shows: "Nyx Alphanice"},
		// The entities with what is selected under them: their relations and
		// the other ends, read again by the compiled read.
		"Query.savedView (SavedView.entities)": {send: gql(`query($n: String!) { savedView(name: $n) { entities { `+ends+` relations(first: 10) { totalCount edges { cursor node { `+rel+` } } } } } }`, vars), want: readsA, shows: "Nyx Alphanice"},
		// Whether the caller may change the fixture's view (the cleared
		// admin's): an admin may, no one else.
		"Query.savedView (SavedView.mayChange)": {send: gql(`query($n: String!) { savedView(name: $n) { owner mayChange } }`, vars), want: everyone, showsFor: func(c matrixCaller) string {
			return fmt.Sprintf(`"mayChange":%t`, c.admin)
		}},
		// A writer saves a view of its own, which it may then change.
		"Mutation.saveView": {send: func(t *testing.T, c matrixCaller, i int) matrixRequest {
			return matrixRequest{query: `mutation($in: SaveViewInput!) { saveView(input: $in) { name state mayChange } }`, vars: map[string]any{"in": saveIn(named(t, "mine", i))}}
		}, want: writesA, write: true, showsFor: func(matrixCaller) string { return `"mayChange":true` }},
		"Mutation.annotateView": {send: func(t *testing.T, c matrixCaller, i int) matrixRequest {
			return matrixRequest{query: `mutation($n: String!, $note: ViewNoteInput!) { annotateView(name: $n, note: $note) { version notes { text } } }`,
				vars: map[string]any{"n": victim(t, "annotated", i), "note": map[string]any{"targetKind": "ENTITY", "targetId": f.nice, "text": "a note"}}}
		}, want: adminsOnly, write: true},
		"Mutation.deleteSavedView": {send: func(t *testing.T, c matrixCaller, i int) matrixRequest {
			return matrixRequest{query: `mutation($n: String!) { deleteSavedView(name: $n) { __typename } }`, vars: map[string]any{"n": victim(t, "deleted", i)}}
		}, want: adminsOnly, write: true},
	}
}

// withViewCells adds viewCells to the cells, and fails the test for a
// field of SavedView that returns entities and has none.
func withViewCells(t *testing.T, schema *ast.Schema, fields map[string]matrixOp, f matrixFixture) map[string]matrixOp {
	t.Helper()
	for name, o := range viewCells(f) {
		fields[name] = o
	}
	for _, fd := range schema.Types["SavedView"].Fields {
		if fd.Type.Name() != "Entity" {
			continue
		}
		if _, ok := fields["Query.savedView (SavedView."+fd.Name+")"]; !ok {
			t.Errorf("SavedView.%s returns entities and has no cell in the access matrix: add it to viewCells", fd.Name)
		}
	}
	return fields
}
