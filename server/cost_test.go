package server

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// costContext is the context of an operation of that complexity, as the
// executor hands it to a response middleware.
func costContext(ctx context.Context, cost int) context.Context {
	return operationContext(ctx, ast.Query, cost)
}

func operationContext(ctx context.Context, kind ast.Operation, cost int) context.Context {
	op := &graphql.OperationContext{Operation: &ast.OperationDefinition{Operation: kind}}
	op.Stats.SetExtension("ComplexityLimit", &extension.ComplexityStats{Complexity: cost, ComplexityLimit: 5000})
	ctx = graphql.WithOperationContext(ctx, op)
	return graphql.WithResponseContext(ctx, presentError, nil)
}

// TestCostAdmissionBoundsWhatRunsAtOnce: operations whose costs together
// pass the capacity take turns (none is refused); cheap ones share it;
// an operation dearer than the capacity takes all of it, alone.
func TestCostAdmissionBoundsWhatRunsAtOnce(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name      string
		capacity  int
		cost      int
		wantAtMax int64
	}{
		{"two fit", 10000, 3500, 2},
		{"cheap ones together", 10000, 10, 8},
		{"dearer than the capacity", 1000, 3500, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := newCostAdmission(tt.capacity)
			var running, most atomic.Int64
			next := func(ctx context.Context) *graphql.Response {
				n := running.Add(1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				time.Sleep(20 * time.Millisecond)
				running.Add(-1)
				return &graphql.Response{}
			}
			var wg sync.WaitGroup
			for range 8 {
				wg.Go(func() {
					if res := a.around(costContext(context.Background(), tt.cost), next); len(res.Errors) > 0 {
						t.Errorf("refused: %v", res.Errors)
					}
				})
			}
			wg.Wait()
			if got := most.Load(); got != tt.wantAtMax {
				t.Errorf("at most %d at once, want %d", got, tt.wantAtMax)
			}
		})
	}
}

// TestCostAdmissionWaitsWithinTheDeadline: an operation that waits for
// its turn past its deadline is answered TIMEOUT, and runs nothing.
func TestCostAdmissionWaitsWithinTheDeadline(t *testing.T) {
	t.Parallel()
	a := newCostAdmission(5000)
	release := make(chan struct{})
	held := make(chan struct{})
	go a.around(costContext(context.Background(), 5000), func(context.Context) *graphql.Response {
		close(held)
		<-release
		return &graphql.Response{}
	})
	<-held
	defer close(release)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	ran := false
	res := a.around(costContext(ctx, 100), func(context.Context) *graphql.Response {
		ran = true
		return &graphql.Response{}
	})
	if ran || len(res.Errors) != 1 {
		t.Fatalf("ran %t, errors %v: want no run and one error", ran, res.Errors)
	}
	var e *gqlerror.Error = res.Errors[0]
	if code := e.Extensions["code"]; code != "TIMEOUT" {
		t.Errorf("code %v (%s), want TIMEOUT", code, e.Message)
	}
}

// TestCostAdmissionLetsSubscriptionsWait: a subscription's answer is a wait
// for its next event; it holds no share meanwhile, so a query still runs
// while subscriptions dearer than the whole capacity wait.
func TestCostAdmissionLetsSubscriptionsWait(t *testing.T) {
	t.Parallel()
	a := newCostAdmission(5000)
	event, waiting := make(chan struct{}), make(chan struct{}, 3)
	defer close(event)
	for range 3 {
		go a.around(operationContext(context.Background(), ast.Subscription, 5000), func(context.Context) *graphql.Response {
			waiting <- struct{}{}
			<-event
			return &graphql.Response{}
		})
	}
	<-waiting // one subscription at least is waiting for its event
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ran := false
	res := a.around(costContext(ctx, 5000), func(context.Context) *graphql.Response {
		ran = true
		return &graphql.Response{}
	})
	if !ran || len(res.Errors) > 0 {
		t.Fatalf("a query beside waiting subscriptions: ran %t, errors %v", ran, res.Errors)
	}
}
