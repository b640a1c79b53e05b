package cypher_test

import (
	"context"
	"slices"
	"testing"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
)

// TestDatasetNamesAsDatasets: DatasetNames lists, for every kind of
// caller, the names Datasets lists: a dataset of entities, one that
// holds only a protected person (listed to the cleared alone), one that
// holds only a source; none the caller may not read.
func TestDatasetNamesAsDatasets(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	s := cyphertest.Store(t, cypher.Options{})
	open, protected, sourced := cyphertest.Dataset(t), cyphertest.Dataset(t), cyphertest.Dataset(t)
	src := func(ds string) casegraph.Source {
		return casegraph.Source{ID: ds + ":src", Title: "Register", Dataset: ds}
	}
	entities := []casegraph.Entity{
		{ID: open + ":a", Kind: casegraph.KindPerson, Name: "Open person", Dataset: open, SourceIDs: []string{open + ":src"}},
		{ID: protected + ":w", Kind: casegraph.KindPerson, Name: "Protected witness", Dataset: protected, SourceIDs: []string{sourced + ":src"}},
	}
	entities[1].Protected = true
	if _, err := s.WriteBatch(ctx, []casegraph.Source{src(open), src(sourced)}, entities, nil); err != nil {
		t.Fatal(err)
	}
	ours := []string{open, protected, sourced}
	reader := func(cleared bool, datasets ...string) context.Context {
		return casegraph.WithPrincipal(ctx, casegraph.Principal{ID: "names-reader", Role: casegraph.RoleReader, Datasets: datasets, Cleared: cleared})
	}
	for name, tt := range map[string]struct {
		ctx  context.Context
		want []string
	}{
		"uncleared, every dataset": {reader(false, casegraph.AllDatasets), []string{open, sourced}},
		"cleared, every dataset":   {reader(true, casegraph.AllDatasets), []string{open, protected, sourced}},
		"uncleared, the protected": {reader(false, protected), nil},
		"cleared, the protected":   {reader(true, protected), []string{protected}},
		"the source's alone":       {reader(false, sourced), []string{sourced}},
		"another dataset's":        {reader(true, "names-of-no-one"), nil},
		"anonymous, the open one":  {casegraph.WithPrincipal(ctx, casegraph.Anonymous([]string{open})), []string{open}},
	} {
		t.Run(name, func(t *testing.T) {
			names, err := s.DatasetNames(tt.ctx)
			if err != nil {
				t.Fatal(err)
			}
			full, err := s.Datasets(tt.ctx, "")
			if err != nil {
				t.Fatal(err)
			}
			// Other tests write datasets meanwhile: the test's own are
			// compared, and the order of all.
			var listed, got []string
			for _, d := range full {
				if slices.Contains(ours, d.Name) {
					listed = append(listed, d.Name)
				}
			}
			for _, n := range names {
				if slices.Contains(ours, n) {
					got = append(got, n)
				}
			}
			if !slices.IsSorted(names) {
				t.Errorf("DatasetNames not in name order: %v", names)
			}
			if !slices.Equal(got, listed) {
				t.Errorf("DatasetNames %v, Datasets %v", got, listed)
			}
			want := slices.Clone(tt.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("the test's datasets listed: %v, want %v", got, want)
			}
		})
	}
}
