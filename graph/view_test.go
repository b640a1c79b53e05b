package graph_test

// Kept views over the API: saved, shown to each reader through the gate,
// versioned, annotated, listed, found by node id, refused, deleted, and
// recorded in the audit log.

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server"
	"github.com/casegraph/casegraph/server/servertest"
)

const saveViewMutation = `mutation($in: SaveViewInput!) { saveView(input: $in) { id name version state notes { targetKind targetId text author } } }`

const viewQuery = `query($n: String!, $v: Int) { savedView(name: $n, version: $v) {
	id version state visibility datasets owner
	entities { id name ... on Person { redacted } relations(first: 5) { totalCount } }
	relations { id role from { id name } to { id } }
	notes { targetKind targetId text author } } }`

// viewFixture is the seed with readers and an editor of it, and a view
// name of the test's.
type viewAPIFixture struct {
	h                                    *servertest.Harness
	ds, name                             string
	id                                   func(string) string
	editor, uncleared, cleared, stranger string // keys
}

func newViewAPIFixture(t *testing.T) viewAPIFixture {
	t.Helper()
	// A budget of minutes, not the server's 15 s: each test here asks
	// statements that are the first of their kind on a fresh database,
	// whose planning under CI's load (beside the other packages) once ran
	// a first saveView past 15 s. They are about what is kept and shown,
	// not how fast.
	h, ds, id, uncleared, cleared := seedReadersWith(t, servertest.Options{PathTimeout: 2 * time.Minute,
		Config: func(c *server.Config) { c.RequestTimeout = 3 * time.Minute }})
	f := viewAPIFixture{h: h, ds: ds, id: id, uncleared: uncleared, cleared: cleared, name: ds + "-view",
		editor:   h.Key(casegraph.NewAPIKey{Name: "editor", Role: casegraph.RoleEditor, Datasets: []string{ds}, Cleared: true}),
		stranger: h.Key(casegraph.NewAPIKey{Name: "stranger", Role: casegraph.RoleReader, Datasets: []string{cyphertest.Dataset(t)}, Cleared: true})}
	t.Cleanup(func() {
		h.Post(`mutation($n: String!) { deleteSavedView(name: $n) { versions } }`, map[string]any{"n": f.name})
	})
	return f
}

// view reads the view as the key reads it: its data, or the error's code.
func (f viewAPIFixture) view(t *testing.T, key string) (map[string]any, string, string) {
	t.Helper()
	res := f.h.PostAs(key, viewQuery, map[string]any{"n": f.name})
	if len(res.Errors) > 0 {
		return nil, res.Code(), res.Raw
	}
	v, _ := res.Data["savedView"].(map[string]any)
	return v, "", res.Raw
}

// stateOf is a view's state as the API writes it.
func stateOf(t *testing.T, v map[string]any) map[string]any {
	t.Helper()
	s, ok := v["state"].(map[string]any)
	if !ok {
		t.Fatalf("state: %v", v["state"])
	}
	return s
}

