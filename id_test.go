package casegraph_test

import (
	"regexp"
	"strings"
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

// FuzzValidateID: ValidateID takes an id exactly when the regular
// expression it once used matches it (within MaxIDLength); its seeds run
// with go test.
func FuzzValidateID(f *testing.F) {
	pattern := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]*$`)
	for _, s := range []string{"", "a", "A9", "0", "a.b_c:d-e", ".a", "_a", ":a", "-a", "a b", "a/b", "é", "aé", "a\x00", "a\xff", "ü-1",
		"caesar-report:p-1", "a\n", "Z~", strings.Repeat("x", casegraph.MaxIDLength), strings.Repeat("x", casegraph.MaxIDLength+1)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		want := len(id) <= casegraph.MaxIDLength && pattern.MatchString(id)
		if got := casegraph.ValidateID("id", id) == nil; got != want {
			t.Errorf("ValidateID(%q) took it: %v, want %v", id, got, want)
		}
	})
}
