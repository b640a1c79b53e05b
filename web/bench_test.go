package web_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server/servertest"
	"github.com/chromedp/chromedp"
)

// BenchmarkFirstGraph measures, on loopback, the time from navigation to
// the first frame with the graph drawn, opening a shared link to a view of
// de Silva's neighbourhood in the seed (a fresh page load each time, the
// assets from the browser's cache as a returning analyst has them).
//
//	go test ./web -run '^$' -bench FirstGraph -benchtime 20x
func BenchmarkFirstGraph(b *testing.B) {
	store := cyphertest.Store(b, cypher.Options{})
	ds, id := cyphertest.LoadSeed(b, store)
	h := readerServer(b, ds)
	tb := openTab(b, h.URL)
	signInTab(b, tb, h)
	link := h.URL + "/#" + viewOf(b, h, id("desmond-de-silva"))
	var took []float64
	for b.Loop() {
		tb.do(chromedp.Navigate("about:blank"), chromedp.Navigate(link))
		tb.until("the first graph", `performance.getEntriesByName("casegraph:first-graph").length > 0`)
		took = append(took, js[float64](tb, `performance.getEntriesByName("casegraph:first-graph")[0].startTime`))
	}
	p50, p95 := floatPercentiles(took)
	b.ReportMetric(p50, "first-graph-p50-ms")
	b.ReportMetric(p95, "first-graph-p95-ms")
	tb.checkClean()
}

// BenchmarkDragFrames measures the frame times while an analyst drags the
// centre of a 1,000-entity neighbourhood (every one of its 1,000 relations
// redrawn each frame), expanded as the explorer expands (50, 200, 800, 1,000),
// in headless Chromium without a GPU: p50, p95 and the longest frame.
//
//	go test ./web -run '^$' -bench DragFrames -benchtime 5x
func BenchmarkDragFrames(b *testing.B) {
	store := cyphertest.Store(b, cypher.Options{})
	ds := cyphertest.Dataset(b)
	hub := star(b, store, ds, 1000)
	h := readerServer(b, ds)
	tb := openTab(b, h.URL)
	signInTab(b, tb, h)
	js[any](tb, fmt.Sprintf(`window.casegraph.canvas.add([{id: %q, kind: "ORGANIZATION", name: "Hub", dataset: %q, redacted: false}], [])`, hub, ds))
	for _, want := range []int{51, 201, 801, 1001} {
		tb.until("the layout", `!window.casegraph.canvas.layingOut`)
		js[any](tb, fmt.Sprintf(`window.casegraph.expand(%q)`, hub))
		tb.until("the expansion", fmt.Sprintf(`window.casegraph.canvas.cy.nodes().length === %d`, want))
	}
	tb.until("1,001 entities", `window.casegraph.canvas.cy.nodes().length === 1001 && !window.casegraph.canvas.layingOut`)
	tb.shot("drag-1000")
	var frames []float64
	for b.Loop() {
		pos := js[struct{ X, Y float64 }](tb, fmt.Sprintf(`(() => {
			const p = window.casegraph.canvas.node(%q).renderedPosition(), box = document.getElementById("canvas").getBoundingClientRect();
			return { X: box.left + p.x, Y: box.top + p.y };
		})()`, hub))
		js[any](tb, `(() => {
			window.frames_ = []; window.stop_ = false;
			let last = performance.now();
			const tick = (t) => { window.frames_.push(t - last); last = t; if (!window.stop_) requestAnimationFrame(tick); };
			requestAnimationFrame(tick);
		})()`)
		tb.do(chromedp.MouseEvent(chromedp.MousePressed, pos.X, pos.Y, chromedp.ButtonLeft))
		for i := 1; i <= 90; i++ {
			// A hand moves the mouse about 60 times a second.
			x := pos.X + 120*math.Sin(float64(i)/15)
			tb.do(chromedp.MouseEvent(chromedp.MouseMoved, x, pos.Y+float64(i), chromedp.ButtonLeft), chromedp.Sleep(16*time.Millisecond))
		}
		tb.do(chromedp.MouseEvent(chromedp.MouseReleased, pos.X, pos.Y+90, chromedp.ButtonLeft))
		got := js[[]float64](tb, `(() => { window.stop_ = true; return window.frames_.slice(1); })()`)
		frames = append(frames, got...)
	}
	p50, p95 := floatPercentiles(frames)
	b.ReportMetric(p50, "frame-p50-ms")
	b.ReportMetric(p95, "frame-p95-ms")
	b.ReportMetric(slices.Max(frames), "frame-max-ms")
	tb.checkClean()
}

