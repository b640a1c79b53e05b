package servertest

import (
	"context"

	casegraph "github.com/casegraph/casegraph"
)

// The duplicate suggestions' methods, refused like the others.

func (r *Refusing) DuplicateCandidates(context.Context, casegraph.DuplicateQuery) (casegraph.DuplicatePage, error) {
	return casegraph.DuplicatePage{}, r.refuse("DuplicateCandidates")
}

func (r *Refusing) DismissDuplicate(context.Context, casegraph.DuplicatePair) (casegraph.DuplicateDismissal, error) {
	return casegraph.DuplicateDismissal{}, r.refuse("DismissDuplicate")
}

func (r *Refusing) UndismissDuplicate(context.Context, casegraph.DuplicatePair) (bool, error) {
	return false, r.refuse("UndismissDuplicate")
}
