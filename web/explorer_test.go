package web_test

import (
	"context"
	"encoding/xml"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server"
	"github.com/casegraph/casegraph/server/servertest"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// hostileName is the name of an entity the explorer must show as text.
const hostileName = `<img src=x onerror=alert(1)>`

// TestExplorer drives the explorer in Chromium against the real server and
// Neo4j, step by step as an analyst would, with a reader key for a copy of
// the seed and every other host unreachable. Each step leaves a screenshot
// among the test's artifacts (go test -artifacts).
func TestExplorer(t *testing.T) {
	store := cyphertest.Store(t, cypher.Options{})
	ds, id := cyphertest.LoadSeed(t, store)
	addHostile(t, store, ds, id)
	// A request may take a minute here, not 15 s: this server is not warmed
	// up (a served one plans the common requests before it is ready), and
	// the first datasetTimeline plans a statement of many branches, which
	// took more than 15 s in CI while other packages' tests ran.
	h := servertest.New(t, servertest.Options{
		Key:    &casegraph.NewAPIKey{Name: "explorer test", Role: casegraph.RoleReader, Datasets: []string{ds}},
		Config: func(c *server.Config) { c.RequestTimeout = time.Minute },
	})
	b := openTab(t, h.URL)

	t.Run("opens offline and signs in", func(t *testing.T) {
		b.t = t
		b.do(chromedp.Navigate(h.URL + "/"))
		// Without credentials the API refuses, and the page says so with the code.
		b.until("the refusal", `!document.getElementById("alert").hidden`)
		if got := b.text("#alert"); !strings.Contains(got, "UNAUTHENTICATED") {
			t.Errorf("alert = %q, want the code UNAUTHENTICATED", got)
		}
		b.expectProblem("401")
		b.shot("signed-out")
		b.submitKey(h.Token)
		if got := b.text("#who"); !strings.Contains(got, "Signed in with key") {
			t.Errorf("who = %q", got)
		}
		if js[bool](b, `document.cookie !== ""`) {
			t.Error("the page set a cookie")
		}
		b.shot("signed-in")
		b.checkClean()
	})

	t.Run("searches milosevic and opens him", func(t *testing.T) {
		b.t = t
		b.do(chromedp.SendKeys(chromedp.ID("search"), "milosevic"))
		b.until("suggestions", `document.querySelectorAll("#suggestions li").length > 0`)
		b.shot("suggestions")
		b.do(chromedp.Click(chromedp.CSS("#search-form button")))
		b.until("results", `document.querySelectorAll("#results li button").length > 0`)
		want := searchCount(t, h, "milosevic")
		if got := b.text("#results-count"); !strings.HasPrefix(got, fmt.Sprintf("%d match", want)) {
			t.Errorf("results count %q, want %d matches", got, want)
		}
		if got := b.text("#facets"); !strings.Contains(got, ds) || !strings.Contains(got, "person") {
			t.Errorf("facets %q lack the dataset or the kind", got)
		}
		b.do(chromedp.Click(chromedp.CSS(fmt.Sprintf(`#results button[data-id=%q]`, id("slobodan-milosevic")))))
		b.until("the entity panel", `document.getElementById("entity-name")?.textContent.includes("Milošević")`)
		if got := b.text("#panel-entity"); !strings.Contains(got, "was prosecuted by") && !strings.Contains(got, "prosecuted") {
			t.Errorf("the panel does not read his relations: %q", got)
		}
		b.shot("milosevic")
		b.checkClean()
	})

	t.Run("expands a node to the API's neighbourhood", func(t *testing.T) {
		b.t = t
		js[any](b, `window.casegraph.canvas.clear()`)
		desilva := id("desmond-de-silva")
		js[any](b, fmt.Sprintf(`window.casegraph.canvas.add([{id: %q, kind: "PERSON", name: "Sir Desmond de Silva", dataset: %q, redacted: false}], [])`, desilva, ds))
		b.until("de Silva drawn", `window.casegraph.canvas.cy.nodes().length === 1 && !window.casegraph.canvas.layingOut`)
		b.dblclickNode(desilva)
		want := neighbourhoodSize(t, h, desilva, 50)
		b.until("the neighbourhood", fmt.Sprintf(`window.casegraph.canvas.cy.nodes().length === %d`, want))
		if got := b.text("#onscreen-count"); got != fmt.Sprintf("(%d)", want) {
			t.Errorf("on the canvas %s, want (%d)", got, want)
		}
		b.shot("expanded")
		b.checkClean()
	})

	t.Run("shows a hostile name as text", func(t *testing.T) {
		b.t = t
		b.until("the hostile entity drawn", fmt.Sprintf(`document.getElementById("onscreen").textContent.includes(%q)`, hostileName))
		if n := js[int](b, `document.querySelectorAll("img").length`); n != 0 {
			t.Errorf("%d img elements in the page: a name became HTML", n)
		}
		b.checkClean() // an alert would have been logged as a dialog
	})

	// Entities taken off while a layout animates them and drawn again at
	// once (the canvas cleared, then an expansion) are laid out: Cytoscape
	// pooled animated elements by id and kept the removed ones, so the new
	// ones were never animated and the layout never stopped (1 run in 8 of
	// the subtest below, every time when done in one go as here).
	t.Run("lays out entities drawn again at once", func(t *testing.T) {
		b.t = t
		js[any](b, fmt.Sprintf(`(() => {
			const c = window.casegraph.canvas, ds = %q;
			const drawn = [{id: %q, kind: "PERSON", name: "Sir Desmond de Silva", dataset: ds, redacted: false},
			               {id: %q, kind: "DOCUMENT", name: "The report", dataset: ds, redacted: false}];
			c.clear(); c.add(drawn, []); c.clear(); c.add(drawn, []);
		})()`, ds, id("desmond-de-silva"), id("caesar-report")))
		b.until("the entities drawn again, laid out", `window.casegraph.canvas.cy.nodes().length === 2 && !window.casegraph.canvas.layingOut`)
	})

	t.Run("draws protected people redacted", func(t *testing.T) {
		b.t = t
		js[any](b, `window.casegraph.canvas.clear()`)
		photos := id("caesar-photographs")
		js[any](b, fmt.Sprintf(`window.casegraph.expand(%q)`, photos))
		b.until("the photographs' neighbourhood", `window.casegraph.canvas.cy.nodes().length > 1 && !window.casegraph.canvas.layingOut`)
		redacted := js[[]string](b, `window.casegraph.canvas.cy.nodes("[?redacted]").map(n => n.id() + " " + n.data("label"))`)
		if len(redacted) != 1 {
			t.Fatalf("redacted entities drawn: %q, want Caesar's alone", redacted)
		}
		if strings.HasPrefix(redacted[0], id("caesar")+" ") || !strings.HasSuffix(redacted[0], " Protected person") {
			t.Errorf("the protected person is drawn as %q", redacted[0])
		}
		if names := js[[]string](b, `window.casegraph.canvas.cy.nodes().map(n => n.data("name"))`); slices.Contains(names, "Caesar") {
			t.Errorf("the protected person's name reached the page: %q", names)
		}
		b.shot("redacted")
		b.checkClean()
		// Its panel, which selects updatedAt: a redacted entity has none.
		opaque, _, _ := strings.Cut(redacted[0], " ")
		js[any](b, fmt.Sprintf(`window.casegraph.open(%q)`, opaque))
		b.until("the protected person's panel", `document.getElementById("entity-name")?.textContent.includes("Protected person")`)
		if got := b.text("#panel-entity"); !strings.Contains(got, "not cleared") || strings.Contains(got, "Updated") {
			t.Errorf("the protected person's panel: %q", got)
		}
		b.checkClean()
	})

	t.Run("works from the keyboard", func(t *testing.T) {
		b.t = t
		b.do(chromedp.Click(chromedp.CSS("header h1")), chromedp.KeyEvent("/"))
		if focused := js[string](b, `document.activeElement.id`); focused != "search" {
			t.Fatalf("/ focused %q, want the search box", focused)
		}
		// Over the DevTools protocol the "/" also reaches the box it focused.
		js[any](b, `document.getElementById("search").value = ""`)
		b.do(chromedp.KeyEvent("qatar"))
		b.until("suggestions for qatar", `document.getElementById("search").getAttribute("aria-busy") !== "true" && document.getElementById("suggestions").textContent.includes("Qatar")`)
		b.do(chromedp.KeyEvent(kb.ArrowDown))
		if active := js[string](b, `document.getElementById("search").getAttribute("aria-activedescendant") ?? ""`); active != "suggestion-0" {
			t.Errorf("aria-activedescendant = %q after ArrowDown, want suggestion-0", active)
		}
		b.do(chromedp.KeyEvent(kb.Enter))
		b.until("Qatar's panel", `document.getElementById("entity-name")?.textContent.includes("Qatar")`)
		b.do(chromedp.Focus(chromedp.ID("tab-entity")), chromedp.KeyEvent(kb.ArrowRight))
		if focused := js[string](b, `document.activeElement.id`); focused != "tab-paths" || b.visibleText("#panel-paths") == "" {
			t.Errorf("ArrowRight on the tabs focused %q and showed the paths panel: %v", focused, b.visibleText("#panel-paths") != "")
		}
		b.checkClean()
	})

	t.Run("finds the paths from de Silva to Qatar with their evidence", func(t *testing.T) {
		b.t = t
		from, to := id("desmond-de-silva"), id("qatar")
		deSilvaToQatar(b, ds, from, to)
		b.do(chromedp.Click(chromedp.ID("path-submit")))
		b.until("the evidence", `document.querySelectorAll("#evidence li.hop").length > 0`)
		want := apiPaths(t, h, from, to)
		got := js[[]hop](b, `[...document.querySelectorAll("#evidence li.hop")].map(li => ({relation: li.dataset.relation, text: li.textContent}))`)
		if len(got) != len(want[0].Steps) {
			t.Fatalf("evidence shows %d hops, the API's first path has %d", len(got), len(want[0].Steps))
		}
		for i, step := range want[0].Steps {
			if got[i].Relation != step.Relation.ID {
				t.Errorf("hop %d is relation %s, the API says %s", i+1, got[i].Relation, step.Relation.ID)
			}
			for _, s := range []string{step.From.Name, step.To.Name, step.Relation.Quote, strings.ToLower(step.Relation.Status)} {
				if !strings.Contains(got[i].Text, s) {
					t.Errorf("hop %d lacks %q: %q", i+1, s, got[i].Text)
				}
			}
			for _, src := range step.Relation.Sources {
				if !strings.Contains(got[i].Text, src.Title) {
					t.Errorf("hop %d lacks its source %q", i+1, src.Title)
				}
			}
		}
		labels := js[[]string](b, `[...document.querySelectorAll("#evidence li.hop")].map(li => li.tabIndex + " " + li.getAttribute("aria-label"))`)
		for i, l := range labels {
			if !strings.HasPrefix(l, fmt.Sprintf("0 Step %d: ", i+1)) {
				t.Errorf("hop %d is not reachable and named for the keyboard: %q", i+1, l)
			}
		}
		if n := js[int](b, `document.querySelectorAll("#paths-list li").length`); n != len(want) {
			t.Errorf("%d paths listed, the API found %d", n, len(want))
		}
		if n := js[int](b, `window.casegraph.canvas.cy.elements(".path").length`); n != 2*len(want[0].Steps)+1 {
			t.Errorf("%d elements highlighted, want the path's %d", n, 2*len(want[0].Steps)+1)
		}
		b.shot("paths")
		b.checkClean()
	})

	t.Run("says why a search found nothing", func(t *testing.T) {
		b.t = t
		b.do(
			chromedp.SetValue(chromedp.ID("path-depth"), "1"),
			chromedp.Click(chromedp.ID("path-submit")),
		)
		b.until("the explanation", `document.getElementById("path-explanation")?.textContent.includes("raise Max depth")`)
		beyond := explanationDepth(t, h, id("desmond-de-silva"), id("qatar"))
		if got := b.text("#path-explanation"); !strings.Contains(got, fmt.Sprintf("raise Max depth to %d", beyond)) {
			t.Errorf("explanation %q, want the API's depth %d", got, beyond)
		}
		b.shot("no-path")
		b.do(chromedp.SetValue(chromedp.ID("path-depth"), ""), chromedp.Click(chromedp.ID("path-submit")))
		b.until("the paths again", `document.querySelectorAll("#evidence li.hop").length > 0`)
		b.checkClean()
	})

	t.Run("finds the common ground of a selection", func(t *testing.T) {
		b.t = t
		a, c := id("desmond-de-silva"), id("geoffrey-nice")
		js[any](b, fmt.Sprintf(`(() => {
			const c = window.casegraph.canvas;
			c.add([{id: %q, kind: "PERSON", name: "Sir Desmond de Silva", dataset: %q, redacted: false},
			       {id: %q, kind: "PERSON", name: "Sir Geoffrey Nice", dataset: %q, redacted: false}], []);
			c.select([%q, %q]);
		})()`, a, ds, c, ds, a, c))
		b.do(chromedp.Click(chromedp.ID("tab-common")))
		b.until("the buttons", `!document.getElementById("common").disabled`)
		b.do(chromedp.Click(chromedp.ID("common")))
		b.until("the common neighbours", `document.querySelector("#common-results h3") !== null`)
		res := h.Post(`query($ids: [ID!]!) { commonNeighbors(ids: $ids) { entity { id } } }`, map[string]any{"ids": []string{a, c}})
		want := len(res.Data["commonNeighbors"].([]any))
		if want == 0 {
			t.Fatalf("the API finds nothing in common: %s", res.Raw)
		}
		if got := js[int](b, `document.querySelectorAll("#common-list li").length`); got != want {
			t.Errorf("%d in common listed, the API says %d", got, want)
		}
		b.shot("common")
		b.checkClean()
	})

	t.Run("shows the dataset's timeline", func(t *testing.T) {
		b.t = t
		b.do(chromedp.Click(chromedp.ID("tab-timeline")))
		js[any](b, fmt.Sprintf(`(() => {
			document.getElementById("timeline-datasets").value = %q;
			document.getElementById("timeline-from").value = "2013";
			document.getElementById("timeline-to").value = "2014";
		})()`, ds))
		// Asked first, as the explorer asks it, so that its plan is made
		// (however long that takes) before the page waits for it.
		res := h.Post(`query($ds: [String!]!) { datasetTimeline(datasets: $ds, from: "2013", to: "2014", first: 200) { truncated items { start end } } }`, map[string]any{"ds": []string{ds}})
		want := len(res.Data["datasetTimeline"].(map[string]any)["items"].([]any))
		b.do(chromedp.Click(chromedp.CSS(`#timeline-form button[type="submit"]`)))
		b.until("the timeline", `document.getElementById("timeline-items") !== null`)
		if got := js[int](b, `document.querySelectorAll("#timeline-items li").length`); got != want || want == 0 {
			t.Errorf("%d timeline items listed, the API gives %d", got, want)
		}
		b.shot("timeline")
		b.checkClean()
	})

	t.Run("exports GraphML that parses back to the canvas", func(t *testing.T) {
		b.t = t
		js[any](b, fmt.Sprintf(`window.casegraph.expand(%q)`, id("desmond-de-silva")))
		b.until("de Silva's neighbourhood", fmt.Sprintf(`window.casegraph.canvas.cy.nodes().some(n => n.data("name") === %q) && !window.casegraph.canvas.layingOut`, hostileName))
		body := b.export("graphml")
		var doc graphML
		if err := xml.Unmarshal(body, &doc); err != nil {
			t.Fatalf("GraphML does not parse: %v", err)
		}
		nodes := js[[]string](b, `window.casegraph.canvas.cy.nodes(":visible").map(n => n.id()).sort()`)
		edges := js[[]string](b, `window.casegraph.canvas.cy.edges(":visible").map(e => e.id() + " " + e.source().id() + " " + e.target().id()).sort()`)
		var gotNodes, gotEdges []string
		for _, n := range doc.Graph.Nodes {
			gotNodes = append(gotNodes, n.ID)
		}
		for _, e := range doc.Graph.Edges {
			gotEdges = append(gotEdges, e.ID+" "+e.Source+" "+e.Target)
		}
		slices.Sort(gotNodes)
		slices.Sort(gotEdges)
		if !slices.Equal(gotNodes, nodes) || !slices.Equal(gotEdges, edges) {
			t.Errorf("GraphML holds %d nodes and %d edges, the canvas %d and %d", len(gotNodes), len(gotEdges), len(nodes), len(edges))
		}
		if !strings.Contains(string(body), "&lt;img src=x onerror=alert(1)&gt;") {
			t.Error("GraphML lacks the hostile name, escaped")
		}
		csv := string(b.export("csv"))
		if lines := strings.Count(csv, "\r\n"); lines < 1+len(nodes)+len(edges) {
			t.Errorf("CSV has %d lines, want at least %d", lines, 1+len(nodes)+len(edges))
		}
		checkExportColumns(t, csv, string(body), id("desmond-de-silva"))
		if png := b.export("png"); !strings.HasPrefix(string(png), "\x89PNG\r\n") {
			t.Errorf("PNG export is not a PNG: % x", png[:min(8, len(png))])
		}
		svg := string(b.export("svg"))
		if !strings.HasPrefix(svg, "<svg") || strings.Contains(svg, "<img") {
			t.Errorf("SVG is not one, or holds a tag from a name: %.200s", svg)
		}
		// A figure to publish: its caption holds the title, the datasets,
		// the day, the legend of what is drawn and every source cited.
		day := js[string](b, `new Date().toISOString().slice(0, 10)`)
		sources := js[[]string](b, `[...new Set(window.casegraph.canvas.visibleRelations().flatMap(r => r.sources.map(s => s.title)))]`)
		if len(sources) == 0 {
			t.Fatal("de Silva's relations cite no source")
		}
		if !strings.Contains(svg, ">Around ") && !strings.Contains(svg, " is connected to ") {
			t.Error("the SVG has no title")
		}
		for _, want := range append([]string{"Drawn " + day, "Datasets: ", "Sources:", "person (circle)"}, sources...) {
			if !strings.Contains(svg, xmlText(want)) {
				t.Errorf("the SVG's caption lacks %q", want)
			}
		}
		// Files are named after the view: its two most connected entities
		// (de Silva's neighbourhood: he is one), and the day.
		b.do(chromedp.Click(chromedp.ID("export-button")))
		name, _ := b.downloadFile(`#export-menu button[data-action="csv"]`)
		if !strings.HasPrefix(name, "casegraph-") || !strings.Contains(name, "desmond-de-silva") || !strings.HasSuffix(name, "-"+day+".csv") {
			t.Errorf("the CSV export is named %q, want casegraph-…desmond-de-silva…-%s.csv", name, day)
		}
		b.checkClean()
	})

	t.Run("restores the view from its URL", func(t *testing.T) {
		b.t = t
		b.do(
			chromedp.Click(chromedp.ID("asof-on")),
			chromedp.Click(chromedp.CSS(`#toolbar button[data-action="link"]`)),
		)
		b.until("the URL", `location.hash.startsWith("#view=")`)
		link := js[string](b, `location.href`)
		before := js[[]string](b, `window.casegraph.canvas.cy.nodes().map(n => n.id() + " " + Math.round(n.position().x) + " " + Math.round(n.position().y)).sort()`)
		hops := b.text("#evidence")
		b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(link))
		b.until("the restored view", `document.body.dataset.ready === "true" && document.querySelectorAll("#evidence li.hop").length > 0`)
		after := js[[]string](b, `window.casegraph.canvas.cy.nodes().map(n => n.id() + " " + Math.round(n.position().x) + " " + Math.round(n.position().y)).sort()`)
		if !slices.Equal(before, after) {
			t.Errorf("restored %d entities, want %d in the same places", len(after), len(before))
		}
		if got := b.text("#evidence"); got != hops {
			t.Errorf("restored evidence differs:\n%s\nwant\n%s", got, hops)
		}
		if !js[bool](b, `document.getElementById("asof-on").checked`) {
			t.Error("the date was not restored")
		}
		b.shot("restored")
		b.checkClean()
	})

	t.Run("GraphiQL works offline", func(t *testing.T) {
		b.t = t
		b.do(chromedp.Navigate(h.URL + "/graphiql"))
		b.until("GraphiQL", `document.querySelector(".graphiql-execute-button") !== null`)
		b.do(chromedp.Click(chromedp.CSS(".graphiql-execute-button")))
		// The explorer's key went into GraphiQL's headers: the default query
		// is answered (null, as this key reads only the test's dataset), not refused.
		b.until("the answer", `document.querySelector(".result-window")?.textContent.includes('"entity": null')`)
		b.shot("graphiql")

		// A subscription runs over server-sent events: its first event,
		// the path as it is, shows in the result.
		sub := fmt.Sprintf(`subscription { watchPath(from: %q, to: %q) { kind path { length } } }`, id("desmond-de-silva"), id("qatar"))
		js[any](b, fmt.Sprintf(`document.querySelector(".graphiql-query-editor .CodeMirror").CodeMirror.setValue(%q)`, sub))
		b.do(chromedp.Click(chromedp.CSS(".graphiql-execute-button")))
		b.until("the subscription's first event", `document.querySelector(".result-window")?.textContent.includes('"kind": "CURRENT"')`)
		b.shot("graphiql-subscription")
		b.do(chromedp.Click(chromedp.CSS(".graphiql-execute-button"))) // stops it
		b.checkClean()
	})
}

