package cypher

import (
	"context"
	"os"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
)

// DatasetTimelineParams are the parameters DatasetTimeline's statement
// runs with for q.
var DatasetTimelineParams = datasetTimelineParams

// DatasetTimelineScan is the text of testdata/DatasetTimelineScan: the
// statement DatasetTimeline ran before it read relations in date order.
func DatasetTimelineScan() (string, error) {
	b, err := os.ReadFile("testdata/DatasetTimelineScan.cypher.tmpl")
	if err != nil {
		return "", err
	}
	return render("DatasetTimelineScan", string(b), vocabularyData())
}

// RunText runs a statement's text as scope's caller, with params and the
// gate's parameters, and returns its records and the database hits of its
// run when profile is set (PROFILE).
func (s *Store) RunText(ctx context.Context, text string, scope casegraph.Scope, params map[string]any, profile bool) ([]*neo4j.Record, int64, error) {
	// As every method of the store, nothing without a principal
	// (TestNoPrincipalNoAccess calls this one too).
	if _, err := casegraph.Caller(ctx); err != nil {
		return nil, 0, err
	}
	if profile {
		text = "PROFILE " + text
	}
	res, err := neo4j.ExecuteQuery(ctx, s.driver, text, scopeParams(scope, params), neo4j.EagerResultTransformer,
		neo4j.ExecuteQueryWithDatabase(s.database), neo4j.ExecuteQueryWithReadersRouting())
	if err != nil {
		return nil, 0, err
	}
	var hits int64
	if profile {
		hits = PlanDBHits(res.Summary.Profile())
	}
	return res.Records, hits, nil
}
