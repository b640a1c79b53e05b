package dataset_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/casegraph/casegraph/dataset"
)

// TestPlantDuplicates: the planted duplicates are entities of the batch,
// each of its original's kind, under another name, with the pairs the
// same for the same options; without planting the graph is unchanged.
func TestPlantDuplicates(t *testing.T) {
	opts := dataset.GenOptions{Entities: 2000, Relations: 8000, Seed: 7, Dataset: "plant", PlantDuplicates: 100}
	batch, err := dataset.GenerateBatch(opts)
	if err != nil {
		t.Fatal(err)
	}
	pairs, err := dataset.PlantedDuplicates(opts)
	if err != nil {
		t.Fatal(err)
	}
	again, err := dataset.PlantedDuplicates(opts)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(pairs, again); diff != "" {
		t.Errorf("the same options planted other pairs (-first +second):\n%s", diff)
	}
	if len(pairs) != 100 {
		t.Fatalf("%d pairs, want 100", len(pairs))
	}
	byID := map[string]int{}
	for i, e := range batch.Entities {
		byID[e.ID] = i
	}
	if got, want := len(batch.Entities), 2100; got != want {
		t.Errorf("%d entities, want %d", got, want)
	}
	copied := 0
	for _, r := range batch.Relations {
		if strings.Contains(r.ID, "-of-dup-") {
			copied++
		}
	}
	if copied == 0 {
		t.Error("no duplicate repeats a relation of its original")
	}
	for _, p := range pairs {
		oi, ok1 := byID[p[0]]
		di, ok2 := byID[p[1]]
		if !ok1 || !ok2 {
			t.Fatalf("pair %v not in the batch", p)
		}
		o, d := batch.Entities[oi], batch.Entities[di]
		if o.Kind != d.Kind || o.Name == d.Name {
			t.Errorf("%s %q planted as %s %q", o.Kind, o.Name, d.Kind, d.Name)
		}
	}

	plain := opts
	plain.PlantDuplicates = 0
	if pairs, err := dataset.PlantedDuplicates(plain); err != nil || pairs != nil {
		t.Errorf("without planting: %v, %v", pairs, err)
	}
}
