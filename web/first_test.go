package web_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server/servertest"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestFirstScreen drives the explorer's first screen (issue 27 item 3) on
// the seed: it offers the seed's first question and the entities the
// caller may read with the most relations, as the API ranks them (the
// protected person among them only for a cleared key); the question,
// asked from the keyboard, opens the Paths panel on the API's paths with
// their evidence; the screen goes at a search and never covers a shared
// link; without the seed it offers no question.
func TestFirstScreen(t *testing.T) {
	store, h, id, cleared, b := seedTab(t)
	waitFirstScreen := func(b *tab) {
		b.t.Helper()
		b.until("the first screen", `!document.getElementById("welcome").hidden && document.getElementById("welcome").getAttribute("aria-busy") !== "true" && document.getElementById("welcome-heading") !== null`)
	}

	t.Run("offers the question and the most connected", func(t *testing.T) {
		b.t = t
		waitFirstScreen(b)
		if got := b.text("#welcome-question"); !strings.Contains(got, "How is Sir Desmond de Silva connected to the Government of Qatar") {
			t.Errorf("the first question reads %q", got)
		}
		want := hubIDs(t, h, "")
		if slices.Contains(want, id("caesar")) {
			t.Fatalf("the API lists the protected person among an uncleared reader's entities: %q", want)
		}
		got := js[[]string](b, `[...document.querySelectorAll("#welcome-hubs li button[data-id]")].map(b => b.dataset.id)`)
		if !slices.Equal(got, want) {
			t.Errorf("the first screen offers %q, the API's most connected are %q", got, want)
		}
		if text := b.text("#welcome"); strings.Contains(text, "Protected person") || strings.Contains(text, "photographer") {
			t.Errorf("the first screen shows a protected person: %q", text)
		}
		b.axe("#welcome")
		b.shot("first-screen")
		b.checkClean()
	})

	t.Run("a cleared key sees the protected person among them", func(t *testing.T) {
		b.t = t
		b.submitKey(cleared)
		waitFirstScreen(b)
		b.until("the cleared list", fmt.Sprintf(`document.querySelector('#welcome-hubs button[data-id=%q]') !== null`, id("caesar")))
		want := hubIDs(t, h, cleared)
		if got := js[[]string](b, `[...document.querySelectorAll("#welcome-hubs li button[data-id]")].map(b => b.dataset.id)`); !slices.Equal(got, want) {
			t.Errorf("signed in with clearance, the first screen offers %q, the API %q", got, want)
		}
		b.submitKey(h.Token)
		waitFirstScreen(b)
		b.until("the uncleared list again", fmt.Sprintf(`document.querySelector('#welcome-hubs button[data-id=%q]') === null && document.querySelectorAll("#welcome-hubs li").length > 0`, id("caesar")))
		b.checkClean()
	})

	var link string
	t.Run("asks the question from the keyboard", func(t *testing.T) {
		b.t = t
		b.do(chromedp.Focus(chromedp.ID("welcome-question")), chromedp.KeyEvent(kb.Enter))
		b.until("the evidence", `document.querySelectorAll("#evidence li.hop").length > 0`)
		from, to := id("desmond-de-silva"), id("qatar-government")
		if got := js[[]string](b, `[document.getElementById("path-from").dataset.id, document.getElementById("path-to").dataset.id]`); !slices.Equal(got, []string{from, to}) {
			t.Errorf("the path search runs between %q, want de Silva and the Government of Qatar", got)
		}
		if js[string](b, `document.getElementById("tab-paths").getAttribute("aria-selected")`) != "true" {
			t.Error("the Paths panel is not the one shown")
		}
		want := apiPaths(t, h, from, to)
		got := js[[]hop](b, `[...document.querySelectorAll("#evidence li.hop")].map(li => ({relation: li.dataset.relation, text: li.textContent}))`)
		if len(got) != len(want[0].Steps) {
			t.Fatalf("evidence shows %d hops, the API's first path has %d", len(got), len(want[0].Steps))
		}
		for i, step := range want[0].Steps {
			if got[i].Relation != step.Relation.ID || !strings.Contains(got[i].Text, step.Relation.Quote) {
				t.Errorf("hop %d is %s (%q), the API's is %s with the quote %q", i+1, got[i].Relation, got[i].Text, step.Relation.ID, step.Relation.Quote)
			}
		}
		if focused := js[string](b, `document.activeElement.closest("li.hop")?.dataset.relation ?? document.activeElement.id`); focused != want[0].Steps[0].Relation.ID {
			t.Errorf("the focus is on %q, want the first hop", focused)
		}
		if !js[bool](b, `document.getElementById("welcome").hidden`) {
			t.Error("the first screen still covers the canvas")
		}
		b.axe("#right")
		b.shot("first-question")
		b.do(chromedp.Click(chromedp.CSS(`#toolbar button[data-action="link"]`)))
		b.until("the URL", `location.hash.startsWith("#view=")`)
		link = js[string](b, `location.href`)
		b.checkClean()
	})

	t.Run("never covers a shared link", func(t *testing.T) {
		b.t = t
		b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(link))
		b.until("the restored view", `document.body.dataset.ready === "true" && document.querySelectorAll("#evidence li.hop").length > 0`)
		// The first screen's read would have come back by now: one more round trip.
		js[any](b, `fetch("/healthz").then(() => 0)`)
		if js[bool](b, `!document.getElementById("welcome").hidden || document.getElementById("welcome").childElementCount > 0`) {
			t.Error("the first screen covers a shared link")
		}
		b.checkClean()
	})

	t.Run("goes at a search", func(t *testing.T) {
		b.t = t
		b.do(chromedp.Navigate(h.URL + "/"))
		waitFirstScreen(b)
		b.do(chromedp.SendKeys(chromedp.ID("search"), "caesar"), chromedp.Click(chromedp.CSS("#search-form button")))
		b.until("results", `document.querySelectorAll("#results li").length > 0`)
		if !js[bool](b, `document.getElementById("welcome").hidden`) {
			t.Error("the first screen stays after a search")
		}
		b.checkClean()
	})

	t.Run("offers no question without the seed", func(t *testing.T) {
		b.t = t
		force, _ := cyphertest.LoadForce(t, store)
		other := h.Key(casegraph.NewAPIKey{Name: "force " + t.Name(), Role: casegraph.RoleReader, Datasets: []string{force}})
		b.do(chromedp.Navigate(h.URL + "/"))
		b.submitKey(other)
		waitFirstScreen(b)
		b.until("the force's entities", `document.querySelectorAll("#welcome-hubs li").length > 0`)
		if js[bool](b, `document.getElementById("welcome-question") !== null`) {
			t.Error("the seed's question is offered to a key that reads no seed")
		}
		want := hubIDs(t, h, other)
		if got := js[[]string](b, `[...document.querySelectorAll("#welcome-hubs li button[data-id]")].map(b => b.dataset.id)`); !slices.Equal(got, want) {
			t.Errorf("the first screen offers %q, the API %q", got, want)
		}
		// A hub opened from it: drawn with its neighbours, opened in the panel.
		b.do(chromedp.Click(chromedp.CSS("#welcome-hubs li button")))
		b.until("the hub drawn and opened", fmt.Sprintf(`window.casegraph.canvas.cy.getElementById(%q).nonempty() && window.casegraph.canvas.cy.nodes().length > 1 && document.getElementById("entity-name") !== null`, want[0]))
		if !js[bool](b, `document.getElementById("welcome").hidden`) {
			t.Error("the first screen stays after opening an entity")
		}
		b.checkClean()
	})
}

