package dataset

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
)

// TestPlantRunsOut: planting more duplicates of a kind than it has
// originals is an error, not a search without end, and a dataset without
// people plants organizations' duplicates.
func TestPlantRunsOut(t *testing.T) {
	entities := func(people, orgs int) []Record {
		var out []Record
		for i := range people {
			out = append(out, Record{Type: "entity", ID: fmt.Sprint("p", i), Kind: string(casegraph.KindPerson), Name: fmt.Sprint("Person Number ", i)})
		}
		for i := range orgs {
			out = append(out, Record{Type: "entity", ID: fmt.Sprint("o", i), Kind: string(casegraph.KindOrganization), Name: fmt.Sprint("Organization Number ", i)})
		}
		return out
	}
	for _, tc := range []struct {
		name         string
		people, orgs int
		n            int
		wantError    bool
	}{
		{"enough of both", 20, 5, 10, false},
		{"one organization for two duplicates", 20, 1, 10, true},
		{"no people", 0, 10, 4, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() {
				_, err := plant(rand.New(rand.NewPCG(1, 2)), rand.New(rand.NewPCG(3, 4)), "d", tc.n, entities(tc.people, tc.orgs), func(Record) error { return nil })
				done <- err
			}()
			select {
			case err := <-done:
				if (err != nil) != tc.wantError {
					t.Errorf("plant: %v, want an error: %t", err, tc.wantError)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("plant did not end")
			}
		})
	}
}
