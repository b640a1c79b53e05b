package web_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server/servertest"
	"github.com/chromedp/chromedp"
)

// TestExplorerWrite drives writing from the explorer (issue 26 item 6) on
// a dataset of its own: an editor adds an entity with a citation, then a
// relation between two drawn entities, and edits both, the canvas
// redrawing them; a bad input (an empty name, an impossible date, a
// source there is none of) is shown at its fields with nothing written; a dropped file with one good
// and two bad lines lists the two errors by line, nothing imported; each
// write is in the audit log; a reader sees no write control and a file it
// drops is refused; axe finds no serious or critical violation in the
// forms and the import panel.
func TestExplorerWrite(t *testing.T) {
	h, ds, src, b := writeTab(t)
	reader := h.Key(casegraph.NewAPIKey{Name: "reader " + t.Name(), Role: casegraph.RoleReader, Datasets: []string{ds}})
	count := func() int {
		res := h.MustPost(`query($ds: [String!]) { entities(filter: {datasets: $ds}) { totalCount } }`, map[string]any{"ds": []string{ds}})
		var out struct{ Entities struct{ TotalCount int } }
		decode(t, res.Data, &out)
		return out.Entities.TotalCount
	}

	var first, second, rel string
	t.Run("an editor adds an entity with its citation", func(t *testing.T) {
		b.t = t
		b.do(chromedp.Click(chromedp.ID("write-entity")))
		b.until("the entity form", `document.getElementById("entity-form") !== null`)
		b.fill("entity-form", map[string]string{"name": "Amal Haddad", "aliases": "A. Haddad", "dataset": ds, "birthDate": "1971-04",
			"citations[0].sourceId": src, "citations[0].quote": "Haddad ran the clinic.", "citations[0].locator": "p. 3"})
		b.axe("#right")
		b.do(chromedp.Click(chromedp.CSS(`#entity-form button[type="submit"]`)))
		b.panel("the new entity", `document.getElementById("entity-name")?.textContent.includes("Amal Haddad")`)
		first = js[string](b, `window.casegraph.canvas.cy.nodes().filter(n => n.data("name") === "Amal Haddad").map(n => n.id())[0] ?? ""`)
		if first == "" {
			t.Fatal("the new entity is not drawn")
		}
		var e struct {
			Entity struct {
				Citations []struct {
					Quote, Locator string
					Source         struct{ ID string }
				}
			}
		}
		decode(t, h.MustPost(`query($id: ID!) { entity(id: $id) { citations { quote locator source { id } } } }`, map[string]any{"id": first}).Data, &e)
		if len(e.Entity.Citations) != 1 || e.Entity.Citations[0].Quote != "Haddad ran the clinic." || e.Entity.Citations[0].Locator != "p. 3" {
			t.Errorf("the citation written: %+v", e.Entity.Citations)
		}
		b.checkClean()
	})

	t.Run("a bad input is shown at its fields and nothing is written", func(t *testing.T) {
		b.t = t
		before := count()
		b.do(chromedp.Click(chromedp.ID("write-entity")))
		b.until("the entity form", `document.getElementById("entity-form") !== null`)
		// Two problems of one input, each at its field; then a date that is none, refused as it is read.
		b.fill("entity-form", map[string]string{"name": "", "dataset": ds, "birthDate": "1971", "deathDate": "1960", "citations[0].sourceId": src})
		b.fieldErrors("name", "birthDate")
		b.fill("entity-form", map[string]string{"name": "Nadia Salem", "birthDate": "1971-13-40", "deathDate": ""})
		b.fieldErrors("birthDate")
		// A source there is none of, cited in a second row after an empty
		// one: the server's citations[0] is that row, and said there.
		b.do(chromedp.Click(chromedp.CSS(`#entity-form fieldset.citations > button`)))
		b.fill("entity-form", map[string]string{"birthDate": "1971", "citations[0].sourceId": "", "citations[1].sourceId": ds + ":nope"})
		b.fieldErrors("citations[1].sourceId")
		if got := b.text(`#entity-form .field-error:not([hidden])`); !strings.Contains(got, "no source with id") {
			t.Errorf("the missing source's error: %q", got)
		}
		b.shot("field-errors")
		b.axe("#right")
		if after := count(); after != before {
			t.Errorf("a refused entity was written: %d entities, were %d", after, before)
		}
		b.checkClean()
	})

	t.Run("an editor adds a relation between two drawn entities and edits both", func(t *testing.T) {
		b.t = t
		b.do(chromedp.Click(chromedp.ID("write-entity")))
		b.until("the entity form", `document.getElementById("entity-form") !== null`)
		b.fill("entity-form", map[string]string{"name": "Omar Khalil", "dataset": ds, "citations[0].sourceId": src})
		b.do(chromedp.Click(chromedp.CSS(`#entity-form button[type="submit"]`)))
		b.panel("the second entity", `document.getElementById("entity-name")?.textContent.includes("Omar Khalil")`)
		second = js[string](b, `window.casegraph.canvas.cy.nodes().filter(n => n.data("name") === "Omar Khalil").map(n => n.id())[0] ?? ""`)
		js[any](b, fmt.Sprintf(`window.casegraph.canvas.cy.nodes().unselect(), window.casegraph.canvas.select([%q, %q]), 0`, first, second))

		b.do(chromedp.Click(chromedp.ID("write-relation")))
		b.until("the relation form", `document.getElementById("relation-form") !== null`)
		if got := js[[]string](b, `["from", "to"].map(f => document.querySelector('#relation-form [data-field="' + f + '"]').value)`); !slices.Equal(got, []string{first, second}) {
			t.Errorf("from and to are %v, the selection was %s, %s", got, first, second)
		}
		b.fill("relation-form", map[string]string{"type": "ASSOCIATE_OF", "role": "colleague", "startDate": "2012", "status": "CONFIRMED", "confidence": "0.8",
			"citations[0].sourceId": src, "citations[0].quote": "They worked together.", "citations[0].locator": "p. 4"})
		b.axe("#right")
		b.do(chromedp.Click(chromedp.CSS(`#relation-form button[type="submit"]`)))
		b.panel("the new relation", `!!document.getElementById("relation-heading")?.dataset.relation`)
		rel = js[string](b, `document.getElementById("relation-heading").dataset.relation`)
		if !js[bool](b, fmt.Sprintf(`window.casegraph.canvas.cy.getElementById(%q).nonempty()`, rel)) {
			t.Error("the new relation is not drawn")
		}

		b.do(chromedp.Click(chromedp.ID("edit-relation")))
		b.until("the relation's edit form", `document.querySelector('#relation-form [data-field="role"]')?.value === "colleague"`)
		b.fill("relation-form", map[string]string{"role": "co-founder"})
		b.do(chromedp.Click(chromedp.CSS(`#relation-form button[type="submit"]`)))
		b.panel("the edited relation", `document.getElementById("relation-facts")?.textContent.includes("co-founder")`)
		if got := js[string](b, fmt.Sprintf(`window.casegraph.canvas.cy.getElementById(%q).data("relation").role`, rel)); got != "co-founder" {
			t.Errorf("the canvas draws the relation with role %q", got)
		}

		js[any](b, fmt.Sprintf(`window.casegraph.open(%q)`, first))
		b.panel("the first entity", `document.getElementById("edit-entity") !== null`)
		b.do(chromedp.Click(chromedp.ID("edit-entity")))
		b.until("the entity's edit form", `document.querySelector('#entity-form [data-field="name"]')?.value === "Amal Haddad"`)
		b.fill("entity-form", map[string]string{"name": "Amal Haddad-Rahman"})
		b.do(chromedp.Click(chromedp.CSS(`#entity-form button[type="submit"]`)))
		b.panel("the edited entity", `document.getElementById("entity-name")?.textContent.includes("Haddad-Rahman")`)
		if got := js[string](b, fmt.Sprintf(`window.casegraph.canvas.cy.getElementById(%q).data("name")`, first)); got != "Amal Haddad-Rahman" {
			t.Errorf("the canvas draws the entity as %q", got)
		}
		if got := b.text("#panel-entity"); !strings.Contains(got, "A. Haddad") {
			t.Errorf("the edit lost the aliases: %q", got)
		}
		var e struct{ Entity struct{ BirthDate string } }
		decode(t, h.MustPost(`query($id: ID!) { entity(id: $id) { ... on Person { birthDate } } }`, map[string]any{"id": first}).Data, &e)
		if e.Entity.BirthDate != "1971-04" {
			t.Errorf("the edit left the birth date %q", e.Entity.BirthDate)
		}
		b.checkClean()
	})

	t.Run("a dropped file's bad lines are listed by line", func(t *testing.T) {
		b.t = t
		before := count()
		file := strings.Join([]string{
			fmt.Sprintf(`{"type": "entity", "id": "%s:good", "kind": "PERSON", "name": "Good Line", "dataset": "%s", "sourceIds": ["%s"]}`, ds, ds, src),
			fmt.Sprintf(`{"type": "entity", "id": "%s:bad1", "kind": "Persn", "name": "Bad Kind", "dataset": "%s", "sourceIds": ["%s"]}`, ds, ds, src),
			fmt.Sprintf(`{"type": "entity", "id": "%s:bad2", "kind": "PERSON", "name": "", "dataset": "%s", "sourceIds": ["%s"]}`, ds, ds, src),
		}, "\n")
		b.drop("canvas", "people.ndjson", file)
		b.until("the import's errors", `document.querySelectorAll("#import-errors tbody tr").length > 0`)
		rows := js[[]string](b, `[...document.querySelectorAll("#import-errors tbody tr")].map(tr => [...tr.cells].slice(0, 3).map(c => c.textContent).join(" "))`)
		if want := []string{"2 BAD_USER_INPUT kind", "3 BAD_USER_INPUT name"}; !slices.Equal(rows, want) {
			t.Errorf("the errors listed: %q, want %q", rows, want)
		}
		if got := b.text("#import-refused"); !strings.Contains(got, "nothing was imported") {
			t.Errorf("the summary: %q", got)
		}
		if after := count(); after != before {
			t.Errorf("a refused import wrote: %d entities, were %d", after, before)
		}
		b.shot("import-errors")
		b.axe("#import")
		b.expectProblem("400")

		b.drop("import-drop", "people.ndjson", strings.Split(file, "\n")[0])
		b.until("the import's counts", `document.getElementById("import-written") !== null`)
		if got := b.text("#import-written"); !strings.Contains(got, "1 entities") {
			t.Errorf("the import's answer: %q", got)
		}
		b.checkClean()
	})

	t.Run("each write is in the audit log", func(t *testing.T) {
		b.t = t
		res := h.MustPost(`query($ds: String) { changes(filter: {dataset: $ds}, first: 50) { edges { node { operation targets } } } }`, map[string]any{"ds": ds})
		var out struct {
			Changes struct {
				Edges []struct {
					Node struct {
						Operation string
						Targets   []string
					}
				}
			}
		}
		decode(t, res.Data, &out)
		ops := map[string]int{}
		for _, e := range out.Changes.Edges {
			ops[e.Node.Operation]++
		}
		// Two entities added and one edited; the relation added and edited; one import.
		if ops["upsertEntity"] != 3 || ops["link"] != 2 || ops["import"] != 1 {
			t.Errorf("the audit log's operations: %v", ops)
		}
	})

	t.Run("a reader sees no write control and its drop is refused", func(t *testing.T) {
		b.t = t
		b.submitKey(reader)
		b.until("the write controls hidden", `document.getElementById("write").hidden`)
		js[any](b, fmt.Sprintf(`window.casegraph.open(%q)`, first))
		b.panel("the entity", `document.getElementById("entity-name")?.textContent.includes("Haddad-Rahman")`)
		if js[bool](b, `[...document.querySelectorAll(".write-edit")].some(e => !e.hidden)`) {
			t.Error("a reader sees an Edit button")
		}
		b.drop("canvas", "people.ndjson", fmt.Sprintf(`{"type": "entity", "id": "%s:r", "kind": "PERSON", "name": "R", "dataset": "%s", "sourceIds": ["%s"]}`, ds, ds, src))
		b.until("the refusal", `document.getElementById("import-refused") !== null`)
		if got := b.text("#import-result"); !strings.Contains(got, "FORBIDDEN") {
			t.Errorf("the reader's import: %q", got)
		}
		b.expectProblem("403")
		b.checkClean()
	})
}

