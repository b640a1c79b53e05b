package web_test

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
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

// TestExplorerMap draws the seed's places and what is located in them, and
// chooses the map with the keyboard: the outlines are read then (not
// before), each place sits where Equal Earth projects its coordinates
// (Damascus east of London, The Hague north of Geneva) inside its
// country's outline, what is located in a place sits around it without
// overlapping, the rest stands in the strip beside the map as the legend
// counts it; the outlines follow pan and zoom to the pixel; the SVG export
// holds them and equals the canvas, the PNG has them; a shared link
// reopens the map; axe finds nothing serious; another layout takes the
// outlines away.
func TestExplorerMap(t *testing.T) {
	h, ds, id, b := readerTab(t, cyphertest.LoadSeed)
	places := []string{"london", "the-hague", "geneva", "syria", "qatar", "sierra-leone"}
	for _, p := range append(slices.Clone(places), "caesar-report") {
		js[any](b, fmt.Sprintf(`window.casegraph.expand(%q).then(() => 0)`, id(p)))
	}
	b.until("the neighbourhoods laid out", `!window.casegraph.canvas.layingOut`)
	if n := b.outlineReads(); n != 0 {
		t.Errorf("the outlines were read %d times before the map was chosen", n)
	}

	t.Run("the keyboard chooses the map", func(t *testing.T) {
		b.t = t
		js[any](b, `document.querySelector('#toolbar [data-action="zoomout"]').focus()`)
		b.do(chromedp.KeyEvent(kb.Tab))
		if got := js[string](b, `document.activeElement.id`); got != "layout-choice" {
			t.Fatalf("Tab from zoom out reached %q, not the layout", got)
		}
		b.do(chromedp.KeyEvent("m"))
		b.mapDrawn()
		b.shot("map-seed")
		if n := b.outlineReads(); n != 1 {
			t.Errorf("the outlines were read %d times, want once", n)
		}
	})

	t.Run("places sit where their coordinates project", func(t *testing.T) {
		b.t = t
		m := b.mapState()
		want := placeCoordinates(t, h, ds)
		for _, p := range places {
			c, ok := want[id(p)]
			if !ok {
				t.Fatalf("the seed's %s has no coordinates", p)
			}
			n, ok := m.Nodes[id(p)]
			if !ok {
				t.Fatalf("%s is not drawn", p)
			}
			x, y := equalEarth(m.Projection, c[0], c[1])
			if math.Abs(n.X-x) > 0.5 || math.Abs(n.Y-y) > 0.5 {
				t.Errorf("%s drawn at (%.1f,%.1f), its coordinates %v project to (%.1f,%.1f)", p, n.X, n.Y, c, x, y)
			}
		}
		at := func(p string) mapNode { return m.Nodes[id(p)] }
		if at("syria").X <= at("london").X || at("qatar").X <= at("geneva").X {
			t.Errorf("Damascus (x %.0f) is not east of London (x %.0f), or Doha (%.0f) of Geneva (%.0f)", at("syria").X, at("london").X, at("qatar").X, at("geneva").X)
		}
		if at("the-hague").Y >= at("geneva").Y || at("sierra-leone").Y <= at("syria").Y {
			t.Errorf("The Hague (y %.0f) is not north of Geneva (y %.0f), or Freetown (%.0f) south of Damascus (%.0f)", at("the-hague").Y, at("geneva").Y, at("sierra-leone").Y, at("syria").Y)
		}
		for p, country := range map[string]string{"london": "United Kingdom", "syria": "Syria", "qatar": "Qatar", "the-hague": "Netherlands"} {
			if in := b.inCountry(id(p), country); !in {
				t.Errorf("%s is not drawn inside the outline of %s", p, country)
			}
		}
		checkAround(t, m, want)
	})

	t.Run("the outlines follow pan and zoom", func(t *testing.T) {
		b.t = t
		b.outlinesFollow(id("london"))
		b.do(chromedp.Click(chromedp.CSS(`#toolbar [data-action="zoomin"]`)))
		js[any](b, `window.casegraph.canvas.cy.panBy({x: 140, y: -60}) && 0`)
		b.outlinesFollow(id("london"))
		b.shot("map-panned")
		b.do(chromedp.Click(chromedp.CSS(`#toolbar [data-action="fit"]`)))
		b.outlinesFollow(id("london"))
	})

	t.Run("exports hold the outlines", func(t *testing.T) {
		b.t = t
		checkSVGEqualsCanvas(t, b)
		checkPNGOutlines(t, b.export("png"), true)
	})

	t.Run("a shared link reopens the map", func(t *testing.T) {
		b.t = t
		before := b.mapState()
		js[any](b, `window.casegraph.saveURL() || 0`)
		b.until("the address holds the map", `location.hash.includes("view=")`)
		link := js[string](b, `new Promise(r => setTimeout(() => r(location.href), 400))`)
		b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(link))
		b.until("the view", `document.body.dataset.ready === "true"`)
		b.mapDrawn()
		if got := js[string](b, `document.getElementById("layout-choice").value`); got != "map" {
			t.Errorf("the layout chosen after the link is %q", got)
		}
		after := b.mapState()
		if after.Projection != before.Projection {
			t.Errorf("the link's projection %v, the shared view's %v", after.Projection, before.Projection)
		}
		for nid, n := range before.Nodes {
			a, ok := after.Nodes[nid]
			if !ok || math.Abs(a.X-n.X) > 1 || math.Abs(a.Y-n.Y) > 1 {
				t.Errorf("%s at %+v after the link, at %+v before", nid, a, n)
			}
		}
		if after.Legend != before.Legend {
			t.Errorf("the legend reads %q after the link, %q before", after.Legend, before.Legend)
		}
		b.outlinesFollow(id("london"))
		b.axe("body")
		b.checkClean()
	})

	t.Run("another layout takes the outlines away", func(t *testing.T) {
		b.t = t
		b.chooseLayout("grid")
		b.until("the outlines gone", `document.querySelectorAll("#canvas svg.map-underlay path").length === 0 && document.getElementById("legend-map") === null`)
		if js[bool](b, `window.casegraph.canvas.map.shown || window.casegraph.view().m !== undefined`) {
			t.Error("the map is still shown, or kept in the view")
		}
		checkPNGOutlines(t, b.export("png"), false)
		b.checkClean()
	})
}

