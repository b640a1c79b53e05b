package web_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server/servertest"
	"github.com/chromedp/cdproto/page"
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
		took = append(took, marks(tb, link, "casegraph:first-graph")[0])
	}
	reportPercentiles(b, took, "first-graph")
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
		got := dragFrames(tb, pos.X, pos.Y, func(i int) (float64, float64) {
			return pos.X + 120*math.Sin(float64(i)/15), pos.Y + float64(i)
		})
		frames = append(frames, got...)
	}
	reportPercentiles(b, frames, "frame")
	b.ReportMetric(slices.Max(frames), "frame-max-ms")
	tb.checkClean()
}

// signInTab opens the explorer and signs the tab in with the harness's key.
func signInTab(b testing.TB, tb *tab, h *servertest.Harness) {
	b.Helper()
	// The key is in the origin's session storage before the explorer's
	// first script runs, so that no load asks anything without it: set
	// from a first load of the explorer, that load's 401 came before or
	// after the key by chance (it failed TestSVGEqualsCanvas once,
	// expecting the 401).
	set := fmt.Sprintf(`if (location.origin === %q) sessionStorage.setItem("casegraph.auth", %q)`, h.URL, h.Token)
	added, err := chromedp.Call(tb.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: set})
	if err != nil {
		b.Fatal(err)
	}
	tb.do(chromedp.Navigate(h.URL + "/"))
	tb.until("the explorer", `document.body.dataset.ready === "true"`)
	if _, err := chromedp.Call(tb.ctx, page.RemoveScriptToEvaluateOnNewDocument, page.RemoveScriptToEvaluateOnNewDocumentParams(added)); err != nil {
		b.Fatal(err)
	}
}

// viewOf is the URL fragment of a view of an entity's neighbourhood, laid
// out on a circle, as the explorer writes it.
func viewOf(b testing.TB, h *servertest.Harness, centre string) string {
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

// reportPercentiles reports the p50 and p95 of v, in ms, as name-p50-ms and name-p95-ms.
func reportPercentiles(b *testing.B, v []float64, name string) {
	p50, p95 := floatPercentiles(v)
	b.ReportMetric(p50, name+"-p50-ms")
	b.ReportMetric(p95, name+"-p95-ms")
}

func floatPercentiles(v []float64) (p50, p95 float64) {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)*50/100], s[min(len(s)-1, len(s)*95/100)]
}

// BenchmarkFirstPaint measures, on loopback, a signed-in analyst opening
// the explorer (a fresh page load each time, the assets from the browser's
// cache): navigation to the first contentful paint, and to the first screen
// usable (the relation vocabulary read, the welcome shown; the mark
// "casegraph:ready"). It reports the explorer's bundle as served, gzipped
// (the JavaScript and CSS index.html loads, as make web prints them).
//
//	go test ./web -run '^$' -bench FirstPaint -benchtime 20x
func BenchmarkFirstPaint(b *testing.B) {
	h := readerServer(b, cyphertest.Dataset(b))
	tb := openTab(b, h.URL)
	signInTab(b, tb, h)
	var paint, usable []float64
	for b.Loop() {
		at := marks(tb, h.URL+"/", "first-contentful-paint", "casegraph:ready")
		paint, usable = append(paint, at[0]), append(usable, at[1])
	}
	reportPercentiles(b, paint, "first-paint")
	reportPercentiles(b, usable, "usable")
	b.ReportMetric(bundleGzipped(b), "bundle-gzip-KB")
	tb.checkClean()
}