// xmlText is text as the SVG export escapes it.
func xmlText(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return strings.NewReplacer("&#34;", "&quot;", "&#39;", "&apos;").Replace(b.String())
}

// export downloads the view in a format from the toolbar's Export menu.
func (b *tab) export(format string) []byte {
	b.t.Helper()
	b.do(chromedp.Click(chromedp.ID("export-button")))
	return b.download(fmt.Sprintf(`#export-menu button[data-action=%q]`, format))
}

type hop struct {
	Relation string `json:"relation"`
	Text     string `json:"text"`
}

type graphML struct {
	Graph struct {
		Nodes []struct {
			ID string `xml:"id,attr"`
		} `xml:"node"`
		Edges []struct {
			ID     string `xml:"id,attr"`
			Source string `xml:"source,attr"`
			Target string `xml:"target,attr"`
		} `xml:"edge"`
	} `xml:"graph"`
}

// addHostile adds an entity with a name that is HTML, related to de Silva.
func addHostile(t *testing.T, store *cypher.Store, ds string, id func(string) string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 30*time.Second)
	defer cancel()
	src := id("caesar-report-article")
	// A page of the test's own, with an address, which the seed's
	// article has not: what the exports' source URLs are checked on.
	page := casegraph.Source{ID: id("hostile-page"), Title: "The test's own page", URL: "https://example.org/casegraph-test-page", Dataset: ds}
	_, err := store.WriteBatch(ctx, []casegraph.Source{page}, []casegraph.Entity{{
		ID: id("hostile"), Kind: casegraph.KindPerson, Name: hostileName, Dataset: ds, SourceIDs: []string{src},
	}}, []casegraph.Relation{{
		ID: id("hostile-rel"), Type: "WORKED_WITH", FromID: id("hostile"), ToID: id("desmond-de-silva"),
		Status: casegraph.StatusAlleged, Dataset: ds, SourceIDs: []string{src, page.ID},
	}})
	if err != nil {
		t.Fatal(err)
	}
}

