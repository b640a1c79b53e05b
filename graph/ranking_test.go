package graph_test

import (
	"slices"
	"strings"
	"testing"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/dataset"
	"github.com/casegraph/casegraph/server/servertest"
)

// TestSearchRankingOnAGeneratedSet: on 3000 generated entities, a common
// surname ranks every entity with it in its name before any without, and,
// among those, the better-connected first (the names are all partial
// matches, so the degree decides); and measures the relevance of queries
// drawn from the set (generatedRelevance).
func TestSearchRankingOnAGeneratedSet(t *testing.T) {
	t.Parallel()
	h := servertest.New(t, servertest.Options{})
	ds, batch := importGenerated(t, h, dataset.GenOptions{Entities: 3000, Relations: 12000, Seed: 21})
	res := h.MustPost(`query($ds: [String!]) { search(text: "haddad", datasets: $ds, first: 100) { edges { matchedField node { name aliases relations(first: 1) { totalCount } } } } }`,
		map[string]any{"ds": []string{ds}})
	edges := field(res, "search", "edges").([]any)
	if len(edges) < 10 {
		t.Fatalf("%d results for a common surname", len(edges))
	}
	inName := func(e map[string]any) bool {
		return slices.Contains(casegraph.Words(e["node"].(map[string]any)["name"].(string)), "haddad")
	}
	lastDegree := -1.0
	seenOther := false
	for i, x := range edges {
		e := x.(map[string]any)
		degree := e["node"].(map[string]any)["relations"].(map[string]any)["totalCount"].(float64)
		if !inName(e) {
			seenOther = true
			continue
		}
		if seenOther {
			t.Errorf("result %d has the word in its name but comes after one that does not", i)
		}
		if e["matchedField"] != "NAME" {
			t.Errorf("result %d: matched %v, want NAME: %v", i, e["matchedField"], e["node"])
		}
		if lastDegree >= 0 && degree > lastDegree {
			t.Errorf("result %d (%s) has %v relations, more than the one before it (%v)", i,
				strings.TrimSpace(e["node"].(map[string]any)["name"].(string)), degree, lastDegree)
		}
		lastDegree = degree
	}
	generatedRelevance(t, h, ds, batch)
}