// bundleGzipped is the size in KB, gzipped, of the assets web/dist/index.html loads.
func bundleGzipped(b *testing.B) float64 {
	b.Helper()
	page, err := os.ReadFile("dist/index.html")
	if err != nil {
		b.Fatal(err)
	}
	total := 0
	for _, m := range regexp.MustCompile(`"/(assets/[^"]+\.(?:js|css))"`).FindAllStringSubmatch(string(page), -1) {
		body, err := os.ReadFile(filepath.Join("dist", m[1]))
		if err != nil {
			b.Fatal(err)
		}
		var buf bytes.Buffer
		w := gzip.NewWriter(&buf)
		if _, err := w.Write(body); err != nil {
			b.Fatal(err)
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		total += buf.Len()
	}
	if total == 0 {
		b.Fatal("index.html loads no assets")
	}
	return float64(total) / 1024
}

// BenchmarkDraw measures drawing a graph of 100, 1,000 and 5,000 generated
// entities with their relations (netOf: about 1.3 relations an entity),
// read once through the explorer's own restore, then drawn afresh each
// time from what was read: the time from the call to the first frame after
// the force layout has placed everything and fitted the drawing (its
// animation included, as an analyst waits for it), and the frames a second
// while the background is dragged to pan it (requestAnimationFrame
// callbacks over a 1.5 s scripted drag).
//
//	go test ./web -run '^$' -bench Draw -benchtime 3x
func BenchmarkDraw(b *testing.B) {
	store := cyphertest.Store(b, cypher.Options{})
	for _, n := range []int{100, 1000, 5000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			ds := cyphertest.Dataset(b)
			nodes, relations := netOf(b, store, ds, n)
			h := readerServer(b, ds)
			tb := openTab(b, h.URL)
			signInTab(b, tb, h)
			view := map[string]any{"n": nodes, "r": relations}
			raw, err := json.Marshal(view)
			if err != nil {
				b.Fatal(err)
			}
			js[any](tb, fmt.Sprintf(`window.casegraph.restore(%s)`, raw))
			tb.until("the view", fmt.Sprintf(`window.casegraph.canvas.cy.nodes().length === %d`, n))
			js[any](tb, `(() => {
				const c = window.casegraph.canvas;
				window.read_ = { nodes: c.cy.nodes().map((n) => { const d = n.data(); return { id: d.id, kind: d.kind, name: d.name, dataset: d.dataset, redacted: d.redacted, protected: d.protected, description: d.description, aliases: d.aliases }; }), relations: c.relations() };
			})()`)
			var draw, fps, frame []float64
			for b.Loop() {
				draw = append(draw, js[float64](tb, `new Promise((done) => {
					const c = window.casegraph.canvas;
					c.forget();
					const t0 = performance.now();
					c.add(window.read_.nodes, window.read_.relations, { checkpoint: false });
					const wait = () => (c.layingOut ? setTimeout(wait, 5) : requestAnimationFrame(() => done(performance.now() - t0)));
					wait();
				})`))
				f := panFrames(tb)
				fps = append(fps, float64(len(f))/(sum(f)/1000))
				frame = append(frame, f...)
			}
			tb.shot(fmt.Sprintf("draw-%d", n))
			p50, _ := floatPercentiles(draw)
			b.ReportMetric(p50, "draw-p50-ms")
			p50, _ = floatPercentiles(fps)
			b.ReportMetric(p50, "pan-fps-p50")
			p50, p95 := floatPercentiles(frame)
			b.ReportMetric(p50, "pan-frame-p50-ms")
			b.ReportMetric(p95, "pan-frame-p95-ms")
			tb.checkClean()
		})
	}
}

// panFrames drags the canvas's background (its top left corner, which the
// fitted drawing leaves empty) for 1.5 s, as a hand pans, and returns the
// time between the frames drawn meanwhile.
func panFrames(tb *tab) []float64 {
	box := js[struct{ X, Y float64 }](tb, `(() => { const b = document.getElementById("canvas").getBoundingClientRect(); return { X: b.left + 6, Y: b.top + 6 }; })()`)
	return dragFrames(tb, box.X, box.Y, func(i int) (float64, float64) { return box.X + 2*float64(i), box.Y + float64(i) })
}

// dragFrames presses the mouse at (x, y) and moves it to at(1) ... at(90),
// one move every 16 ms (a hand moves the mouse about 60 times a second),
// then lets go; it returns the time between the frames drawn meanwhile
// (requestAnimationFrame callbacks).
func dragFrames(tb *tab, x, y float64, at func(i int) (x, y float64)) []float64 {
	js[any](tb, `(() => {
		window.frames_ = []; window.stop_ = false;
		let last = performance.now();
		const tick = (t) => { window.frames_.push(t - last); last = t; if (!window.stop_) requestAnimationFrame(tick); };
		requestAnimationFrame(tick);
	})()`)
	tb.do(chromedp.MouseEvent(chromedp.MousePressed, x, y, chromedp.ButtonLeft))
	for i := 1; i <= 90; i++ {
		mx, my := at(i)
		tb.do(chromedp.MouseEvent(chromedp.MouseMoved, mx, my, chromedp.ButtonLeft), chromedp.Sleep(16*time.Millisecond))
	}
	mx, my := at(90)
	tb.do(chromedp.MouseEvent(chromedp.MouseReleased, mx, my, chromedp.ButtonLeft))
	return js[[]float64](tb, `(() => { window.stop_ = true; return window.frames_.slice(1); })()`)
}