// TestExplorerMapForce draws the fictional force's incident, its places
// and the units around them on the map: Ruritania's places sit where
// their invented coordinates project, in open ocean (inside no country's
// outline), the shelling by its village; units and officers stand in the
// strip; the SVG export equals the canvas.
func TestExplorerMapForce(t *testing.T) {
	h, ds, id, b := readerTab(t, cyphertest.LoadForce)
	for _, e := range []string{"rur-shelling-kesselbrin", "rur-kesselbrin", "rur-dravo", "rur-41-bn"} {
		js[any](b, fmt.Sprintf(`window.casegraph.expand(%q).then(() => 0)`, id(e)))
	}
	b.until("the neighbourhoods laid out", `!window.casegraph.canvas.layingOut`)
	b.chooseLayout("map")
	b.mapDrawn()
	b.shot("map-force")
	m := b.mapState()
	want := placeCoordinates(t, h, ds)
	placed := 0
	for nid, n := range m.Nodes {
		c, ok := want[nid]
		if !ok {
			continue
		}
		placed++
		x, y := equalEarth(m.Projection, c[0], c[1])
		if math.Abs(n.X-x) > 0.5 || math.Abs(n.Y-y) > 0.5 {
			t.Errorf("%s drawn at (%.1f,%.1f), its coordinates %v project to (%.1f,%.1f)", nid, n.X, n.Y, c, x, y)
		}
		if country := b.countryOf(nid); country != "" {
			t.Errorf("the fictional %s is drawn inside %s", nid, country)
		}
	}
	if placed < 3 {
		t.Errorf("%d of Ruritania's places drawn on the map, want the village, its district and governorate", placed)
	}
	if got := checkAround(t, m, want)[id("rur-shelling-kesselbrin")]; got != id("rur-kesselbrin") {
		t.Errorf("the shelling sits at %q, want its village", got)
	}
	checkSVGEqualsCanvas(t, b)
	b.axe("#legend")
	b.checkClean()
}

// readerTab loads a copy of a dataset (the seed, the force) and opens a
// tab signed in with a reader key of it.
func readerTab(t *testing.T, load func(testing.TB, *cypher.Store) (string, func(string) string)) (*servertest.Harness, string, func(string) string, *tab) {
	t.Helper()
	ds, id := load(t, cyphertest.Store(t, cypher.Options{}))
	h := readerServer(t, ds)
	b := openTab(t, h.URL)
	b.signIn(h)
	return h, ds, id, b
}

