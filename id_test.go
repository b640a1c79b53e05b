package casegraph_test

import (
	"testing"

	casegraph "github.com/casegraph/casegraph"
)

// TestReservedIDs: the opaque ids' prefix, in any form after it, and the
// node ids' prefixes are reserved; an id that only holds them elsewhere is
// not; and an id made up from a name never is.
func TestReservedIDs(t *testing.T) {
	for _, tt := range []struct {
		id   string
		want bool
	}{
		{"protected-0123456789abcdef", true},
		{"protected-anything", true},
		{"relation~r1", true},
		{"source~s1", true},
		{"savedQuery~q~1", true},
		{"Protected-0123456789abcdef", false}, // opaque ids are lower case, and so are lookups
		{"protected", false},
		{"my-protected-witness", false},
		{"relation-1", false},
	} {
		t.Run(tt.id, func(t *testing.T) {
			if got := casegraph.IsReservedID(tt.id); got != tt.want {
				t.Errorf("IsReservedID = %v, want %v", got, tt.want)
			}
			if err := casegraph.CheckNewID("id", tt.id); (err != nil) != tt.want || (err != nil && casegraph.ErrorCode(err) != casegraph.CodeBadUserInput) {
				t.Errorf("CheckNewID = %v", err)
			}
		})
	}
	for _, name := range []string{"Protected area", "protected", "Protected - witness"} {
		if id := casegraph.NewID("place", name); casegraph.IsReservedID(id) {
			t.Errorf("NewID(%q) = %q, a reserved id", name, id)
		}
	}
}