// TestSavedViewShownToEachReader: a view saved by a cleared editor for its
// dataset's readers reopens for a cleared reader exactly as saved (its
// entities read with what is selected under them, as nodes(ids) reads
// them); for an uncleared reader with Caesar and his relation by the
// opaque ids that reader reads them by elsewhere, and nothing of him in
// the answer (no real id, no note on him); for a reader of another
// dataset not at all; and node(id) finds it by its node id.
func TestSavedViewShownToEachReader(t *testing.T) {
	t.Parallel()
	f := newViewAPIFixture(t)
	caesar, photos, rel := f.id("caesar"), f.id("caesar-photographs"), f.id("rel-013-caesar-authored-caesar-photographs")
	state := map[string]any{"n": []any{[]any{caesar, 10, 20, "p"}, []any{photos, 30, 40, ""}}, "r": []string{"relation~" + rel},
		"p": map[string]any{"f": caesar, "t": photos, "k": 3, "q": map[string]any{}, "c": 0}, "o": "paths"}
	saved := f.h.PostAs(f.editor, saveViewMutation, map[string]any{"in": map[string]any{
		"name": f.name, "title": "Caesar's photographs", "state": state, "visibility": "DATASETS", "datasets": []string{f.ds},
		"notes": []any{
			map[string]any{"targetKind": "ENTITY", "targetId": caesar, "text": "the defector himself"},
			map[string]any{"targetKind": "RELATION", "targetId": "relation~" + rel, "text": "he took them"},
			map[string]any{"targetKind": "ENTITY", "targetId": photos, "text": "55,000 photographs"},
		}}})
	if len(saved.Errors) > 0 || field(saved, "saveView", "version") != float64(1) {
		t.Fatalf("save: %s", saved.Raw)
	}

	t.Run("a cleared reader", func(t *testing.T) {
		v, code, raw := f.view(t, f.cleared)
		if code != "" {
			t.Fatalf("%s: %s", code, raw)
		}
		s := stateOf(t, v)
		want, _ := json.Marshal(state)
		var wantState map[string]any
		_ = json.Unmarshal(want, &wantState)
		if got, _ := json.Marshal(s); string(got) != string(mustJSON(t, wantState)) {
			t.Errorf("state %s, want %s", got, want)
		}
		entities := v["entities"].([]any)
		first := entities[0].(map[string]any)
		if first["name"] != "Caesar" || first["relations"].(map[string]any)["totalCount"] == float64(0) {
			t.Errorf("entities: %v", entities)
		}
		if rels := v["relations"].([]any); len(rels) != 1 || rels[0].(map[string]any)["id"] != "relation~"+rel {
			t.Errorf("relations: %v", rels)
		}
		if notes := v["notes"].([]any); len(notes) != 3 || notes[1].(map[string]any)["targetId"] != "relation~"+rel {
			t.Errorf("notes: %v", notes)
		}
	})

	t.Run("an uncleared reader", func(t *testing.T) {
		v, code, raw := f.view(t, f.uncleared)
		if code != "" {
			t.Fatalf("%s: %s", code, raw)
		}
		seen := f.h.PostAs(f.uncleared, `query($id: ID!) { entity(id: $id) { relations(types: [AUTHORED], first: 10) { edges { node { id from { id } } } } } }`, map[string]any{"id": photos})
		var opaque, opaqueRel string
		for _, e := range field(seen, "entity", "relations", "edges").([]any) {
			n := e.(map[string]any)["node"].(map[string]any)
			if from := n["from"].(map[string]any)["id"].(string); strings.HasPrefix(from, casegraph.OpaqueIDPrefix) {
				opaque, opaqueRel = from, n["id"].(string)
			}
		}
		s := stateOf(t, v)
		if n := s["n"].([]any); len(n) != 2 || n[0].([]any)[0] != opaque || s["r"].([]any)[0] != opaqueRel || s["p"].(map[string]any)["f"] != opaque {
			t.Errorf("state %v, want Caesar as %s and his relation as %s", s, opaque, opaqueRel)
		}
		if first := v["entities"].([]any)[0].(map[string]any); first["redacted"] != true || first["name"] != casegraph.RedactedName {
			t.Errorf("Caesar shown as %v", first)
		}
		if notes := v["notes"].([]any); len(notes) != 1 || notes[0].(map[string]any)["text"] != "55,000 photographs" {
			t.Errorf("notes: %v", notes)
		}
		for _, s := range []string{`"` + caesar + `"`, rel + `"`, "the defector himself", "he took them", "photographer"} {
			if strings.Contains(raw, s) {
				t.Errorf("the answer to an uncleared reader holds %q", s)
			}
		}
	})

	t.Run("a reader of another dataset", func(t *testing.T) {
		if _, code, raw := f.view(t, f.stranger); code != "NOT_FOUND" {
			t.Errorf("%s: %s, want NOT_FOUND", code, raw)
		}
	})

	t.Run("by its node id", func(t *testing.T) {
		res := f.h.PostAs(f.uncleared, `query($id: ID!) { node(id: $id) { id ... on SavedView { name state } } }`,
			map[string]any{"id": casegraph.SavedViewNodeID(f.name, 1)})
		if field(res, "node", "name") != f.name || strings.Contains(res.Raw, `"`+caesar+`"`) {
			t.Errorf("node: %s", res.Raw)
		}
	})
}

