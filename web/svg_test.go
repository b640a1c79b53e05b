package web_test

import (
	"encoding/xml"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/chromedp/chromedp"
)

// svgDoc is what TestSVGEqualsCanvas reads of an SVG export: the groups
// that draw entities and relations, with what they draw, and on the map
// the outlines beneath them.
type svgDoc struct {
	Groups []svgGroup `xml:"g"`
	Map    []svgLayer `xml:"svg"`
}

// svgLayer is the map's outlines in an SVG export: a viewport that clips
// them to the drawing, and what it holds, in order.
type svgLayer struct {
	X      float64 `xml:"x,attr"`
	Y      float64 `xml:"y,attr"`
	Width  float64 `xml:"width,attr"`
	Height float64 `xml:"height,attr"`
	G      struct {
		Class  string     `xml:"class,attr"`
		Shapes []svgShape `xml:",any"`
	} `xml:"g"`
}

// svgShape is one shape of the outlines: the sphere, a country, the strip's panel or its title.
type svgShape struct {
	XMLName xml.Name
	Class   string `xml:"class,attr"`
	D       string `xml:"d,attr"`
	Fill    string `xml:"fill,attr"`
	Stroke  string `xml:"stroke,attr"`
	Name    string `xml:"data-name,attr"`
	Text    string `xml:",chardata"`
}

type svgGroup struct {
	Class     string `xml:"class,attr"`
	ID        string `xml:"data-id,attr"`
	Transform string `xml:"transform,attr"`
	Opacity   string `xml:"opacity,attr"`
	Ellipses  []struct {
		RX   float64 `xml:"rx,attr"`
		Fill string  `xml:"fill,attr"`
	} `xml:"ellipse"`
	Rects []struct {
		Width float64 `xml:"width,attr"`
		RX    string  `xml:"rx,attr"`
		Fill  string  `xml:"fill,attr"`
	} `xml:"rect"`
	Polygons []struct {
		Class  string `xml:"class,attr"`
		Points string `xml:"points,attr"`
		Fill   string `xml:"fill,attr"`
	} `xml:"polygon"`
	Paths []struct {
		D      string `xml:"d,attr"`
		Stroke string `xml:"stroke,attr"`
		Width  string `xml:"stroke-width,attr"`
	} `xml:"path"`
	Texts []string `xml:"text"`
}

// canvasElement is what the canvas draws of an entity or relation.
type canvasElement struct {
	ID, Shape, Fill, Label, Stroke string
	X, Y, W, SX, SY, TX, TY, Width float64
	Opacity                        float64
	Arrow                          bool
}

// TestSVGEqualsCanvas exports the report's neighbourhood (the seed's busiest) as SVG, with one
// entity hidden, one relation type left out and a path highlighted, and
// checks that the SVG draws what the canvas shows: the same entities and
// relations (the hidden and left-out ones absent), each entity at its
// place with its shape, size, colour and label, each relation from where
// its line starts to where it ends, in its colour and width, with its
// arrow and label, and the faded ones faded; then the same on the map,
// whose outlines the SVG holds as they are drawn under the canvas.
func TestSVGEqualsCanvas(t *testing.T) {
	store := cyphertest.Store(t, cypher.Options{})
	ds, id := cyphertest.LoadSeed(t, store)
	h := readerServer(t, ds)
	b := openTab(t, h.URL)
	signInTab(t, b, h)
	b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(h.URL+"/#"+viewOf(t, h, id("caesar-report"))))
	b.until("the view", `document.body.dataset.ready === "true"`)
	if n := js[int](b, `window.casegraph.canvas.cy.nodes().length`); n < 5 {
		t.Fatalf("%d entities drawn, want the report's neighbourhood", n)
	}
	hidden := js[string](b, fmt.Sprintf(`(() => {
		const c = window.casegraph.canvas;
		const other = c.cy.nodes().filter((n) => n.id() !== %[1]q && n.degree(false) === 1).first();
		c.hide([other.id()]);
		const e = c.cy.getElementById(%[1]q).connectedEdges(":visible");
		c.leaveOut("types", e.last().data("relation").type, true);
		const on = e.first();
		c.highlight([on.source().id(), on.target().id()], [on.id()]);
		c.fit();
		return other.id();
	})()`, id("caesar-report")))
	b.shot("svg-canvas")
	checkSVGEqualsCanvas(t, b, hidden)
	// On the map, the same holds, and the outlines are in the SVG as drawn.
	b.chooseLayout("map")
	b.mapDrawn()
	b.shot("svg-map")
	checkSVGEqualsCanvas(t, b, hidden)
	b.checkClean()
}