// seedTab loads a copy of the seed and opens a tab signed in with a reader
// key of it without clearance (the harness's); cleared is a key that reads
// it with clearance.
func seedTab(t *testing.T) (store *cypher.Store, h *servertest.Harness, id func(string) string, cleared string, b *tab) {
	t.Helper()
	store = cyphertest.Store(t, cypher.Options{})
	ds, id := cyphertest.LoadSeed(t, store)
	h = readerServer(t, ds)
	cleared = h.Key(casegraph.NewAPIKey{Name: "cleared " + t.Name(), Role: casegraph.RoleReader, Datasets: []string{ds}, Cleared: true})
	b = openTab(t, h.URL)
	b.signIn(h)
	return store, h, id, cleared, b
}

// hubIDs are the ids of the entities the key (the harness's when "")
// reads with the most relations, as the API ranks them.
func hubIDs(t *testing.T, h *servertest.Harness, key string) []string {
	t.Helper()
	q := `{ entities(orderBy: {field: DEGREE, direction: DESC}, first: 6) { edges { node { id } } } }`
	var res servertest.Response
	if key == "" {
		res = h.Post(q, nil)
	} else {
		res = h.PostAs(key, q, nil)
	}
	if len(res.Errors) > 0 {
		t.Fatalf("entities: %s", res.Raw)
	}
	var out struct {
		Entities struct {
			Edges []struct{ Node struct{ ID string } }
		}
	}
	decode(t, res.Data, &out)
	var ids []string
	for _, e := range out.Entities.Edges {
		ids = append(ids, e.Node.ID)
	}
	return ids
}

