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
		q    casegraph.PathRequest
		want string
	}{
		{"shortest", casegraph.PathRequest{From: "a", To: "b", K: 1}, ""},
		{"20 paths", casegraph.PathRequest{From: "a", To: "b", K: casegraph.MaxPaths}, ""},
		{"to itself", casegraph.PathRequest{From: "a", To: "a", K: 1}, ""},
		{"k 0", casegraph.PathRequest{From: "a", To: "b", K: 0}, "k must be between 1 and 20, not 0"},
		{"k 21", casegraph.PathRequest{From: "a", To: "b", K: 21}, "not 21"},
		{"bad from", casegraph.PathRequest{From: "a b", To: "b", K: 1}, "from \"a b\" is not a valid id"},
		{"no to", casegraph.PathRequest{From: "a", K: 1}, "to is required"},
		{"bad filter", casegraph.PathRequest{From: "a", To: "b", K: 1, Filter: casegraph.PathFilter{MaxDepth: 50}}, "maxDepth"},
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
			q := casegraph.NeighborhoodRequest{ID: tt.id, Depth: tt.depth, Limit: tt.limit, Filter: casegraph.DefaultPathFilter()}
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
			q := casegraph.ConnectionsRequest{IDs: tt.ids, Filter: casegraph.DefaultPathFilter()}
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
		q    casegraph.SearchRequest
		want string
	}{
		{"words", casegraph.SearchRequest{Text: "Geoffrey Nice"}, ""},
		{"filtered", casegraph.SearchRequest{Text: "Nice", Filter: casegraph.SearchFilter{Kinds: []casegraph.Kind{casegraph.KindPerson}, Datasets: []string{"d"}}}, ""},
		{"one letter", casegraph.SearchRequest{Text: "a"}, "text: give at least 2 characters"},
		{"no letters", casegraph.SearchRequest{Text: `"*?~`}, "nothing to search for"},
		{"too long", casegraph.SearchRequest{Text: strings.Repeat("x", 201)}, "the limit is 200"},
		{"51 datasets", casegraph.SearchRequest{Text: "Nice", Filter: casegraph.SearchFilter{Datasets: ids(51)}}, "at most 50 kinds and 50 datasets"},
		{"bad dataset", casegraph.SearchRequest{Text: "Nice", Filter: casegraph.SearchFilter{Datasets: []string{"a b"}}}, "datasets"},
		{"unknown kind", casegraph.SearchRequest{Text: "Nice", Filter: casegraph.SearchFilter{Kinds: []casegraph.Kind{"X"}}}, "unknown entity kind"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkErr(t, tt.q.Normalize(), tt.want)
		})
	}
	q := casegraph.SearchRequest{Text: "Sir GEOFFREY  Nice"}
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
			q := casegraph.SuggestRequest{Prefix: tt.prefix, First: tt.first}
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

