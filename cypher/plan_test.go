package cypher_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
)

// TestPathPlans checks with EXPLAIN what the comments of the path
// statements claim: ends found by unique-index seeks, single-pair searches
// planned as bidirectional (StatefulShortestPath(Into)), the filters
// inlined into the search, and no scan of every node.
func TestPathPlans(t *testing.T) {
	s := cyphertest.Store(t, cypher.Options{Logger: zerolog.Nop()})
	f := casegraph.PathFilter{Datasets: []string{"d"}, ExcludeIDs: []string{"x"}}
	if err := f.Normalize(); err != nil {
		t.Fatal(err)
	}
	params := cypher.PathParams(f)
	params["from"], params["to"], params["k"] = "a", "b", int64(1)
	params["id"], params["limit"], params["limitPlusOne"] = "a", int64(10), int64(11)
	params["relationLimit"], params["relationLimitPlusOne"] = int64(50), int64(51)
	params["ids"], params["pairs"] = []string{"a", "b"}, [][]string{{"a", "b"}}

	tests := []struct {
		name    string
		want    []string
		notWant []string
	}{
		{cypher.PathStatementName("Paths", 4, casegraph.PathAny, 1), []string{"StatefulShortestPath(Into)", "NodeUniqueIndexSeek", "inlined predicates"}, []string{"AllNodesScan"}},
		{cypher.PathStatementName("Paths", 8, casegraph.PathOutgoing, 20), []string{"StatefulShortestPath(Into)", "NodeUniqueIndexSeek"}, []string{"AllNodesScan"}},
		{cypher.PathStatementName("Connections", 4, casegraph.PathAny, 0), []string{"StatefulShortestPath(Into)", "NodeUniqueIndexSeek"}, []string{"AllNodesScan"}},
		{cypher.PathStatementName("Neighborhood", 2, casegraph.PathAny, 0), []string{"StatefulShortestPath", "NodeUniqueIndexSeek"}, []string{"AllNodesScan"}},
		// Without sources, and for k = 1 without the whole-path "simple"
		// predicate (a shortest path is simple), the search plans the same.
		{cypher.PathStatementName("Paths", 4, casegraph.PathAny, 1) + "/nosources", []string{"StatefulShortestPath(Into)", "NodeUniqueIndexSeek", "inlined predicates"}, []string{"AllNodesScan", "all(i IN range"}},
		{cypher.PathStatementName("Paths", 4, casegraph.PathAny, 3) + "/nosources", []string{"StatefulShortestPath(Into)", "NodeUniqueIndexSeek", "all(i IN range"}, []string{"AllNodesScan"}},
		{cypher.PathStatementName("Connections", 4, casegraph.PathAny, 0) + "/nosources", []string{"StatefulShortestPath(Into)", "NodeUniqueIndexSeek"}, []string{"AllNodesScan"}},
		{cypher.PathStatementName("Neighborhood", 2, casegraph.PathAny, 0) + "/nosources", []string{"StatefulShortestPath", "NodeUniqueIndexSeek"}, []string{"AllNodesScan"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			plan, err := s.Explain(ctx, tt.name, params)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(plan, w) {
					t.Errorf("the plan has no %s:\n%s", w, plan)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(plan, w) {
					t.Errorf("the plan has %s:\n%s", w, plan)
				}
			}
		})
	}
}

// TestReadPlan checks the compiled read's plan: entities found by
// unique-index seeks, relations expanded from them (by type), and no scan.
func TestReadPlan(t *testing.T) {
	s := cyphertest.Store(t, cypher.Options{Logger: zerolog.Nop()})
	page := casegraph.RelationsRead{Filter: casegraph.RelationFilter{Direction: casegraph.DirectionBoth}, Page: casegraph.Page{First: 10}, Total: true, Sources: true}
	inner := page
	inner.Filter = casegraph.RelationFilter{Direction: casegraph.DirectionOutgoing, Types: []casegraph.RelationType{casegraph.RelationType("AUTHORED")}}
	page.Ends = &casegraph.EntityRead{Sources: true, Relations: []casegraph.RelationsRead{inner}}
	read := &casegraph.EntityRead{Sources: true, Relations: []casegraph.RelationsRead{page}}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	plan, err := s.ExplainRead(ctx, []string{"a", "b"}, read)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"NodeUniqueIndexSeek", "Expand(All)", ":AUTHORED"} {
		if !strings.Contains(plan, w) {
			t.Errorf("the plan has no %s:\n%s", w, plan)
		}
	}
	for _, w := range []string{"AllNodesScan", "NodeByLabelScan", "CartesianProduct", "IndexSeekByRange", "IndexScan"} {
		if strings.Contains(plan, w) {
			t.Errorf("the plan has %s:\n%s", w, plan)
		}
	}
	t.Logf("plan:\n%s", plan)
}
