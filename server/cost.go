package server

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/vektah/gqlparser/v2/ast"
	"golang.org/x/sync/semaphore"

	casegraph "github.com/casegraph/casegraph"
)

// costAdmission bounds the complexity (graph.ComplexityLimit's measure,
// the rows the database reads for an operation) of the operations being
// executed at once, so that the memory their answers hold while they are
// built stays bounded whatever the number of clients: at 32 clients of
// depth-2 explorations (about 3,500 each), the answers being built held
// more than the runtime's soft memory limit, and the collector, running
// all the time, halved the service's throughput (bench/README.md). An
// operation waits its turn (no refusal: it is what would run anyway, on a
// machine whose cores are busy); one that runs out of time waiting is
// TIMEOUT. An operation of more than the whole capacity (only possible
// with a complexity limit above it) takes the whole of it.
//
// The queue is first come, first served (a waiting dear operation is not
// overtaken, or a stream of others would starve it), so an operation
// that costs at most a hundredth of the capacity (200 by default: a read
// by id, a page of relations with their ends, a path search) does not
// queue at all: what it holds is small, and a client sending nothing but
// operations at the complexity limit must not make everyone's reads by
// id wait behind its own.
type costAdmission struct {
	sem      *semaphore.Weighted
	capacity int64
}

func newCostAdmission(capacity int) *costAdmission {
	return &costAdmission{sem: semaphore.NewWeighted(int64(capacity)), capacity: int64(capacity)}
}

// around is an AroundResponses middleware: it takes the operation's cost
// before the operation runs and gives it back once its answer is built.
// A subscription takes none: each of its answers is a wait for the next
// event (watches bound subscriptions, Config.Watch), and holding a share
// while waiting would keep queries out for as long as nothing changes.
func (a *costAdmission) around(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	if op := graphql.GetOperationContext(ctx); op.Operation != nil && op.Operation.Operation == ast.Subscription {
		return next(ctx)
	}
	cost := int64(1)
	if stats := extension.GetComplexityStats(ctx); stats != nil && stats.Complexity > 1 {
		cost = int64(stats.Complexity)
	}
	if cost <= a.capacity/100 {
		return next(ctx)
	}
	cost = min(cost, a.capacity)
	if err := a.sem.Acquire(ctx, cost); err != nil {
		graphql.AddError(ctx, casegraph.Ended(ctx, err, err))
		return &graphql.Response{Errors: graphql.GetErrors(ctx)}
	}
	defer a.sem.Release(cost)
	return next(ctx)
}
