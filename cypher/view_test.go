package cypher_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
)

// viewFixture is the seed in a dataset of its own, a view name of the
// test's, and callers of every kind.
type viewFixture struct {
	s                         *cypher.Store
	ds, name                  string
	id                        func(string) string
	owner, uncleared, cleared casegraph.Principal // an editor with clearance; readers of ds
	stranger                  casegraph.Principal // a reader of another dataset
}

func newViewFixture(t *testing.T) viewFixture {
	t.Helper()
	s := cyphertest.Store(t, cypher.Options{})
	ds, id := cyphertest.LoadSeed(t, s)
	f := viewFixture{s: s, ds: ds, name: ds + "-view", id: id,
		owner:     casegraph.Principal{ID: "test:owner", Role: casegraph.RoleEditor, Datasets: []string{ds}, Cleared: true},
		uncleared: casegraph.Principal{ID: "test:uncleared", Role: casegraph.RoleReader, Datasets: []string{ds}},
		cleared:   casegraph.Principal{ID: "test:cleared", Role: casegraph.RoleReader, Datasets: []string{ds}, Cleared: true},
		stranger:  casegraph.Principal{ID: "test:stranger", Role: casegraph.RoleReader, Datasets: []string{cyphertest.Dataset(t)}, Cleared: true},
	}
	t.Cleanup(func() { _, _ = s.DeleteSavedView(casegraph.AsOperator(t.Context()), f.name) })
	return f
}

func (f viewFixture) as(t *testing.T, p casegraph.Principal) context.Context {
	return casegraph.WithPrincipal(t.Context(), p)
}

// state reads a view's state from JSON, or fails the test.
func state(t *testing.T, raw string) casegraph.ViewState {
	t.Helper()
	s, err := casegraph.ParseViewState(json.RawMessage(raw))
	if err != nil {
		t.Fatalf("ParseViewState(%s): %v", raw, err)
	}
	return s
}

