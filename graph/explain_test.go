package graph_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const explainQuery = `query($from: ID!, $to: ID!, $f: PathFilter) { pathExplanation(from: $from, to: $to, filter: $f) {
	found length lengthBeyondMaxDepth blockingFilters complete message } }`

// TestPathExplanation: on the seed, de Silva reaches Qatar in 4 relations;
// a search that finds nothing says whether a path lies beyond its depth,
// and which condition alone keeps it out; bad input is refused as the
// search refuses it.
func TestPathExplanation(t *testing.T) {
	t.Parallel()
	s := newSeedPaths(t)
	explain := func(extra map[string]any) map[string]any {
		t.Helper()
		res := s.h.MustPost(explainQuery, map[string]any{"from": s.id("desmond-de-silva"), "to": s.id("qatar"), "f": s.filter(extra)})
		out := field(res, "pathExplanation").(map[string]any)
		delete(out, "message")
		return out
	}
	tests := []struct {
		name   string
		filter map[string]any
		want   map[string]any
	}{
		{"found", nil, map[string]any{"found": true, "length": float64(4), "lengthBeyondMaxDepth": nil, "blockingFilters": []any{}, "complete": true}},
		{"beyond the depth", map[string]any{"maxDepth": 2},
			map[string]any{"found": false, "length": nil, "lengthBeyondMaxDepth": float64(4), "blockingFilters": []any{}, "complete": true}},
		{"one condition keeps it out", map[string]any{"relationTypes": []string{"AUTHORED"}},
			map[string]any{"found": false, "length": nil, "lengthBeyondMaxDepth": nil, "blockingFilters": []any{"relationTypes"}, "complete": true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, explain(tt.filter)); diff != "" {
				t.Errorf("pathExplanation (-want +got):\n%s", diff)
			}
		})
	}
	res := s.h.MustPost(explainQuery, map[string]any{"from": s.id("desmond-de-silva"), "to": s.id("qatar"), "f": s.filter(map[string]any{"maxDepth": 2})})
	if msg := field(res, "pathExplanation", "message").(string); !strings.Contains(msg, "4 relations exists beyond maxDepth 2") {
		t.Errorf("message: %q", msg)
	}
	for name, vars := range map[string]map[string]any{
		"unknown id":  {"from": s.id("ghost"), "to": s.id("qatar")},
		"bad depth":   {"from": s.id("desmond-de-silva"), "to": s.id("qatar"), "f": map[string]any{"maxDepth": 9}},
		"missing end": {"from": s.id("desmond-de-silva")},
	} {
		if res := s.h.Post(explainQuery, vars); len(res.Errors) == 0 || res.Code() == "INTERNAL" {
			t.Errorf("%s: got %s, want a coded refusal", name, truncate(res.Raw))
		}
	}
}
