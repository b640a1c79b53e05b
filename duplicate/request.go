package duplicate

import (
	"slices"
	"time"

	"github.com/casegraph/casegraph"
)

// Request asks for one page of a dataset's duplicate candidates.
type Request struct {
	Dataset string
	Kinds   []casegraph.Kind // none: every kind
	First   int
	// After is the last candidate of the previous page (nil: the first
	// page): a keyset cursor on (score descending, pair).
	After  *Cursor
	Limits Limits
}

// NewRequest is the request for the first page of a dataset's candidates,
// of every kind, with the defaults a client that gives nothing gets: a
// page of casegraph.DefaultPageSize and DefaultLimits.
func NewRequest(dataset string) Request {
	return Request{Dataset: dataset, First: casegraph.DefaultPageSize, Limits: DefaultLimits()}
}

// Cursor is a place in the candidates' order.
type Cursor struct {
	Score float64
	Pair  Pair
}

// Normalize refuses a query the service will not run (BAD_USER_INPUT),
// and puts its kinds in order, once each: the same list however it was
// asked for (its kept run and its cursors are the same).
func (q *Request) Normalize() error {
	if err := casegraph.ValidateID("dataset", q.Dataset); err != nil {
		return err
	}
	slices.Sort(q.Kinds)
	q.Kinds = slices.Compact(q.Kinds)
	return casegraph.ValidatePage(q.First)
}

// Page is one page of candidates, with what the run cost.
type Page struct {
	Candidates []Candidate
	HasNext    bool
	// Total counts every candidate of the run (within its limits).
	Total int
	// Compared counts the pairs whose names were compared; SkippedBlocks
	// the blocking keys shared by too many entities to compare; Truncated
	// says a limit cut the run short (see Limits).
	Compared, SkippedBlocks int
	Truncated               bool
}

// Dismissal is a decision that two entities are not the same.
type Dismissal struct {
	Pair
	By string
	At time.Time
}

// ValidatePair refuses a pair that is not two ids of entities
// (BAD_USER_INPUT), and returns it ordered.
func ValidatePair(a, b string) (Pair, error) {
	if err := casegraph.ValidateID("a", a); err != nil {
		return Pair{}, err
	}
	if err := casegraph.ValidateID("b", b); err != nil {
		return Pair{}, err
	}
	if a == b {
		return Pair{}, casegraph.Errorf(casegraph.CodeBadUserInput, "a and b are the same entity %q: name two", a)
	}
	return OrderedPair(a, b), nil
}
