package graph

// Cursors: after the longest keys, and only those written decode.

import (
	"encoding/base64"
	"fmt"
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

// TestOnlyWrittenCursorsDecode: a cursor whose text differs from what
// after() writes is refused even when it decodes to the same cursor. The
// first case is FuzzDecodeCursor's finding (base64 ignores the unused bits
// of the last character), which decodeCursor took.
func TestOnlyWrittenCursorsDecode(t *testing.T) {
	cs := newCursors("entities", cursorFilter)
	good := cs.after("caesar")
	c := cursor{List: "entities", Filter: cs.filter, After: "caesar"}
	c.Check = c.checksum()
	encoded := func(format string) string {
		return base64.RawURLEncoding.EncodeToString(fmt.Appendf(nil, format, c.Filter, c.Check))
	}
	tests := []struct {
		name, cursor string
	}{
		{"other trailing bits", good[:len(good)-1] + "R"},
		{"padded", good + "=="},
		{"keys in upper case", encoded(`{"L":"entities","F":%d,"A":"caesar","C":%d}`)},
		{"spaces", encoded(`{"l": "entities", "f": %d, "a": "caesar", "c": %d}`)},
		{"an unknown key", encoded(`{"l":"entities","f":%d,"a":"caesar","c":%d,"x":1}`)},
	}
	if _, err := decodeCursor("entities", cursorFilter, &good); err != nil {
		t.Fatalf("the written cursor: %v", err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.cursor == good {
				t.Fatalf("the case is the written cursor itself")
			}
			_, err := decodeCursor("entities", cursorFilter, &tt.cursor)
			if code := casegraph.ErrorCode(err); err == nil || code != casegraph.CodeBadUserInput {
				t.Errorf("decodeCursor(%q): %v, want BAD_USER_INPUT", tt.cursor, err)
			}
		})
	}
}
