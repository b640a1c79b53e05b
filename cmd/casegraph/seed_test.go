package main

import (
	"context"
	"strings"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/dataset"
)

// TestSeedTwiceRecordsNothing: a seed that finds everything as it would
// leave it records no change in the audit log: not for its datasets, not
// for its saved queries.
func TestSeedTwiceRecordsNothing(t *testing.T) {
	vars := neo4jVars(t)
	store := cyphertest.Store(t, cypher.Options{})
	examples, err := dataset.SeedSavedQueries()
	if err != nil {
		t.Fatal(err)
	}
	// The targets a seed's changes name: its datasets' and its queries'.
	filters := []casegraph.ChangeFilter{{Dataset: dataset.SeedName}, {Dataset: dataset.ForceDataset}}
	for _, q := range examples {
		filters = append(filters, casegraph.ChangeFilter{EntityID: q.Name})
	}
	count := func(since time.Time) int64 {
		ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), time.Minute)
		defer cancel()
		var n int64
		for _, f := range filters {
			f.Since = since
			c, err := store.CountChanges(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			n += c
		}
		return n
	}
	// The first seed makes the database hold the seed (it may record what
	// it changed); the second finds it so.
	if _, errOut, err := runWith(t, []string{"seed"}, vars); err != nil {
		t.Fatalf("seed: %v\n%s", err, errOut)
	}
	since := time.Now().UTC()
	out, errOut, err := runWith(t, []string{"seed"}, vars)
	if err != nil {
		t.Fatalf("seed again: %v\n%s", err, errOut)
	}
	if n := count(since); n != 0 {
		t.Errorf("the second seed recorded %d changes, want none:\n%s", n, out)
	}
	for _, q := range examples {
		if !strings.Contains(out, "saved query "+q.Name+": version ") {
			t.Errorf("seed again does not name %s:\n%s", q.Name, out)
		}
	}
	if n := strings.Count(out, ", its document already saved\n"); n != len(examples) {
		t.Errorf("seed again says %d of %d queries were saved already:\n%s", n, len(examples), out)
	}
}
