package web_test

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server"
	"github.com/casegraph/casegraph/server/servertest"
)

// TestAnalysis drives the explorer's analysis in Chromium over a copy of
// the seed, signed in with an editor key of its dataset: who stands
// between two entities across the paths the API finds, centrality and
// communities as styling, the time bar's brushing, and the live view,
// which marks a change the test makes through the API and follows a new
// sign-in. Each step leaves a screenshot among the test's artifacts.
func TestAnalysis(t *testing.T) {
	store := cyphertest.Store(t, cypher.Options{})
	ds, id := cyphertest.LoadSeed(t, store)
	h := servertest.New(t, servertest.Options{
		Key: &casegraph.NewAPIKey{Name: "analysis test", Role: casegraph.RoleEditor, Datasets: []string{ds}},
		// The seed's searches take milliseconds; the budgets leave room for a machine that runs much else.
		PathTimeout: 30 * time.Second,
		Config: func(c *server.Config) {
			c.RequestTimeout = 40 * time.Second
			c.TransferTimeout = max(c.TransferTimeout, c.RequestTimeout)
			c.ShutdownTimeout = max(c.ShutdownTimeout, 2*c.RequestTimeout)
		},
	})
	reader := h.Key(casegraph.NewAPIKey{Name: "analysis reader", Role: casegraph.RoleReader, Datasets: []string{ds}})
	b := openTab(t, h.URL)
	b.do(chromedp.Navigate(h.URL + "/"))
	b.until("the refusal", `!document.getElementById("alert").hidden`)
	b.expectProblem("401")
	signInAs(b, h.Token)
	b.until("the explorer", `document.body.dataset.ready === "true"`)
	desilva, qatar := id("desmond-de-silva"), id("qatar")

	t.Run("ranks who stands between de Silva and Qatar", func(t *testing.T) {
		b.t = t
		deSilvaToQatar(b, ds, desilva, qatar)
		b.do(chromedp.Click(chromedp.ID("path-submit")))
		b.until("the paths", `document.getElementById("between-run") !== null`)
		b.do(chromedp.Click(chromedp.ID("between-run")))
		b.until("the ranking", `document.querySelectorAll("#between-list li").length > 0`)
		want, paths := rankBetween(t, h, desilva, qatar)
		got := js[[]ranked](b, `[...document.querySelectorAll("#between-list li")].map(li => ({id: li.dataset.id, paths: +li.dataset.paths, shortest: +li.dataset.shortest}))`)
		if len(got) != len(want) {
			t.Fatalf("%d intermediaries listed, the API's paths pass %d: %v, want %v", len(got), len(want), got, want)
		}
		if got[0] != want[0] {
			t.Errorf("the top intermediary is %+v, want %+v", got[0], want[0])
		}
		for i := range want {
			if got[i].Paths != want[i].Paths || got[i].Shortest != want[i].Shortest {
				t.Errorf("rank %d: %+v, want %+v", i+1, got[i], want[i])
			}
		}
		if heading := b.text("#between-heading"); !strings.Contains(heading, fmt.Sprintf("across %d path", paths)) {
			t.Errorf("heading %q does not count the API's paths", heading)
		}
		b.do(chromedp.Click(chromedp.CSS(`#between-list li:first-child button`)))
		if sel := js[[]string](b, `window.casegraph.canvas.selected()`); !slices.Equal(sel, []string{want[0].ID}) {
			t.Errorf("clicking the top intermediary selected %q, want %q", sel, want[0].ID)
		}
		b.shot("between")
		b.checkClean()
	})

	t.Run("sizes entities by centrality and colours communities", func(t *testing.T) {
		b.t = t
		js[any](b, `window.casegraph.canvas.clear()`)
		js[any](b, fmt.Sprintf(`window.casegraph.expand(%q)`, desilva))
		b.until("de Silva's neighbourhood", fmt.Sprintf(`window.casegraph.canvas.cy.nodes().length === %d && !window.casegraph.canvas.layingOut`, neighbourhoodSize(t, h, desilva, 50)))
		sizes := `Object.fromEntries(window.casegraph.canvas.cy.nodes().map(n => [n.id(), n.width()]))`
		before := js[map[string]float64](b, sizes)
		chooseAnalysis(b, "betweenness")
		widths := js[map[string]float64](b, sizes)
		if maps.Equal(before, widths) {
			t.Fatalf("sizes did not change: %v", before)
		}
		// De Silva is the centre of his neighbourhood: every path between two
		// of his neighbours not related to each other passes him.
		for n, w := range widths {
			if n != desilva && w >= widths[desilva] {
				t.Errorf("%s is drawn %.0f px, de Silva %.0f: the centre is not the largest", n, w, widths[desilva])
			}
		}
		if got := b.text("#analyse-legend"); !strings.Contains(got, "betweenness") || !strings.Contains(got, "Sir Desmond de Silva") {
			t.Errorf("legend %q does not say what size means and who is most central", got)
		}
		chooseAnalysis(b, "degree+communities")
		communities := js[int](b, `new Set(window.casegraph.canvas.cy.nodes().map(n => n.data("community"))).size`)
		colours := js[int](b, `new Set(window.casegraph.canvas.cy.nodes().map(n => n.style("background-color"))).size`)
		if communities < 1 || colours != min(communities, 9) {
			t.Errorf("%d communities drawn in %d colours", communities, colours)
		}
		if got := js[int](b, `document.querySelectorAll("#analyse-legend .analyse-swatch").length`); got != min(communities, 8) {
			t.Errorf("%d swatches in the legend, want %d", got, min(communities, 8))
		}
		b.shot("centrality")
		chooseAnalysis(b, "none")
		// The canvas's own styling back: its sizes by degree, as before the analysis.
		if got := js[map[string]float64](b, sizes); !maps.Equal(got, before) {
			t.Errorf("Analyse set back to nothing left sizes %v, the canvas's own were %v", got, before)
		}
		b.checkClean()
	})

	t.Run("brushes the time bar to hide what lies outside", func(t *testing.T) {
		b.t = t
		js[any](b, `window.casegraph.canvas.clear()`)
		b.do(chromedp.Click(chromedp.ID("tab-timeline")))
		// Nothing drawn: the datasets default to every readable one.
		b.until("the default datasets", fmt.Sprintf(`document.getElementById("timeline-datasets").value === %q`, ds))
		js[any](b, `(() => { document.getElementById("timeline-from").value = "1990"; document.getElementById("timeline-to").value = "2015"; })()`)
		b.do(chromedp.Click(chromedp.CSS(`#timeline-form button[type="submit"]`)))
		b.until("the dataset's histogram", `document.querySelectorAll("#timeline-svg .timebar-bin").length > 0 && document.querySelectorAll("#timeline-items li").length > 0`)
		b.do(chromedp.Click(chromedp.ID("timeline-draw")))
		b.until("the period drawn", `window.casegraph.canvas.cy.edges().length > 0 && !window.casegraph.canvas.layingOut && document.querySelectorAll("#timebar-svg .timebar-bin").length > 0`)
		bins := js[[]string](b, `[...document.querySelectorAll("#timebar-svg .timebar-bin")].map(g => g.dataset.label)`)
		from, to := slices.Index(bins, "2011"), slices.Index(bins, "2013")
		if from < 0 || to < 0 || bins[0] != "1991" || bins[len(bins)-1] != "2014" {
			t.Fatalf("the time bar's bins %v, want the years 1991 to 2014", bins)
		}
		b.do(chromedp.SetValue(chromedp.ID("timebar-mode"), "hide"))
		// Drag across the bars of 2011 to 2013, as a user would.
		box := js[struct{ X, Y, W, H float64 }](b, `(r => ({X: r.left, Y: r.top, W: r.width, H: r.height}))(document.getElementById("timebar-svg").getBoundingClientRect())`)
		at := func(i int) float64 { return box.X + (float64(i)+0.5)*box.W/float64(len(bins)) }
		y := box.Y + box.H/2
		b.do(
			chromedp.MouseEvent(chromedp.MousePressed, at(from), y, chromedp.ButtonLeft),
			chromedp.MouseEvent(chromedp.MouseMoved, at(from+1), y, chromedp.ButtonLeft),
			chromedp.MouseEvent(chromedp.MouseMoved, at(to), y, chromedp.ButtonLeft),
			chromedp.MouseEvent(chromedp.MouseReleased, at(to), y, chromedp.ButtonLeft),
		)
		if got := b.text("#timebar-period"); got != "2011 – 2013" {
			t.Errorf("brushed %q, want 2011 – 2013", got)
		}
		// Outside 2011-2013: begun after it, or ended before it.
		outside := func(start, end string) bool {
			return start != "" && start[:4] > "2013" || end != "" && end[:4] < "2011"
		}
		// An event outside is hidden, and its relations with it.
		events := map[string]bool{}
		for _, ev := range js[[]string](b, `window.casegraph.canvas.cy.nodes('[kind = "EVENT"]').map(n => n.id())`) {
			res := h.MustPost(`query($id: ID!) { entity(id: $id) { ... on Event { startDate endDate } } }`, map[string]any{"id": ev})
			var e struct {
				Entity struct{ StartDate, EndDate string }
			}
			decode(t, res.Data, &e)
			events[ev] = outside(e.Entity.StartDate, e.Entity.EndDate)
			if got := js[bool](b, fmt.Sprintf(`window.casegraph.canvas.node(%q).visible()`, ev)); got == events[ev] {
				t.Errorf("event %s (%s–%s) visible %v after brushing 2011–2013", ev, e.Entity.StartDate, e.Entity.EndDate, got)
			}
		}
		type edge struct {
			ID, Start, End, From, To string
			Visible                  bool
		}
		edges := js[[]edge](b, `window.casegraph.canvas.cy.edges().map(e => ({ID: e.id(), Start: e.data("relation").startDate ?? "", End: e.data("relation").endDate ?? "", From: e.source().id(), To: e.target().id(), Visible: e.visible()}))`)
		hidden := 0
		for _, e := range edges {
			outside := outside(e.Start, e.End) || events[e.From] || events[e.To]
			if e.Visible == outside {
				t.Errorf("relation %s (%s–%s) visible %v after brushing 2011–2013", e.ID, e.Start, e.End, e.Visible)
			}
			if outside {
				hidden++
			}
		}
		if hidden == 0 {
			t.Errorf("no relation lies outside the brushed period: the check proves nothing (%d relations)", len(edges))
		}
		b.shot("brushed")
		b.do(chromedp.Click(chromedp.ID("timebar-clear")))
		if n := js[int](b, `window.casegraph.canvas.cy.edges(":hidden").length`); n != 0 {
			t.Errorf("%d relations still hidden after All time", n)
		}
		// As of 2014-01-22, the day of the Geneva conference, relations ended before are faded.
		b.do(chromedp.Click(chromedp.ID("asof-on")))
		if got := js[string](b, `window.casegraph.validAt()`); got != "2014" {
			t.Errorf("as of %q, want the latest year drawn, 2014", got)
		}
		b.checkClean()
	})

	t.Run("marks what changed since the live view opened", func(t *testing.T) {
		b.t = t
		js[any](b, `window.casegraph.canvas.clear()`)
		js[any](b, fmt.Sprintf(`window.casegraph.expand(%q)`, desilva))
		b.until("de Silva drawn", fmt.Sprintf(`window.casegraph.canvas.node(%q) !== null && !window.casegraph.canvas.layingOut`, desilva))
		b.do(chromedp.Click(chromedp.ID("live-toggle")))
		b.until("the live view", `document.getElementById("live-state").textContent.startsWith("watching the entities drawn")`)
		renameDeSilva(t, h, h.Token, ds, id, "Sir Desmond de Silva KC")
		b.until("the change marked", fmt.Sprintf(`window.casegraph.canvas.node(%q).hasClass("live-changed") && document.querySelectorAll("#live-changes li").length === 1`, desilva))
		if got := b.text("#live-changes li"); !strings.Contains(got, "upsertEntity") || !strings.Contains(got, "de Silva") {
			t.Errorf("the change reads %q", got)
		}
		b.until("the new name", fmt.Sprintf(`window.casegraph.canvas.node(%q).data("name") === "Sir Desmond de Silva KC"`, desilva))
		if n := js[int](b, `window.casegraph.canvas.cy.elements(".live-changed").length`); n != 1 {
			t.Errorf("%d elements marked, want de Silva alone", n)
		}
		b.do(chromedp.Click(chromedp.ID("live-summary")))
		b.shot("live")
		b.checkClean()
	})

	t.Run("subscribes again for a new identity", func(t *testing.T) {
		b.t = t
		before := js[int](b, `window.casegraph.live.connections`)
		signInAs(b, reader)
		// A reader may not follow the audit log: the new socket says so, and paths are still watched.
		b.until("the reader's watch", fmt.Sprintf(`window.casegraph.live.connections > %d && document.getElementById("live-state").textContent.includes("need an editor's key")`, before))
		if n := js[int](b, `window.casegraph.live.changes.length + window.casegraph.canvas.cy.elements(".live-changed").length`); n != 0 {
			t.Errorf("the new identity sees %d marks of the old one", n)
		}
		renameDeSilva(t, h, h.Token, ds, id, "Sir Desmond de Silva")
		again := js[int](b, `window.casegraph.live.connections`)
		signInAs(b, h.Token)
		b.until("the editor's watch", fmt.Sprintf(`window.casegraph.live.connections > %d && document.getElementById("live-state").textContent.startsWith("watching the entities drawn")`, again))
		renameDeSilva(t, h, h.Token, ds, id, "Sir Desmond de Silva KC")
		b.until("the change marked again", fmt.Sprintf(`window.casegraph.canvas.node(%q).hasClass("live-changed")`, desilva))
		if n := js[int](b, `window.casegraph.live.changes.length`); n != 1 {
			t.Errorf("%d changes listed after signing in again, want the one made since", n)
		}
		b.shot("live-resubscribed")
		b.checkClean()
	})

	t.Run("restores the analysis, the period and the live view from the URL", func(t *testing.T) {
		b.t = t
		chooseAnalysis(b, "degree")
		js[any](b, `window.casegraph.timebar.brush({from: "2014", to: "2014"})`)
		b.until("the URL", `(() => {
			const m = /view=([A-Za-z0-9_-]+)/.exec(location.hash);
			if (!m) return false;
			const v = JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(m[1].replace(/-/g, "+").replace(/_/g, "/")), c => c.charCodeAt(0))));
			return v.a === "degree" && v.l === 1 && v.b?.join() === "2014,2014";
		})()`)
		link := js[string](b, `location.href`)
		b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(link))
		b.until("the restored view", `document.body.dataset.ready === "true" && window.casegraph.live.on && document.getElementById("live-state").textContent.startsWith("watching")`)
		if got := js[string](b, `document.getElementById("analyse").value + " " + document.getElementById("timebar-period").textContent`); got != "degree 2014" {
			t.Errorf("restored Analyse and period %q, want degree 2014", got)
		}
		b.checkClean()
	})
}

