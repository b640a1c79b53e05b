package marshal

import (
	"context"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/google/go-cmp/cmp"
	"github.com/vektah/gqlparser/v2/ast"
)

// TestDeferredGroup: an object with a deferred field gets gqlgen's group,
// with the object's path and room for the deferred fields; any other an
// empty group, which gqlgen never reads (ResolveConcurrently touches the
// group only for a deferred field, ProcessDeferredGroup only when it has
// deferred fields).
func TestDeferredGroup(t *testing.T) {
	ctx := graphql.WithPathContext(context.Background(), graphql.NewPathWithField("entity"))
	plain := graphql.CollectedField{Field: &ast.Field{Name: "name"}}
	deferred := graphql.CollectedField{Field: &ast.Field{Name: "relations"}, Deferrables: []*graphql.Deferrable{{Label: "later"}}}

	g := DeferredGroup(ctx, []graphql.CollectedField{plain, deferred})
	if diff := cmp.Diff(ast.Path{ast.PathName("entity")}, g.Path); diff != "" {
		t.Errorf("with a deferred field, path (-want +got):\n%s", diff)
	}
	if g.FieldSet == nil || g.Defers == nil || g.Context != ctx {
		t.Errorf("with a deferred field: %+v, want gqlgen's group", g)
	}

	g = DeferredGroup(ctx, []graphql.CollectedField{plain})
	if g.Path != nil || g.FieldSet != nil || g.Defers != nil || g.Context != ctx {
		t.Errorf("without a deferred field: %+v, want an empty group", g)
	}
}