// marks opens url afresh (from about:blank) and returns, once the page has
// them all, when each of the performance entries named happened (ms from
// navigation).
func marks(tb *tab, url string, names ...string) []float64 {
	tb.do(chromedp.Navigate("about:blank"), chromedp.Navigate(url))
	list, err := json.Marshal(names)
	if err != nil {
		tb.t.Fatal(err)
	}
	tb.until(strings.Join(names, ", "), fmt.Sprintf(`%s.every((n) => performance.getEntriesByName(n).length > 0)`, list))
	return js[[]float64](tb, fmt.Sprintf(`%s.map((n) => performance.getEntriesByName(n)[0].startTime)`, list))
}

// BenchmarkRestoreView measures opening a shared link to a view of 500
// generated entities and their relations (netOf), each at its place: from
// navigation to the first frame with the view drawn ("casegraph:first-graph")
// and to the explorer usable with the whole view restored, its time bar
// included ("casegraph:ready").
//
//	go test ./web -run '^$' -bench RestoreView -benchtime 10x
func BenchmarkRestoreView(b *testing.B) {
	store := cyphertest.Store(b, cypher.Options{})
	ds := cyphertest.Dataset(b)
	nodes, relations := netOf(b, store, ds, 500)
	for i := range nodes {
		nodes[i][1], nodes[i][2] = 60*(i%25), 60*(i/25)
	}
	raw, err := json.Marshal(map[string]any{"n": nodes, "r": relations})
	if err != nil {
		b.Fatal(err)
	}
	h := readerServer(b, ds)
	tb := openTab(b, h.URL)
	signInTab(b, tb, h)
	link := h.URL + "/#view=" + base64.RawURLEncoding.EncodeToString(raw)
	restoreMarks(b, tb, link, 500)
}

// restoreMarks opens link afresh each iteration, checks that it draws n
// entities, and reports when the view was read, first drawn and restored
// (the marks "casegraph:view-read", "casegraph:first-graph" and
// "casegraph:ready"), p50 and p95, and the explorer's own part, from the
// view read to its first frame (draw-*-ms: the page's load and the read,
// which move most with the machine's load, left out).
func restoreMarks(b *testing.B, tb *tab, link string, n int) {
	var read, drawn, restored, draw []float64
	for b.Loop() {
		at := marks(tb, link, "casegraph:view-read", "casegraph:first-graph", "casegraph:ready")
		if got := js[int](tb, `window.casegraph.canvas.cy.nodes().length`); got != n {
			b.Fatalf("%d entities restored, want %d", got, n)
		}
		read, drawn, restored, draw = append(read, at[0]), append(drawn, at[1]), append(restored, at[2]), append(draw, at[1]-at[0])
	}
	reportPercentiles(b, read, "read")
	reportPercentiles(b, drawn, "drawn")
	reportPercentiles(b, restored, "restored")
	reportPercentiles(b, draw, "draw")
	tb.checkClean()
}