// ranked is an intermediary as the explorer lists it.
type ranked struct {
	ID       string `json:"id"`
	Paths    int    `json:"paths"`
	Shortest int    `json:"shortest"`
}

// rankBetween ranks the intermediaries of the API's paths (k = 20) as the
// explorer must: most paths, then shortest, then name.
func rankBetween(t *testing.T, h *servertest.Harness, from, to string) ([]ranked, int) {
	t.Helper()
	res := h.MustPost(`query($f: ID!, $t: ID!) { paths(from: $f, to: $t, k: 20) { length nodes { id name redacted } } }`, map[string]any{"f": from, "t": to})
	var out struct {
		Paths []struct {
			Length int
			Nodes  []struct {
				ID, Name string
				Redacted bool
			}
		}
	}
	decode(t, res.Data, &out)
	byID := map[string]*ranked{}
	names := map[string]string{}
	for _, p := range out.Paths {
		for _, n := range p.Nodes[1 : len(p.Nodes)-1] {
			r := byID[n.ID]
			if r == nil {
				r = &ranked{ID: n.ID, Shortest: p.Length}
				byID[n.ID] = r
				names[n.ID] = n.Name
				if n.Redacted {
					names[n.ID] = "Protected person"
				}
			}
			r.Paths++
			r.Shortest = min(r.Shortest, p.Length)
		}
	}
	var list []ranked
	for _, r := range byID {
		list = append(list, *r)
	}
	slices.SortFunc(list, func(a, b ranked) int {
		return cmp.Or(cmp.Compare(b.Paths, a.Paths), cmp.Compare(a.Shortest, b.Shortest), strings.Compare(names[a.ID], names[b.ID]), strings.Compare(a.ID, b.ID))
	})
	if len(list) == 0 {
		t.Fatal("the API's paths from de Silva to Qatar pass nobody")
	}
	return list, len(out.Paths)
}

