package marshal

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

const schema = `
type Query { people: [Person!]! found: [Thing!]! }
interface Thing { id: ID! sources: [String!]! }
type Person implements Thing { id: ID! name: String! sources: [String!]! friends: [Person!]! }
`

// perObject: Person.sources is resolved per object, and so Thing.sources.
var perObject = PerObject{"Person": {"sources": true}, "Thing": {"sources": true}}

// noFetches is a request whose loaders send nothing: every list's data is
// in hand.
func noFetches(context.Context) func() int64 { return func() int64 { return 0 } }

// selection is the selection set under the query's first field.
func selection(t *testing.T, query string) ast.SelectionSet {
	t.Helper()
	s := gqlparser.MustLoadSchema(&ast.Source{Input: schema})
	doc, err := gqlparser.LoadQueryWithRules(s, query, nil)
	if err != nil {
		t.Fatal(err)
	}
	return doc.Operations[0].SelectionSet[0].(*ast.Field).SelectionSet
}

func TestReadsPerObject(t *testing.T) {
	for _, tc := range []struct {
		name, query string
		want        bool
	}{
		{"plain fields", `{ people { id name } }`, false},
		{"a nested list of plain fields", `{ people { friends { id name } } }`, false},
		{"the field itself", `{ people { id sources } }`, true},
		{"under a nested list", `{ people { friends { friends { sources } } } }`, true},
		{"aliased", `{ people { s: sources } }`, true},
		{"through the interface", `{ found { id sources } }`, true},
		{"in an inline fragment", `{ found { ... on Person { sources } } }`, true},
		{"in a fragment", `{ people { ...p } } fragment p on Person { friends { sources } }`, true},
		{"a fragment of plain fields", `{ people { ...p } } fragment p on Person { id name }`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := readsPerObject(selection(t, tc.query), perObject); got != tc.want {
				t.Errorf("readsPerObject = %t, want %t", got, tc.want)
			}
		})
	}
}

func TestSliceInTurnWhereNothingIsReadPerObject(t *testing.T) {
	ctx := graphql.WithResponseContext(context.Background(), graphql.DefaultErrorPresenter, graphql.DefaultRecover)
	var inFlight atomic.Int32
	var order []int
	out := Slice(ctx, selection(t, `{ people { id name } }`), perObject, noFetches, 5, 0, false, func(ctx context.Context, i int) graphql.Marshaler {
		if inFlight.Add(1) != 1 {
			t.Errorf("element %d marshalled beside another", i)
		}
		defer inFlight.Add(-1)
		if got := *graphql.GetFieldContext(ctx).Index; got != i {
			t.Errorf("element %d has index %d in its field context", i, got)
		}
		order = append(order, i)
		time.Sleep(time.Millisecond) // room for another to start, were they concurrent
		return graphql.MarshalInt(i)
	})
	if len(out) != 5 || len(order) != 5 {
		t.Fatalf("%d elements marshalled, %d returned", len(order), len(out))
	}
	for i, v := range order {
		if v != i {
			t.Fatalf("order %v", order)
		}
	}
}

func TestSliceAtOnceWhereSomethingIsReadPerObject(t *testing.T) {
	ctx := graphql.WithResponseContext(context.Background(), graphql.DefaultErrorPresenter, graphql.DefaultRecover)
	// Every element waits until all have started: only marshalled at once
	// do they all return (a loader's batch forms the same way).
	const n = 4
	var started sync.WaitGroup
	started.Add(n)
	done := make(chan graphql.Array)
	go func() {
		done <- Slice(ctx, selection(t, `{ people { id sources } }`), perObject, noFetches, n, 0, false, func(ctx context.Context, i int) graphql.Marshaler {
			started.Done()
			started.Wait()
			return graphql.MarshalInt(i)
		})
	}()
	select {
	case out := <-done:
		if len(out) != n {
			t.Fatalf("%d elements", len(out))
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the elements were marshalled one after the other")
	}
}

func TestSliceElementPanicIsItsError(t *testing.T) {
	ctx := graphql.WithResponseContext(context.Background(), graphql.DefaultErrorPresenter, func(ctx context.Context, err any) error {
		return errors.New("internal error")
	})
	out := Slice(ctx, selection(t, `{ people { id } }`), perObject, noFetches, 3, 0, false, func(ctx context.Context, i int) graphql.Marshaler {
		if i == 1 {
			panic("boom")
		}
		return graphql.MarshalInt(i)
	})
	if out[1] != graphql.Null || out[0] == graphql.Null || out[2] == graphql.Null {
		t.Errorf("got %v, want the panicking element alone null", out)
	}
	if errs := graphql.GetErrors(ctx); len(errs) != 1 || errs[0].Message != "internal error" {
		t.Errorf("errors %v, want the recovered panic's", errs)
	}
}

func TestSliceAtOnceAfterAnElementHadTheLoadersSend(t *testing.T) {
	ctx := graphql.WithResponseContext(context.Background(), graphql.DefaultErrorPresenter, graphql.DefaultRecover)
	// The first element has the loaders send a batch (its data was not in
	// hand); the others must then ask together: each waits until all of
	// them have started, which they only do marshalled at once.
	const n = 5
	var sent atomic.Int64
	var started sync.WaitGroup
	started.Add(n - 1)
	done := make(chan graphql.Array)
	go func() {
		done <- Slice(ctx, selection(t, `{ people { id name } }`), perObject, func(context.Context) func() int64 { return sent.Load }, n, 0, false,
			func(ctx context.Context, i int) graphql.Marshaler {
				if i == 0 {
					sent.Add(1)
				} else {
					started.Done()
					started.Wait()
				}
				if got := *graphql.GetFieldContext(ctx).Index; got != i {
					t.Errorf("element %d has index %d in its field context", i, got)
				}
				return graphql.MarshalInt(i)
			})
	}()
	select {
	case out := <-done:
		for i, v := range out {
			if v == nil || v == graphql.Null {
				t.Errorf("element %d: %v", i, v)
			}
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the rest of the list was marshalled one after the other")
	}
}
