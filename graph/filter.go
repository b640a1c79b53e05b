package graph

// Glue for the filters and order of entities and the filter of searches,
// and the offsets and windows of search pages.

import (
	"strconv"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/graph/model"
)

// entityFilterOf converts a filter of entities (its Validate checks it).
func entityFilterOf(in *model.EntityFilter) casegraph.EntityFilter {
	var f casegraph.EntityFilter
	if in == nil {
		return f
	}
	for _, k := range in.Kinds {
		f.Kinds = append(f.Kinds, kindFromModel(k))
	}
	f.Datasets = in.Datasets
	f.Category = deref(in.Category)
	f.DateFrom, f.DateTo = dateString(in.DateFrom), dateString(in.DateTo)
	for _, t := range in.HasRelation {
		f.HasRelation = append(f.HasRelation, casegraph.RelationType(t))
	}
	f.NameContains = deref(in.NameContains)
	return f
}

func entityOrderOf(in *model.EntityOrder) casegraph.EntityOrder {
	if in == nil {
		return casegraph.EntityOrder{Field: casegraph.OrderByID}
	}
	return casegraph.EntityOrder{Field: casegraph.EntityOrderField(in.Field), Desc: in.Direction == model.OrderDirectionDesc}
}

// searchFilterOf converts a search's filter (the request's Normalize
// checks it).
func searchFilterOf(kinds []model.EntityKind, datasets []string) casegraph.SearchFilter {
	var f casegraph.SearchFilter
	for _, k := range kinds {
		f.Kinds = append(f.Kinds, kindFromModel(k))
	}
	f.Datasets = datasets
	return f
}

// offsetOf reads a search cursor: the number of results before the page.
func offsetOf(page casegraph.Page) (int, error) {
	if page.Backward && page.After == "" {
		return casegraph.SearchWindow + 1, nil // before the end: the last items
	}
	if page.After == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(page.After)
	if err != nil || n < 0 || n > casegraph.SearchWindow {
		return 0, casegraph.Errorf(casegraph.CodeBadUserInput, "after: not a cursor of this list")
	}
	return n, nil
}

// checkSortKey refuses a cursor whose sort key is not of its order's type
// (a checksum keeps out accidents, not forgeries): the key reaches Cypher
// as a time or a number.
func checkSortKey(order casegraph.EntityOrder, page casegraph.Page) error {
	if page.After == "" {
		return nil
	}
	var err error
	switch order.Field {
	case casegraph.OrderByUpdatedAt:
		_, err = time.Parse(time.RFC3339Nano, page.AfterKey)
	case casegraph.OrderByDegree:
		_, err = strconv.ParseInt(page.AfterKey, 10, 64)
	}
	if err != nil {
		return casegraph.Errorf(casegraph.CodeBadUserInput, "after: not a cursor of this list")
	}
	return nil
}

// searchWindow is the part of a search's ranked candidates (n of them) a
// page shows. A cursor's offset is the position after its item. Forward:
// first items from the offset; backward: the last items before the
// cursor's item (offset SearchWindow+1 without a cursor: the end). more
// says there are candidates beyond the page in its direction.
func searchWindow(page casegraph.Page, offset, n int) (start, end int, more bool) {
	if !page.Backward {
		end = min(offset+page.First, n)
		start = min(offset, end)
		return start, end, end < n
	}
	end = max(0, min(offset-1, n))
	start = max(0, end-page.First)
	return start, end, start > 0
}
