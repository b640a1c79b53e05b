package servertest

import (
	"context"

	"github.com/casegraph/casegraph/duplicate"
)

// The duplicate suggestions' methods, refused like the others.

func (r *Refusing) DuplicateCandidates(context.Context, duplicate.Request) (duplicate.Page, error) {
	return duplicate.Page{}, r.refuse("DuplicateCandidates")
}

func (r *Refusing) DismissDuplicate(context.Context, duplicate.Pair) (duplicate.Dismissal, error) {
	return duplicate.Dismissal{}, r.refuse("DismissDuplicate")
}

func (r *Refusing) UndismissDuplicate(context.Context, duplicate.Pair) (bool, error) {
	return false, r.refuse("UndismissDuplicate")
}
