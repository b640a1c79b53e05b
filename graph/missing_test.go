package graph_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMissingStaysAtItsField: a request that asks for a found entity and,
// beside it, for something that does not exist gets the found one's data,
// null for the missing one, and one NOT_FOUND error at the missing one's
// path (a non-null root would have made the whole data null).
func TestMissingStaysAtItsField(t *testing.T) {
	t.Parallel()
	s := newSeedPaths(t)
	ghost := s.id("nobody")
	// Ids inline: a variable a case does not use would be refused.
	inline := strings.NewReplacer("$found", strconv.Quote(s.id("caesar")), "$other", strconv.Quote(s.id("qatar")),
		"$ghost", strconv.Quote(ghost))
	const found = `a: entity(id: $found) { id }`
	tests := []struct {
		name    string
		missing string
	}{
		{"timeline", `b: timeline(id: $ghost) { start }`},
		{"neighborhood", `b: neighborhood(id: $ghost) { nodes { id } }`},
		{"paths", `b: paths(from: $found, to: $ghost) { length }`},
		{"shortestPath", `b: shortestPath(from: $ghost, to: $other) { length }`},
		{"connections", `b: connections(ids: [$found, $ghost]) { nodes { id } }`},
		{"commonNeighbors", `b: commonNeighbors(ids: [$found, $ghost]) { entity { id } }`},
		{"pathExplanation", `b: pathExplanation(from: $found, to: $ghost) { found }`},
		{"savedQuery", `b: savedQuery(name: "no-such-query-anywhere") { name }`},
		{"runSavedQuery", `b: runSavedQuery(name: "no-such-query-anywhere") { data }`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := s.h.Post(inline.Replace(`{ `+found+` `+tt.missing+` }`), nil)
			got := map[string]any{"data": res.Data, "code": res.Code(), "errors": len(res.Errors)}
			if len(res.Errors) > 0 {
				got["path"] = res.Errors[0].Path
			}
			want := map[string]any{"data": map[string]any{"a": map[string]any{"id": s.id("caesar")}, "b": nil},
				"code": "NOT_FOUND", "errors": 1, "path": []any{"b"}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", res.Raw, diff)
			}
		})
	}
}
