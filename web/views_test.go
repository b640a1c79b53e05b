package web_test

// Kept views in the explorer (issue 26 item 4): saved from the Views panel
// with a protected person, a relation and notes; refused at their field;
// versioned; reopened by a shared link for an uncleared and a cleared
// reader, each as the server shows it to them; read again at a sign-in.

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server"
	"github.com/casegraph/casegraph/server/servertest"
	"github.com/chromedp/chromedp"
)

// viewServer is a server on a fresh copy of the seed whose own key reads it
// without clearance, with an editor of it (cleared) and a cleared reader.
// Its budgets are of minutes, as the views' API tests' are: the first
// saveView on a fresh database asks statements never planned before.
func viewServer(t testing.TB, ds string) (h *servertest.Harness, editor, cleared string) {
	t.Helper()
	h = servertest.New(t, servertest.Options{
		Key:         &casegraph.NewAPIKey{Name: "reader " + t.Name(), Role: casegraph.RoleReader, Datasets: []string{ds}},
		PathTimeout: 2 * time.Minute,
		Config:      func(c *server.Config) { c.RequestTimeout = 3 * time.Minute },
	})
	editor = h.Key(casegraph.NewAPIKey{Name: "editor " + t.Name(), Role: casegraph.RoleEditor, Datasets: []string{ds}, Cleared: true})
	cleared = h.Key(casegraph.NewAPIKey{Name: "cleared " + t.Name(), Role: casegraph.RoleReader, Datasets: []string{ds}, Cleared: true})
	return h, editor, cleared
}

// viewName is a view name of the test's own, deleted when it ends.
func viewName(t testing.TB, h *servertest.Harness, owner string) string {
	t.Helper()
	b := make([]byte, 4)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	name := "view-" + hex.EncodeToString(b)
	t.Cleanup(func() {
		h.PostAs(owner, `mutation($n: String!) { deleteSavedView(name: $n) { versions } }`, map[string]any{"n": name})
	})
	return name
}

// openedVersion waits for the kept view open to be at version v (with
// want notes), its link in the address.
func (b *tab) openedVersion(name string, v, notes int) {
	b.t.Helper()
	b.until(fmt.Sprintf("%s version %d with %d notes", name, v, notes), fmt.Sprintf(`(o => o && o.name === %q && o.version === %d && o.notes.length === %d)(window.casegraph.views.open) && !window.casegraph.views.opening && !window.casegraph.canvas.layingOut && document.body.dataset.ready !== "false"`, name, v, notes))
	b.until("the link in the address", fmt.Sprintf(`location.hash === %q`, fmt.Sprintf("#saved=%s@%d", name, v)))
}

// addNote writes a note in the details panel's notes form and waits for
// the view's next version.
func (b *tab) addNote(name, text string, version, notes int) {
	b.t.Helper()
	b.panel("the notes form", `document.getElementById("note-form") !== null`)
	b.do(chromedp.SendKeys(chromedp.ID("note-text"), text), chromedp.Click(chromedp.CSS(`#note-form button[type="submit"]`)))
	b.openedVersion(name, version, notes)
	b.until("the note in the panel", fmt.Sprintf(`document.getElementById("notes")?.textContent.includes(%q)`, text))
}

