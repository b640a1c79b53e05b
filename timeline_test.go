package casegraph_test

import (
	"slices"
	"testing"

	casegraph "github.com/casegraph/casegraph"
)

func TestTimeline(t *testing.T) {
	rels := []casegraph.Relation{
		{ID: "r-day", StartDate: "2011-03-15"},
		{ID: "r-month", StartDate: "2011-03"},
		{ID: "r-year", StartDate: "2011", EndDate: "2013"},
		{ID: "r-undated"},
		{ID: "r-end-only", EndDate: "2010-06"},
		{ID: "r-open", StartDate: "2009"},
	}
	events := []casegraph.Entity{
		{ID: "e-2011", Attributes: casegraph.Attributes{StartDate: "2011", EndDate: "2011"}},
		{ID: "e-2014", Attributes: casegraph.Attributes{StartDate: "2014-01-22"}},
	}
	ids := func(items []casegraph.TimelineItem) []string {
		var out []string
		for _, it := range items {
			if it.Event != nil {
				out = append(out, it.Event.ID)
			} else {
				out = append(out, it.Relation.ID)
			}
		}
		return out
	}
	all := casegraph.Timeline(rels, events, casegraph.PartialDate{}, casegraph.PartialDate{})
	want := []string{"r-open", "r-end-only", "e-2011", "r-year", "r-month", "r-day", "e-2014"}
	if got := ids(all); !slices.Equal(got, want) {
		t.Errorf("timeline %v, want %v", got, want)
	}
	window := casegraph.Timeline(rels, events, casegraph.MustPartialDate("2012"), casegraph.MustPartialDate("2013-06"))
	want = []string{"r-open", "r-year", "r-month", "r-day"} // relations without an end go on
	if got := ids(window); !slices.Equal(got, want) {
		t.Errorf("2012 to 2013-06: %v, want %v", got, want)
	}
}
