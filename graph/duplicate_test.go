package graph_test

// duplicateCandidates: planted pairs found, decisions kept, and the
// caller's scope.

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server/servertest"
)

const duplicatesQuery = `query($ds: String!, $kinds: [EntityKind!], $first: Int, $after: String) {
  duplicateCandidates(dataset: $ds, kinds: $kinds, first: $first, after: $after) {
    totalCount truncated
    pageInfo { hasNextPage endCursor }
    edges { cursor node { a { id name } b { id name } score reasons { kind detail weight } } }
  }
}`

const dismissMutation = `mutation($a: ID!, $b: ID!) { dismissDuplicate(a: $a, b: $b) { a b dismissedBy dismissedAt } }`

// dupFixture is a dataset with planted duplicates: initials, a
// transliteration, a reversed name, two events of compatible dates, and a
// protected witness whose unprotected double only cleared callers may be
// told of; a Person and an Organization of one name are never paired.
type dupFixture struct {
	fixture
	witness string
}

func newDupFixture(t *testing.T) dupFixture {
	t.Helper()
	f := newBareFixture(t)
	d := dupFixture{fixture: f, witness: f.id("wq9-witness")}
	for _, in := range []map[string]any{
		{"id": f.id("smith"), "kind": "PERSON", "name": "John Robert Smith", "nationality": "GB"},
		{"id": f.id("jrsmith"), "kind": "PERSON", "name": "J. R. Smith", "nationality": "GB"},
		{"id": f.id("carla"), "kind": "PERSON", "name": "Carla Smith"},
		{"id": f.id("mohammed"), "kind": "PERSON", "name": "Mohammed Haddad"},
		{"id": f.id("muhammad"), "kind": "PERSON", "name": "Muhammad Hadad", "aliases": []string{"Abu Hadi"}},
		{"id": f.id("bashar"), "kind": "PERSON", "name": "Bashar al-Assad"},
		{"id": f.id("asad"), "kind": "PERSON", "name": "Asad, Bashar"},
		{"id": f.id("foundation"), "kind": "ORGANIZATION", "name": "Bashar al-Assad"},
		{"id": f.id("agency"), "kind": "ORGANIZATION", "name": "Agency"},
		{"id": f.id("siege"), "kind": "EVENT", "name": "Siege of Homs", "startDate": "2012", "endDate": "2014"},
		{"id": f.id("homs"), "kind": "EVENT", "name": "Homs siege", "startDate": "2013-05"},
		{"id": d.witness, "kind": "PERSON", "name": "Wqnine Zorbalova", "protected": true},
		{"id": f.id("zorbalova"), "kind": "PERSON", "name": "W. Zorbalova"},
	} {
		if res := f.upsert(t, in); len(res.Errors) > 0 {
			t.Fatal(res.Raw)
		}
	}
	for _, in := range []map[string]any{
		{"id": f.id("r1"), "type": "MEMBER_OF", "from": f.id("smith"), "to": f.id("agency"), "dataset": f.ds},
		{"id": f.id("r2"), "type": "MEMBER_OF", "from": f.id("jrsmith"), "to": f.id("agency"), "dataset": f.ds},
	} {
		if res := f.link(t, in); len(res.Errors) > 0 {
			t.Fatal(res.Raw)
		}
	}
	return d
}

// dupRow is a candidate as the tests compare it: the pair (ids without
// the dataset) and its reasons' kinds.
type dupRow struct {
	A, B    string
	Reasons string
}

// duplicates reads every page of a dataset's candidates as token, first
// at a time, and returns them in order.
func duplicates(t *testing.T, h *servertest.Harness, token, ds string, first int) ([]dupRow, servertest.Response) {
	t.Helper()
	var out []dupRow
	var after any
	for page := 0; ; page++ {
		if page > 20 {
			t.Fatal("more than 20 pages")
		}
		res := h.PostAs(token, duplicatesQuery, map[string]any{"ds": ds, "first": first, "after": after})
		if len(res.Errors) > 0 {
			return out, res
		}
		edges, _ := field(res, "duplicateCandidates", "edges").([]any)
		for _, e := range edges {
			n := e.(map[string]any)["node"].(map[string]any)
			var kinds []string
			for _, r := range n["reasons"].([]any) {
				kinds = append(kinds, r.(map[string]any)["kind"].(string))
			}
			out = append(out, dupRow{
				A: strings.TrimPrefix(n["a"].(map[string]any)["id"].(string), ds+":"),
				B: strings.TrimPrefix(n["b"].(map[string]any)["id"].(string), ds+":"), Reasons: strings.Join(kinds, " ")})
		}
		if field(res, "duplicateCandidates", "pageInfo", "hasNextPage") != true {
			return out, res
		}
		after = field(res, "duplicateCandidates", "pageInfo", "endCursor")
	}
}

