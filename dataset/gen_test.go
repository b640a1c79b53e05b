package dataset_test

import (
	"bytes"
	"slices"
	"testing"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/dataset"
)

func generate(t *testing.T, opts dataset.GenOptions) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := dataset.NewEncoder(&buf)
	if err := dataset.Generate(opts, enc.Encode); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestGenerateIsReproducibleAndValid(t *testing.T) {
	opts := dataset.GenOptions{Entities: 2000, Relations: 10000, Seed: 42, Dataset: "gen-test"}
	a, b := generate(t, opts), generate(t, opts)
	if !bytes.Equal(a, b) {
		t.Fatal("the same options gave two different graphs")
	}
	opts.Seed = 43
	if bytes.Equal(a, generate(t, opts)) {
		t.Error("another seed gave the same graph")
	}

	batch, err := dataset.Read(bytes.NewReader(a))
	if err != nil {
		t.Fatalf("generated lines do not validate: %v", err)
	}
	if len(batch.Entities) != 2000 || len(batch.Relations) != 10000 || len(batch.Sources) == 0 {
		t.Fatalf("got %d entities, %d relations, %d sources", len(batch.Entities), len(batch.Relations), len(batch.Sources))
	}
	kind := map[string]casegraph.Kind{}
	for _, e := range batch.Entities {
		kind[e.ID] = e.Kind
	}
	degree := map[string]int{}
	typed := map[string]int{}
	for _, r := range batch.Relations {
		spec, _ := casegraph.Spec(r.Type)
		if !spec.Allows(kind[r.FromID], kind[r.ToID]) {
			t.Fatalf("relation %s: %s from %s to %s is not allowed", r.ID, r.Type, kind[r.FromID], kind[r.ToID])
		}
		for _, p := range casegraph.RelationPropertyTable() {
			if p.Value(r.RelationAttributes) != nil {
				typed[p.Name]++
			}
		}
		if r.Role != "" && slices.Contains(spec.Properties, "post") {
			t.Errorf("relation %s: %s with the role %q, want its post in post", r.ID, r.Type, r.Role)
		}
		degree[r.FromID]++
		degree[r.ToID]++
	}
	for _, p := range casegraph.RelationPropertyNames() {
		if typed[p] == 0 {
			t.Errorf("no relation with a %s: %v", p, typed)
		}
	}
	places, located := 0, 0
	for _, e := range batch.Entities {
		if e.Kind == casegraph.KindPlace {
			places++
			if e.Coordinates != nil {
				located++
			}
		}
	}
	if places == 0 || located != places {
		t.Errorf("%d of %d places with coordinates, want all", located, places)
	}
	// Power law: the best-connected entity has far more relations than the
	// median one.
	top, counts := 0, make([]int, 0, len(degree))
	for _, d := range degree {
		top = max(top, d)
		counts = append(counts, d)
	}
	median := quickMedian(counts)
	if top < 20*median {
		t.Errorf("top degree %d, median %d: want hubs (top at least 20 times the median)", top, median)
	}
}

func quickMedian(xs []int) int {
	// counting sort is enough for small degrees
	max := 0
	for _, x := range xs {
		if x > max {
			max = x
		}
	}
	hist := make([]int, max+1)
	for _, x := range xs {
		hist[x]++
	}
	seen := 0
	for v, n := range hist {
		seen += n
		if seen*2 >= len(xs) {
			return v
		}
	}
	return max
}
