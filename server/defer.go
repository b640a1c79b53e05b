package server

import (
	"context"
	"net/http"

	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	casegraph "github.com/casegraph/casegraph"
)

// @defer works over multipart/mixed only: gqlgen's other transports send
// the first part of a deferred answer alone (the deferred fields null,
// "hasNext": true), and so does a saved query's run. A request that defers
// anything elsewhere is refused, before it runs, with BAD_USER_INPUT,
// reason DEFER_NEEDS_MULTIPART.

type incrementalKey struct{}

// incremental marks the requests of a transport that delivers deferred
// parts as they come.
func incremental(t any, r *http.Request) *http.Request {
	if _, ok := t.(transport.MultipartMixed); !ok {
		return r
	}
	return r.WithContext(context.WithValue(r.Context(), incrementalKey{}, true))
}

// refuseDefer refuses an operation that uses @defer unless ctx is a
// request of the multipart transport and the operation is not nested.
func refuseDefer(ctx context.Context, op *ast.OperationDefinition, nested bool) *gqlerror.Error {
	if multipart, _ := ctx.Value(incrementalKey{}).(bool); multipart && !nested {
		return nil
	}
	if !defers(op.SelectionSet, map[*ast.FragmentDefinition]bool{}) {
		return nil
	}
	if nested {
		return codedError(casegraph.CodeBadUserInput, "DEFER_NEEDS_MULTIPART", "a saved query cannot use @defer: its answer comes in one part")
	}
	return codedError(casegraph.CodeBadUserInput, "DEFER_NEEDS_MULTIPART",
		"@defer needs a POST with Accept: multipart/mixed, which gets the deferred parts as they come")
}

// defers reports whether a selection set uses @defer, through fragments
// (each read once).
func defers(set ast.SelectionSet, seen map[*ast.FragmentDefinition]bool) bool {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if defers(s.SelectionSet, seen) {
				return true
			}
		case *ast.InlineFragment:
			if s.Directives.ForName("defer") != nil || defers(s.SelectionSet, seen) {
				return true
			}
		case *ast.FragmentSpread:
			if s.Directives.ForName("defer") != nil {
				return true
			}
			if d := s.Definition; d != nil && !seen[d] {
				seen[d] = true
				if defers(d.SelectionSet, seen) {
					return true
				}
			}
		}
	}
	return false
}