// TestRequestDefaults: a request made with its New function has every
// argument a client may leave out at the domain's default, and is valid
// as it is.
func TestRequestDefaults(t *testing.T) {
	from, to := casegraph.MustPartialDate("2011"), casegraph.MustPartialDate("2012")
	tests := []struct {
		name      string
		got, want any
	}{
		{"paths", casegraph.NewPathRequest("a", "b"), casegraph.PathRequest{From: "a", To: "b", K: casegraph.DefaultPaths, Filter: casegraph.DefaultPathFilter()}},
		{"neighborhood", casegraph.NewNeighborhoodRequest("a"), casegraph.NeighborhoodRequest{ID: "a", Depth: casegraph.DefaultNeighborhoodDepth,
			Limit: casegraph.DefaultNeighborhoodSize, Filter: casegraph.DefaultPathFilter()}},
		{"connections", casegraph.NewConnectionsRequest(ids(2)), casegraph.ConnectionsRequest{IDs: ids(2), Filter: casegraph.DefaultPathFilter()}},
		{"commonNeighbors", casegraph.NewCommonNeighborsRequest(ids(2)), casegraph.CommonNeighborsRequest{IDs: ids(2), Limit: casegraph.DefaultCommonNeighbors,
			Filter: casegraph.DefaultPathFilter()}},
		{"suggest", casegraph.NewSuggestRequest("Geo"), casegraph.SuggestRequest{Prefix: "Geo", First: casegraph.DefaultSuggest}},
		{"datasetTimeline", casegraph.NewDatasetTimelineRequest([]string{"d"}, from, to), casegraph.DatasetTimelineRequest{Datasets: []string{"d"},
			From: from, To: to, First: casegraph.DefaultDatasetTimeline}},
		{"entities", casegraph.NewEntitiesRequest(), casegraph.EntitiesRequest{Order: casegraph.EntityOrder{Field: casegraph.OrderByID},
			Page: casegraph.Page{First: casegraph.DefaultPageSize}}},
		{"savedQueryVersions", casegraph.NewVersionsRequest("q"), casegraph.VersionsRequest{Name: "q", First: casegraph.DefaultSavedQueryVersions}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.got, cmp.Comparer(func(a, b casegraph.PartialDate) bool { return a.Compare(b) == 0 })); diff != "" {
				t.Errorf("defaults (-want +got):\n%s", diff)
			}
		})
	}
	for name, normalize := range map[string]func() error{
		"paths":              func() error { q := casegraph.NewPathRequest("a", "b"); return q.Normalize() },
		"neighborhood":       func() error { q := casegraph.NewNeighborhoodRequest("a"); return q.Normalize() },
		"connections":        func() error { q := casegraph.NewConnectionsRequest(ids(2)); return q.Normalize() },
		"commonNeighbors":    func() error { q := casegraph.NewCommonNeighborsRequest(ids(2)); return q.Normalize() },
		"suggest":            func() error { q := casegraph.NewSuggestRequest("Geo"); return q.Normalize() },
		"datasetTimeline":    func() error { return casegraph.NewDatasetTimelineRequest([]string{"d"}, from, to).Validate() },
		"entities":           func() error { return casegraph.NewEntitiesRequest().Validate() },
		"savedQueryVersions": func() error { return casegraph.NewVersionsRequest("q").Validate() },
	} {
		t.Run(name+" is valid", func(t *testing.T) { checkErr(t, normalize(), "") })
	}
}

func TestCommonNeighborsQueryNormalize(t *testing.T) {
	tests := []struct {
		name   string
		change func(*casegraph.CommonNeighborsRequest)
		want   string
	}{
		{"defaults", func(*casegraph.CommonNeighborsRequest) {}, ""},
		{"a maxDepth given", func(q *casegraph.CommonNeighborsRequest) { q.MaxDepthGiven = true }, "filter.maxDepth: commonNeighbors looks one hop away"},
		{"outgoing", func(q *casegraph.CommonNeighborsRequest) { q.Filter.Direction = casegraph.PathOutgoing }, "filter.direction"},
		{"limit 0", func(q *casegraph.CommonNeighborsRequest) { q.Limit = 0 }, "limit must be between 1 and 1000, not 0"},
		{"one id", func(q *casegraph.CommonNeighborsRequest) { q.IDs = ids(1) }, "commonNeighbors takes 2 to 10 ids, not 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := casegraph.NewCommonNeighborsRequest(ids(2))
			tt.change(&q)
			checkErr(t, q.Normalize(), tt.want)
		})
	}
}

func TestConnectionsQueryPairs(t *testing.T) {
	q := casegraph.NewConnectionsRequest([]string{"a", "b", "c"})
	if diff := cmp.Diff([][2]string{{"a", "b"}, {"a", "c"}, {"b", "c"}}, q.Pairs()); diff != "" {
		t.Errorf("pairs (-want +got):\n%s", diff)
	}
}

