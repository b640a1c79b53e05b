package graph

// Fuzz tests of cursors: any text is refused or decoded, and every cursor
// written reads back.

import (
	"encoding/json"
	"strings"
	"testing"

	casegraph "github.com/casegraph/casegraph"
)

// cursorFilter is the filter the cursor fuzz targets page under.
var cursorFilter = casegraph.EntityFilter{Kinds: []casegraph.Kind{casegraph.KindPerson}}

// FuzzDecodeCursor: any text a client sends as a cursor is refused with
// BAD_USER_INPUT or is exactly what the encoder writes for what it
// decodes to: altered, re-encoded or re-spelled cursors are not cursors.
func FuzzDecodeCursor(f *testing.F) {
	cs := newCursors("entities", cursorFilter)
	for _, seed := range []string{
		cs.after("caesar"), cs.after("caesar", "Caesar"), cs.after("a", ""),
		newCursors("relations", cursorFilter).after("caesar"), newCursors("entities", nil).after("caesar"),
		"", "x", "e30", "eyJsIjoiZW50aXRpZXMifQ", "!!!!", "====", strings.Repeat("A", maxCursorLength+1),
		cs.after("caesar") + "A", cs.after("caesar") + "=", strings.ToUpper(cs.after("caesar")),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := decodeCursor("entities", cursorFilter, &s)
		if err != nil {
			if code := casegraph.ErrorCode(err); code != casegraph.CodeBadUserInput {
				t.Fatalf("decodeCursor(%q): code %s, want BAD_USER_INPUT", s, code)
			}
			return
		}
		if s == "" {
			if c != (cursor{}) {
				t.Fatalf("no cursor decoded to %+v", c)
			}
			return
		}
		if got := cs.after(c.After, c.Key); got != s {
			t.Fatalf("decodeCursor accepted %q, which the encoder writes as %q", s, got)
		}
	})
}

// FuzzCursorRoundTrip: the cursor after any item (an id and a sort key as
// the store returns them: valid UTF-8, up to the limits on ids and names)
// decodes to that item, and only for the list and filter it was made for.
func FuzzCursorRoundTrip(f *testing.F) {
	for _, seed := range [][2]string{
		{"caesar", ""}, {"caesar", "Caesar"}, {"rel-004", "2024-01-02T03:04:05.123456789Z"}, {"x", "12"},
		{"a", `"quoted" <b> & \ back`}, {"b", "\u00a0=HYPERLINK()"}, {"c", "\u2028\u2029"},
		{strings.Repeat("i", casegraph.MaxIDLength), strings.Repeat("<", casegraph.MaxNameLength)},
		{"d", strings.Repeat("\U0001F600", casegraph.MaxNameLength)},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, id, key string) {
		if err := casegraph.ValidateID("id", id); err != nil {
			return
		}
		if err := (casegraph.TextRule{Max: casegraph.MaxNameLength}).Check("key", key); err != nil {
			return
		}
		s := newCursors("entities", cursorFilter).after(id, key)
		c, err := decodeCursor("entities", cursorFilter, &s)
		if err != nil {
			t.Fatalf("the cursor after (%.40q, %.40q) (%d bytes) does not decode: %v", id, key, len(s), err)
		}
		if c.After != id || c.Key != key {
			t.Fatalf("the cursor after (%.40q, %.40q) decodes to (%.40q, %.40q)", id, key, c.After, c.Key)
		}
		if _, err := decodeCursor("relations", cursorFilter, &s); err == nil {
			t.Fatalf("a cursor of entities is taken for relations")
		}
		if _, err := decodeCursor("entities", casegraph.EntityFilter{}, &s); err == nil {
			t.Fatalf("a cursor of one filter is taken under another")
		}
	})
}

// FuzzCursorJSON: a cursor's JSON is json.Marshal's, byte for byte, for
// any list, id and sort key, so that the cursors clients hold stay valid.
func FuzzCursorJSON(f *testing.F) {
	for _, seed := range []struct{ list, after, key string }{
		{"relations", "relation~ds:r1", ""}, {"entities", "caesar", "Caesar"}, {"entities", "", ""},
		{"search", "12", "<b>&amp;</b>"}, {"x", "quote\" and \\ slash", "tab\tnew\nline\r\b\f\x01"},
		{"x", "Ḥoms \u2028 \u2029 é", "invalid \xff\xfe utf-8"}, {"x", "\x7f del", "emoji 🙂"},
	} {
		f.Add(seed.list, seed.after, seed.key, uint32(7), uint32(1<<32-1))
	}
	f.Fuzz(func(t *testing.T, list, after, key string, filter, check uint32) {
		c := cursor{List: list, Filter: filter, After: after, Key: key, Check: check}
		want, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.json(); string(got) != string(want) {
			t.Fatalf("json() = %s, want %s", got, want)
		}
	})
}