// mapNode is a drawn entity as the map test reads it.
type mapNode struct {
	X, Y, W float64
}

// mapState is the map as drawn: its projection, the entities shown, the
// located relations among them (from, to: LOCATED_IN first, then
// BASED_AT, each by id, as the map reads them) and the legend's line.
type mapState struct {
	Projection [3]float64
	Nodes      map[string]mapNode
	Located    [][2]string
	Legend     string
}

func (b *tab) mapState() mapState {
	b.t.Helper()
	m := js[mapState](b, `(() => {
		const c = window.casegraph.canvas, nodes = {}, order = ["LOCATED_IN", "BASED_AT"];
		c.cy.nodes(":visible").forEach(n => { nodes[n.id()] = { X: n.position("x"), Y: n.position("y"), W: n.width() }; });
		const located = c.cy.edges(":visible").filter(e => order.includes(e.data("relation").type));
		return {
			Projection: c.map.projection,
			Nodes: nodes,
			Located: located.sort((a, b) => order.indexOf(a.data("relation").type) - order.indexOf(b.data("relation").type) || a.id().localeCompare(b.id())).map(e => [e.source().id(), e.target().id()]),
			Legend: document.getElementById("legend-map")?.textContent ?? "",
		};
	})()`)
	if m.Projection[0] <= 0 {
		b.t.Fatalf("no projection shown: %v", m.Projection)
	}
	return m
}

// checkAround works out from the coordinates the API gives (points) and
// the located relations drawn where each entity belongs, and checks the
// map: an entity located in a place (through places without coordinates
// too) sits around it, no two entities overlap, and the rest stand in the
// strip to the right of the map, as many as the legend says. It returns
// the place each located entity sits at.
func checkAround(t *testing.T, m mapState, points map[string][2]float64) map[string]string {
	t.Helper()
	around := map[string]string{}
	placeOf := func(nid string) string {
		if _, ok := points[nid]; ok {
			return nid
		}
		return around[nid]
	}
	for moved := true; moved; {
		moved = false
		for _, l := range m.Located {
			if placeOf(l[0]) != "" {
				continue
			}
			if _, drawn := m.Nodes[l[1]]; !drawn {
				continue
			}
			if p := placeOf(l[1]); p != "" {
				around[l[0]] = p
				moved = true
			}
		}
	}
	right := math.Inf(-1)
	for nid, n := range m.Nodes {
		p := placeOf(nid)
		if p == "" {
			continue
		}
		right = max(right, n.X+n.W/2)
		if a := m.Nodes[p]; p != nid && math.Hypot(n.X-a.X, n.Y-a.Y) > 160 {
			t.Errorf("%s, located in %s, is drawn %.0f away from it", nid, p, math.Hypot(n.X-a.X, n.Y-a.Y))
		}
	}
	strip := 0
	for nid, n := range m.Nodes {
		if placeOf(nid) != "" {
			continue
		}
		strip++
		if n.X-n.W/2 <= right {
			t.Errorf("%s, with no place, is drawn at x %.0f, on the map (which ends at x %.0f)", nid, n.X, right)
		}
	}
	if strip == 0 {
		t.Error("nothing stands in the strip: the test wants entities without a place")
	}
	if want := fmt.Sprintf("%d entities without a place", strip); !strings.Contains(m.Legend, want) {
		t.Errorf("the legend says %q, want %q", m.Legend, want)
	}
	ids := make([]string, 0, len(m.Nodes))
	for nid := range m.Nodes {
		ids = append(ids, nid)
	}
	slices.Sort(ids)
	for i, a := range ids {
		for _, c := range ids[i+1:] {
			p, q := m.Nodes[a], m.Nodes[c]
			if d := math.Hypot(p.X-q.X, p.Y-q.Y); d < (p.W+q.W)/2-0.5 {
				t.Errorf("%s and %s overlap: %.0f apart, %.0f and %.0f wide", a, c, d, p.W, q.W)
			}
		}
	}
	return around
}

