package graph_test

import (
	"strings"
	"testing"

	"github.com/casegraph/casegraph/server/servertest"
)

// TestDuplicateArgumentsRefused: duplicateCandidates' and dismissDuplicate's
// bad arguments are refused before the database (servertest.Edge), with
// BAD_USER_INPUT (an unknown kind by the schema, the rest by the resolvers).
func TestDuplicateArgumentsRefused(t *testing.T) {
	t.Parallel()
	h := servertest.Edge(t, servertest.Options{})
	tests := []struct {
		name, query string
		vars        map[string]any
		code        string
	}{
		{"first 0", duplicatesQuery, map[string]any{"ds": "seed", "first": 0}, "BAD_USER_INPUT"},
		{"first 101", duplicatesQuery, map[string]any{"ds": "seed", "first": 101}, "BAD_USER_INPUT"},
		{"bad dataset", duplicatesQuery, map[string]any{"ds": "no such/dataset"}, "BAD_USER_INPUT"},
		{"empty dataset", duplicatesQuery, map[string]any{"ds": ""}, "BAD_USER_INPUT"},
		{"a forged cursor", duplicatesQuery, map[string]any{"ds": "seed", "after": "eyJsIjoiZHVwbGljYXRlQ2FuZGlkYXRlcyJ9"}, "BAD_USER_INPUT"},
		{"a cursor too long", duplicatesQuery, map[string]any{"ds": "seed", "after": strings.Repeat("A", 5000)}, "BAD_USER_INPUT"},
		{"an unknown kind", duplicatesQuery, map[string]any{"ds": "seed", "kinds": []string{"VESSEL"}}, "BAD_USER_INPUT"},
		{"dismiss a with itself", dismissMutation, map[string]any{"a": "x", "b": "x"}, "BAD_USER_INPUT"},
		{"dismiss a bad id", dismissMutation, map[string]any{"a": "x y", "b": "x"}, "BAD_USER_INPUT"},
		{"undismiss a with itself", `mutation { undismissDuplicate(a: "x", b: "x") }`, nil, "BAD_USER_INPUT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if res := h.Post(tt.query, tt.vars); res.Code() != tt.code {
				t.Errorf("got %s, want %s", truncate(res.Raw), tt.code)
			}
		})
	}
}
