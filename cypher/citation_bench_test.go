package cypher_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
)

// BenchmarkCitingClaims measures regrade's look-up of the claims that cite
// a source (CitingClaims) in a dataset of its own (20 entities, 19
// relations citing it) on whatever else the database holds (the more
// unrelated claims, the more the scan of all data costs): its database
// hits (PROFILE) and time by the datasets the source records, and over
// every claim (as before sources recorded them).
func BenchmarkCitingClaims(b *testing.B) {
	ds := cyphertest.Dataset(b)
	s := cyphertest.Store(b, cypher.Options{})
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 10*time.Minute)
	defer cancel()
	x := casegraph.Source{ID: ds + ":x", Title: "X", Publisher: "Paper X", Dataset: ds}
	var entities []casegraph.Entity
	var relations []casegraph.Relation
	for i := range 20 {
		entities = append(entities, casegraph.Entity{ID: fmt.Sprintf("%s:e%d", ds, i), Kind: casegraph.KindPerson, Name: fmt.Sprint("E", i), Dataset: ds, SourceIDs: []string{x.ID}})
		if i > 0 {
			relations = append(relations, casegraph.Relation{ID: fmt.Sprintf("%s:r%d", ds, i), Type: "WORKED_WITH", FromID: entities[i-1].ID, ToID: entities[i].ID,
				Status: casegraph.StatusReported, Dataset: ds, SourceIDs: []string{x.ID}})
		}
	}
	if _, err := s.WriteBatch(ctx, []casegraph.Source{x}, entities, relations); err != nil {
		b.Fatal(err)
	}
	for _, indexed := range []bool{true, false} {
		name := "all"
		if indexed {
			name = "datasets"
		}
		b.Run(name, func(b *testing.B) {
			var hits int64
			var claims int
			for b.Loop() {
				var err error
				if hits, claims, err = s.CitingClaimsDBHits(ctx, []string{x.ID}, indexed); err != nil {
					b.Fatal(err)
				}
			}
			if claims != len(entities)+len(relations) {
				b.Fatalf("%d claims, want %d", claims, len(entities)+len(relations))
			}
			b.ReportMetric(float64(hits), "dbhits")
		})
	}
}