// checkSVGEqualsCanvas exports the view as SVG and checks that it draws
// what the canvas shows: the same entities and relations (hidden, the
// entity hidden, absent), each entity at its place with its shape, size,
// colour and label, each relation from where its line starts to where it
// ends, in its colour and width, with its arrow and label, the faded ones
// faded; on the map, the outlines beneath them as drawn.
func checkSVGEqualsCanvas(t *testing.T, b *tab, hidden ...string) {
	t.Helper()
	want := js[[]canvasElement](b, `window.casegraph.canvas.cy.elements(":visible").map((e) => {
		const px = (v) => parseFloat(v) || 0;
		const base = { ID: e.id(), Label: String(e.style("label") ?? ""), Opacity: px(e.style("opacity")) };
		if (e.isNode()) return { ...base, Shape: e.style("shape"), Fill: e.style("background-color"), X: e.position("x"), Y: e.position("y"), W: e.width() };
		const s = e.sourceEndpoint(), t = e.targetEndpoint();
		return { ...base, Stroke: e.style("line-color"), Width: px(e.style("width")), SX: s.x, SY: s.y, TX: t.x, TY: t.y, Arrow: e.style("target-arrow-shape") !== "none" };
	})`)
	if len(want) == 0 {
		t.Fatal("nothing drawn")
	}
	var doc svgDoc
	if err := xml.Unmarshal(b.export("svg"), &doc); err != nil {
		t.Fatal(err)
	}
	got := map[string]svgGroup{}
	for _, g := range doc.Groups {
		got[g.ID] = g
	}
	if len(got) != len(want) {
		t.Errorf("the SVG draws %d entities and relations, the canvas shows %d", len(got), len(want))
	}
	for _, id := range hidden {
		if _, ok := got[id]; ok {
			t.Errorf("the SVG draws the hidden entity %s", id)
		}
	}
	faded := 0
	for _, w := range want {
		g, ok := got[w.ID]
		if !ok {
			t.Errorf("the SVG lacks %s, which the canvas shows", w.ID)
			continue
		}
		if label := strings.Join(g.Texts, "\n"); label != w.Label {
			t.Errorf("%s: SVG label %q, canvas %q", w.ID, label, w.Label)
		}
		if o := parseOr(g.Opacity, 1); math.Abs(o-w.Opacity) > 0.01 {
			t.Errorf("%s: SVG opacity %v, canvas %v", w.ID, o, w.Opacity)
		}
		if w.Opacity < 1 {
			faded++
		}
		if g.Class == "node" {
			checkSVGNode(t, w, g)
		} else {
			checkSVGEdge(t, w, g)
		}
	}
	if len(hidden) > 0 && faded == 0 {
		t.Error("nothing faded: the highlighted path did not take")
	}
	checkSVGOutlines(t, b, doc.Map)
}

// checkSVGOutlines checks an SVG export's outlines against those drawn
// under the canvas: none when the map is not shown; else, clipped to the
// drawing, the same shapes in the same order (the sphere, the strip's
// panel and title, each country whose box meets the drawing's, a tenth of
// a unit either way), with the same path, fill and stroke.
func checkSVGOutlines(t *testing.T, b *tab, layers []svgLayer) {
	t.Helper()
	if !js[bool](b, `window.casegraph.canvas.map.shown`) {
		if len(layers) != 0 {
			t.Errorf("the SVG has %d map layers, with no map shown", len(layers))
		}
		return
	}
	if len(layers) != 1 || layers[0].G.Class != "map" {
		t.Fatalf("the SVG has %d map layers, want one with the outlines", len(layers))
	}
	l := layers[0]
	type drawn struct {
		Tag, Class, D, Fill, Stroke, Name, Text string
		In, Out                                 bool
	}
	screen := js[[]drawn](b, fmt.Sprintf(`[...document.querySelector("#canvas svg.map-underlay g.map").children].map(e => {
		const b = e.getBBox(), meets = (m) => b.x - m <= %[1]g + %[3]g && b.x + b.width + m >= %[1]g && b.y - m <= %[2]g + %[4]g && b.y + b.height + m >= %[2]g;
		const country = e.classList.contains("country");
		return { Tag: e.tagName, Class: e.getAttribute("class"), D: e.getAttribute("d") ?? "", Fill: e.getAttribute("fill"), Stroke: e.getAttribute("stroke") ?? "", Name: e.dataset.name ?? "", Text: e.tagName === "text" ? e.textContent : "", In: !country || meets(-0.1), Out: country && !meets(0.1) };
	})`, l.X, l.Y, l.Width, l.Height))
	countries := 0
	at := 0
	for _, s := range screen {
		var g *svgShape
		if at < len(l.G.Shapes) {
			g = &l.G.Shapes[at]
		}
		same := g != nil && g.XMLName.Local == s.Tag && g.Class == s.Class && g.D == s.D && g.Fill == s.Fill && g.Stroke == s.Stroke && g.Name == s.Name && strings.TrimSpace(g.Text) == s.Text
		switch {
		case same:
			at++
			if s.Class == "country" {
				countries++
			}
			if s.Out {
				t.Errorf("the SVG holds %s, whose outline is clear of the drawing", s.Name)
			}
		case s.In:
			t.Errorf("the SVG lacks the %s %s %s drawn under the canvas (it has %+v there)", s.Tag, s.Class, s.Name, g)
			return
		}
	}
	if at != len(l.G.Shapes) {
		t.Errorf("the SVG's outlines hold %d shapes more than drawn: %+v", len(l.G.Shapes)-at, l.G.Shapes[at])
	}
	if countries == 0 {
		t.Error("the SVG holds no country's outline")
	}
}

