package graph

import (
	"context"
	"fmt"
	"strings"
	"testing"

	gqlcomplexity "github.com/99designs/gqlgen/complexity"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/validator/rules"

	casegraph "github.com/casegraph/casegraph"
)

// The complexity model prices what the database does; these are the
// figures the README's rationale gives, held here.
func TestComplexityPricesDatabaseWork(t *testing.T) {
	es := NewSchema(Stores{}, nil, nil)
	aliased := func(n int, field string) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "a%d: %s ", i, field)
		}
		return "{ " + b.String() + "}"
	}
	tests := []struct {
		name     string
		query    string
		min, max int
	}{
		{"entity by id", `{ entity(id: "x") { id name aliases ... on Person { nationality } } }`, 10, 10},
		{"depth 2 over 1,000 ends", `{ entities(first: 10) { edges { node { id name relations(first: 10) { edges { node { id type
			to { id name relations(first: 10) { edges { node { id type to { id name } } } } } } } } } } } }`, 3000, 4000},
		{"depth 2 over 2,000 ends", `{ entities(first: 20) { edges { node { id name relations(first: 10) { edges { node { id type
			to { id name relations(first: 10) { edges { node { id type to { id name } } } } } } } } } } } }`, 6000, 8000},
		{"100 relations of 100 entities", `{ entities(first: 100) { edges { node { relations(first: 100) { edges { node { to { id } } } } } } } }`, 30000, 40000},
		{"a shortest path with its evidence", `{ shortestPath(from: "a", to: "b") { length nodes { id name }
			steps { forward relation { id type sources { id title } } } } }`, 100, 110},
		{"50 aliased shortest paths", aliased(50, `shortestPath(from: "a", to: "b") { length }`), 5000, 5100},
		{"500 aliased entities", aliased(500, `entity(id: "x") { id }`), 5000, 5000},
		{"a shortest path of 8 hops", `{ shortestPath(from: "a", to: "b", filter: {maxDepth: 8}) { length } }`, 1600, 1610},
		{"150 aliased deep shortest paths", aliased(150, `shortestPath(from: "a", to: "b", filter: {maxDepth: 6}) { length }`), 60000, 61000},
		{"5 paths of 5 hops", `{ paths(from: "a", to: "b", k: 5, filter: {maxDepth: 5}) { length } }`, 1000, 1010},
		{"connections of 10 ids", `{ connections(ids: ["a","b","c","d","e","f","g","h","i","j"]) { truncated } }`, 4500, 4600},
		{"a search's page", `{ search(text: "ab", first: 10) { edges { node { id name } } } }`, 20, 30},
		{"a search's counts", `{ search(text: "ab", first: 1) { totalCount facets { kinds { kind count } datasets { dataset count } } } }`, 30, 40},
		{"a search's page and counts", `{ search(text: "ab", first: 10) { totalCount facets { kinds { kind count } } edges { node { id } } } }`, 220, 240},
		{"common neighbours of 10 ids", `{ commonNeighbors(ids: ["a","b","c","d","e","f","g","h","i","j"]) { entity { id } } }`, 1000, 1030},
		{"the datasets' list", `{ datasets { name entities relations sources } }`, 100, 110},
		{"50 aliased datasets' names", aliased(50, `datasets { name }`), 5000, 5100},
		{"a neighbourhood of depth 3", `{ neighborhood(id: "a", depth: 3) { truncated } }`, 400, 420},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := gqlparser.LoadQueryWithRules(es.Schema(), tt.query, rules.NewDefaultRules())
			if err != nil {
				t.Fatal(err)
			}
			got := gqlcomplexity.Calculate(context.Background(), es, doc.Operations[0], nil, complexityOptions...)
			if got < tt.min || got > tt.max {
				t.Errorf("complexity %d, want %d to %d", got, tt.min, tt.max)
			}
		})
	}
}

