package cypher

import casegraph "github.com/casegraph/casegraph"

// A page's statement asks for one row more than the page holds: the extra
// row says there is a next page, and trimPage cuts it off.

// pageLimit is the $limit of a page's statement.
func pageLimit(p casegraph.Page) int64 {
	return int64(p.First + 1)
}

// trimPage cuts rows read with pageLimit to the page, and says whether
// there are more.
func trimPage[T any](rows []T, p casegraph.Page) ([]T, bool) {
	if len(rows) > p.First {
		return rows[:p.First], true
	}
	return rows, false
}