// TestDuplicateCandidates: the planted pairs are found with their
// reasons, best first, and paging one, two or all at a time walks each
// pair once.
func TestDuplicateCandidates(t *testing.T) {
	t.Parallel()
	d := newDupFixture(t)
	want := []dupRow{
		{"jrsmith", "smith", "NAME INITIALS SAME_KIND SHARED_NEIGHBOURS NATIONALITY"},
		{"homs", "siege", "NAME WORD_ORDER SAME_KIND DATES"},
		{"asad", "bashar", "NAME TRANSLITERATION WORD_ORDER SAME_KIND"},
		{"wq9-witness", "zorbalova", "NAME INITIALS SAME_KIND"},
		{"mohammed", "muhammad", "NAME TRANSLITERATION SAME_KIND"},
	}
	for _, first := range []int{1, 2, 100} {
		got, res := duplicates(t, d.h, d.h.Token, d.ds, first)
		if len(res.Errors) > 0 {
			t.Fatal(res.Raw)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("first %d (-want +got):\n%s", first, diff)
		}
	}
	res := d.h.MustPost(duplicatesQuery, map[string]any{"ds": d.ds, "kinds": []string{"EVENT"}})
	if n := field(res, "duplicateCandidates", "totalCount"); n != float64(1) {
		t.Errorf("events only: %v candidates, want 1: %s", n, res.Raw)
	}
	other := cyphertest.Dataset(t)
	if res := d.h.Post(duplicatesQuery, map[string]any{"ds": other}); res.Code() != "NOT_FOUND" {
		t.Errorf("a dataset with nothing in it: %s", res.Raw)
	}
}

// TestDuplicateDecisions: a dismissed pair does not come back (and comes
// back when undismissed), a merged entity drops out, and a reader may not
// dismiss (FORBIDDEN, nothing written).
func TestDuplicateDecisions(t *testing.T) {
	t.Parallel()
	d := newDupFixture(t)
	pairs := func() string {
		rows, res := duplicates(t, d.h, d.h.Token, d.ds, 100)
		if len(res.Errors) > 0 {
			t.Fatal(res.Raw)
		}
		var out []string
		for _, r := range rows {
			out = append(out, r.A+"="+r.B)
		}
		return strings.Join(out, " ")
	}
	all := "jrsmith=smith homs=siege asad=bashar wq9-witness=zorbalova mohammed=muhammad"
	if got := pairs(); got != all {
		t.Fatalf("pairs %q, want %q", got, all)
	}
	vars := map[string]any{"a": d.id("smith"), "b": d.id("jrsmith")}
	reader := d.h.Key(casegraph.NewAPIKey{Name: "reader", Role: casegraph.RoleReader, Datasets: []string{d.ds}})
	if res := d.h.PostAs(reader, dismissMutation, vars); res.Code() != "FORBIDDEN" {
		t.Errorf("a reader's dismissal: %s", res.Raw)
	}
	if got := pairs(); got != all {
		t.Errorf("after a reader's refused dismissal: %q", got)
	}
	editor := d.h.Key(casegraph.NewAPIKey{Name: "editor", Role: casegraph.RoleEditor, Datasets: []string{d.ds}})
	first := d.h.PostAs(editor, dismissMutation, vars)
	if len(first.Errors) > 0 || field(first, "dismissDuplicate", "a") != d.id("jrsmith") {
		t.Fatalf("dismissal: %s", first.Raw)
	}
	again := d.h.PostAs(editor, dismissMutation, map[string]any{"a": d.id("jrsmith"), "b": d.id("smith")})
	if field(again, "dismissDuplicate", "dismissedAt") != field(first, "dismissDuplicate", "dismissedAt") {
		t.Errorf("dismissing again is a new decision: %s, then %s", first.Raw, again.Raw)
	}
	without := "homs=siege asad=bashar wq9-witness=zorbalova mohammed=muhammad"
	if got := pairs(); got != without {
		t.Errorf("after the dismissal: %q, want %q", got, without)
	}
	changes := d.h.MustPost(`query($ds: String) { changes(filter: {dataset: $ds}) { edges { node { operation targets } } } }`, map[string]any{"ds": d.ds})
	record := `"operation":"dismissDuplicate","targets":["` + d.id("jrsmith") + `","` + d.id("smith") + `"]`
	// Two: the editor's, twice; the reader's refusal wrote none.
	if n := strings.Count(changes.Raw, record); n != 2 {
		t.Errorf("%d audit records of the dismissal, want 2: %s", n, changes.Raw)
	}
	undo := d.h.PostAs(editor, `mutation($a: ID!, $b: ID!) { undismissDuplicate(a: $a, b: $b) }`, vars)
	if field(undo, "undismissDuplicate") != true {
		t.Errorf("undismiss: %s", undo.Raw)
	}
	if got := pairs(); got != all {
		t.Errorf("after undismissing: %q, want %q", got, all)
	}
	if res := d.h.Post(`mutation($into: ID!, $from: [ID!]!) { mergeEntities(into: $into, from: $from) { id } }`,
		map[string]any{"into": d.id("muhammad"), "from": []string{d.id("mohammed")}}); len(res.Errors) > 0 {
		t.Fatal(res.Raw)
	}
	if got, want := pairs(), "jrsmith=smith homs=siege asad=bashar wq9-witness=zorbalova"; got != want {
		t.Errorf("after the merge: %q, want %q", got, want)
	}
	for _, tc := range []struct {
		name string
		vars map[string]any
		code string
	}{
		{"the same entity", map[string]any{"a": d.id("smith"), "b": d.id("smith")}, "BAD_USER_INPUT"},
		{"a bad id", map[string]any{"a": "no such/id", "b": d.id("smith")}, "BAD_USER_INPUT"},
		{"an unknown id", map[string]any{"a": d.id("nobody"), "b": d.id("smith")}, "NOT_FOUND"},
		{"a merged-away id", map[string]any{"a": d.id("mohammed"), "b": d.id("smith")}, "NOT_FOUND"},
	} {
		if res := d.h.PostAs(editor, dismissMutation, tc.vars); res.Code() != tc.code {
			t.Errorf("%s: %s, want %s", tc.name, res.Raw, tc.code)
		}
	}
}