// TestViewShownThroughTheGate: a view saved by a cleared editor, with the
// seed's protected person Caesar, his relation to the photographs and
// notes on both, is shown to each reader as the gate shows them: to a
// cleared reader as saved; to an uncleared one with Caesar and his
// relation by their opaque ids (the ids that reader reads them by
// elsewhere), without the notes on them, and with neither real id nor a
// note's words anywhere in it; to a reader of another dataset not at all.
func TestViewShownThroughTheGate(t *testing.T) {
	t.Parallel()
	f := newViewFixture(t)
	caesar, photos, rel := f.id("caesar"), f.id("caesar-photographs"), f.id("rel-013-caesar-authored-caesar-photographs")
	v := casegraph.SavedView{Name: f.name, Title: "Caesar's photographs", Visibility: casegraph.VisibilityDatasets, Datasets: []string{f.ds},
		State: state(t, `{"n": [["`+caesar+`", 10, 20, "p"], ["`+photos+`", 30, 40, ""]], "r": ["`+rel+`"],
			"p": {"f": "`+caesar+`", "t": "`+photos+`", "k": 3, "q": {"excludeIds": ["`+caesar+`"]}, "c": 0}, "e": "`+caesar+`", "o": "paths"}`),
		Notes: []casegraph.ViewNote{
			{Target: casegraph.ViewTarget{Kind: casegraph.NodeEntity, ID: caesar}, Text: "the defector himself"},
			{Target: casegraph.ViewTarget{Kind: casegraph.NodeRelation, ID: rel}, Text: "he took them"},
			{Target: casegraph.ViewTarget{Kind: casegraph.NodeEntity, ID: photos}, Text: "55,000 photographs"},
		}}
	saved, err := f.s.SaveView(f.as(t, f.owner), v)
	if err != nil {
		t.Fatal(err)
	}
	if saved.Version != 1 || saved.Owner != f.owner.ID || len(saved.Notes) != 3 || saved.Notes[0].Author != f.owner.ID {
		t.Errorf("saved: version %d, owner %s, notes %+v", saved.Version, saved.Owner, saved.Notes)
	}

	t.Run("a cleared reader sees it as saved", func(t *testing.T) {
		got, err := f.s.SavedView(f.as(t, f.cleared), f.name, 0)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(v.State, got.State); diff != "" {
			t.Errorf("state (-want +got):\n%s", diff)
		}
		if len(got.Notes) != 3 || got.Entities[0].Name != "Caesar" || got.Relations[0].ID != rel {
			t.Errorf("notes %+v, entities %+v, relations %+v", got.Notes, got.Entities, got.Relations)
		}
	})

	t.Run("an uncleared reader sees Caesar redacted", func(t *testing.T) {
		ctx := f.as(t, f.uncleared)
		got, err := f.s.SavedView(ctx, f.name, 0)
		if err != nil {
			t.Fatal(err)
		}
		// The opaque ids this reader reads Caesar and his relation by elsewhere.
		pages, err := f.s.RelationsOf(ctx, []string{photos}, casegraph.RelationFilter{Types: []casegraph.RelationType{"AUTHORED"}}, casegraph.Page{First: 10})
		if err != nil {
			t.Fatal(err)
		}
		var opaque, opaqueRel string
		for _, r := range pages[photos].Relations {
			if strings.HasPrefix(r.FromID, casegraph.OpaqueIDPrefix) {
				opaque, opaqueRel = r.FromID, r.ID
			}
		}
		want := state(t, `{"n": [["`+opaque+`", 10, 20, "p"], ["`+photos+`", 30, 40, ""]], "r": ["`+opaqueRel+`"],
			"p": {"f": "`+opaque+`", "t": "`+photos+`", "k": 3, "q": {"excludeIds": ["`+opaque+`"]}, "c": 0}, "e": "`+opaque+`", "o": "paths"}`)
		if diff := cmp.Diff(want, got.State); diff != "" {
			t.Errorf("state (-want +got):\n%s", diff)
		}
		if len(got.Notes) != 1 || got.Notes[0].Text != "55,000 photographs" || got.Notes[0].Target.ID != photos {
			t.Errorf("notes %+v, want the photographs' alone", got.Notes)
		}
		if !got.Entities[0].Redacted || got.Entities[0].Name != casegraph.RedactedName || got.Relations[0].Role != "" {
			t.Errorf("Caesar shown as %+v, his relation as %+v", got.Entities[0], got.Relations[0])
		}
		b, _ := json.Marshal(got)
		for _, s := range []string{`"` + caesar + `"`, `"` + rel + `"`, "the defector himself", "he took them", "Caesar (defector)", "Syrian military police photographer"} {
			if strings.Contains(string(b), s) {
				t.Errorf("the view shown to an uncleared reader holds %q", s)
			}
		}
	})

	t.Run("a reader of another dataset finds no such view", func(t *testing.T) {
		if _, err := f.s.SavedView(f.as(t, f.stranger), f.name, 0); casegraph.ErrorCode(err) != casegraph.CodeNotFound {
			t.Errorf("got %v, want NOT_FOUND", err)
		}
	})
}

