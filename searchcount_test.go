package casegraph

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTallySearch(t *testing.T) {
	rows := []SearchCountRow{
		{KindPerson, "a", 3}, {KindPerson, "b", 1}, {KindPlace, "a", 2}, {KindEvent, "b", 5},
	}
	tests := []struct {
		name string
		f    SearchFilter
		want SearchCounts
	}{
		{"no filter", SearchFilter{}, SearchCounts{
			Total:    11,
			Kinds:    []KindCount{{KindEvent, 5}, {KindPerson, 4}, {KindPlace, 2}},
			Datasets: []DatasetCount{{"b", 6}, {"a", 5}},
		}},
		{"kinds: the kind facet ignores it", SearchFilter{Kinds: []Kind{KindPerson}}, SearchCounts{
			Total:    4,
			Kinds:    []KindCount{{KindEvent, 5}, {KindPerson, 4}, {KindPlace, 2}},
			Datasets: []DatasetCount{{"a", 3}, {"b", 1}},
		}},
		{"datasets: the dataset facet ignores it", SearchFilter{Datasets: []string{"a"}}, SearchCounts{
			Total:    5,
			Kinds:    []KindCount{{KindPerson, 3}, {KindPlace, 2}},
			Datasets: []DatasetCount{{"b", 6}, {"a", 5}},
		}},
		{"both", SearchFilter{Kinds: []Kind{KindPlace, KindEvent}, Datasets: []string{"b"}}, SearchCounts{
			Total:    5,
			Kinds:    []KindCount{{KindEvent, 5}, {KindPerson, 1}},
			Datasets: []DatasetCount{{"b", 5}, {"a", 2}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := TallySearch(rows, tt.f)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("TallySearch (-want +got):\n%s", diff)
			}
		})
	}
	if got := TallySearch(nil, SearchFilter{}); got.Total != 0 || got.Kinds != nil || got.Datasets != nil {
		t.Errorf("no rows: got %+v, want zero", got)
	}
}