// equalEarth is where d3's Equal Earth projection, scaled and translated
// as p says, puts a point (degrees): the projection's formulas (Šavrič,
// Patterson and Jenny, 2018), worked out here, not read from the page.
func equalEarth(p [3]float64, lon, lat float64) (x, y float64) {
	const a1, a2, a3, a4 = 1.340264, -0.081106, 0.000893, 0.003796
	m := math.Sqrt(3) / 2
	lambda, phi := lon*math.Pi/180, lat*math.Pi/180
	l := math.Asin(m * math.Sin(phi))
	l2 := l * l
	l6 := l2 * l2 * l2
	rx := lambda * math.Cos(l) / (m * (a1 + 3*a2*l2 + l6*(7*a3+9*a4*l2)))
	ry := l * (a1 + a2*l2 + l6*(a3+a4*l2))
	return p[1] + p[0]*rx, p[2] - p[0]*ry
}

// placeCoordinates are the coordinates of the dataset's places, as the
// API gives them: [longitude, latitude] by id.
func placeCoordinates(t *testing.T, h *servertest.Harness, ds string) map[string][2]float64 {
	t.Helper()
	res := h.Post(`query($ds: String!) { entities(filter: {datasets: [$ds], kinds: [PLACE]}, first: 100) { edges { node { id ... on Place { coordinates { latitude longitude } } } } } }`, map[string]any{"ds": ds})
	if len(res.Errors) > 0 {
		t.Fatal(res.Raw)
	}
	var out struct {
		Entities struct {
			Edges []struct {
				Node struct {
					ID          string
					Coordinates *struct{ Latitude, Longitude float64 }
				}
			}
		}
	}
	decode(t, res.Data, &out)
	points := map[string][2]float64{}
	for _, e := range out.Entities.Edges {
		if c := e.Node.Coordinates; c != nil {
			points[e.Node.ID] = [2]float64{c.Longitude, c.Latitude}
		}
	}
	return points
}

// outlineReads counts the tab's requests for the outlines' file.
func (b *tab) outlineReads() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for _, u := range b.requests {
		if strings.Contains(u, "/assets/countries-110m-") {
			n++
		}
	}
	return n
}

// chooseLayout picks a layout in the toolbar, as a pointer does, and waits until it is laid out.
func (b *tab) chooseLayout(name string) {
	b.t.Helper()
	b.do(chromedp.SetValue(chromedp.ID("layout-choice"), name))
	js[any](b, `document.getElementById("layout-choice").dispatchEvent(new Event("change")) && 0`)
	b.until(name+" laid out", fmt.Sprintf(`window.casegraph.canvas.layoutName === %q && !window.casegraph.canvas.layingOut`, name))
}

// mapDrawn waits for the map: laid out, its outlines in the page.
func (b *tab) mapDrawn() {
	b.t.Helper()
	b.until("the map drawn", `window.casegraph.canvas.layoutName === "map" && !window.casegraph.canvas.layingOut && document.querySelectorAll("#canvas svg.map-underlay path.country").length > 100`)
}

// countryOf is the country whose outline holds the entity's place, or "".
func (b *tab) countryOf(nid string) string {
	b.t.Helper()
	return js[string](b, fmt.Sprintf(`(() => {
		const p = window.casegraph.canvas.cy.getElementById(%q).position(), at = new DOMPoint(p.x, p.y);
		return [...document.querySelectorAll("#canvas svg.map-underlay path.country")].find(c => c.isPointInFill(at))?.dataset.name ?? "";
	})()`, nid))
}

// inCountry says whether the entity is drawn inside the country's outline.
func (b *tab) inCountry(nid, country string) bool {
	b.t.Helper()
	return js[bool](b, fmt.Sprintf(`(() => {
		const p = window.casegraph.canvas.cy.getElementById(%q).position();
		const c = [...document.querySelectorAll("#canvas svg.map-underlay path.country")].find(c => c.dataset.name === %q);
		return !!c && c.isPointInFill(new DOMPoint(p.x, p.y));
	})()`, nid, country))
}

// outlinesFollow checks that the outlines are where the canvas is: the
// entity's place, taken through the outlines' transform on the screen,
// lands where Cytoscape draws the entity, to a tenth of a pixel.
func (b *tab) outlinesFollow(nid string) {
	b.t.Helper()
	got := js[struct{ OX, OY, CX, CY float64 }](b, fmt.Sprintf(`(() => {
		const n = window.casegraph.canvas.cy.getElementById(%q), p = n.position(), r = n.renderedPosition();
		const layer = document.querySelector("#canvas svg.map-underlay g.map");
		const o = new DOMPoint(p.x, p.y).matrixTransform(layer.getScreenCTM());
		const box = document.querySelector("#canvas canvas").getBoundingClientRect();
		return { OX: o.x, OY: o.y, CX: box.left + r.x, CY: box.top + r.y };
	})()`, nid))
	if math.Abs(got.OX-got.CX) > 0.1 || math.Abs(got.OY-got.CY) > 0.1 {
		b.t.Errorf("%s: the outlines put its place at (%.1f,%.1f) on the screen, the canvas draws it at (%.1f,%.1f)", nid, got.OX, got.OY, got.CX, got.CY)
	}
}

