package graph_test

// Type-specific relation properties over the API: each round-trips through
// link, relation(id) and an entity's relations; relationTypes says which
// type carries which; each is refused on a type that does not carry it, or
// with a bad value, and nothing is written.

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/casegraph/casegraph/cypher/cyphertest"
)

const relationPropertyFields = `share amount currency relationship post rank`

func TestRelationPropertiesOverGraphQL(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, e := range []struct{ id, kind, name string }{
		{"sister", "PERSON", "A sister"},
		{"unit", "ORGANIZATION", "4th Division"},
	} {
		if res := f.upsert(t, map[string]any{"id": f.id(e.id), "kind": e.kind, "name": e.name}); len(res.Errors) > 0 {
			t.Fatal(res.Raw)
		}
	}
	// Each link and the properties it reads back with (JSON numbers are
	// float64).
	links := []struct {
		id, typ, from, to string
		props             map[string]any
	}{
		{"owns", "OWNS", "nice", "firm", map[string]any{"share": 33.3}},
		{"paid", "PAID", "qatar", "firm", map[string]any{"amount": 1.5e6, "currency": "GBP"}},
		{"funds", "FUNDS", "qatar", "firm", map[string]any{"amount": 0.0}},
		{"family", "FAMILY_OF", "nice", "sister", map[string]any{"relationship": "SIBLING"}},
		{"commands", "COMMANDS", "nice", "unit", map[string]any{"post": "commander", "rank": "major general"}},
		{"held", "HELD_POSITION", "sister", "unit", map[string]any{"post": "chief of staff", "rank": "colonel"}},
		{"director", "DIRECTOR_OF", "nice", "firm", map[string]any{"post": "chair of the board"}},
	}
	all := strings.Fields(relationPropertyFields)
	answer := func(props map[string]any) map[string]any {
		out := map[string]any{}
		for _, p := range all {
			out[p] = props[p] // nil where the relation has none
		}
		return out
	}
	const byID = `query($id: ID!) { relation(id: $id) { ` + relationPropertyFields + ` } }`
	const ofEntity = `query($id: ID!) { entity(id: $id) { relations(first: 20) { edges { node { id ` + relationPropertyFields + ` } } } } }`
	for _, l := range links {
		in := map[string]any{"id": f.id(l.id), "type": l.typ, "from": f.id(l.from), "to": f.id(l.to), "sourceIds": []string{f.src}}
		for k, v := range l.props {
			in[k] = v
		}
		res := f.h.Post(`mutation($in: LinkInput!) { link(input: $in) { `+relationPropertyFields+` } }`, map[string]any{"in": in})
		if len(res.Errors) > 0 {
			t.Fatalf("%s: %s", l.typ, res.Raw)
		}
		if diff := cmp.Diff(answer(l.props), field(res, "link")); diff != "" {
			t.Errorf("link %s answers (-want +got):\n%s", l.typ, diff)
		}
		res = f.h.MustPost(byID, map[string]any{"id": f.id(l.id)})
		if diff := cmp.Diff(answer(l.props), field(res, "relation")); diff != "" {
			t.Errorf("relation(id) of %s (-want +got):\n%s", l.typ, diff)
		}
		// The compiled read of an entity's relations asks for them too.
		res = f.h.MustPost(ofEntity, map[string]any{"id": f.id(l.from)})
		found := false
		for _, e := range field(res, "entity", "relations", "edges").([]any) {
			node := e.(map[string]any)["node"].(map[string]any)
			if node["id"] != "relation~"+f.id(l.id) {
				continue
			}
			found = true
			delete(node, "id")
			if diff := cmp.Diff(answer(l.props), node); diff != "" {
				t.Errorf("%s among %s's relations (-want +got):\n%s", l.typ, l.from, diff)
			}
		}
		if !found {
			t.Errorf("%s is not among %s's relations: %s", l.id, l.from, res.Raw)
		}
	}

	res := f.h.MustPost(`{ relationTypes { type properties } }`, nil)
	carried := map[string][]any{}
	for _, ty := range field(res, "relationTypes").([]any) {
		m := ty.(map[string]any)
		carried[m["type"].(string)] = m["properties"].([]any)
	}
	for ty, want := range map[string][]any{"OWNS": {"share"}, "PAID": {"amount", "currency"}, "FUNDS": {"amount", "currency"},
		"FAMILY_OF": {"relationship"}, "COMMANDS": {"post", "rank"}, "HELD_POSITION": {"post", "rank"},
		"DIRECTOR_OF": {"post"}, "MEMBER_OF": {}} {
		if diff := cmp.Diff(want, carried[ty]); diff != "" {
			t.Errorf("relationTypes: %s's properties (-want +got):\n%s", ty, diff)
		}
	}
}