// mustJSON is v as JSON, or fails the test.
func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSavedViewVisibility: a private view is its owner's (and admins');
// a public one is everyone's, each of whom is shown only what it reads
// of it: a reader of another dataset opens it empty.
func TestSavedViewVisibility(t *testing.T) {
	t.Parallel()
	f := newViewAPIFixture(t)
	nice := f.id("geoffrey-nice")
	in := map[string]any{"name": f.name, "title": "Nice", "state": map[string]any{"n": []any{[]any{nice, 0, 0, ""}}, "r": []any{}, "e": nice}}
	if res := f.h.PostAs(f.editor, saveViewMutation, map[string]any{"in": in}); len(res.Errors) > 0 {
		t.Fatal(res.Raw)
	}
	for _, tt := range []struct {
		who, key, code string
	}{{"the owner", f.editor, ""}, {"an admin", f.h.Token, ""}, {"a reader of its dataset", f.cleared, "NOT_FOUND"}, {"a stranger", f.stranger, "NOT_FOUND"}} {
		if _, code, raw := f.view(t, tt.key); code != tt.code {
			t.Errorf("private, %s: %q %s, want %q", tt.who, code, raw, tt.code)
		}
	}
	in["visibility"] = "PUBLIC"
	if res := f.h.PostAs(f.editor, saveViewMutation, map[string]any{"in": in}); field(res, "saveView", "version") != float64(1) {
		t.Fatalf("made public: %s (a new visibility is no new version)", res.Raw)
	}
	v, code, raw := f.view(t, f.stranger)
	if code != "" {
		t.Fatalf("public, a stranger: %s %s", code, raw)
	}
	if s := stateOf(t, v); len(s["n"].([]any)) != 0 || s["e"] != nil || len(v["entities"].([]any)) != 0 || strings.Contains(raw, nice) {
		t.Errorf("a stranger is shown %s", raw)
	}
	list := f.h.PostAs(f.stranger, `{ savedViews(first: 100) { totalCount edges { node { name } } } }`, nil)
	if !strings.Contains(list.Raw, `"`+f.name+`"`) {
		t.Errorf("savedViews lacks the public view: %s", list.Raw)
	}
}

// TestSavedViewVersionsAndNotes: a changed state is a new version, and old
// versions stay as they were; annotateView adds a note (on a relation by
// its node id) as a version; a save without notes keeps them; the
// versions list newest first; the audit log records each change, and the
// deletion.
func TestSavedViewVersionsAndNotes(t *testing.T) {
	t.Parallel()
	f := newViewAPIFixture(t)
	nice, rel := f.id("geoffrey-nice"), f.id("rel-003-geoffrey-nice-authored-caesar-report")
	report := f.id("caesar-report")
	state := func(x int) map[string]any {
		return map[string]any{"n": []any{[]any{nice, x, 0, ""}, []any{report, 0, 0, ""}}, "r": []string{"relation~" + rel}}
	}
	in := map[string]any{"name": f.name, "title": "Nice", "state": state(0), "note": "first"}
	save := func() servertest.Response {
		t.Helper()
		res := f.h.PostAs(f.editor, saveViewMutation, map[string]any{"in": in})
		if len(res.Errors) > 0 {
			t.Fatalf("save: %s", res.Raw)
		}
		return res
	}
	save()
	annotated := f.h.PostAs(f.editor, `mutation($n: String!, $note: ViewNoteInput!) { annotateView(name: $n, note: $note) { version notes { targetId text author } } }`,
		map[string]any{"n": f.name, "note": map[string]any{"targetKind": "RELATION", "targetId": "relation~" + rel, "text": "his part"}})
	if field(annotated, "annotateView", "version") != float64(2) || !strings.Contains(annotated.Raw, `"targetId":"relation~`+rel+`"`) {
		t.Fatalf("annotated: %s", annotated.Raw)
	}
	in["state"], in["note"] = state(50), "moved"
	if moved := save(); field(moved, "saveView", "version") != float64(3) || !strings.Contains(moved.Raw, "his part") {
		t.Errorf("moved: %s", moved.Raw)
	}
	list := f.h.PostAs(f.cleared, `query($n: String!) { savedViewVersions(name: $n) { version note state } }`, map[string]any{"n": f.name})
	if list.Code() != "NOT_FOUND" {
		t.Errorf("a private view's versions to a reader: %s", list.Raw)
	}
	list = f.h.PostAs(f.editor, `query($n: String!) { savedViewVersions(name: $n) { version note state } }`, map[string]any{"n": f.name})
	versions := field(list, "savedViewVersions").([]any)
	var got []float64
	for _, v := range versions {
		got = append(got, v.(map[string]any)["version"].(float64))
	}
	if !slices.Equal(got, []float64{3, 2, 1}) || versions[2].(map[string]any)["state"].(map[string]any)["n"].([]any)[0].([]any)[1] != float64(0) {
		t.Errorf("versions: %s", list.Raw)
	}
	deleted := f.h.PostAs(f.editor, `mutation($n: String!) { deleteSavedView(name: $n) { versions } }`, map[string]any{"n": f.name})
	if field(deleted, "deleteSavedView", "versions") != float64(3) {
		t.Errorf("delete: %s", deleted.Raw)
	}
	changes := f.h.Post(`query($id: ID!) { changes(filter: {entityId: $id}, first: 10) { edges { node { operation } } } }`, map[string]any{"id": f.name})
	var ops []string
	for _, e := range field(changes, "changes", "edges").([]any) {
		ops = append(ops, e.(map[string]any)["node"].(map[string]any)["operation"].(string))
	}
	slices.Sort(ops)
	if want := []string{"annotateView", "deleteSavedView", "saveView", "saveView"}; !slices.Equal(ops, want) {
		t.Errorf("audit log: %v, want %v", ops, want)
	}
}

