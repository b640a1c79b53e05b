package casegraph_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	casegraph "github.com/casegraph/casegraph"
)

// checkErr fails unless err is nil when want is "", or a BAD_USER_INPUT
// error whose message holds want.
func checkErr(t *testing.T, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Errorf("got %v, want no error", err)
	case want != "" && err == nil:
		t.Errorf("got no error, want one saying %q", want)
	case want != "" && (casegraph.ErrorCode(err) != casegraph.CodeBadUserInput || !strings.Contains(err.Error(), want)):
		t.Errorf("got %v (%s), want BAD_USER_INPUT saying %q", err, casegraph.ErrorCode(err), want)
	}
}

func ptr[T any](v T) *T { return &v }

func ids(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("e%d", i)
	}
	return out
}

func TestPathFilterNormalize(t *testing.T) {
	tests := []struct {
		name   string
		change func(*casegraph.PathFilter)
		want   string
	}{
		{"default", func(*casegraph.PathFilter) {}, ""},
		{"every field", func(f *casegraph.PathFilter) {
			f.MaxDepth, f.Direction = casegraph.MaxMaxDepth, casegraph.PathOutgoing
			f.RelationTypes, f.ExcludeRelationTypes = []casegraph.RelationType{"AUTHORED"}, []casegraph.RelationType{"FUNDS"}
			f.ExcludeIDs, f.Datasets, f.Kinds = []string{"x"}, []string{"d"}, []casegraph.Kind{casegraph.KindPerson}
			f.ValidAt, f.MinConfidence, f.Statuses = "2013-02", ptr(0.5), []casegraph.Status{"CONFIRMED"}
			f.MaxDegree = ptr(casegraph.MaxMaxDegree)
		}, ""},
		{"maxDepth 0", func(f *casegraph.PathFilter) { f.MaxDepth = 0 }, "maxDepth must be between 1 and 8, not 0"},
		{"maxDepth 9", func(f *casegraph.PathFilter) { f.MaxDepth = 9 }, "maxDepth must be between 1 and 8, not 9"},
		{"maxDepth -1", func(f *casegraph.PathFilter) { f.MaxDepth = -1 }, "not -1"},
		{"unknown direction", func(f *casegraph.PathFilter) { f.Direction = "UP" }, "direction must be ANY or OUTGOING"},
		{"51 datasets", func(f *casegraph.PathFilter) { f.Datasets = ids(51) }, "a filter list holds at most 50 values"},
		{"51 excluded ids", func(f *casegraph.PathFilter) { f.ExcludeIDs = ids(51) }, "at most 50 values"},
		{"50 excluded ids", func(f *casegraph.PathFilter) { f.ExcludeIDs = ids(50) }, ""},
		{"unknown relation type", func(f *casegraph.PathFilter) { f.ExcludeRelationTypes = []casegraph.RelationType{"LOVES"} }, "LOVES"},
		{"bad excluded id", func(f *casegraph.PathFilter) { f.ExcludeIDs = []string{"a b"} }, "excludeIds"},
		{"bad dataset", func(f *casegraph.PathFilter) { f.Datasets = []string{""} }, "datasets is required"},
		{"unknown kind", func(f *casegraph.PathFilter) { f.Kinds = []casegraph.Kind{"SPACESHIP"} }, "unknown entity kind"},
		{"unknown status", func(f *casegraph.PathFilter) { f.Statuses = []casegraph.Status{"RUMOURED"} }, `unknown status "RUMOURED"`},
		{"maxDegree 0", func(f *casegraph.PathFilter) { f.MaxDegree = ptr(0) }, "maxDegree must be at least 1"},
		{"maxDegree too big", func(f *casegraph.PathFilter) { f.MaxDegree = ptr(casegraph.MaxMaxDegree + 1) }, "maxDegree must be between 1 and 100000000"},
		{"bad validAt", func(f *casegraph.PathFilter) { f.ValidAt = "2013-02-30" }, "validAt"},
		{"confidence 2", func(f *casegraph.PathFilter) { f.MinConfidence = ptr(2.0) }, "not between 0 and 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := casegraph.DefaultPathFilter()
			tt.change(&f)
			checkErr(t, f.Normalize(), tt.want)
		})
	}
	t.Run("no direction is ANY", func(t *testing.T) {
		f := casegraph.PathFilter{MaxDepth: 2}
		if err := f.Normalize(); err != nil || f.Direction != casegraph.PathAny {
			t.Errorf("got %q, %v; want ANY", f.Direction, err)
		}
	})
}