// TestExplorerSavedViews saves, from the Views panel as a cleared editor,
// a view of the photographs' neighbourhood with Caesar (protected) and
// his AUTHORED relation, Caesar's panel open, Paths' tab last; a bad name
// is refused at its field; notes on Caesar, the relation and the
// photographs each make a version; the versions list and reopen an older
// one. The shared link then reopens it for an uncleared reader (Caesar as
// the redacted node the server names, where he was, with his neighbours;
// nothing of his real id, name or notes in the page), and, signed in with
// clearance in that tab, for a cleared one (Caesar himself, not a second
// node, and every note); signed out of clearance, redacted again. axe
// finds no serious or critical violation in the panel or the notes.
func TestExplorerSavedViews(t *testing.T) {
	store := cyphertest.Store(t, cypher.Options{})
	ds, id := cyphertest.LoadSeed(t, store)
	h, editor, cleared := viewServer(t, ds)
	caesar, photos := id("caesar"), id("caesar-photographs")
	rel := casegraph.NodeID(casegraph.NodeRelation, id("rel-013-caesar-authored-caesar-photographs"))
	name := viewName(t, h, editor)

	b := openTab(t, h.URL)
	b.signIn(h)
	b.submitKey(editor)
	js[any](b, fmt.Sprintf(`window.casegraph.expand(%q)`, photos))
	b.until("the photographs' neighbourhood", fmt.Sprintf(`window.casegraph.canvas.node(%q) !== null && window.casegraph.canvas.cy.getElementById(%q).nonempty() && !window.casegraph.canvas.layingOut`, caesar, rel))
	js[any](b, fmt.Sprintf(`window.casegraph.open(%q)`, caesar))
	b.panel("Caesar's panel", `/Caesar$/.test(document.getElementById("entity-name")?.textContent.trim() ?? "")`)
	b.do(chromedp.Click(chromedp.ID("views-toggle")))
	b.until("the list of views", `document.querySelector("#views-list li") !== null`)

	t.Run("a bad name is refused at its field", func(t *testing.T) {
		b.t = t
		b.do(
			chromedp.SetValue(chromedp.ID("view-name"), "Not A Slug"),
			chromedp.SetValue(chromedp.ID("view-title"), "The photographs"),
			chromedp.SetValue(chromedp.ID("view-visibility"), "DATASETS"),
			chromedp.Click(chromedp.ID("view-save-button")),
		)
		b.until("the error at the name", `!document.getElementById("view-name-error").hidden`)
		if got := b.text("#view-name-error"); !strings.Contains(got, "BAD_USER_INPUT") || !strings.Contains(got, "not a valid name") {
			t.Errorf("the name's error: %q", got)
		}
		if got := js[string](b, `document.getElementById("view-name").getAttribute("aria-invalid") + " " + (document.activeElement?.id ?? "")`); got != "true view-name" {
			t.Errorf("the name input: aria-invalid and focus %q, want true and the input", got)
		}
		if js[bool](b, `window.casegraph.views.open !== null`) {
			t.Error("a refused save opened a view")
		}
		b.axe("#views")
		b.shot("views-field-error")
	})

	var before map[string]placed
	t.Run("saved, annotated, versioned", func(t *testing.T) {
		b.t = t
		b.do(
			chromedp.SetValue(chromedp.ID("view-name"), name),
			chromedp.SetValue(chromedp.ID("view-note"), "first"),
			chromedp.Click(chromedp.ID("view-save-button")),
		)
		b.openedVersion(name, 1, 0)
		if got := b.visibleText("#view-name-error"); got != "" {
			t.Errorf("the name's error stays: %q", got)
		}
		b.until("the view listed", fmt.Sprintf(`document.querySelector('#views-list li[data-view=%q]') !== null`, name))
		b.addNote(name, "the defector himself", 2, 1)
		js[any](b, fmt.Sprintf(`window.casegraph.openRelation(%q)`, rel))
		b.panel("the relation's panel", fmt.Sprintf(`document.getElementById("relation-heading")?.dataset.relation === %q`, rel))
		b.addNote(name, "he took them", 3, 2)
		js[any](b, fmt.Sprintf(`window.casegraph.open(%q)`, photos))
		b.addNote(name, "55,000 photographs", 4, 3)
		b.axe("#right")
		// The Paths tab open is kept with the view: the next version.
		b.do(chromedp.Click(chromedp.ID("tab-paths")))
		js[any](b, `window.casegraph.saveURL()`)
		b.until("the changed view's address", `location.hash.startsWith("#view=")`)
		b.do(chromedp.SetValue(chromedp.ID("view-note"), "paths open"), chromedp.Click(chromedp.ID("view-save-button")))
		b.openedVersion(name, 5, 3)
		before = b.drawing()

		b.do(chromedp.Click(chromedp.CSS(`#view-open button[aria-label^="Versions"]`)))
		b.until("the versions", `document.querySelectorAll("#view-versions-list li").length === 5`)
		if got := js[string](b, `[...document.querySelectorAll("#view-versions-list li")].map(li => li.dataset.version).join(",")`); got != "5,4,3,2,1" {
			t.Errorf("versions %s, want 5,4,3,2,1", got)
		}
		b.axe("#views")
		b.do(chromedp.Click(chromedp.CSS(`#view-versions-list li[data-version="1"] button`)))
		b.openedVersion(name, 1, 0)
		b.sameDrawing(before, b.drawing(), nil)
		if tab := js[string](b, `document.querySelector('[role=tab][aria-selected=true]').id`); tab != "tab-entity" {
			t.Errorf("version 1 opens with %s, want the details (Caesar's)", tab)
		}
		b.shot("views-version-1")
		b.checkClean()
	})

	link := h.URL + "/#saved=" + name
	r := openTab(t, h.URL)
	r.signIn(h)
	t.Run("the shared link, for an uncleared reader", func(t *testing.T) {
		r.t = t
		r.do(chromedp.Navigate(link))
		r.until("the view", fmt.Sprintf(`window.casegraph?.views.open?.name === %q && window.casegraph.views.open.version === 5 && !window.casegraph.views.opening && !window.casegraph.canvas.layingOut && document.body.dataset.ready === "true"`, name))
		opaque := js[string](r, `(window.casegraph.canvas.cy.nodes("[?redacted]")[0]?.id()) ?? ""`)
		if !strings.HasPrefix(opaque, casegraph.OpaqueIDPrefix) || js[int](r, `window.casegraph.canvas.cy.nodes("[?redacted]").length`) != 1 {
			t.Fatalf("the protected person is drawn as %q", opaque)
		}
		r.sameDrawing(before, r.drawing(), map[string]string{caesar: opaque})
		if tab := js[string](r, `document.querySelector('[role=tab][aria-selected=true]').id`); tab != "tab-paths" {
			t.Errorf("the shared view opens with %s, want the Paths tab", tab)
		}
		r.noCaesar()
		page := js[string](r, `JSON.stringify(window.casegraph.views.open) + JSON.stringify(window.casegraph.canvas.cy.elements().jsons()) + document.body.textContent + location.href`)
		for _, s := range []string{`"` + caesar + `"`, "the defector himself", "he took them"} {
			if strings.Contains(page, s) {
				t.Errorf("the page of an uncleared reader holds %q", s)
			}
		}
		if notes := js[[]string](r, `window.casegraph.views.open.notes.map(n => n.text)`); len(notes) != 1 || notes[0] != "55,000 photographs" {
			t.Errorf("the uncleared reader reads the notes %q", notes)
		}
		js[any](r, fmt.Sprintf(`window.casegraph.open(%q)`, opaque))
		r.panel("the protected person's panel", `document.getElementById("entity-name")?.textContent.includes("Protected person")`)
		if got := r.text("#notes-heading"); !strings.HasSuffix(got, "(0)") {
			t.Errorf("the protected person's notes: %q", got)
		}
		r.shot("shared-uncleared")
		r.checkClean()
	})

	t.Run("signed in with clearance, the view is read again", func(t *testing.T) {
		r.t = t
		r.submitKey(cleared)
		r.until("the view again", `window.casegraph.canvas.cy.nodes("[?redacted]").length === 0 && window.casegraph.views.open?.notes.length === 3 && !window.casegraph.views.opening && !window.casegraph.canvas.layingOut`)
		r.sameDrawing(before, r.drawing(), nil)
		if n := js[int](r, fmt.Sprintf(`window.casegraph.canvas.cy.nodes().filter(n => n.data("name") === "Caesar").length + (window.casegraph.canvas.node(%q) ? 10 : 0)`, caesar)); n != 11 {
			t.Errorf("Caesar is drawn %d times by name (+10 when by his id), want once, by his id", n)
		}
		js[any](r, fmt.Sprintf(`window.casegraph.open(%q)`, caesar))
		r.panel("Caesar's notes", `document.getElementById("notes")?.textContent.includes("the defector himself")`)
		r.shot("shared-cleared")
		r.checkClean()
	})

	t.Run("signed in without clearance, Caesar is redacted again", func(t *testing.T) {
		r.t = t
		r.submitKey(h.Token)
		r.until("the view again", `window.casegraph.canvas.cy.nodes("[?redacted]").length === 1 && window.casegraph.views.open?.notes.length === 1 && !window.casegraph.views.opening && !window.casegraph.canvas.layingOut`)
		r.noCaesar()
		if got := js[int](r, `window.casegraph.canvas.cy.nodes().length`); got != len(before) {
			t.Errorf("%d entities drawn, want %d", got, len(before))
		}
		r.checkClean()
	})
}

