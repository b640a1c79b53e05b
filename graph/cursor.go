package graph

import (
	"encoding/base64"
	"encoding/json"
	"hash/crc32"

	casegraph "github.com/casegraph/casegraph"
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
	After  string `json:"a"`
	Check  uint32 `json:"c"`
}

func (c cursor) checksum() uint32 {
	c.Check = 0
	b, _ := json.Marshal(c)
	return crc32.ChecksumIEEE(b)
}

// encodeCursor returns the cursor after key, in list, under filter.
func encodeCursor(list string, filter any, key string) string {
	c := cursor{List: list, Filter: fingerprint(filter), After: key}
	c.Check = c.checksum()
	b, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCursor returns the key a cursor points after ("" for none).
func decodeCursor(list string, filter any, s *string) (string, error) {
	if s == nil || *s == "" {
		return "", nil
	}
	bad := casegraph.Errorf(casegraph.CodeBadUserInput, "after: not a cursor of this list; use pageInfo.endCursor of the same query")
	if len(*s) > 1024 {
		return "", bad
	}
	b, err := base64.RawURLEncoding.DecodeString(*s)
	if err != nil {
		return "", bad
	}
	var c cursor
	if err := json.Unmarshal(b, &c); err != nil || c.Check != c.checksum() || c.List != list || c.Filter != fingerprint(filter) {
		return "", bad
	}
	return c.After, nil
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
	key, err := decodeCursor(list, filter, after)
	if err != nil {
		return casegraph.Page{}, err
	}
	return casegraph.Page{First: n, After: key}, nil
}

func endCursor(list string, filter any, key string, any bool) *string {
	if !any {
		return nil
	}
	c := encodeCursor(list, filter, key)
	return &c
}