// TestSaveViewRefusals: bad input is refused with its code at its field
// (extensions.field), and writes nothing: neither a view nor a change.
func TestSaveViewRefusals(t *testing.T) {
	t.Parallel()
	f := newViewAPIFixture(t)
	other := f.h.Key(casegraph.NewAPIKey{Name: "editor elsewhere", Role: casegraph.RoleEditor, Datasets: []string{cyphertest.Dataset(t)}})
	nice := f.id("geoffrey-nice")
	ok := map[string]any{"n": []any{[]any{nice, 0, 0, ""}}, "r": []any{}}
	for _, tt := range []struct {
		name, key string
		in        map[string]any
		code      string
		field     string
	}{
		{"an unknown key in the state", f.editor, map[string]any{"state": map[string]any{"n": []any{}, "r": []any{}, "zz": 1}}, "BAD_USER_INPUT", "state"},
		{"a bad flag", f.editor, map[string]any{"state": map[string]any{"n": []any{[]any{nice, 0, 0, "z"}}, "r": []any{}}}, "BAD_USER_INPUT", "state"},
		{"a bad name", f.editor, map[string]any{"name": "Not A Slug"}, "BAD_USER_INPUT", "name"},
		{"an empty note", f.editor, map[string]any{"notes": []any{map[string]any{"targetKind": "ENTITY", "targetId": nice, "text": ""}}}, "BAD_USER_INPUT", "notes[0].text"},
		{"an entity the editor does not read", other, map[string]any{}, "NOT_FOUND", "state.n[0]"},
		{"a note on nothing", f.editor, map[string]any{"notes": []any{map[string]any{"targetKind": "RELATION", "targetId": "relation~" + f.ds + ":nothing", "text": "x"}}}, "NOT_FOUND", "notes[0].targetId"},
		{"a reader", f.cleared, map[string]any{}, "FORBIDDEN", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := map[string]any{"name": f.name, "title": "Refused", "state": ok}
			for k, v := range tt.in {
				in[k] = v
			}
			res := f.h.PostAs(tt.key, saveViewMutation, map[string]any{"in": in})
			if res.Code() != tt.code || (tt.field != "" && res.Errors[0].Extensions["field"] != tt.field) {
				t.Errorf("%s, want %s at %q", res.Raw, tt.code, tt.field)
			}
		})
	}
	if _, code, raw := f.view(t, f.h.Token); code != "NOT_FOUND" {
		t.Errorf("a refused save left a view: %s", raw)
	}
	changes := f.h.Post(`query($id: ID!) { changes(filter: {entityId: $id}) { totalCount } }`, map[string]any{"id": f.name})
	if n := field(changes, "changes", "totalCount"); n != float64(0) {
		t.Errorf("refused saves left %v changes: %s", n, changes.Raw)
	}
	for _, q := range []string{
		fmt.Sprintf(`{ savedView(name: %q) { version } }`, f.name),
		fmt.Sprintf(`mutation { deleteSavedView(name: %q) { versions } }`, f.name),
		fmt.Sprintf(`mutation { annotateView(name: %q, note: {targetKind: ENTITY, targetId: %q, text: "x"}) { version } }`, f.name, nice),
	} {
		if res := f.h.PostAs(f.editor, q, nil); res.Code() != "NOT_FOUND" {
			t.Errorf("%s: %s, want NOT_FOUND", q, res.Raw)
		}
	}
}