// BenchmarkRestoreSavedView measures opening a shared link to a kept view
// of 500 generated entities and their relations (netOf), each at its place,
// saved by an editor for its dataset's readers and opened by a reader: from
// navigation to the view read (savedView, one request, its entities and
// relations with it: "casegraph:view-read"), to the first frame with it
// drawn ("casegraph:first-graph") and to the explorer usable with the
// whole view restored, its time bar included ("casegraph:ready").
//
//	go test ./web -run '^$' -bench RestoreSavedView -benchtime 10x
func BenchmarkRestoreSavedView(b *testing.B) {
	store := cyphertest.Store(b, cypher.Options{})
	ds := cyphertest.Dataset(b)
	nodes, relations := netOf(b, store, ds, 500)
	for i := range nodes {
		nodes[i][1], nodes[i][2] = 60*(i%25), 60*(i/25)
	}
	h, editor, _ := viewServer(b, ds)
	name := viewName(b, h, editor)
	state, err := json.Marshal(map[string]any{"n": nodes, "r": relations})
	if err != nil {
		b.Fatal(err)
	}
	res := h.PostAs(editor, `mutation($in: SaveViewInput!) { saveView(input: $in) { version } }`, map[string]any{"in": map[string]any{
		"name": name, "title": "Five hundred", "state": json.RawMessage(state), "visibility": "DATASETS", "datasets": []string{ds}}})
	if len(res.Errors) > 0 {
		b.Fatal(res.Raw)
	}
	tb := openTab(b, h.URL)
	signInTab(b, tb, h)
	restoreMarks(b, tb, h.URL+"/#saved="+name, 500)
}