func TestTimelineQueryValidate(t *testing.T) {
	d := casegraph.MustPartialDate
	tests := []struct {
		name string
		q    casegraph.TimelineRequest
		want string
	}{
		{"open", casegraph.TimelineRequest{ID: "a"}, ""},
		{"a period", casegraph.TimelineRequest{ID: "a", From: d("2011"), To: d("2011-03")}, ""},
		{"from only", casegraph.TimelineRequest{ID: "a", From: d("2011")}, ""},
		{"bad id", casegraph.TimelineRequest{ID: "a b"}, "not a valid id"},
		{"to before from", casegraph.TimelineRequest{ID: "a", From: d("2012"), To: d("2011-12")}, "to 2011-12 is before from 2012"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkErr(t, tt.q.Validate(), tt.want) })
	}
}

func TestEntitiesQueryValidate(t *testing.T) {
	after := func(field casegraph.EntityOrderField, key string) casegraph.EntitiesRequest {
		q := casegraph.NewEntitiesRequest()
		q.Order.Field, q.Page.After, q.Page.AfterKey = field, "x", key
		return q
	}
	tests := []struct {
		name string
		q    casegraph.EntitiesRequest
		want string
	}{
		{"defaults", casegraph.NewEntitiesRequest(), ""},
		{"bad filter", casegraph.EntitiesRequest{Filter: casegraph.EntityFilter{Category: "PICNIC"}, Order: casegraph.DefaultEntityOrder}, "filter.category"},
		{"unknown order", casegraph.EntitiesRequest{Order: casegraph.EntityOrder{Field: "COLOUR"}}, `cannot sort by "COLOUR"`},
		{"a time after a time", after(casegraph.OrderByUpdatedAt, "2024-01-02T03:04:05.123456789Z"), ""},
		{"a name after a time", after(casegraph.OrderByUpdatedAt, "Nice"), "after: not a cursor of this list"},
		{"a number after a degree", after(casegraph.OrderByDegree, "12"), ""},
		{"a name after a degree", after(casegraph.OrderByDegree, "Nice"), "after: not a cursor of this list"},
		{"any key after a name", after(casegraph.OrderByName, "Nice"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkErr(t, tt.q.Validate(), tt.want) })
	}
}

// TestSearchQueryPage: a page of a search is a window over its ranked
// candidates, from the offset its cursor carries.
func TestSearchQueryPage(t *testing.T) {
	tests := []struct {
		name             string
		page             casegraph.Page
		n                int
		offset           int
		start, end       int
		more             bool
		wantOffsetErrFor string
	}{
		{"the first page", casegraph.Page{First: 10}, 25, 0, 0, 10, true, ""},
		{"after the tenth", casegraph.Page{First: 10, After: "10"}, 25, 10, 10, 20, true, ""},
		{"the last, short", casegraph.Page{First: 10, After: "20"}, 25, 20, 20, 25, false, ""},
		{"backward from the end", casegraph.Page{First: 10, Backward: true}, 25, casegraph.SearchWindow + 1, 15, 25, true, ""},
		{"backward before the eleventh", casegraph.Page{First: 10, After: "11", Backward: true}, 25, 11, 0, 10, false, ""},
		{"an offset beyond the window", casegraph.Page{First: 10, After: "201"}, 25, 0, 0, 0, false, "after: not a cursor of this list"},
		{"not a number", casegraph.Page{First: 10, After: "x"}, 25, 0, 0, 0, false, "after: not a cursor of this list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := casegraph.SearchRequest{Text: "Nice", Page: tt.page}
			offset, err := q.Offset()
			checkErr(t, err, tt.wantOffsetErrFor)
			if err != nil {
				return
			}
			start, end, more := q.Window(offset, tt.n)
			if offset != tt.offset || start != tt.start || end != tt.end || more != tt.more {
				t.Errorf("offset %d, window [%d, %d), more %t; want %d, [%d, %d), %t", offset, start, end, more, tt.offset, tt.start, tt.end, tt.more)
			}
		})
	}
	if got := casegraph.NewSuggestRequest("Geo").Candidates(); got != 4*casegraph.DefaultSuggest {
		t.Errorf("a suggestion's candidates: %d, want %d", got, 4*casegraph.DefaultSuggest)
	}
}
