package web_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestExplorerWriteTypedProperties: the relation form shows the
// properties the chosen type carries (relationTypes' properties), and only
// those; the server's refusal of one is shown at its input; saved, they are
// stored, and an edit shows them again. The entity form edits a person's
// identifiers (type, number, issuer), a refused one shown at its row.
func TestExplorerWriteTypedProperties(t *testing.T) {
	h, ds, src, b := writeTab(t)
	for _, e := range []struct{ id, kind, name string }{{"amal", "PERSON", "Amal Haddad"}, {"omar", "PERSON", "Omar Haddad"}, {"firm", "ORGANIZATION", "Haddad Holdings"}} {
		h.MustPost(`mutation($in: EntityInput!) { upsertEntity(input: $in) { id } }`, map[string]any{"in": map[string]any{"id": ds + ":" + e.id, "kind": e.kind, "name": e.name, "dataset": ds, "sourceIds": []string{src}}})
	}
	amal, omar, firm := ds+":amal", ds+":omar", ds+":firm"
	props := func(b *tab) []string {
		return js[[]string](b, `["share", "amount", "currency", "relationship", "post", "rank"].filter(f => document.querySelector('#relation-form [data-field="' + f + '"]'))`)
	}
	stored := func(id string) map[string]any {
		res := h.MustPost(`query($id: ID!) { relation(id: $id) { share amount currency relationship post rank } }`, map[string]any{"id": id})
		return res.Data["relation"].(map[string]any)
	}

	for _, c := range []struct {
		typ, from, to string
		fields        []string
		bad           map[string]string
		badAt         string
		good          map[string]string
		want          map[string]any
	}{
		{"OWNS", amal, firm, []string{"share"}, map[string]string{"share": "150"}, "share", map[string]string{"share": "51"}, map[string]any{"share": 51.0}},
		{"PAID", firm, omar, []string{"amount", "currency"}, map[string]string{"amount": "2500", "currency": "dollars"}, "currency", map[string]string{"currency": "USD"}, map[string]any{"amount": 2500.0, "currency": "USD"}},
		// A number typed as no number is refused at its field, not sent as null (which would drop it).
		{"PAID", firm, omar, []string{"amount", "currency"}, map[string]string{"amount": "2,500", "currency": "USD"}, "amount", map[string]string{"amount": "2500.5"}, map[string]any{"amount": 2500.5, "currency": "USD"}},
		{"FAMILY_OF", amal, omar, []string{"relationship"}, nil, "", map[string]string{"relationship": "SIBLING"}, map[string]any{"relationship": "SIBLING"}},
		{"HELD_POSITION", omar, firm, []string{"post", "rank"}, map[string]string{"post": strings.Repeat("chief ", 40)}, "post", map[string]string{"post": "chief financial officer", "rank": "none"}, map[string]any{"post": "chief financial officer", "rank": "none"}},
	} {
		t.Run(c.typ, func(t *testing.T) {
			b.t = t
			b.do(chromedp.Click(chromedp.ID("write-relation")))
			b.until("the relation form", `document.getElementById("relation-form") !== null`)
			if got := props(b); len(got) != 0 {
				t.Errorf("the default type shows %v", got)
			}
			b.fill("relation-form", map[string]string{"type": c.typ, "from": c.from, "to": c.to, "citations[0].sourceId": src})
			if got := props(b); !slices.Equal(got, c.fields) {
				t.Errorf("%s shows the properties %v, want %v", c.typ, got, c.fields)
			}
			if c.bad != nil {
				b.fill("relation-form", c.bad)
				b.formErrors("relation-form", c.badAt)
			}
			b.fill("relation-form", c.good)
			b.do(chromedp.Click(chromedp.CSS(`#relation-form button[type="submit"]`)))
			b.panel("the new relation", `!!document.getElementById("relation-heading")?.dataset.relation`)
			rel := js[string](b, `document.getElementById("relation-heading").dataset.relation`)
			got := stored(rel)
			for k, v := range c.want {
				if got[k] != v {
					t.Errorf("%s stored %v, want %v (%v)", k, got[k], v, got)
				}
			}
			if c.typ == "OWNS" {
				// An edit shows the share read, and writes the new one.
				b.do(chromedp.Click(chromedp.ID("edit-relation")))
				b.until("the share read", `document.querySelector('#relation-form [data-field="share"]')?.value === "51"`)
				b.fill("relation-form", map[string]string{"share": "60"})
				b.do(chromedp.Click(chromedp.CSS(`#relation-form button[type="submit"]`)))
				b.panel("the edited relation", `document.getElementById("relation-form") === null && !!document.getElementById("relation-heading")?.dataset.relation`)
				if got := stored(rel)["share"]; got != 60.0 {
					t.Errorf("the edit stored the share %v, want 60", got)
				}
			}
			b.axe("#right")
			b.checkClean()
		})
	}

	t.Run("a person's identifiers", func(t *testing.T) {
		b.t = t
		js[any](b, fmt.Sprintf(`window.casegraph.open(%q)`, amal))
		b.panel("Amal", `document.getElementById("edit-entity") !== null`)
		b.do(chromedp.Click(chromedp.ID("edit-entity")))
		b.until("the entity's edit form", `document.querySelector('#entity-form [data-field="identifiers[0].value"]') !== null`)
		b.do(chromedp.Click(chromedp.CSS(`#entity-form fieldset.identifiers > button`)))
		b.fill("entity-form", map[string]string{"identifiers[0].type": "PASSPORT", "identifiers[0].value": "N1234", "identifiers[0].issuer": "SY",
			"identifiers[1].type": "PASSPORT", "identifiers[1].value": "N1234", "identifiers[1].issuer": "SY"})
		b.fieldErrors("identifiers[1].value")
		b.fill("entity-form", map[string]string{"identifiers[1].type": "NATIONAL_ID", "identifiers[1].value": "0102", "identifiers[1].issuer": ""})
		b.do(chromedp.Click(chromedp.CSS(`#entity-form button[type="submit"]`)))
		b.panel("the edited entity", `document.getElementById("edit-entity") !== null`)
		var e struct {
			Entity struct {
				Identifiers []struct {
					Type, Value string
					Issuer      *string
				}
			}
		}
		decode(t, h.MustPost(`query($id: ID!) { entity(id: $id) { ... on Person { identifiers { type value issuer } } } }`, map[string]any{"id": amal}).Data, &e)
		ids := e.Entity.Identifiers
		if len(ids) != 2 || ids[0].Type != "PASSPORT" || ids[0].Value != "N1234" || ids[0].Issuer == nil || *ids[0].Issuer != "SY" || ids[1].Type != "NATIONAL_ID" || ids[1].Value != "0102" || ids[1].Issuer != nil {
			t.Errorf("the identifiers stored: %+v", ids)
		}
		b.do(chromedp.Click(chromedp.ID("edit-entity")))
		b.until("the identifiers read", `document.querySelector('#entity-form [data-field="identifiers[1].value"]')?.value === "0102"`)
		b.axe("#right")
		b.checkClean()
	})
}