// writeTab is a server with a dataset of the test's own and a source in
// it, and a tab signed in with an editor's key of the dataset, after
// checking that signed out it shows no write control.
func writeTab(t *testing.T) (h *servertest.Harness, ds, src string, b *tab) {
	t.Helper()
	h = servertest.New(t, servertest.Options{})
	ds = cyphertest.Dataset(t)
	src = ds + ":src"
	h.MustPost(`mutation($in: SourceInput!) { upsertSource(input: $in) { id } }`, map[string]any{"in": map[string]any{"id": src, "title": "Field notes " + ds, "dataset": ds}})
	editor := h.Key(casegraph.NewAPIKey{Name: "editor " + t.Name(), Role: casegraph.RoleEditor, Datasets: []string{ds}})
	b = openTab(t, h.URL)
	b.do(chromedp.Navigate(h.URL+"/"), chromedp.WaitVisible(chromedp.ID("alert")))
	b.expectProblem("401")
	if js[bool](b, `!document.getElementById("write").hidden`) {
		t.Error("signed out, the write controls show")
	}
	b.submitKey(editor)
	b.until("the write controls", `!document.getElementById("write").hidden`)
	return h, ds, src, b
}

// fieldErrors saves the entity form and waits for its errors, each at one
// of the fields (with its code), and only there.
func (b *tab) fieldErrors(fields ...string) {
	b.t.Helper()
	b.formErrors("entity-form", fields...)
}