// TestExplorerViewsTheirsToChange: the explorer asks the server who the
// tab is (viewer) at every sign-in, and offers each write control only to
// whom may use it. A reader of the dataset sees no write bar, no form to
// save a view, and on an editor's view no Delete and no form to annotate
// it; signed in as that editor in the same tab, it sees them all on its
// own view.
func TestExplorerViewsTheirsToChange(t *testing.T) {
	h := servertest.New(t, servertest.Options{})
	ds := cyphertest.Dataset(t)
	src, person := ds+":src", ds+":amal"
	h.MustPost(`mutation($in: SourceInput!) { upsertSource(input: $in) { id } }`, map[string]any{"in": map[string]any{"id": src, "title": "Field notes " + ds, "dataset": ds}})
	h.MustPost(`mutation($in: EntityInput!) { upsertEntity(input: $in) { id } }`, map[string]any{"in": map[string]any{"id": person, "kind": "PERSON", "name": "Amal Haddad", "dataset": ds, "sourceIds": []string{src}}})
	editor := h.Key(casegraph.NewAPIKey{Name: "editor " + t.Name(), Role: casegraph.RoleEditor, Datasets: []string{ds}})
	reader := h.Key(casegraph.NewAPIKey{Name: "reader " + t.Name(), Role: casegraph.RoleReader, Datasets: []string{ds}})
	name := viewName(t, h, editor)
	res := h.PostAs(editor, `mutation($in: SaveViewInput!) { saveView(input: $in) { version } }`, map[string]any{"in": map[string]any{
		"name": name, "title": "The editor's view", "visibility": "DATASETS", "datasets": []string{ds},
		"state": map[string]any{"n": []any{[]any{person, 0, 0, ""}}, "r": []string{}, "e": person}}})
	if len(res.Errors) > 0 {
		t.Fatal(res.Raw)
	}
	shown := func(b *tab, sel string) bool {
		return js[bool](b, fmt.Sprintf(`(e => !!e && e.getClientRects().length > 0)(document.querySelector(%q))`, sel))
	}
	item := fmt.Sprintf(`#views-list li[data-view=%q]`, name)

	b := openTab(t, h.URL)
	b.do(chromedp.Navigate(h.URL+"/#saved="+name), chromedp.WaitVisible(chromedp.ID("alert")))
	b.expectProblem("401")
	b.submitKey(reader)
	b.until("the view, for the reader", fmt.Sprintf(`window.casegraph?.views.open?.name === %q && !window.casegraph.views.opening`, name))
	t.Run("a reader sees no control to change another's view", func(t *testing.T) {
		b.t = t
		b.do(chromedp.Click(chromedp.ID("views-toggle")))
		b.until("the view listed", fmt.Sprintf(`document.querySelector(%q) !== null`, item))
		if shown(b, item+` button[aria-label^="Delete"]`) {
			t.Error("a reader is offered Delete on the editor's view")
		}
		for _, sel := range []string{"#write", "#view-save"} {
			if shown(b, sel) {
				t.Errorf("a reader sees %s", sel)
			}
		}
		js[any](b, fmt.Sprintf(`window.casegraph.open(%q)`, person))
		b.panel("the notes of the view", `document.getElementById("notes-heading") !== null`)
		if shown(b, "#note-form") {
			t.Error("a reader is offered to annotate the editor's view")
		}
		b.shot("reader-views")
		b.checkClean()
	})

	t.Run("its owner sees them on its view", func(t *testing.T) {
		b.t = t
		b.submitKey(editor)
		b.until("the write bar", `document.getElementById("write").getClientRects().length > 0`)
		b.until("Delete on its view", fmt.Sprintf(`document.querySelector(%q) !== null`, item+` button[aria-label^="Delete"]`))
		if !shown(b, "#view-save") {
			t.Error("the editor sees no form to save a view")
		}
		b.until("the view read again", `window.casegraph.views.open?.mayChange === true && !window.casegraph.views.opening`)
		js[any](b, fmt.Sprintf(`window.casegraph.open(%q)`, person))
		b.panel("the notes form", `document.getElementById("note-form") !== null`)
		b.axe("#views")
		b.shot("owner-views")
		b.checkClean()
	})
}