// TestSignInRedraws signs a tab in and out over a drawing with the seed's
// protected person (issue 26): with a cleared key, the redacted person
// becomes Caesar where it was drawn, with the same neighbours, and nothing
// is NOT_FOUND; with an uncleared key again, Caesar becomes the redacted
// person again and nothing of his is left in the page (not in the undo
// history either); signed out, nothing read is left, and the next sign-in
// reads the view again.
func TestSignInRedraws(t *testing.T) {
	_, h, id, cleared, b := seedTab(t)
	caesar := id("caesar")

	js[any](b, fmt.Sprintf(`window.casegraph.expand(%q)`, id("caesar-photographs")))
	b.until("the photographs' neighbourhood", `window.casegraph.canvas.cy.nodes("[?redacted]").length === 1 && !window.casegraph.canvas.layingOut`)
	before := b.drawing()
	opaque := js[string](b, `window.casegraph.canvas.cy.nodes("[?redacted]")[0].id()`)
	if opaque == caesar {
		t.Fatalf("the protected person is drawn by his id")
	}
	js[any](b, fmt.Sprintf(`window.casegraph.open(%q)`, opaque))
	b.panel("the protected person's panel", `document.getElementById("entity-name")?.textContent.includes("Protected person")`)

	t.Run("signed in with clearance, the redacted person becomes Caesar", func(t *testing.T) {
		b.t = t
		b.submitKey(cleared)
		after := b.drawing()
		if n := js[int](b, `window.casegraph.canvas.cy.nodes("[?redacted]").length`); n != 0 {
			t.Errorf("%d redacted entities still drawn", n)
		}
		b.sameDrawing(before, after, map[string]string{opaque: caesar})
		if alert := b.visibleText("#alert"); alert != "" {
			t.Errorf("the page shows an error: %q", alert)
		}
		b.panel("Caesar's panel", `/^(person\s*)?Caesar$/.test(document.getElementById("entity-name")?.textContent.trim() ?? "")`)
		if js[bool](b, `window.casegraph.canvas.canUndo()`) {
			t.Error("the undo history survives the change of identity")
		}
		b.shot("signed-in-cleared")
		b.checkClean()
	})

	t.Run("signed in without clearance, Caesar is redacted again", func(t *testing.T) {
		b.t = t
		b.submitKey(h.Token)
		b.sameDrawing(before, b.drawing(), nil)
		b.panel("the protected person's panel", `document.getElementById("entity-name")?.textContent.includes("Protected person")`)
		b.noCaesar()
		b.shot("signed-in-uncleared")
		b.checkClean()
	})

	t.Run("signed out, nothing read stays; signed in, it is read again", func(t *testing.T) {
		b.t = t
		b.do(chromedp.Click(chromedp.ID("signin-button")), chromedp.Click(chromedp.ID("signout")))
		b.until("the refusal", `!document.getElementById("alert").hidden && document.body.dataset.ready === "true"`)
		b.expectProblem("401")
		if n := js[int](b, `window.casegraph.canvas.cy.elements().length`); n != 0 {
			t.Errorf("%d elements still drawn, signed out", n)
		}
		if got := b.text("#panel-entity"); strings.Contains(got, "Protected person") || strings.Contains(got, "photographs") {
			t.Errorf("the details panel still shows what was read: %q", got)
		}
		b.submitKey(cleared)
		b.sameDrawing(before, b.drawing(), map[string]string{opaque: caesar})
		b.checkClean()
	})
}

// placed is a drawn entity: where it is and what it is connected to.
type placed struct {
	ID         string
	X, Y       float64
	Neighbours []string
}

// drawing is every drawn entity, by id.
func (b *tab) drawing() map[string]placed {
	b.t.Helper()
	list := js[[]placed](b, `window.casegraph.canvas.cy.nodes().map(n => ({id: n.id(), x: n.position().x, y: n.position().y, neighbours: n.neighborhood("node").map(m => m.id()).sort()}))`)
	out := map[string]placed{}
	for _, p := range list {
		out[p.ID] = p
	}
	return out
}

// sameDrawing fails unless after draws what before did, each entity where
// it was and with the same neighbours, ids renamed by renamed.
func (b *tab) sameDrawing(before, after map[string]placed, renamed map[string]string) {
	b.t.Helper()
	name := func(id string) string {
		if n, ok := renamed[id]; ok {
			return n
		}
		return id
	}
	if len(after) != len(before) {
		b.t.Errorf("%d entities drawn, want the %d drawn before", len(after), len(before))
	}
	for id, p := range before {
		q, ok := after[name(id)]
		if !ok {
			b.t.Errorf("%s is no longer drawn", name(id))
			continue
		}
		if math.Abs(p.X-q.X) > 1 || math.Abs(p.Y-q.Y) > 1 {
			b.t.Errorf("%s moved from (%.0f, %.0f) to (%.0f, %.0f)", name(id), p.X, p.Y, q.X, q.Y)
		}
		var want []string
		for _, n := range p.Neighbours {
			want = append(want, name(n))
		}
		slices.Sort(want)
		if !slices.Equal(q.Neighbours, want) {
			b.t.Errorf("%s is drawn beside %q, want %q", name(id), q.Neighbours, want)
		}
	}
}

// noCaesar fails when anything of the protected person reached the page:
// his name on an entity, his description or alias in its text, or either
// in the undo history.
func (b *tab) noCaesar() {
	b.t.Helper()
	if names := js[[]string](b, `window.casegraph.canvas.cy.nodes().map(n => n.data("name"))`); slices.Contains(names, "Caesar") {
		b.t.Errorf("Caesar is drawn by name: %q", names)
	}
	for _, s := range []string{"military police photographer", "قيصر", "Caesar (defector)"} {
		if js[bool](b, fmt.Sprintf(`document.body.textContent.includes(%q) || JSON.stringify(window.casegraph.canvas.cy.elements().jsons()).includes(%q)`, s, s)) {
			b.t.Errorf("the page holds %q", s)
		}
	}
	if js[bool](b, `window.casegraph.canvas.canUndo()`) {
		b.t.Error("the undo history survives the change of identity")
	}
}
