package cypher_test

import (
	"testing"

	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
)

// TestDuplicatePlans checks with EXPLAIN what the duplicate statements'
// comments claim: the dataset's entities by its index, each pair's ends by
// the unique id index, and no scan of every entity.
func TestDuplicatePlans(t *testing.T) {
	s := cyphertest.Store(t, cypher.Options{})
	scans := []string{"AllNodesScan", "NodeByLabelScan"}
	for _, tt := range []struct {
		name   string
		want   []string
		params map[string]any
	}{
		{"DuplicateSubjects", []string{"NodeIndexSeek"}, map[string]any{"dataset": "d", "kinds": nil, "batch": 2000}},
		{"DuplicateNeighbours", []string{"NodeUniqueIndexSeek"}, map[string]any{"pairs": []map[string]any{{"a": "x", "b": "y"}}}},
		{"DuplicateDismissals", []string{"NodeIndexSeek"}, map[string]any{"dataset": "d"}},
		{"DismissDuplicate", []string{"NodeUniqueIndexSeek"}, map[string]any{"pair": "x y", "a": "x", "b": "y", "dataset": "d", "by": "me", "at": nil}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			checkPlan(t, s, tt.name, tt.params, tt.want, scans)
		})
	}
}