func checkSVGNode(t *testing.T, w canvasElement, g svgGroup) {
	t.Helper()
	var x, y float64
	if _, err := fmt.Sscanf(g.Transform, "translate(%g,%g)", &x, &y); err != nil || math.Abs(x-w.X) > 0.06 || math.Abs(y-w.Y) > 0.06 {
		t.Errorf("%s: SVG at %q, canvas at (%.1f,%.1f)", w.ID, g.Transform, w.X, w.Y)
	}
	var fill string
	var size float64
	switch w.Shape {
	case "ellipse":
		if len(g.Ellipses) == 1 {
			fill, size = g.Ellipses[0].Fill, 2*g.Ellipses[0].RX
		}
	case "rectangle", "round-rectangle":
		if len(g.Rects) == 1 && (g.Rects[0].RX != "") == (w.Shape == "round-rectangle") {
			fill, size = g.Rects[0].Fill, g.Rects[0].Width
		}
	case "diamond", "triangle":
		if len(g.Polygons) == 1 && len(strings.Fields(g.Polygons[0].Points)) == map[string]int{"diamond": 4, "triangle": 3}[w.Shape] {
			fill, size = g.Polygons[0].Fill, polygonWidth(g.Polygons[0].Points)
		}
	}
	if fill == "" {
		t.Errorf("%s: the SVG draws no %s", w.ID, w.Shape)
		return
	}
	if fill != w.Fill || math.Abs(size-w.W) > 0.2 {
		t.Errorf("%s: SVG %s %v wide in %s, canvas %v wide in %s", w.ID, w.Shape, size, fill, w.W, w.Fill)
	}
}

var pathEnds = regexp.MustCompile(`^M(-?[\d.]+),(-?[\d.]+) .*?(-?[\d.]+),(-?[\d.]+)$`)

func checkSVGEdge(t *testing.T, w canvasElement, g svgGroup) {
	t.Helper()
	if len(g.Paths) != 1 {
		t.Errorf("%s: the SVG draws %d lines", w.ID, len(g.Paths))
		return
	}
	p := g.Paths[0]
	m := pathEnds.FindStringSubmatch(p.D)
	if m == nil {
		t.Errorf("%s: path %q", w.ID, p.D)
		return
	}
	ends := []float64{parseOr(m[1], math.NaN()), parseOr(m[2], math.NaN()), parseOr(m[3], math.NaN()), parseOr(m[4], math.NaN())}
	if !slices.EqualFunc(ends, []float64{w.SX, w.SY, w.TX, w.TY}, func(a, b float64) bool { return math.Abs(a-b) <= 0.06 }) {
		t.Errorf("%s: SVG line %v, canvas from (%.1f,%.1f) to (%.1f,%.1f)", w.ID, ends, w.SX, w.SY, w.TX, w.TY)
	}
	if p.Stroke != w.Stroke || math.Abs(parseOr(p.Width, 0)-w.Width) > 0.01 {
		t.Errorf("%s: SVG line %s %s wide, canvas %s %v wide", w.ID, p.Stroke, p.Width, w.Stroke, w.Width)
	}
	arrows := 0
	for _, pg := range g.Polygons {
		if pg.Class == "arrow" {
			arrows++
			// Cytoscape's arrow on the widest line (5, confidence 1) is
			// 10.6 long and across, under 12 wide however turned; its tip
			// is where the line ends.
			if wd := polygonWidth(pg.Points); wd > 12 {
				t.Errorf("%s: the SVG's arrow is %.1f wide", w.ID, wd)
			}
			if tip := strings.Fields(pg.Points)[0]; tip != fmt.Sprintf("%.1f,%.1f", w.TX, w.TY) {
				t.Errorf("%s: the SVG's arrow points at %s, the line ends at (%.1f,%.1f)", w.ID, tip, w.TX, w.TY)
			}
		}
	}
	if (arrows == 1) != w.Arrow {
		t.Errorf("%s: the SVG draws %d arrows, the canvas's has one: %v", w.ID, arrows, w.Arrow)
	}
}

// polygonWidth is how wide a polygon's points spread.
func polygonWidth(points string) float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range strings.Fields(points) {
		x := parseOr(strings.Split(p, ",")[0], math.NaN())
		lo, hi = min(lo, x), max(hi, x)
	}
	return hi - lo
}

func parseOr(s string, or float64) float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return or
	}
	return v
}
