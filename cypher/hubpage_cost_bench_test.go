package cypher_test

import (
	"context"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/dataset"
)

// BenchmarkHubPageCost reports what Neo4j spends on a page of 20
// relations with the entity at their other end (as BenchmarkHubThreshold
// reads it) of a hub of 500 relations, for an uncleared reader of every
// dataset: the statement's database hits under PROFILE, read from the
// :RelationId registry ($hubDegree 1) and by the expansion, and the time
// to plan its text on a cleared query cache (EXPLAIN), for that shape and
// for the same page under each end (depth 2), the median of three. Hits
// do not vary between runs; planning is worth comparing only within one
// run or between runs interleaved on one machine.
//
//	go test ./cypher -run '^$' -bench HubPageCost -benchtime 1x
func BenchmarkHubPageCost(b *testing.B) {
	s := cyphertest.Store(b, cypher.Options{HubDegree: 1})
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 10*time.Minute)
	defer cancel()
	batch, hub := smallHub(cyphertest.Dataset(b), 500)
	if _, err := dataset.Import(ctx, batch, s, dataset.Options{}); err != nil {
		b.Fatal(err)
	}
	page := func(ends *casegraph.EntityRead) *casegraph.EntityRead {
		return &casegraph.EntityRead{Relations: []casegraph.RelationsRead{{
			Filter: casegraph.RelationFilter{Direction: casegraph.DirectionBoth}, Page: casegraph.Page{First: 20}, Ends: ends,
		}}}
	}
	shapes := []struct {
		name string
		read *casegraph.EntityRead
	}{{"page", page(&casegraph.EntityRead{})}, {"depth2", page(page(&casegraph.EntityRead{}))}}
	d := s.Driver()
	for b.Loop() {
		text, params, err := cypher.ReadText(s, shapes[0].read, false)
		if err != nil {
			b.Fatal(err)
		}
		for _, way := range []struct {
			name   string
			degree int
		}{{"registry", 1}, {"expansion", 1 << 30}} {
			p := cypher.ScopeParams(casegraph.Scope{}, maps.Clone(params))
			p["ids"], p["hubDegree"] = []string{hub}, way.degree
			b.ReportMetric(float64(dbHits(b, ctx, d, text, p)), way.name+"-dbhits")
		}
		for _, shape := range shapes {
			text, _, err := cypher.ReadText(s, shape.read, false)
			if err != nil {
				b.Fatal(err)
			}
			var took []time.Duration
			for range 3 {
				clearCaches(b, d)
				took = append(took, timed(b, d, "EXPLAIN "+text, cypher.ScopeParams(casegraph.Scope{}, nil)))
			}
			slices.Sort(took)
			b.ReportMetric(ms(took[1]), shape.name+"-plan-ms")
		}
	}
}

// dbHits runs a statement with PROFILE and returns its database hits.
func dbHits(b *testing.B, ctx context.Context, d neo4j.DriverWithContext, text string, params map[string]any) int64 {
	b.Helper()
	res, err := neo4j.ExecuteQuery(ctx, d, "PROFILE "+text, params, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithReadersRouting())
	if err != nil {
		b.Fatal(err)
	}
	if len(res.Records) != 1 {
		b.Fatalf("%d records", len(res.Records))
	}
	return cypher.PlanDBHits(res.Summary.Profile())
}