func TestPathQueryNormalize(t *testing.T) {
	tests := []struct {
		name string
		q    casegraph.PathQuery
		want string
	}{
		{"shortest", casegraph.PathQuery{From: "a", To: "b", K: 1}, ""},
		{"20 paths", casegraph.PathQuery{From: "a", To: "b", K: casegraph.MaxPaths}, ""},
		{"to itself", casegraph.PathQuery{From: "a", To: "a", K: 1}, ""},
		{"k 0", casegraph.PathQuery{From: "a", To: "b", K: 0}, "k must be between 1 and 20, not 0"},
		{"k 21", casegraph.PathQuery{From: "a", To: "b", K: 21}, "not 21"},
		{"bad from", casegraph.PathQuery{From: "a b", To: "b", K: 1}, "from \"a b\" is not a valid id"},
		{"no to", casegraph.PathQuery{From: "a", K: 1}, "to is required"},
		{"bad filter", casegraph.PathQuery{From: "a", To: "b", K: 1, Filter: casegraph.PathFilter{MaxDepth: 50}}, "maxDepth"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.q.Filter.MaxDepth == 0 {
				tt.q.Filter = casegraph.DefaultPathFilter()
			}
			checkErr(t, tt.q.Normalize(), tt.want)
		})
	}
}

func TestNeighborhoodQueryNormalize(t *testing.T) {
	tests := []struct {
		name         string
		id           string
		depth, limit int
		want         string
	}{
		{"defaults", "a", casegraph.DefaultNeighborhoodDepth, casegraph.DefaultNeighborhoodSize, ""},
		{"largest", "a", casegraph.MaxNeighborhood, casegraph.MaxNeighborhoodSize, ""},
		{"bad id", "", 1, 1, "id is required"},
		{"depth 0", "a", 0, 1, "depth must be between 1 and 3, not 0"},
		{"depth 4", "a", 4, 1, "not 4"},
		{"limit 0", "a", 1, 0, "limit must be between 1 and 1000, not 0"},
		{"limit 1001", "a", 1, 1001, "not 1001"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := casegraph.NeighborhoodQuery{ID: tt.id, Depth: tt.depth, Limit: tt.limit, Filter: casegraph.DefaultPathFilter()}
			checkErr(t, q.Normalize(), tt.want)
		})
	}
}

func TestConnectionsQueryNormalize(t *testing.T) {
	tests := []struct {
		name string
		ids  []string
		want string
	}{
		{"two", ids(2), ""},
		{"ten", ids(10), ""},
		{"one", ids(1), "connections takes 2 to 10 ids, not 1"},
		{"eleven", ids(11), "not 11"},
		{"twice the same", []string{"a", "b", "a"}, `ids: "a" is named twice`},
		{"bad id", []string{"a", "b c"}, "not a valid id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := casegraph.ConnectionsQuery{IDs: tt.ids, Filter: casegraph.DefaultPathFilter()}
			checkErr(t, q.Normalize(), tt.want)
		})
	}
}

func TestEntityFilterValidate(t *testing.T) {
	kinds := make([]casegraph.Kind, 51)
	for i := range kinds {
		kinds[i] = casegraph.KindPerson
	}
	tests := []struct {
		name string
		f    casegraph.EntityFilter
		want string
	}{
		{"none", casegraph.EntityFilter{}, ""},
		{"every field", casegraph.EntityFilter{Kinds: []casegraph.Kind{casegraph.KindEvent}, Datasets: []string{"d"}, Category: "TRIAL",
			NameContains: "Nice", DateFrom: "2011", DateTo: "2011-03", HasRelation: []casegraph.RelationType{"AUTHORED"}}, ""},
		{"51 kinds", casegraph.EntityFilter{Kinds: kinds}, "filter: at most 50 kinds and 50 datasets"},
		{"51 datasets", casegraph.EntityFilter{Datasets: ids(51)}, "filter: at most 50 kinds and 50 datasets"},
		{"unknown kind", casegraph.EntityFilter{Kinds: []casegraph.Kind{"SPACESHIP"}}, "unknown entity kind"},
		{"bad dataset", casegraph.EntityFilter{Datasets: []string{"a b"}}, "filter.datasets"},
		{"unknown category", casegraph.EntityFilter{Category: "PICNIC"}, `filter.category: unknown category "PICNIC"`},
		{"bad dateFrom", casegraph.EntityFilter{DateFrom: "2013-13"}, "filter.dateFrom"},
		{"dateTo before dateFrom", casegraph.EntityFilter{DateFrom: "2012", DateTo: "2011-12"}, "filter.dateTo 2011-12 is before dateFrom 2012"},
		{"51 relation types", casegraph.EntityFilter{HasRelation: make([]casegraph.RelationType, 51)}, "filter.hasRelation: at most 50 types"},
		{"unknown relation type", casegraph.EntityFilter{HasRelation: []casegraph.RelationType{"LOVES"}}, "LOVES"},
		{"long nameContains", casegraph.EntityFilter{NameContains: strings.Repeat("x", casegraph.MaxNameLength+1)}, "filter.nameContains is 501 characters long"},
		{"control character in nameContains", casegraph.EntityFilter{NameContains: "a\x00"}, "control character"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkErr(t, tt.f.Validate(), tt.want)
		})
	}
}

