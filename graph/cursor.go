package graph

// Relay cursors: opaque keyset cursors bound to their list and filter, a
// page from first, after, last and before, and a connection from a page.

import (
	"encoding/base64"
	"encoding/json"
	"hash/crc32"
	"strconv"
	"unicode/utf8"

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
	return crc32.ChecksumIEEE(c.json())
}

// json is the cursor as json.Marshal writes it (the same bytes: cursors
// that clients hold stay valid), without its reflection: a page's edges
// each have a cursor, and json.Marshal made a tenth of a depth-two
// read's CPU (bench/README.md).
func (c cursor) json() []byte {
	b := make([]byte, 0, 48+len(c.List)+len(c.After)+len(c.Key))
	b = append(b, `{"l":`...)
	b = appendJSONString(b, c.List)
	b = append(b, `,"f":`...)
	b = strconv.AppendUint(b, uint64(c.Filter), 10)
	b = append(b, `,"a":`...)
	b = appendJSONString(b, c.After)
	if c.Key != "" {
		b = append(b, `,"k":`...)
		b = appendJSONString(b, c.Key)
	}
	b = append(b, `,"c":`...)
	b = strconv.AppendUint(b, uint64(c.Check), 10)
	return append(b, '}')
}

// appendJSONString appends s as encoding/json writes a string: as it is,
// quoted, when every byte is printable ASCII that JSON and HTML leave
// alone (ids nearly always), and through json.Marshal otherwise.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
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
	return base64.RawURLEncoding.EncodeToString(c.json())
}

// maxCursorLength bounds what decodeCursor reads, above the longest cursor
// after() writes: the sort key of a list by name, MaxNameLength runes that
// JSON may write as six bytes each (<, >, &, U+2028), an id, and the rest of
// the JSON (under 100 bytes), in base64 (4 characters for every 3 bytes).
const maxCursorLength = (6*casegraph.MaxNameLength+casegraph.MaxIDLength+100)*4/3 + 4

// decodeCursor returns the after cursor a client sent back (zero for none).
func decodeCursor(list string, filter any, s *string) (cursor, error) {
	return decodeCursorOf("after", list, filter, s)
}

// decodeCursorOf returns the cursor a client sent back as the argument
// arg (after or before; zero for none).
func decodeCursorOf(arg, list string, filter any, s *string) (cursor, error) {
	if s == nil || *s == "" {
		return cursor{}, nil
	}
	use := map[string]string{"after": "pageInfo.endCursor", "before": "pageInfo.startCursor"}[arg]
	bad := casegraph.Errorf(casegraph.CodeBadUserInput, "%s: not a cursor of this list; use %s of the same query", arg, use)
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

// window is a connection's paging arguments: first and after, or last and
// before (nil when not given, or when the connection takes only the first
// two).
type window struct {
	first, last   *int
	after, before *string
}

// pageOf validates a window (casegraph.PageWindow: its size, default and
// direction) and decodes its cursor: first items after the after cursor,
// or the last items before the before cursor (a backward page).
func pageOf(list string, filter any, w window) (casegraph.Page, error) {
	n, backward, err := casegraph.PageWindow{First: w.first, Last: w.last, After: w.after != nil, Before: w.before != nil}.Size()
	if err != nil {
		return casegraph.Page{}, err
	}
	if !backward {
		c, err := decodeCursor(list, filter, w.after)
		if err != nil {
			return casegraph.Page{}, err
		}
		return casegraph.Page{First: n, After: c.After, AfterKey: c.Key}, nil
	}
	c, err := decodeCursorOf("before", list, filter, w.before)
	if err != nil {
		return casegraph.Page{}, err
	}
	return casegraph.Page{First: n, After: c.After, AfterKey: c.Key, Backward: true}, nil
}

// connection builds the edges and page info of one page of items: edge
// returns item i's cursor and its edge; the start and end cursors are the
// first and last edges'. more says the store found items beyond the page
// in its direction: a next page forward, a previous page backward. The
// other way is false (Relay allows it: it would cost another statement).
func connection[T, E any](items []T, page casegraph.Page, more bool, edge func(i int, item T) (string, E)) ([]E, *model.PageInfo) {
	edges := make([]E, len(items))
	info := &model.PageInfo{HasNextPage: more && !page.Backward, HasPreviousPage: more && page.Backward}
	for i, item := range items {
		cursor, e := edge(i, item)
		edges[i] = e
		if i == 0 {
			info.StartCursor = &cursor
		}
		if i == len(items)-1 {
			info.EndCursor = &cursor
		}
	}
	return edges, info
}
