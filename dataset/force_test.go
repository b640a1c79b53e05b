package dataset_test

import (
	"bytes"
	"math"
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
	for _, r := range b.Relations {
		switch {
		case r.Type == "COMMANDS" && (r.Post == "" || r.Rank == "" || r.Role != ""):
			t.Fatalf("post %s: post %q, rank %q, role %q; want the post and rank, no role", r.ID, r.Post, r.Rank, r.Role)
		case r.Type == "FAMILY_OF" && r.Relationship == "":
			t.Fatalf("family tie %s without its relationship", r.ID)
		}
	}
	if count["FAMILY_OF"] == 0 {
		t.Error("no family ties among the officers")
	}
	checkForcePlaces(t, b)
	if err := dataset.GenerateForce(dataset.ForceOptions{Units: 5, Posts: 5}, func(dataset.Record) error { return nil }); err == nil {
		t.Error("a force of 5 units: no error")
	}
}

// checkForcePlaces: every place of a force has coordinates in Ruritania's
// invented region (open ocean, 44° to 52° N, 42° to 30° W), and each place
// located in another is nearer to it than to any other place of its
// kind: a village lies in its district's box, a district in its
// governorate's.
func checkForcePlaces(t *testing.T, b dataset.Batch) {
	t.Helper()
	at := map[string]casegraph.Coordinates{}
	for _, e := range b.Entities {
		if e.Kind != casegraph.KindPlace {
			continue
		}
		c := e.Coordinates
		if c == nil || c.Latitude < 44 || c.Latitude > 52 || c.Longitude < -42 || c.Longitude > -30 {
			t.Fatalf("place %s at %v, want coordinates in Ruritania", e.ID, c)
		}
		at[e.ID] = *c
	}
	kindOf := func(id string) string { return strings.TrimRight(id[strings.LastIndex(id, ":")+1:], "-0123456789") }
	for _, r := range b.Relations {
		in, ok := at[r.ToID]
		if r.Type != "LOCATED_IN" || !ok {
			continue
		}
		place, ok := at[r.FromID]
		if !ok {
			continue // an incident
		}
		d := func(c casegraph.Coordinates) float64 {
			return math.Hypot(c.Latitude-place.Latitude, c.Longitude-place.Longitude)
		}
		for id, c := range at {
			if id != r.ToID && kindOf(id) == kindOf(r.ToID) && d(c) < d(in) {
				t.Fatalf("%s at %v is in %s at %v, but nearer to %s at %v", r.FromID, place, r.ToID, in, id, c)
			}
		}
	}
}

// TestDemoForce: the demonstration force reads back, every entity says
// it is invented, commands carry their post and rank (not a role), and
// its places lie in Ruritania's region, each nearer to the place it is
// located in than to that one's own (Kesselbrin in Dravo District, in
// Vellmar Governorate).
func TestDemoForce(t *testing.T) {
	b, err := dataset.Read(dataset.DemoForce())
	if err != nil {
		t.Fatalf("the demonstration force does not read back: %v", err)
	}
	for _, e := range b.Entities {
		if !strings.Contains(e.Description, dataset.Invented) {
			t.Errorf("entity %s: %q does not say it is invented", e.ID, e.Description)
		}
	}
	in := map[string]string{}
	for _, r := range b.Relations {
		switch r.Type {
		case "COMMANDS":
			if r.Post == "" || r.Rank == "" || r.Role != "" {
				t.Errorf("post %s: post %q, rank %q, role %q; want the post and rank, no role", r.ID, r.Post, r.Rank, r.Role)
			}
		case "LOCATED_IN":
			in[r.FromID] = r.ToID
		}
	}
	checkForcePlaces(t, b)
	at := map[string]*casegraph.Coordinates{}
	for _, e := range b.Entities {
		at[e.ID] = e.Coordinates
	}
	d := func(a, b *casegraph.Coordinates) float64 {
		return math.Hypot(a.Latitude-b.Latitude, a.Longitude-b.Longitude)
	}
	nested := 0
	for place, parent := range in {
		grand, ok := in[parent]
		if at[place] == nil || !ok {
			continue
		}
		nested++
		if d(at[place], at[parent]) >= d(at[place], at[grand]) {
			t.Errorf("%s is nearer to %s than to %s, which it is located in", place, grand, parent)
		}
	}
	if nested == 0 {
		t.Error("no place located in a place located in another")
	}
}
