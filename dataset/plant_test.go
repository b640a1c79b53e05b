package dataset_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	casegraph "github.com/casegraph/casegraph"

	"github.com/casegraph/casegraph/dataset"
)

// plantedBatch is the batch opts generate and its planted pairs.
func plantedBatch(t *testing.T, opts dataset.GenOptions) (dataset.Batch, [][2]string) {
	t.Helper()
	batch, err := dataset.GenerateBatch(opts)
	if err != nil {
		t.Fatal(err)
	}
	pairs, err := dataset.PlantedDuplicates(opts)
	if err != nil {
		t.Fatal(err)
	}
	return batch, pairs
}

// TestPlantDuplicates: the planted duplicates are entities of the batch,
// each of its original's kind, under another name, with the pairs the
// same for the same options; without planting the graph is unchanged.
func TestPlantDuplicates(t *testing.T) {
	opts := dataset.GenOptions{Entities: 2000, Relations: 8000, Seed: 7, Dataset: "plant", PlantDuplicates: 100}
	batch, pairs := plantedBatch(t, opts)
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

// TestPlantIdentifierNoise: a planted second record keeps an identifier
// of its original as it was (written otherwise at most), with a typo (one
// digit off or two neighbours swapped), or, for a passport only, as
// another number (renewed); or it lacks that type; each of these happens.
func TestPlantIdentifierNoise(t *testing.T) {
	opts := dataset.GenOptions{Entities: 10000, Relations: 1000, Seed: 3, Dataset: "plant-ids", PlantDuplicates: 2000}
	batch, pairs := plantedBatch(t, opts)
	byID := map[string]casegraph.Entity{}
	for _, e := range batch.Entities {
		byID[e.ID] = e
	}
	normal := strings.NewReplacer(" ", "", "-", "")
	ids := func(e casegraph.Entity) map[casegraph.IdentifierType]string {
		out := map[casegraph.IdentifierType]string{}
		for _, id := range e.Identifiers {
			out[id.Type] = strings.ToUpper(normal.Replace(id.Value))
		}
		return out
	}
	count := map[string]int{}
	for _, p := range pairs {
		orig, dup := ids(byID[p[0]]), ids(byID[p[1]])
		for typ, o := range orig {
			d, ok := dup[typ]
			switch {
			case !ok:
				count["missing"]++
			case d == o:
				count["equal"]++
			case oneOff(o, d):
				count["typo"]++
			case typ == casegraph.IdentifierPassport && len(d) == len(o):
				count["renewed"]++
			default:
				t.Errorf("pair %v: %s %q planted as %q", p, typ, o, d)
			}
		}
		for typ := range dup {
			if _, ok := orig[typ]; !ok {
				t.Errorf("pair %v: a %s the original does not have", p, typ)
			}
		}
	}
	for _, k := range []string{"equal", "missing", "typo", "renewed"} {
		if count[k] == 0 {
			t.Errorf("no identifier %s among %d pairs: %v", k, len(pairs), count)
		}
	}
	if count["typo"] > count["equal"]/4 || count["renewed"] > count["equal"]/4 {
		t.Errorf("%v: want typos and renewals occasional, beside the equal", count)
	}
	t.Logf("identifiers of %d planted pairs: %v", len(pairs), count)
}

// oneOff says whether a and b, of one length, differ in one character or
// by two neighbours swapped.
func oneOff(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	var diff []int
	for i := range len(a) {
		if a[i] != b[i] {
			diff = append(diff, i)
		}
	}
	return len(diff) == 1 || len(diff) == 2 && diff[1] == diff[0]+1 && a[diff[0]] == b[diff[1]] && a[diff[1]] == b[diff[0]]
}
