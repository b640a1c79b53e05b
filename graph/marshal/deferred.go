package marshal

import (
	"context"
	"slices"

	"github.com/99designs/gqlgen/graphql"
)

// DeferredGroup is graphql.NewDeferredGroup(ctx) for an object whose
// fields (as gqlgen collected them) include one under @defer, and an empty
// group for any other. gqlgen's generated code makes a group for every
// object it writes, and the group's path (graphql.GetPath, a new slice
// and a boxed value for every field and index above the object) is built
// at once; yet a group is read only for its deferred fields: the field
// set and the labels when one is added (graphql.FieldSet's
// ResolveConcurrently), the path when the object's deferred fields are
// sent (ProcessDeferredGroup, which does nothing for a group without
// them). Building it for every object was 6% of the server's CPU on W3,
// 1,110 entities an answer, none deferred (bench/README.md).
// graph/generate rewrites gqlgen's calls to this.
func DeferredGroup(ctx context.Context, fields []graphql.CollectedField) graphql.DeferredGroup {
	if slices.ContainsFunc(fields, graphql.CollectedField.IsDeferred) {
		return graphql.NewDeferredGroup(ctx)
	}
	return graphql.DeferredGroup{Context: ctx}
}