// TestComplexityPricesTheRequests: the model prices a field by its
// request's own values (the domain's defaults where the client gave none,
// its null included), not by figures of its own: a field priced with its
// arguments left out, null, or given as the domain's defaults costs the
// same, and an out-of-range count costs as the largest.
func TestComplexityPricesTheRequests(t *testing.T) {
	es := NewSchema(Stores{}, nil, nil)
	cost := func(t *testing.T, query string) int {
		t.Helper()
		doc, err := gqlparser.LoadQueryWithRules(es.Schema(), query, rules.NewDefaultRules())
		if err != nil {
			t.Fatal(err)
		}
		return gqlcomplexity.Calculate(context.Background(), es, doc.Operations[0], nil, complexityOptions...)
	}
	tests := []struct {
		name                   string
		absent, null, defaults string
	}{
		{"paths", `{ paths(from: "a", to: "b") { length } }`, `{ paths(from: "a", to: "b", k: null, filter: {maxDepth: null}) { length } }`,
			fmt.Sprintf(`{ paths(from: "a", to: "b", k: %d, filter: {maxDepth: %d}) { length } }`, casegraph.DefaultPaths, casegraph.DefaultMaxDepth)},
		{"neighborhood", `{ neighborhood(id: "a") { nodes { id } } }`, `{ neighborhood(id: "a", depth: null, limit: null) { nodes { id } } }`,
			fmt.Sprintf(`{ neighborhood(id: "a", depth: %d, limit: %d) { nodes { id } } }`, casegraph.DefaultNeighborhoodDepth, casegraph.DefaultNeighborhoodSize)},
		{"commonNeighbors", `{ commonNeighbors(ids: ["a", "b"]) { entity { id } } }`, `{ commonNeighbors(ids: ["a", "b"], limit: null) { entity { id } } }`,
			fmt.Sprintf(`{ commonNeighbors(ids: ["a", "b"], limit: %d) { entity { id } } }`, casegraph.DefaultCommonNeighbors)},
		{"suggest", `{ suggest(prefix: "ab") { entity { id } } }`, `{ suggest(prefix: "ab", first: null) { entity { id } } }`,
			fmt.Sprintf(`{ suggest(prefix: "ab", first: %d) { entity { id } } }`, casegraph.DefaultSuggest)},
		{"datasetTimeline", `{ datasetTimeline(datasets: ["d"], from: "2011", to: "2012") { items { start } } }`,
			`{ datasetTimeline(datasets: ["d"], from: "2011", to: "2012", first: null) { items { start } } }`,
			fmt.Sprintf(`{ datasetTimeline(datasets: ["d"], from: "2011", to: "2012", first: %d) { items { start } } }`, casegraph.DefaultDatasetTimeline)},
		{"commandChain", `{ commandChain(unitId: "u", at: "2012") { truncated } }`, `{ commandChain(unitId: "u", at: "2012", maxLevels: null) { truncated } }`,
			fmt.Sprintf(`{ commandChain(unitId: "u", at: "2012", maxLevels: %d) { truncated } }`, casegraph.DefaultCommandLevels)},
		{"whoWasInCommand", `{ whoWasInCommand(incidentId: "i") { truncated } }`, `{ whoWasInCommand(incidentId: "i", maxLevels: null, maxUnits: null) { truncated } }`,
			fmt.Sprintf(`{ whoWasInCommand(incidentId: "i", maxLevels: %d, maxUnits: %d) { truncated } }`, casegraph.DefaultCommandLevels, casegraph.DefaultIncidentUnits)},
		{"shortestPath", `{ shortestPath(from: "a", to: "b") { length } }`, `{ shortestPath(from: "a", to: "b", filter: {maxDepth: null}) { length } }`,
			fmt.Sprintf(`{ shortestPath(from: "a", to: "b", filter: {maxDepth: %d}) { length } }`, casegraph.DefaultMaxDepth)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			absent, null, defaults := cost(t, tt.absent), cost(t, tt.null), cost(t, tt.defaults)
			if absent != defaults || null != defaults {
				t.Errorf("absent %d, null %d, the domain's defaults %d: want all three equal", absent, null, defaults)
			}
		})
	}
	largest := []struct{ out, most string }{
		{`{ paths(from: "a", to: "b", k: 1000) { length } }`, fmt.Sprintf(`{ paths(from: "a", to: "b", k: %d) { length } }`, casegraph.MaxPaths)},
		{`{ neighborhood(id: "a", depth: 0, limit: -1) { nodes { id } } }`,
			fmt.Sprintf(`{ neighborhood(id: "a", depth: %d, limit: %d) { nodes { id } } }`, casegraph.MaxNeighborhood, casegraph.MaxNeighborhoodSize)},
		{`{ shortestPath(from: "a", to: "b", filter: {maxDepth: 50}) { length } }`,
			fmt.Sprintf(`{ shortestPath(from: "a", to: "b", filter: {maxDepth: %d}) { length } }`, casegraph.MaxMaxDepth)},
	}
	for _, tt := range largest {
		if out, most := cost(t, tt.out), cost(t, tt.most); out != most {
			t.Errorf("%s costs %d; want %d, as the largest valid", tt.out, out, most)
		}
	}
}
