package graph

import (
	"encoding/base64"
	"encoding/json"
	"hash/crc32"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/graph/model"
)

// Cursors are opaque to clients: base64 of the list they belong to, a
// fingerprint of the filter they were made under, the sort key of the last
// item, and a checksum. A cursor from another list or filter, or one that
// was altered, is refused with BAD_USER_INPUT. They are keyset cursors, so a
// page starts after a key, not at an offset, and stays right while others
// write.
type cursor struct {
	List   string `json:"l"`
	Filter uint32 `json:"f"`
	After  string `json:"a"`           // the last item's id (or offset)
	Key    string `json:"k,omitempty"` // and its sort key, when not the id
	Check  uint32 `json:"c"`
}

func (c cursor) checksum() uint32 {
	c.Check = 0
	b, _ := json.Marshal(c)
	return crc32.ChecksumIEEE(b)
}

// cursors makes the cursors of one page: the filter's fingerprint is taken
// once, not for every edge.
type cursors struct {
	list   string
	filter uint32
}

func newCursors(list string, filter any) cursors {
	return cursors{list: list, filter: fingerprint(filter)}
}

// after returns the cursor after the item with id (and sort key).
func (cs cursors) after(id string, key ...string) string {
	c := cursor{List: cs.list, Filter: cs.filter, After: id}
	if len(key) > 0 {
		c.Key = key[0]
	}
	c.Check = c.checksum()
	b, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(b)
}

// maxCursorLength bounds what decodeCursor reads, above the longest cursor
// after() writes: the sort key of a list by name, MaxNameLength runes that
// JSON may write as six bytes each (<, >, &, U+2028), an id, and the rest of
// the JSON (under 100 bytes), in base64 (4 characters for every 3 bytes).
const maxCursorLength = (6*casegraph.MaxNameLength+casegraph.MaxIDLength+100)*4/3 + 4

// decodeCursor returns the cursor a client sent back (zero for none).
func decodeCursor(list string, filter any, s *string) (cursor, error) {
	if s == nil || *s == "" {
		return cursor{}, nil
	}
	bad := casegraph.Errorf(casegraph.CodeBadUserInput, "after: not a cursor of this list; use pageInfo.endCursor of the same query")
	if len(*s) > maxCursorLength {
		return cursor{}, bad
	}
	b, err := base64.RawURLEncoding.DecodeString(*s)
	if err != nil {
		return cursor{}, bad
	}
	var c cursor
	if err := json.Unmarshal(b, &c); err != nil || c.Check != c.checksum() || c.List != list {
		return cursor{}, bad
	}
	// Only what after() writes is a cursor: base64 with other trailing
	// bits, or JSON spelled otherwise (keys in other case, spaces, unknown
	// keys) decode to the same cursor, and taking them would make a
	// cursor's text something a client can vary.
	cs := cursors{list: list, filter: fingerprint(filter)}
	if c.Filter != cs.filter || cs.after(c.After, c.Key) != *s {
		return cursor{}, bad
	}
	return c, nil
}

func fingerprint(filter any) uint32 {
	b, _ := json.Marshal(filter)
	return crc32.ChecksumIEEE(b)
}

// pageOf validates first and decodes after.
func pageOf(list string, filter any, first *int, after *string) (casegraph.Page, error) {
	n := casegraph.DefaultPageSize
	if first != nil {
		n = *first
	}
	if err := casegraph.ValidatePage(n); err != nil {
		return casegraph.Page{}, err
	}
	c, err := decodeCursor(list, filter, after)
	if err != nil {
		return casegraph.Page{}, err
	}
	return casegraph.Page{First: n, After: c.After, AfterKey: c.Key}, nil
}

// connection builds the edges and page info of one page of items: edge
// returns item i's cursor and its edge; the end cursor is the last edge's.
func connection[T, E any](items []T, hasNext bool, edge func(i int, item T) (string, E)) ([]E, *model.PageInfo) {
	edges := make([]E, len(items))
	info := &model.PageInfo{HasNextPage: hasNext}
	for i, item := range items {
		cursor, e := edge(i, item)
		edges[i] = e
		if i == len(items)-1 {
			info.EndCursor = &cursor
		}
	}
	return edges, info
}