// formErrors saves a form and waits for its errors, each at one of the
// fields (with its code), and only there.
func (b *tab) formErrors(form string, fields ...string) {
	b.t.Helper()
	b.do(chromedp.Click(chromedp.CSS(`#` + form + ` button[type="submit"]`)))
	b.until("the field errors", fmt.Sprintf(`document.querySelectorAll("#%s [aria-invalid=true]").length === %d`, form, len(fields)))
	for _, f := range fields {
		msg := js[string](b, fmt.Sprintf(`(i => i.getAttribute("aria-invalid") + " " + document.getElementById(i.id + "-error").textContent)(document.querySelector('#%s [data-field=%q]'))`, form, f))
		if !strings.HasPrefix(msg, "true BAD_USER_INPUT") {
			b.t.Errorf("the error at %s: %q", f, msg)
		}
	}
}

// fill sets a form's inputs by their API field, as typing would (an input
// event each, a change for a select).
func (b *tab) fill(form string, values map[string]string) {
	b.t.Helper()
	for f, v := range values {
		ok := js[bool](b, fmt.Sprintf(`(el => { if (!el) return false; el.value = %q; el.dispatchEvent(new Event("input", {bubbles: true})); el.dispatchEvent(new Event("change", {bubbles: true})); return true; })(document.querySelector('#%s [data-field=%q]'))`, v, form, f))
		if !ok {
			b.t.Fatalf("the form %s has no field %s", form, f)
		}
	}
}

// drop drops a file on an element, as a file dragged from the desktop is.
func (b *tab) drop(id, name, body string) {
	b.t.Helper()
	js[any](b, fmt.Sprintf(`(() => {
		const dt = new DataTransfer();
		dt.items.add(new File([%q], %q, {type: "application/x-ndjson"}));
		const el = document.getElementById(%q);
		el.dispatchEvent(new DragEvent("dragover", {dataTransfer: dt, bubbles: true, cancelable: true}));
		el.dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true}));
		return 0;
	})()`, body, name, id))
}
