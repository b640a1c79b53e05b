package casegraph

// The counts of a search: its total and its facets by kind and dataset.

import (
	"cmp"
	"slices"
)

// A search's counts follow the usual faceted-search convention: the total
// applies every filter; each facet applies the other filters but not its
// own, so that a client that narrowed a search to one kind still sees how
// many matches the other kinds hold (what choosing one would give), and the
// same for datasets. All of them count within the caller's scope only.

// SearchCountRow is how many entities of one kind in one dataset match a
// search's text, within the caller's scope.
type SearchCountRow struct {
	Kind    Kind
	Dataset string
	Count   int64
}

// KindCount is how many matches are of a kind.
type KindCount struct {
	Kind  Kind
	Count int64
}

// DatasetCount is how many matches are in a dataset.
type DatasetCount struct {
	Dataset string
	Count   int64
}

// SearchCounts is a search's total and facets.
type SearchCounts struct {
	// Total is how many entities match the text and both filters.
	Total int64
	// Kinds counts the matches of the datasets filter by kind.
	Kinds []KindCount
	// Datasets counts the matches of the kinds filter by dataset.
	Datasets []DatasetCount
}

// TallySearch adds up the rows of a search's matches under the filter:
// the total and the facets (see SearchCounts), each facet's largest count
// first, then by name; a kind or dataset with no match is left out.
func TallySearch(rows []SearchCountRow, f SearchFilter) SearchCounts {
	kindOK := func(k Kind) bool { return len(f.Kinds) == 0 || slices.Contains(f.Kinds, k) }
	datasetOK := func(ds string) bool { return len(f.Datasets) == 0 || slices.Contains(f.Datasets, ds) }
	var out SearchCounts
	kinds, datasets := map[Kind]int64{}, map[string]int64{}
	for _, r := range rows {
		if kindOK(r.Kind) && datasetOK(r.Dataset) {
			out.Total += r.Count
		}
		if datasetOK(r.Dataset) {
			kinds[r.Kind] += r.Count
		}
		if kindOK(r.Kind) {
			datasets[r.Dataset] += r.Count
		}
	}
	for k, n := range kinds {
		if n > 0 {
			out.Kinds = append(out.Kinds, KindCount{Kind: k, Count: n})
		}
	}
	for ds, n := range datasets {
		if n > 0 {
			out.Datasets = append(out.Datasets, DatasetCount{Dataset: ds, Count: n})
		}
	}
	slices.SortFunc(out.Kinds, func(a, b KindCount) int { return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Kind, b.Kind)) })
	slices.SortFunc(out.Datasets, func(a, b DatasetCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Dataset, b.Dataset))
	})
	return out
}
