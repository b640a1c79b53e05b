package casegraph

import (
	"slices"
	"time"
)

// DuplicateQuery asks for one page of a dataset's duplicate candidates.
type DuplicateQuery struct {
	Dataset string
	Kinds   []Kind // none: every kind
	First   int
	// After is the last candidate of the previous page (nil: the first
	// page): a keyset cursor on (score descending, pair).
	After  *DuplicateCursor
	Limits DuplicateLimits
}

// DuplicateCursor is a place in the candidates' order.
type DuplicateCursor struct {
	Score float64
	Pair  DuplicatePair
}

// Normalize refuses a query the service will not run (BAD_USER_INPUT),
// and puts its kinds in order, once each: the same list however it was
// asked for (its kept run and its cursors are the same).
func (q *DuplicateQuery) Normalize() error {
	if err := ValidateID("dataset", q.Dataset); err != nil {
		return err
	}
	slices.Sort(q.Kinds)
	q.Kinds = slices.Compact(q.Kinds)
	return ValidatePage(q.First)
}

// DuplicatePage is one page of candidates, with what the run cost.
type DuplicatePage struct {
	Candidates []DuplicateCandidate
	HasNext    bool
	// Total counts every candidate of the run (within its limits).
	Total int
	// Compared counts the pairs whose names were compared; SkippedBlocks
	// the blocking keys shared by too many entities to compare; Truncated
	// says a limit cut the run short (see DuplicateLimits).
	Compared, SkippedBlocks int
	Truncated               bool
}

// DuplicateDismissal is a decision that two entities are not the same.
type DuplicateDismissal struct {
	DuplicatePair
	By string
	At time.Time
}

// ValidateDuplicatePair refuses a pair that is not two ids of entities
// (BAD_USER_INPUT), and returns it ordered.
func ValidateDuplicatePair(a, b string) (DuplicatePair, error) {
	if err := ValidateID("a", a); err != nil {
		return DuplicatePair{}, err
	}
	if err := ValidateID("b", b); err != nil {
		return DuplicatePair{}, err
	}
	if a == b {
		return DuplicatePair{}, Errorf(CodeBadUserInput, "a and b are the same entity %q: name two", a)
	}
	return OrderedPair(a, b), nil
}