func TestSearchQueryNormalize(t *testing.T) {
	tests := []struct {
		name string
		q    casegraph.SearchQuery
		want string
	}{
		{"words", casegraph.SearchQuery{Text: "Geoffrey Nice"}, ""},
		{"filtered", casegraph.SearchQuery{Text: "Nice", Filter: casegraph.SearchFilter{Kinds: []casegraph.Kind{casegraph.KindPerson}, Datasets: []string{"d"}}}, ""},
		{"one letter", casegraph.SearchQuery{Text: "a"}, "text: give at least 2 characters"},
		{"no letters", casegraph.SearchQuery{Text: `"*?~`}, "nothing to search for"},
		{"too long", casegraph.SearchQuery{Text: strings.Repeat("x", 201)}, "the limit is 200"},
		{"51 datasets", casegraph.SearchQuery{Text: "Nice", Filter: casegraph.SearchFilter{Datasets: ids(51)}}, "at most 50 kinds and 50 datasets"},
		{"bad dataset", casegraph.SearchQuery{Text: "Nice", Filter: casegraph.SearchFilter{Datasets: []string{"a b"}}}, "datasets"},
		{"unknown kind", casegraph.SearchQuery{Text: "Nice", Filter: casegraph.SearchFilter{Kinds: []casegraph.Kind{"X"}}}, "unknown entity kind"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkErr(t, tt.q.Normalize(), tt.want)
		})
	}
	q := casegraph.SearchQuery{Text: "Sir GEOFFREY  Nice"}
	if err := q.Normalize(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"sir", "geoffrey", "nice"}, q.Words); diff != "" {
		t.Errorf("words (-want +got):\n%s", diff)
	}
}

func TestSuggestQueryNormalize(t *testing.T) {
	tests := []struct {
		name   string
		prefix string
		first  int
		want   string
	}{
		{"default", "Geo", casegraph.DefaultSuggest, ""},
		{"most", "Geo", casegraph.MaxSuggest, ""},
		{"first 0", "Geo", 0, "first must be between 1 and 25, not 0"},
		{"first 26", "Geo", 26, "not 26"},
		{"one letter", "G", 10, "prefix: give at least 2 characters"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := casegraph.SuggestQuery{Prefix: tt.prefix, First: tt.first}
			checkErr(t, q.Normalize(), tt.want)
		})
	}
}

func TestMergeRequestValidate(t *testing.T) {
	tests := []struct {
		name string
		m    casegraph.MergeRequest
		want string
	}{
		{"one", casegraph.MergeRequest{Into: "a", From: []string{"b"}}, ""},
		{"fifty", casegraph.MergeRequest{Into: "a", From: ids(50)}, ""},
		{"none", casegraph.MergeRequest{Into: "a"}, "from: merge 1 to 50 entities at a time"},
		{"fifty-one", casegraph.MergeRequest{Into: "a", From: ids(51)}, "from: merge 1 to 50 entities at a time"},
		{"bad into", casegraph.MergeRequest{Into: "a b", From: []string{"b"}}, "into"},
		{"bad from", casegraph.MergeRequest{Into: "a", From: []string{"b c"}}, `from "b c" is not a valid id`},
		{"twice", casegraph.MergeRequest{Into: "a", From: []string{"b", "b"}}, `from: "b" is named twice, or is the entity merged into`},
		{"into itself", casegraph.MergeRequest{Into: "a", From: []string{"a"}}, "is the entity merged into"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkErr(t, tt.m.Validate(), tt.want)
		})
	}
}
