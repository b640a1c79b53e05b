package web_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/chromedp/chromedp"
)

// TestRestoreDrawsAsKept opens a link to a view of 400 generated entities
// (netOf, 520 relations), each at its place, some pinned, hidden or
// expanded, as a restore draws them in one add: each entity is drawn
// where the view kept it with its flags and its size by degree (as
// canvasstyle.ts's sizeFor says), every relation is drawn straight (past
// 300 of them), the drawing is fitted (every entity shown is on the
// canvas), and the entities' labels are left out ("far") exactly when the
// zoom is below the far zoom.
func TestRestoreDrawsAsKept(t *testing.T) {
	store := cyphertest.Store(t, cypher.Options{})
	ds := cyphertest.Dataset(t)
	nodes, relations := netOf(t, store, ds, 400)
	flags := []string{"", "p", "h", "x", "px", "", ""}
	for i := range nodes {
		nodes[i][1], nodes[i][2], nodes[i][3] = 60*(i%20), 45*(i/20), flags[i%len(flags)]
	}
	raw, err := json.Marshal(map[string]any{"n": nodes, "r": relations})
	if err != nil {
		t.Fatal(err)
	}
	h := readerServer(t, ds)
	b := openTab(t, h.URL)
	signInTab(t, b, h)
	b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(h.URL+"/#view="+base64.RawURLEncoding.EncodeToString(raw)))
	b.until("the view", fmt.Sprintf(`document.body.dataset.ready === "true" && window.casegraph?.canvas.cy.nodes().length === %d`, len(nodes)))

	type drawn struct {
		ID                               string
		X, Y, RX, RY                     float64
		Locked, Pinned, Hidden, Expanded bool
		Far                              bool
		Size                             float64
		Degree                           int
		Visible                          bool
	}
	got := js[[]drawn](b, `window.casegraph.canvas.cy.nodes().map(n => ({
		ID: n.id(), X: n.position("x"), Y: n.position("y"), RX: n.renderedPosition("x"), RY: n.renderedPosition("y"),
		Locked: n.locked(), Pinned: n.hasClass("pinned"), Hidden: n.hasClass("hidden"), Expanded: !!n.data("expanded"),
		Far: n.hasClass("far"), Size: n.data("size"), Degree: n.degree(false), Visible: n.visible(),
	}))`)
	byID := map[string]drawn{}
	for _, d := range got {
		byID[d.ID] = d
	}
	view := js[struct{ Zoom, W, H float64 }](b, `(c => ({ Zoom: c.zoom(), W: c.width(), H: c.height() }))(window.casegraph.canvas.cy)`)
	far := view.Zoom < 7.0/11
	for _, n := range nodes {
		id, f := n[0].(string), n[3].(string)
		d, ok := byID[id]
		if !ok {
			t.Errorf("%s is not drawn", id)
			continue
		}
		want := drawn{ID: id, X: float64(n[1].(int)), Y: float64(n[2].(int)), RX: d.RX, RY: d.RY,
			Locked: f == "p" || f == "px", Pinned: f == "p" || f == "px", Hidden: f == "h", Expanded: f == "x" || f == "px",
			Far: far, Size: math.Round(math.Min(64, 24+6*math.Sqrt(float64(d.Degree)))), Degree: d.Degree, Visible: f != "h"}
		if d != want {
			t.Errorf("%s drawn as %+v, want %+v", id, d, want)
		}
		if d.Visible && (d.RX < 0 || d.RX > view.W || d.RY < 0 || d.RY > view.H) {
			t.Errorf("%s is drawn off the fitted canvas, at (%.0f, %.0f) of %.0f × %.0f", id, d.RX, d.RY, view.W, view.H)
		}
	}
	if n := js[int](b, `window.casegraph.canvas.cy.edges().not(".many").length`); n != 0 {
		t.Errorf("%d of %d relations drawn curved, want all straight", n, len(relations))
	}
	b.shot("restored-as-kept")
	b.checkClean()
}