// BenchmarkRestoreReads compares, side by side on the server, the two ways
// the explorer has read a view of 500 generated entities and their
// relations (netOf) to restore it: 25 entity(id) and relation(id) aliases
// a request (before), and nodes(ids) with 100 ids a request (now), one
// after the other, each whole view read once an iteration.
//
//	go test ./web -run '^$' -bench RestoreReads -benchtime 10x
func BenchmarkRestoreReads(b *testing.B) {
	store := cyphertest.Store(b, cypher.Options{})
	ds := cyphertest.Dataset(b)
	nodes, relations := netOf(b, store, ds, 500)
	h := readerServer(b, ds)
	var ids []string
	for _, n := range nodes {
		ids = append(ids, n[0].(string))
	}
	ids = append(ids, relations...)
	const ref = `
fragment Ref on Entity { id kind name dataset redacted protected description aliases }`
	const rel = `
fragment Src on Source { id title publisher url publishedAt archivedUrl }
fragment Rel on Relation { id type role startDate endDate status confidence quote dataset from { ...Ref } to { ...Ref } sources { ...Src } citations { grade } }`
	read := func(b *testing.B, per int, doc func(chunk []string) (string, map[string]any)) {
		for b.Loop() {
			for i := 0; i < len(ids); i += per {
				q, vars := doc(ids[i:min(i+per, len(ids))])
				if res := h.Post(q, vars); len(res.Errors) > 0 {
					b.Fatal(res.Raw)
				}
			}
		}
	}
	b.Run("aliases-25", func(b *testing.B) {
		read(b, 25, func(chunk []string) (string, map[string]any) {
			var params, fields []string
			vars := map[string]any{}
			frags := ref
			for j, id := range chunk {
				field, frag := "entity", "Ref"
				if strings.HasPrefix(id, "relation~") {
					field, frag, frags = "relation", "Rel", ref+rel
				}
				params = append(params, fmt.Sprintf("$i%d: ID!", j))
				fields = append(fields, fmt.Sprintf("a%d: %s(id: $i%d) { ...%s }", j, field, j, frag))
				vars[fmt.Sprintf("i%d", j)] = id
			}
			return "query Restore(" + strings.Join(params, ", ") + ") {\n" + strings.Join(fields, "\n") + "\n}" + frags, vars
		})
	})
	b.Run("nodes-100", func(b *testing.B) {
		read(b, 100, func(chunk []string) (string, map[string]any) {
			return `query Restore($ids: [ID!]!) { nodes(ids: $ids) { ... on Entity { ...Ref } ... on Relation { ...Rel } } }` + ref + rel, map[string]any{"ids": chunk}
		})
	})
}

// netOf writes n generated entities of dataset ds (every tenth an
// organization, the rest people), each person a member of the
// organization before it, each organization subordinate to one of the
// earlier ones, and a third of the people associates of the next one; it
// returns the view's entities (no places) and relation ids.
func netOf(b testing.TB, store *cypher.Store, ds string, n int) ([][4]any, []string) {
	b.Helper()
	src := casegraph.Source{ID: ds + "-src", Title: "Generated", Dataset: ds}
	id := func(i int) string { return fmt.Sprintf("%s-e%d", ds, i) }
	var entities []casegraph.Entity
	var relations []casegraph.Relation
	var view [][4]any
	rel := func(typ casegraph.RelationType, from, to int) {
		relations = append(relations, casegraph.Relation{ID: fmt.Sprintf("%s-r%d", ds, len(relations)), Type: typ, FromID: id(from), ToID: id(to),
			Status: casegraph.StatusConfirmed, Dataset: ds, SourceIDs: []string{src.ID}})
	}
	for i := range n {
		e := casegraph.Entity{ID: id(i), Kind: casegraph.KindPerson, Name: fmt.Sprintf("Person %d", i), Dataset: ds, SourceIDs: []string{src.ID}}
		switch {
		case i%10 == 0:
			e.Kind, e.Name = casegraph.KindOrganization, fmt.Sprintf("Unit %d", i/10)
			if i > 0 {
				rel("SUBORDINATE_TO", i, (i/10-1)/3*10)
			}
		default:
			rel("MEMBER_OF", i, i/10*10)
			if i%3 == 1 && (i+1)%10 != 0 && i+1 < n {
				rel("ASSOCIATE_OF", i, i+1)
			}
		}
		entities = append(entities, e)
		view = append(view, [4]any{e.ID, 0, 0, ""})
	}
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 5*time.Minute)
	defer cancel()
	const chunk = 1000
	for i := 0; i < max(len(entities), len(relations)); i += chunk {
		es := entities[min(i, len(entities)):min(i+chunk, len(entities))]
		if _, err := store.WriteBatch(ctx, []casegraph.Source{src}, es, nil); err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; i < len(relations); i += chunk {
		if _, err := store.WriteBatch(ctx, []casegraph.Source{src}, nil, relations[i:min(i+chunk, len(relations))]); err != nil {
			b.Fatal(err)
		}
	}
	ids := make([]string, len(relations))
	for i, r := range relations {
		ids[i] = casegraph.NodeID(casegraph.NodeRelation, r.ID)
	}
	return view, ids
}

func sum(v []float64) float64 {
	t := 0.0
	for _, x := range v {
		t += x
	}
	return t
}
