package graph

import (
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
	if in.NameContains != nil {
		if err := casegraph.ValidateText("filter.nameContains", *in.NameContains, casegraph.MaxNameLength, false, false); err != nil {
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