// checkPNGOutlines checks whether a PNG export has the map's outlines: the
// land's and the ocean's colours, which nothing else is drawn in, over a
// good part of it.
func checkPNGOutlines(t *testing.T, file []byte, want bool) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	land, ocean := countColor(img, 0xec, 0xeb, 0xe4), countColor(img, 0xee, 0xf4, 0xf8)
	area := img.Bounds().Dx() * img.Bounds().Dy()
	if got := land > area/100 && ocean > area/100; got != want {
		t.Errorf("the PNG (%v) has %d pixels of land and %d of ocean: outlines %v, want %v", img.Bounds().Size(), land, ocean, got, want)
	}
}

func countColor(img image.Image, r, g, bl uint8) int {
	n := 0
	box := img.Bounds()
	for y := box.Min.Y; y < box.Max.Y; y += 2 {
		for x := box.Min.X; x < box.Max.X; x += 2 {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			if uint8(cr>>8) == r && uint8(cg>>8) == g && uint8(cb>>8) == bl {
				n += 4
			}
		}
	}
	return n
}

// TestExplorerMapKeptView: a view kept while the map is the layout keeps
// its projection (state.m): reopened by its link in a window of another
// size, where the map laid out anew would project the places elsewhere,
// the map comes back with the projection it was saved with, every place
// where it was.
func TestExplorerMapKeptView(t *testing.T) {
	h, ds, id, b := readerTab(t, cyphertest.LoadSeed)
	editor := h.Key(casegraph.NewAPIKey{Name: "editor " + t.Name(), Role: casegraph.RoleEditor, Datasets: []string{ds}})
	name := viewName(t, h, editor)
	b.submitKey(editor)
	for _, p := range []string{"london", "geneva", "syria", "qatar"} {
		js[any](b, fmt.Sprintf(`window.casegraph.expand(%q).then(() => 0)`, id(p)))
	}
	b.until("the neighbourhoods laid out", `!window.casegraph.canvas.layingOut`)
	b.chooseLayout("map")
	b.mapDrawn()
	before := b.mapState()

	b.do(chromedp.Click(chromedp.ID("views-toggle")))
	b.do(
		chromedp.SetValue(chromedp.ID("view-name"), name),
		chromedp.SetValue(chromedp.ID("view-title"), "The places on the map"),
		chromedp.Click(chromedp.ID("view-save-button")),
	)
	b.until("the view saved", fmt.Sprintf(`window.casegraph.views.open?.name === %q`, name))
	var kept struct {
		SavedView struct {
			State struct {
				G string
				M []float64
			}
		}
	}
	decode(t, h.PostAs(editor, `query($n: String!) { savedView(name: $n) { state } }`, map[string]any{"n": name}).Data, &kept)
	if s := kept.SavedView.State; s.G != "map" || !slices.Equal(s.M, before.Projection[:]) {
		t.Errorf("the view kept the layout %q and the projection %v, want the map and %v", s.G, s.M, before.Projection)
	}

	b.do(chromedp.EmulateViewport(1100, 700), chromedp.Navigate("about:blank"), chromedp.Navigate(h.URL+"/#saved="+name))
	b.until("the view reopened", fmt.Sprintf(`window.casegraph?.views.open?.name === %q && !window.casegraph.views.opening && document.body.dataset.ready === "true"`, name))
	b.mapDrawn()
	after := b.mapState()
	if after.Projection != before.Projection {
		t.Errorf("the kept view reopens with the projection %v, it was saved with %v", after.Projection, before.Projection)
	}
	for nid, n := range before.Nodes {
		if a, ok := after.Nodes[nid]; !ok || math.Abs(a.X-n.X) > 1 || math.Abs(a.Y-n.Y) > 1 {
			t.Errorf("%s at %+v reopened, at %+v saved", nid, a, n)
		}
	}
	b.outlinesFollow(id("london"))
	b.shot("map-kept-view")
	b.checkClean()
}