func searchCount(t *testing.T, h *servertest.Harness, text string) int {
	res := h.Post(`query($t: String!) { search(text: $t) { totalCount } }`, map[string]any{"t": text})
	if len(res.Errors) > 0 || res.Status != http.StatusOK {
		t.Fatalf("search: %s", res.Raw)
	}
	return int(res.Data["search"].(map[string]any)["totalCount"].(float64))
}

func neighbourhoodSize(t *testing.T, h *servertest.Harness, id string, limit int) int {
	res := h.Post(`query($id: ID!, $n: Int!) { neighborhood(id: $id, limit: $n) { nodes { id } } }`, map[string]any{"id": id, "n": limit})
	if len(res.Errors) > 0 {
		t.Fatalf("neighborhood: %s", res.Raw)
	}
	ids := map[string]bool{id: true}
	for _, n := range res.Data["neighborhood"].(map[string]any)["nodes"].([]any) {
		ids[n.(map[string]any)["id"].(string)] = true
	}
	return len(ids)
}

type apiPath struct {
	Steps []struct {
		From, To struct{ Name string }
		Relation struct {
			ID, Quote, Status string
			Sources           []struct{ Title string }
		}
	}
}

func apiPaths(t *testing.T, h *servertest.Harness, from, to string) []apiPath {
	res := h.Post(`query($f: ID!, $t: ID!) { paths(from: $f, to: $t, k: 3) { steps { from { name } to { name } relation { id quote status sources { title } } } } }`,
		map[string]any{"f": from, "t": to})
	if len(res.Errors) > 0 {
		t.Fatalf("paths: %s", res.Raw)
	}
	var out struct{ Paths []apiPath }
	decode(t, res.Data, &out)
	if len(out.Paths) == 0 {
		t.Fatal("the API finds no path from de Silva to Qatar")
	}
	return out.Paths
}

func explanationDepth(t *testing.T, h *servertest.Harness, from, to string) int {
	res := h.Post(`query($f: ID!, $t: ID!) { pathExplanation(from: $f, to: $t, filter: {maxDepth: 1}) { lengthBeyondMaxDepth } }`, map[string]any{"f": from, "t": to})
	if len(res.Errors) > 0 {
		t.Fatalf("pathExplanation: %s", res.Raw)
	}
	return int(res.Data["pathExplanation"].(map[string]any)["lengthBeyondMaxDepth"].(float64))
}
