package server

import (
	"context"
	"net/http"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// Errors are counted by extensions.code, per request, where answers are
// written: the GraphQL handler's responses (countedResponses), the
// saved-query route's (runSaved), and the refusals written before either
// (writeReasonedErrorCode). observe adds them to
// casegraph_errors_total when the request ends. A GraphQL error comes with
// HTTP 200, so the status alone would not show it.

// errorCounts counts the errors of one request's answers by code; the
// error presenter's callers run on the resolvers' goroutines.
type errorCounts struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *errorCounts) add(code string, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	c.n[code] += n
}

// each calls f with each code and its count.
func (c *errorCounts) each(f func(code string, n int)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for code, n := range c.n {
		f(code, n)
	}
}

// writerInfo finds the request's info through the writers wrapped around
// the one observe made: the error writers have no context.
func writerInfo(w http.ResponseWriter) *requestInfo {
	for {
		switch x := w.(type) {
		case *statusWriter:
			return x.info
		case interface{ Unwrap() http.ResponseWriter }:
			w = x.Unwrap()
		default:
			return nil
		}
	}
}

// countErrors counts a list of presented errors against the request of
// ctx.
func countErrors(ctx context.Context, errs gqlerror.List) {
	if len(errs) == 0 {
		return
	}
	info := infoFrom(ctx)
	for _, e := range errs {
		info.errors.add(errorCode(e), 1)
	}
}

// countedResponses is capErrors, counting the errors of the response it
// returns: what the client is shown.
func countedResponses(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	res := capErrors(ctx, next)
	if res != nil {
		countErrors(ctx, res.Errors)
	}
	return res
}