// TestViewSavedWithoutClearance: an editor without clearance saves Caesar
// and his relation by the opaque ids it reads them by; a cleared reader
// is shown them by their real ids, and the notes on them too.
func TestViewSavedWithoutClearance(t *testing.T) {
	t.Parallel()
	f := newViewFixture(t)
	photos := f.id("caesar-photographs")
	editor := f.owner
	editor.Cleared = false
	ctx := f.as(t, editor)
	pages, err := f.s.RelationsOf(ctx, []string{photos}, casegraph.RelationFilter{Types: []casegraph.RelationType{"AUTHORED"}}, casegraph.Page{First: 10})
	if err != nil {
		t.Fatal(err)
	}
	var opaque, opaqueRel string
	for _, r := range pages[photos].Relations {
		if strings.HasPrefix(r.FromID, casegraph.OpaqueIDPrefix) {
			opaque, opaqueRel = r.FromID, r.ID
		}
	}
	if opaque == "" || !strings.HasPrefix(opaqueRel, casegraph.OpaqueIDPrefix) {
		t.Fatalf("no redacted author of the photographs: %+v", pages[photos].Relations)
	}
	v := casegraph.SavedView{Name: f.name, Title: "As I may see it", Visibility: casegraph.VisibilityDatasets, Datasets: []string{f.ds},
		State: state(t, `{"n": [["`+opaque+`", 1, 2, ""], ["`+photos+`", 3, 4, ""]], "r": ["`+opaqueRel+`"]}`),
		Notes: []casegraph.ViewNote{{Target: casegraph.ViewTarget{Kind: casegraph.NodeRelation, ID: opaqueRel}, Text: "who took them"}}}
	saved, err := f.s.SaveView(ctx, v)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(v.State, saved.State); diff != "" {
		t.Errorf("the saver is shown its view (-want +got):\n%s", diff)
	}
	if len(saved.Notes) != 0 {
		t.Errorf("the saver is shown its note on a protected person's relation: %+v", saved.Notes)
	}
	got, err := f.s.SavedView(f.as(t, f.cleared), f.name, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := state(t, `{"n": [["`+f.id("caesar")+`", 1, 2, ""], ["`+photos+`", 3, 4, ""]], "r": ["`+f.id("rel-013-caesar-authored-caesar-photographs")+`"]}`)
	if diff := cmp.Diff(want, got.State); diff != "" {
		t.Errorf("a cleared reader's view (-want +got):\n%s", diff)
	}
	if len(got.Notes) != 1 || got.Notes[0].Text != "who took them" {
		t.Errorf("a cleared reader's notes: %+v", got.Notes)
	}
}

// TestViewVersions: a version is a view's state and notes: the same again,
// or a new title, changes the latest version in place; a moved entity, a
// new note (annotateView) make the next version, each kept as it was;
// notes left out of a save are kept, with their authors.
func TestViewVersions(t *testing.T) {
	t.Parallel()
	f := newViewFixture(t)
	ctx := f.as(t, f.owner)
	nice := f.id("geoffrey-nice")
	v := casegraph.SavedView{Name: f.name, Title: "One", State: state(t, `{"n": [["`+nice+`", 0, 0, ""]], "r": []}`), Note: "the first"}
	save := func(v casegraph.SavedView) casegraph.SavedView {
		t.Helper()
		got, err := f.s.SaveView(ctx, v)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if got := save(v); got.Version != 1 || got.Note != "the first" || got.Visibility != casegraph.VisibilityPrivate {
		t.Fatalf("first save: %+v", got)
	}
	v.Title = "One, renamed"
	if got := save(v); got.Version != 1 || got.Title != "One, renamed" {
		t.Errorf("a new title: version %d %q, want 1 in place", got.Version, got.Title)
	}
	annotated, err := f.s.AnnotateView(ctx, f.name, casegraph.ViewNote{Target: casegraph.ViewTarget{Kind: casegraph.NodeEntity, ID: nice}, Text: "led the Milošević case"})
	if err != nil || annotated.Version != 2 || len(annotated.Notes) != 1 || annotated.Notes[0].Author != f.owner.ID {
		t.Fatalf("annotated: %+v, %v", annotated, err)
	}
	if again, err := f.s.AnnotateView(ctx, f.name, annotated.Notes[0]); err != nil || again.Version != 2 {
		t.Errorf("the same note again: version %d, %v; want 2", again.Version, err)
	}
	v.State = state(t, `{"n": [["`+nice+`", 5, 0, "p"]], "r": []}`)
	v.Note = "moved"
	moved := save(v) // notes left out: kept
	if moved.Version != 3 || len(moved.Notes) != 1 || !moved.Notes[0].CreatedAt.Equal(annotated.Notes[0].CreatedAt) {
		t.Errorf("moved: version %d, notes %+v", moved.Version, moved.Notes)
	}
	v.Notes = []casegraph.ViewNote{}
	if cleared := save(v); cleared.Version != 4 || len(cleared.Notes) != 0 {
		t.Errorf("notes removed: version %d, notes %+v", cleared.Version, cleared.Notes)
	}
	old, err := f.s.SavedView(ctx, f.name, 1)
	if err != nil || old.State.Entities[0].X != 0 || len(old.Notes) != 0 || old.Note != "the first" {
		t.Errorf("version 1: %+v, %v", old, err)
	}
	history, err := f.s.SavedViewHistory(ctx, f.name, 10)
	if err != nil {
		t.Fatal(err)
	}
	var versions []int64
	for _, h := range history {
		versions = append(versions, h.Version)
	}
	if diff := cmp.Diff([]int64{4, 3, 2, 1}, versions); diff != "" {
		t.Errorf("history (-want +got):\n%s", diff)
	}
}

// TestViewRefusals: what may not be saved writes nothing: an id the saver
// reads nothing by (NOT_FOUND at its field), a reader's save, another
// editor's save over the owner's view (FORBIDDEN when it sees the view,
// CONFLICT when it does not), a view for a dataset the saver does not
// read.
func TestViewRefusals(t *testing.T) {
	t.Parallel()
	f := newViewFixture(t)
	nice := f.id("geoffrey-nice")
	v := casegraph.SavedView{Name: f.name, Title: "Refusals", Visibility: casegraph.VisibilityDatasets, Datasets: []string{f.ds},
		State: state(t, `{"n": [["`+nice+`", 0, 0, ""]], "r": []}`)}
	if _, err := f.s.SaveView(f.as(t, f.owner), v); err != nil {
		t.Fatal(err)
	}
	op := casegraph.AsOperator(t.Context())
	before, err := f.s.CountChanges(op, casegraph.ChangeFilter{EntityID: f.name})
	if err != nil {
		t.Fatal(err)
	}
	otherEditor := casegraph.Principal{ID: "test:other", Role: casegraph.RoleEditor, Datasets: []string{f.ds}}
	elsewhere := casegraph.Principal{ID: "test:elsewhere", Role: casegraph.RoleEditor, Datasets: []string{f.stranger.Datasets[0]}}
	changed := v
	changed.State = state(t, `{"n": [["`+nice+`", 9, 9, ""]], "r": []}`)
	for _, tt := range []struct {
		name  string
		as    casegraph.Principal
		view  casegraph.SavedView
		code  casegraph.Code
		field string
	}{
		{"an entity nobody has", f.owner, withState(t, v, `{"n": [["`+nice+`", 0, 0, ""], ["`+f.ds+`:nobody", 0, 0, ""]], "r": []}`), casegraph.CodeNotFound, "state.n[1]"},
		{"a relation nobody has", f.owner, withState(t, v, `{"n": [], "r": ["`+f.ds+`:no-relation"]}`), casegraph.CodeNotFound, "state.r[0]"},
		{"Caesar's real id, uncleared", casegraph.Principal{ID: f.owner.ID, Role: casegraph.RoleEditor, Datasets: []string{f.ds}}, withState(t, v, `{"n": [["`+f.id("caesar")+`", 0, 0, ""]], "r": []}`), casegraph.CodeNotFound, "state.n[0]"},
		{"a note on nothing", f.owner, withNote(changed, f.ds+":nobody"), casegraph.CodeNotFound, "notes[0].targetId"},
		{"a reader", f.uncleared, changed, casegraph.CodeForbidden, ""},
		{"another editor", otherEditor, changed, casegraph.CodeForbidden, ""},
		{"an editor of another dataset", elsewhere, withState(t, casegraph.SavedView{Name: f.name, Title: "x"}, `{"n": [], "r": []}`), casegraph.CodeConflict, ""},
		{"for a dataset it does not read", elsewhere, withState(t, casegraph.SavedView{Name: f.name + "-x", Title: "x", Visibility: casegraph.VisibilityDatasets, Datasets: []string{f.ds}}, `{"n": [], "r": []}`), casegraph.CodeNotFound, "datasets[0]"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.s.SaveView(f.as(t, tt.as), tt.view)
			var coded *casegraph.Error
			if casegraph.ErrorCode(err) != tt.code || (tt.field != "" && (!errors.As(err, &coded) || coded.Field != tt.field)) {
				t.Errorf("got %v (%+v), want %s at %q", err, coded, tt.code, tt.field)
			}
		})
	}
	after, err := f.s.CountChanges(op, casegraph.ChangeFilter{EntityID: f.name})
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.s.SavedView(f.as(t, f.owner), f.name, 0)
	if err != nil || got.Version != 1 || got.State.Entities[0].X != 0 {
		t.Errorf("the view after the refusals: %+v, %v", got, err)
	}
	if after != before {
		t.Errorf("the audit log went from %d to %d changes", before, after)
	}
}

func withState(t *testing.T, v casegraph.SavedView, raw string) casegraph.SavedView {
	v.State = state(t, raw)
	return v
}

func withNote(v casegraph.SavedView, target string) casegraph.SavedView {
	v.Notes = []casegraph.ViewNote{{Target: casegraph.ViewTarget{Kind: casegraph.NodeEntity, ID: target}, Text: "a note"}}
	return v
}
