package server

// The Idempotency-Key header: checked, and put in the request's context
// for the mutations.

import (
	"net/http"

	casegraph "github.com/casegraph/casegraph"
)

// idempotencyKeyHeader names the request header under which a client sends
// the key that makes its mutations safe to retry.
const idempotencyKeyHeader = "Idempotency-Key"

// idempotencyKey puts a POST's Idempotency-Key in the request's context
// (graph.IdempotentMutations derives each mutation field's key from it),
// and refuses, before anything runs, one that is not 1 to 255 visible
// ASCII characters or that is sent more than once.
func idempotencyKey(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		values := r.Header.Values(idempotencyKeyHeader)
		if len(values) == 0 {
			next.ServeHTTP(w, r)
			return
		}
		if len(values) > 1 {
			writeReasonedError(w, http.StatusBadRequest, casegraph.ReasonInvalidIdempotencyKey,
				"send one Idempotency-Key header, not several")
			return
		}
		if err := casegraph.ValidateIdempotencyKey(values[0]); err != nil {
			writeReasonedError(w, http.StatusBadRequest, casegraph.ReasonInvalidIdempotencyKey, casegraph.ErrorMessage(err))
			return
		}
		next.ServeHTTP(w, r.WithContext(casegraph.WithIdempotencyKey(r.Context(), values[0])))
	})
}
