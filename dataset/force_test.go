package dataset_test

import (
	"bytes"
	"strings"
	"testing"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/dataset"
)

func TestGenerateForce(t *testing.T) {
	opts := dataset.ForceOptions{Units: 300, Posts: 1500, Incidents: 20, Seed: 7}
	gen := func() []byte {
		var buf bytes.Buffer
		enc := dataset.NewEncoder(&buf)
		if err := dataset.GenerateForce(opts, enc.Encode); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	first := gen()
	if !bytes.Equal(first, gen()) {
		t.Fatal("the same options gave two forces")
	}
	b, err := dataset.Read(bytes.NewReader(first))
	if err != nil {
		t.Fatalf("the force does not read back: %v", err)
	}
	for _, s := range b.Sources {
		if s.Dataset != dataset.ForceDataset || !strings.Contains(s.Title, "Fictional") {
			t.Fatalf("source %s: %q of %s, want a fictional title in %s", s.ID, s.Title, s.Dataset, dataset.ForceDataset)
		}
	}
	units := 0
	for _, e := range b.Entities {
		if !strings.Contains(e.Description, dataset.Invented) {
			t.Fatalf("entity %s: %q does not say it is invented", e.ID, e.Description)
		}
		if e.Kind == casegraph.KindOrganization {
			units++
		}
	}
	count := map[casegraph.RelationType]int{}
	ends, moved := map[string]int{}, 0
	for _, r := range b.Relations {
		count[r.Type]++
		if r.Type == casegraph.RelationType("SUBORDINATE_TO") {
			if ends[r.FromID]++; ends[r.FromID] == 2 {
				moved++
			}
		}
	}
	if units != opts.Units || count["COMMANDS"] != opts.Posts || count["PERPETRATED"]+count["ALLEGEDLY_PERPETRATED"] != opts.Incidents {
		t.Errorf("got %d units, %d posts, %d perpetrations; want %d, %d, %d", units, count["COMMANDS"],
			count["PERPETRATED"]+count["ALLEGEDLY_PERPETRATED"], opts.Units, opts.Posts, opts.Incidents)
	}
	if moved == 0 || count["SUBORDINATE_TO"] != opts.Units-1+moved {
		t.Errorf("%d SUBORDINATE_TO for %d units, %d moved: want one a unit below the army, two for those that moved (some)", count["SUBORDINATE_TO"], units, moved)
	}
	if count["BASED_AT"] != opts.Units || count["OPERATES_IN"] == 0 || count["LOCATED_IN"] == 0 {
		t.Errorf("bases %d, areas %d, places %d", count["BASED_AT"], count["OPERATES_IN"], count["LOCATED_IN"])
	}
	if err := dataset.GenerateForce(dataset.ForceOptions{Units: 5, Posts: 5}, func(dataset.Record) error { return nil }); err == nil {
		t.Error("a force of 5 units: no error")
	}
}