// chooseAnalysis picks a measure in the Analyse control, as a user would.
func chooseAnalysis(b *tab, measure string) {
	b.t.Helper()
	b.do(chromedp.SetValue(chromedp.ID("analyse"), measure))
	js[any](b, `document.getElementById("analyse").dispatchEvent(new Event("change"))`)
}

// signInAs signs the tab in with a key through the sign-in dialog.
func signInAs(b *tab, token string) {
	b.t.Helper()
	b.do(
		chromedp.Click(chromedp.ID("signin-button")),
		chromedp.SendKeys(chromedp.ID("signin-token"), token),
		chromedp.Click(chromedp.CSS(`#signin-form button[value="signin"]`)),
	)
}

// renameDeSilva writes de Silva's name through the API with a key.
func renameDeSilva(t *testing.T, h *servertest.Harness, token, ds string, id func(string) string, name string) {
	t.Helper()
	res := h.PostAs(token, `mutation($id: ID!, $n: String!, $ds: String!, $s: ID!) { upsertEntity(input: {id: $id, kind: PERSON, name: $n, dataset: $ds, sourceIds: [$s]}) { id name } }`,
		map[string]any{"id": id("desmond-de-silva"), "n": name, "ds": ds, "s": id("caesar-report-article")})
	if len(res.Errors) > 0 {
		t.Fatalf("upsertEntity: %s", res.Raw)
	}
}

// deSilvaToQatar makes de Silva and Qatar the ends of the Paths panel's search.
func deSilvaToQatar(b *tab, ds, desilva, qatar string) {
	b.t.Helper()
	js[any](b, fmt.Sprintf(`(() => {
		const c = window.casegraph;
		c.paths.setEnd("from", {id: %q, kind: "PERSON", name: "Sir Desmond de Silva", dataset: %q, redacted: false});
		c.paths.setEnd("to", {id: %q, kind: "PLACE", name: "Qatar", dataset: %q, redacted: false});
	})()`, desilva, ds, qatar, ds))
}