// openViewQuery is what the explorer asks to open a kept view
// (web/src/explorer/views.ts, with the fragments of api.ts).
const openViewQuery = `query($n: String!) { savedView(name: $n) { name version state
	notes { targetKind targetId text author createdAt } entities { ...Ref } relations { ...Rel } } }
fragment Ref on Entity { id kind name dataset redacted protected description aliases ... on Place { coordinates { latitude longitude } } }
fragment Src on Source { id title publisher url publishedAt archivedUrl }
fragment Rel on Relation { id type role startDate endDate status confidence quote dataset
	from { ...Ref } to { ...Ref } sources { ...Src } citations { grade } }`

// TestSavedViewOpenedInFourStatements: the explorer's read of a kept view
// (its entities, and its relations with their ends, sources and grades)
// takes four statements (the view; its entities and its relations, at
// once; their sources), and one more for a reader without clearance, to
// whom a relation of Caesar's is shown by its opaque id: the ends of the
// relations are the entities read with the view, not read again. Each end
// is the entity of the same id in entities, as that reader is shown it
// (Caesar redacted for the uncleared reader).
func TestSavedViewOpenedInFourStatements(t *testing.T) {
	t.Parallel()
	f := newViewAPIFixture(t)
	ids := []string{f.id("caesar"), f.id("caesar-photographs"), f.id("caesar-report"), f.id("syria-detainee-killings")}
	var n []any
	for i, id := range ids {
		n = append(n, []any{id, 100 * i, 0, ""})
	}
	var r []string
	for _, rel := range []string{"rel-013-caesar-authored-caesar-photographs", "rel-014-caesar-photographs-source-of-caesar-report", "rel-015-caesar-photographs-documents-syria-detainee-killings"} {
		r = append(r, "relation~"+f.id(rel))
	}
	saved := f.h.PostAs(f.editor, saveViewMutation, map[string]any{"in": map[string]any{
		"name": f.name, "title": "The photographs", "state": map[string]any{"n": n, "r": r}, "visibility": "DATASETS", "datasets": []string{f.ds}}})
	if len(saved.Errors) > 0 {
		t.Fatalf("save: %s", saved.Raw)
	}
	for _, c := range []struct {
		reader string
		key    string
		trips  int64
	}{{"cleared", f.cleared, 4}, {"uncleared", f.uncleared, 5}} {
		t.Run(c.reader, func(t *testing.T) {
			f.h.PostAs(c.key, `{ __typename }`, nil) // the key's first use reads it
			before := f.h.Store.RoundTrips()
			res := f.h.PostAs(c.key, openViewQuery, map[string]any{"n": f.name})
			if len(res.Errors) > 0 {
				t.Fatal(res.Raw)
			}
			if trips := f.h.Store.RoundTrips() - before; trips != c.trips {
				t.Errorf("%d statements, want %d", trips, c.trips)
			}
			entities := map[string]any{}
			redacted := 0
			for _, e := range field(res, "savedView", "entities").([]any) {
				entities[e.(map[string]any)["id"].(string)] = e
				if e.(map[string]any)["redacted"] == true {
					redacted++
				}
			}
			if len(entities) != len(ids) || (redacted == 1) != (c.reader == "uncleared") || redacted > 1 {
				t.Errorf("entities %v, %d redacted", entities, redacted)
			}
			relations := field(res, "savedView", "relations").([]any)
			if len(relations) != len(r) {
				t.Errorf("%d relations, want %d: %s", len(relations), len(r), res.Raw)
			}
			for _, x := range relations {
				rel := x.(map[string]any)
				for _, end := range []string{"from", "to"} {
					e := rel[end].(map[string]any)
					if want := entities[e["id"].(string)]; string(mustJSON(t, e)) != string(mustJSON(t, want)) {
						t.Errorf("%s's %s is %v, want %v as in entities", rel["id"], end, e, want)
					}
				}
				if len(rel["sources"].([]any)) == 0 || len(rel["citations"].([]any)) == 0 {
					t.Errorf("%s has no sources or citations: %v", rel["id"], rel)
				}
			}
		})
	}
}