// TestRelationPropertiesRefused: a property on a type that does not carry
// it, or a bad value, is BAD_USER_INPUT with a message that names it (and
// the types that carry it), and nothing is written.
func TestRelationPropertiesRefused(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	linkIn := func(typ string, props map[string]any) map[string]any {
		in := map[string]any{"type": typ, "from": f.id("firm"), "to": f.id("qatar"), "sourceIds": []string{f.src}}
		if typ == "OWNS" || typ == "DIRECTOR_OF" || typ == "COMMANDS" {
			in["from"] = f.id("nice")
		}
		for k, v := range props {
			in[k] = v
		}
		return map[string]any{"in": in}
	}
	tests := []struct {
		name string
		vars map[string]any
		msg  string
	}{
		{"share on REPRESENTS", linkIn("REPRESENTS", map[string]any{"share": 10}), "a relation of type REPRESENTS has no share: only OWNS relations carry it"},
		{"amount on OWNS", linkIn("OWNS", map[string]any{"amount": 10}), "a relation of type OWNS has no amount: only FUNDS or PAID relations carry it"},
		{"currency on MEMBER_OF", linkIn("MEMBER_OF", map[string]any{"amount": 1, "currency": "USD"}), "has no amount: only FUNDS or PAID relations carry it"},
		{"relationship on REPRESENTS", linkIn("REPRESENTS", map[string]any{"relationship": "PARENT"}), "a relation of type REPRESENTS has no relationship: only FAMILY_OF relations carry it"},
		{"post on MEMBER_OF", linkIn("MEMBER_OF", map[string]any{"post": "chair"}), "a relation of type MEMBER_OF has no post: only HELD_POSITION, COMMANDS or DIRECTOR_OF relations carry it"},
		{"rank on DIRECTOR_OF", linkIn("DIRECTOR_OF", map[string]any{"rank": "colonel"}), "a relation of type DIRECTOR_OF has no rank: only HELD_POSITION or COMMANDS relations carry it"},
		{"a share of 0", linkIn("OWNS", map[string]any{"share": 0}), "share 0 is not a percentage above 0 and at most 100"},
		{"a share over 100", linkIn("OWNS", map[string]any{"share": 120}), "share 120 is not"},
		{"a negative amount", linkIn("PAID", map[string]any{"amount": -5}), "amount -5 is not a number of at least 0"},
		{"a currency alone", linkIn("PAID", map[string]any{"currency": "USD"}), "currency USD without an amount"},
		{"a currency not ISO 4217", linkIn("PAID", map[string]any{"amount": 5, "currency": "dollars"}), `currency "dollars" is not an ISO 4217 code`},
		{"an unknown relationship", linkIn("FAMILY_OF", map[string]any{"relationship": "MOTHER"}), "MOTHER"},
		{"a post too long", linkIn("COMMANDS", map[string]any{"post": strings.Repeat("p", 201)}), "post is 201 characters long; the limit is 200"},
	}
	before := cyphertest.Snapshot(t, f.h.Store, f.ds)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := f.h.Post(link, tt.vars)
			if res.Code() != "BAD_USER_INPUT" {
				t.Fatalf("code = %q, want BAD_USER_INPUT; response %s", res.Code(), truncate(res.Raw))
			}
			if !strings.Contains(res.Errors[0].Message, tt.msg) {
				t.Errorf("message %q does not say %q", res.Errors[0].Message, tt.msg)
			}
			if after := cyphertest.Snapshot(t, f.h.Store, f.ds); !cmp.Equal(before, after) {
				t.Errorf("the graph changed (-before +after):\n%s", cmp.Diff(before, after))
			}
		})
	}
}
