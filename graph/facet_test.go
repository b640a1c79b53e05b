package graph_test

// A search's counts and facets, and the statement they cost.

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server/servertest"
)

const facetQuery = `query F($text: String!, $ds: [String!], $kinds: [EntityKind!]) {
  search(text: $text, datasets: $ds, kinds: $kinds) {
    totalCount
    facets { kinds { kind count } datasets { dataset count } }
  }
}`

// facetFixture is two datasets of their own whose entities share a word
// found nowhere else: A holds 3 people (one of them protected) and a
// place, B 2 people and an organization.
type facetFixture struct {
	h          *servertest.Harness
	a, b, word string
}

func newFacetFixture(t *testing.T) facetFixture {
	t.Helper()
	h := servertest.New(t, servertest.Options{})
	a, b := cyphertest.Dataset(t), cyphertest.Dataset(t)
	f := facetFixture{h: h, a: a, b: b, word: "facet" + a[len(a)-8:]}
	for _, ds := range []string{a, b} {
		h.MustPost(`mutation S($in: SourceInput!) { upsertSource(input: $in) { id } }`,
			map[string]any{"in": map[string]any{"id": ds + ":src", "title": "Source", "dataset": ds}})
	}
	entities := []struct {
		ds, id, kind string
		protected    bool
	}{
		{a, "p1", "PERSON", false}, {a, "p2", "PERSON", false}, {a, "p3", "PERSON", true}, {a, "x1", "PLACE", false},
		{b, "p1", "PERSON", false}, {b, "p2", "PERSON", false}, {b, "o1", "ORGANIZATION", false},
	}
	for _, e := range entities {
		h.MustPost(upsert, map[string]any{"in": map[string]any{"id": e.ds + ":" + e.id, "kind": e.kind,
			"name": strings.ToUpper(e.id) + " " + f.word, "dataset": e.ds, "sourceIds": []string{e.ds + ":src"}, "protected": e.protected}})
	}
	return f
}

// counts is a search's totalCount and facets as the response has them.
type counts struct {
	Total    float64
	Kinds    map[string]float64
	Datasets map[string]float64
}

func countsOf(t *testing.T, data map[string]any) counts {
	t.Helper()
	s := data["search"].(map[string]any)
	c := counts{Total: s["totalCount"].(float64), Kinds: map[string]float64{}, Datasets: map[string]float64{}}
	facets := s["facets"].(map[string]any)
	for _, k := range facets["kinds"].([]any) {
		c.Kinds[k.(map[string]any)["kind"].(string)] = k.(map[string]any)["count"].(float64)
	}
	for _, d := range facets["datasets"].([]any) {
		c.Datasets[d.(map[string]any)["dataset"].(string)] = d.(map[string]any)["count"].(float64)
	}
	return c
}

// TestSearchCountsAndFacets: totalCount counts every match under both
// filters; each facet applies the other filter but not its own; a reader
// of one dataset counts only what it may read, and a protected person only
// with clearance.
func TestSearchCountsAndFacets(t *testing.T) {
	t.Parallel()
	f := newFacetFixture(t)
	a, b := f.a, f.b
	readerA := f.h.Key(casegraph.NewAPIKey{Name: "reader A", Role: casegraph.RoleReader, Datasets: []string{a}})
	clearedA := f.h.Key(casegraph.NewAPIKey{Name: "cleared A", Role: casegraph.RoleReader, Datasets: []string{a}, Cleared: true})
	both := []string{a, b}
	tests := []struct {
		name  string
		token string // "" for the harness's admin
		ds    []string
		kinds []string
		want  counts
	}{
		{"all", "", nil, nil, counts{7, map[string]float64{"PERSON": 5, "PLACE": 1, "ORGANIZATION": 1}, map[string]float64{a: 4, b: 3}}},
		{"both datasets", "", both, nil, counts{7, map[string]float64{"PERSON": 5, "PLACE": 1, "ORGANIZATION": 1}, map[string]float64{a: 4, b: 3}}},
		{"people: the kinds facet ignores kinds", "", both, []string{"PERSON"},
			counts{5, map[string]float64{"PERSON": 5, "PLACE": 1, "ORGANIZATION": 1}, map[string]float64{a: 3, b: 2}}},
		{"dataset A: the datasets facet ignores datasets", "", []string{a}, nil,
			counts{4, map[string]float64{"PERSON": 3, "PLACE": 1}, map[string]float64{a: 4, b: 3}}},
		{"places and organizations of B", "", []string{b}, []string{"PLACE", "ORGANIZATION"},
			counts{1, map[string]float64{"PERSON": 2, "ORGANIZATION": 1}, map[string]float64{a: 1, b: 1}}},
		{"reader of A", readerA, nil, nil, counts{3, map[string]float64{"PERSON": 2, "PLACE": 1}, map[string]float64{a: 3}}},
		{"reader of A, asking for B", readerA, []string{b}, nil, counts{0, map[string]float64{}, map[string]float64{a: 3}}},
		{"cleared reader of A", clearedA, nil, []string{"PERSON"}, counts{3, map[string]float64{"PERSON": 3, "PLACE": 1}, map[string]float64{a: 3}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vars := map[string]any{"text": f.word, "ds": tt.ds, "kinds": tt.kinds}
			res := f.h.Post(facetQuery, vars)
			if tt.token != "" {
				res = f.h.PostAs(tt.token, facetQuery, vars)
			}
			if len(res.Errors) > 0 {
				t.Fatal(res.Raw)
			}
			if diff := cmp.Diff(tt.want, countsOf(t, res.Data)); diff != "" {
				t.Errorf("counts (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSearchCountsRoundTrips: the counts cost one statement (totalCount
// and facets together), run only when selected, and the page its own;
// bad input is refused before either.
func TestSearchCountsRoundTrips(t *testing.T) {
	t.Parallel()
	f := newFacetFixture(t)
	tests := []struct {
		name, query, text string
		trips             int64
		code              string
	}{
		{"page", `query($text: String!) { search(text: $text) { edges { node { id name } } pageInfo { hasNextPage } } }`, f.word, 1, ""},
		{"total", `query($text: String!) { search(text: $text) { totalCount } }`, f.word, 1, ""},
		{"total and facets", facetQuery, f.word, 1, ""},
		{"facets in a fragment", `query($text: String!) { search(text: $text) { ...F } } fragment F on SearchConnection { facets { kinds { kind count } } }`, f.word, 1, ""},
		{"page, total and facets", `query($text: String!) { search(text: $text) { totalCount facets { datasets { dataset count } } edges { node { id } } } }`, f.word, 2, ""},
		{"text too short", facetQuery, "x", 0, "BAD_USER_INPUT"},
		{"no letters or digits", facetQuery, "?!", 0, "BAD_USER_INPUT"},
		{"text too long", facetQuery, strings.Repeat("ab ", 70), 0, "BAD_USER_INPUT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := f.h.Store.RoundTrips()
			res := f.h.Post(tt.query, map[string]any{"text": tt.text})
			if got := res.Code(); got != tt.code {
				t.Errorf("code %q (%s), want %q", got, truncate(res.Raw), tt.code)
			}
			if trips := f.h.Store.RoundTrips() - before; trips != tt.trips {
				t.Errorf("%d round trips, want %d", trips, tt.trips)
			}
		})
	}
}