// signInTab opens the explorer and signs the tab in with the harness's key.
func signInTab(b *testing.B, tb *tab, h *servertest.Harness) {
	b.Helper()
	tb.do(chromedp.Navigate(h.URL + "/"))
	js[any](tb, fmt.Sprintf(`sessionStorage.setItem("casegraph.auth", %q)`, h.Token))
	tb.do(chromedp.Navigate("about:blank"), chromedp.Navigate(h.URL+"/"))
	tb.until("the explorer", `document.body.dataset.ready === "true"`)
	tb.expectProblem("401") // the first load, before the key
}

// viewOf is the URL fragment of a view of an entity's neighbourhood, laid
// out on a circle, as the explorer writes it.
func viewOf(b *testing.B, h *servertest.Harness, centre string) string {
	res := h.Post(`query($id: ID!) { neighborhood(id: $id, limit: 100) { nodes { id } relations { id } } }`, map[string]any{"id": centre})
	if len(res.Errors) > 0 {
		b.Fatal(res.Raw)
	}
	var sub struct {
		Neighborhood struct {
			Nodes, Relations []struct{ ID string }
		}
	}
	decode(b, res.Data, &sub)
	view := struct {
		N [][]any  `json:"n"`
		R []string `json:"r"`
	}{N: [][]any{{centre, 0, 0, "x"}}}
	for i, n := range sub.Neighborhood.Nodes {
		if n.ID == centre {
			continue
		}
		a := 2 * math.Pi * float64(i) / float64(len(sub.Neighborhood.Nodes))
		view.N = append(view.N, []any{n.ID, int(200 * math.Cos(a)), int(200 * math.Sin(a)), ""})
	}
	for _, r := range sub.Neighborhood.Relations {
		view.R = append(view.R, r.ID)
	}
	raw, err := json.Marshal(view)
	if err != nil {
		b.Fatal(err)
	}
	return "view=" + base64.RawURLEncoding.EncodeToString(raw)
}

// star writes an organization related to n people, and returns its id.
func star(b *testing.B, store *cypher.Store, ds string, n int) string {
	b.Helper()
	src := casegraph.Source{ID: ds + "-src", Title: "Generated", Dataset: ds}
	hub := casegraph.Entity{ID: ds + "-hub", Kind: casegraph.KindOrganization, Name: "Hub", Dataset: ds, SourceIDs: []string{src.ID}}
	entities := []casegraph.Entity{hub}
	var relations []casegraph.Relation
	for i := range n {
		p := casegraph.Entity{ID: fmt.Sprintf("%s-p%d", ds, i), Kind: casegraph.KindPerson, Name: fmt.Sprintf("Member %d", i), Dataset: ds, SourceIDs: []string{src.ID}}
		entities = append(entities, p)
		relations = append(relations, casegraph.Relation{ID: p.ID + "-rel", Type: "MEMBER_OF", FromID: p.ID, ToID: hub.ID,
			Status: casegraph.StatusConfirmed, Dataset: ds, SourceIDs: []string{src.ID}})
	}
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 2*time.Minute)
	defer cancel()
	if _, err := store.WriteBatch(ctx, []casegraph.Source{src}, entities, relations); err != nil {
		b.Fatal(err)
	}
	return hub.ID
}

func floatPercentiles(v []float64) (p50, p95 float64) {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)*50/100], s[min(len(s)-1, len(s)*95/100)]
}
