package graph

import (
	"strconv"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/graph/model"
)

// Limits on filter lists; longer ones are refused.
const maxFilterValues = 50

// entityFilterOf validates a filter and turns it into the domain's.
func entityFilterOf(in *model.EntityFilter) (casegraph.EntityFilter, error) {
	var f casegraph.EntityFilter
	if in == nil {
		return f, nil
	}
	if len(in.Kinds) > maxFilterValues || len(in.Datasets) > maxFilterValues {
		return f, casegraph.Errorf(casegraph.CodeBadUserInput, "filter: at most %d kinds and %d datasets", maxFilterValues, maxFilterValues)
	}
	for _, k := range in.Kinds {
		f.Kinds = append(f.Kinds, kindFromModel(k))
	}
	for _, ds := range in.Datasets {
		if err := casegraph.ValidateID("filter.datasets", ds); err != nil {
			return f, err
		}
	}
	f.Datasets = in.Datasets
	f.Category = deref(in.Category)
	f.DateFrom, f.DateTo = dateString(in.DateFrom), dateString(in.DateTo)
	if f.DateFrom != "" && f.DateTo != "" && casegraph.MustPartialDate(f.DateTo).Latest() < casegraph.MustPartialDate(f.DateFrom).Earliest() {
		return f, casegraph.Errorf(casegraph.CodeBadUserInput, "filter.dateTo %s is before dateFrom %s", f.DateTo, f.DateFrom)
	}
	if len(in.HasRelation) > maxFilterValues {
		return f, casegraph.Errorf(casegraph.CodeBadUserInput, "filter.hasRelation: at most %d types", maxFilterValues)
	}
	for _, t := range in.HasRelation {
		f.HasRelation = append(f.HasRelation, casegraph.RelationType(t))
	}
	if in.NameContains != nil {
		if err := (casegraph.TextRule{Max: casegraph.MaxNameLength}).Check("filter.nameContains", *in.NameContains); err != nil {
			return f, err
		}
		f.NameContains = *in.NameContains
	}
	return f, nil
}

// validateMerge checks the ids of a merge before the store sees them.
func validateMerge(into string, from []string) error {
	if err := casegraph.ValidateID("into", into); err != nil {
		return err
	}
	if len(from) == 0 || len(from) > maxFilterValues {
		return casegraph.Errorf(casegraph.CodeBadUserInput, "from: merge 1 to %d entities at a time", maxFilterValues)
	}
	seen := map[string]bool{into: true}
	for _, id := range from {
		if err := casegraph.ValidateID("from", id); err != nil {
			return err
		}
		if seen[id] {
			return casegraph.Errorf(casegraph.CodeBadUserInput, "from: %q is named twice, or is the entity merged into", id)
		}
		seen[id] = true
	}
	return nil
}

func entityOrderOf(in *model.EntityOrder) casegraph.EntityOrder {
	if in == nil {
		return casegraph.EntityOrder{Field: casegraph.OrderByID}
	}
	return casegraph.EntityOrder{Field: casegraph.EntityOrderField(in.Field), Desc: in.Direction == model.OrderDirectionDesc}
}

func searchFilterOf(kinds []model.EntityKind, datasets []string) (casegraph.SearchFilter, error) {
	var f casegraph.SearchFilter
	if len(kinds) > maxFilterValues || len(datasets) > maxFilterValues {
		return f, casegraph.Errorf(casegraph.CodeBadUserInput, "at most %d kinds and %d datasets", maxFilterValues, maxFilterValues)
	}
	for _, k := range kinds {
		f.Kinds = append(f.Kinds, kindFromModel(k))
	}
	for _, ds := range datasets {
		if err := casegraph.ValidateID("datasets", ds); err != nil {
			return f, err
		}
	}
	f.Datasets = datasets
	return f, nil
}

// offsetOf reads a search cursor: the number of results before the page.
func offsetOf(page casegraph.Page) (int, error) {
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
