package server

import (
	"context"
	"sync"
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

// held is an operation that runs until release is closed, and says on
// running when it has started.
func held(running chan<- struct{}, release <-chan struct{}) graphql.ResponseHandler {
	return func(context.Context) *graphql.Response {
		running <- struct{}{}
		<-release
		return &graphql.Response{}
	}
}

// started says whether an operation has started (on running) within d.
func started(running <-chan struct{}, d time.Duration) bool {
	select {
	case <-running:
		return true
	case <-time.After(d):
		return false
	}
}

// TestCostAdmissionBoundsWhatRunsAtOnce: operations whose costs together
// pass the capacity take turns; an operation dearer than the capacity
// takes all of it; one of at most a hundredth of the capacity does not
// queue, not even behind a dear one waiting its turn; none is refused.
func TestCostAdmissionBoundsWhatRunsAtOnce(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name           string
		capacity, cost int
		together       int  // how many of cost run at once
		nextCost       int  // then, behind one more of cost waiting,
		nextRuns       bool // one of nextCost runs at once or not
	}{
		{"two fit", 10000, 3500, 2, 3500, false},
		{"dearer than the capacity", 1000, 3500, 1, 3500, false},
		{"a dear one waits behind dear ones", 10000, 5000, 2, 500, false},
		{"a cheap one does not", 10000, 5000, 2, 100, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := newCostAdmission(tt.capacity)
			running, release := make(chan struct{}, 16), make(chan struct{})
			var wg sync.WaitGroup
			run := func(cost int) {
				wg.Go(func() {
					if res := a.around(costContext(context.Background(), cost), held(running, release)); len(res.Errors) > 0 {
						t.Errorf("refused: %v", res.Errors)
					}
				})
			}
			for range tt.together {
				run(tt.cost)
				if !started(running, 5*time.Second) {
					t.Fatalf("only %d of cost %d ran at once, want %d", len(running), tt.cost, tt.together)
				}
			}
			run(tt.cost) // waits: the capacity is taken, and it is dear
			if started(running, 100*time.Millisecond) {
				t.Fatalf("%d of cost %d ran at once in a capacity of %d", tt.together+1, tt.cost, tt.capacity)
			}
			run(tt.nextCost)
			if got := started(running, time.Second); got != tt.nextRuns {
				t.Errorf("one of cost %d behind a waiting one of %d: ran %t, want %t", tt.nextCost, tt.cost, got, tt.nextRuns)
			}
			close(release)
			wg.Wait()
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
