package cypher

import (
	"slices"

	casegraph "github.com/casegraph/casegraph"
)

// A page's statement asks for one row more than the page holds: the extra
// row says there is a next page, and trimPage cuts it off.

// pageLimit is the $limit of a page's statement.
func pageLimit(p casegraph.Page) int64 {
	return int64(p.First + 1)
}

// trimPage cuts rows read with pageLimit to the page, and says whether
// there are more.
// A backward page is read in the reverse order, from the cursor toward
// the start: its rows are put back in the list's order.
func trimPage[T any](rows []T, p casegraph.Page) ([]T, bool) {
	more := len(rows) > p.First
	if more {
		rows = rows[:p.First]
	}
	if p.Backward {
		slices.Reverse(rows)
	}
	return rows, more
}
