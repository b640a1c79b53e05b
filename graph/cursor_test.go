package graph

import (
	"strings"
	"testing"

	casegraph "github.com/casegraph/casegraph"
)

// TestCursorAfterLongKeys: the page after an entity with the longest name
// must be reachable; FuzzCursorRoundTrip found that a name of 500 emoji or
// of 500 '<' made a cursor longer than decodeCursor read (1,024 then).
func TestCursorAfterLongKeys(t *testing.T) {
	longID := strings.Repeat("i", casegraph.MaxIDLength)
	tests := []struct {
		name, id, key string
	}{
		{"500 emoji", longID, strings.Repeat("\U0001F600", casegraph.MaxNameLength)},
		{"500 characters JSON escapes", longID, strings.Repeat("<", casegraph.MaxNameLength)},
		{"500 line separators", longID, strings.Repeat("\u2028", casegraph.MaxNameLength)},
		{"500 CJK characters", longID, strings.Repeat("漢", casegraph.MaxNameLength)},
	}
	cs := newCursors("entities", cursorFilter)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := cs.after(tt.id, tt.key)
			c, err := decodeCursor("entities", cursorFilter, &s)
			if err != nil {
				t.Fatalf("a cursor of %d characters: %v", len(s), err)
			}
			if c.After != tt.id || c.Key != tt.key {
				t.Errorf("decoded to (%.20q, %.20q)", c.After, c.Key)
			}
		})
	}
}