// TestDuplicateScope: a caller without clearance never hears of a
// protected person (not in a pair, not by id, not by name, not even that
// a pair was left out), nor may it dismiss a pair with one; a reader of
// another dataset gets NOT_FOUND, and never a pair of it. (That a kept
// run serves only its own scope is TestDuplicateRunsByScope's, in cypher.)
func TestDuplicateScope(t *testing.T) {
	t.Parallel()
	d := newDupFixture(t)
	cleared := d.h.Key(casegraph.NewAPIKey{Name: "cleared", Role: casegraph.RoleReader, Datasets: []string{d.ds}, Cleared: true})
	uncleared := d.h.Key(casegraph.NewAPIKey{Name: "uncleared", Role: casegraph.RoleEditor, Datasets: []string{d.ds}})
	rows, res := duplicates(t, d.h, cleared, d.ds, 100)
	if len(rows) != 5 || !strings.Contains(res.Raw, "Wqnine") {
		t.Errorf("a cleared reader: %v %s", rows, res.Raw)
	}
	rows, res = duplicates(t, d.h, uncleared, d.ds, 100)
	if len(res.Errors) > 0 || len(rows) != 4 {
		t.Errorf("without clearance: %v %s", rows, res.Raw)
	}
	for _, secret := range []string{"wq9", "Wqnine", "zorbalova", "Protected person"} {
		if strings.Contains(strings.ToLower(res.Raw), strings.ToLower(secret)) {
			t.Errorf("without clearance, %q in %s", secret, res.Raw)
		}
	}
	if res := d.h.PostAs(uncleared, dismissMutation, map[string]any{"a": d.witness, "b": d.id("zorbalova")}); res.Code() != "NOT_FOUND" {
		t.Errorf("dismissing a pair with a protected person without clearance: %s", res.Raw)
	}

	b := newDupFixture(t)
	readerA := d.h.Key(casegraph.NewAPIKey{Name: "reader of A", Role: casegraph.RoleReader, Datasets: []string{d.ds}})
	if res := d.h.PostAs(readerA, duplicatesQuery, map[string]any{"ds": b.ds}); res.Code() != "NOT_FOUND" || strings.Contains(res.Raw, b.ds+":") {
		t.Errorf("a reader of A asks for B: %s", res.Raw)
	}
	if res := d.h.PostAs(readerA, dismissMutation, map[string]any{"a": b.id("smith"), "b": b.id("jrsmith")}); res.Code() != "FORBIDDEN" {
		t.Errorf("a reader of A dismisses in B (refused before anything is looked up): %s", res.Raw)
	}
	if res := d.h.Post(dismissMutation, map[string]any{"a": b.id("smith"), "b": d.id("jrsmith")}); res.Code() != "BAD_USER_INPUT" {
		t.Errorf("a pair across datasets: %s", res.Raw)
	}
}
