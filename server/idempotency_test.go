package server_test

import (
	"net/http"
	"strings"
	"testing"

	casegraph "github.com/casegraph/casegraph"
)

// TestInvalidIdempotencyKeyIsRefused: an Idempotency-Key that is not 1 to
// 255 visible ASCII characters, or that is sent twice, is refused with 400
// BAD_USER_INPUT INVALID_IDEMPOTENCY_KEY before anything runs (the edge's
// store fails the test if it is called).
func TestInvalidIdempotencyKeyIsRefused(t *testing.T) {
	t.Parallel()
	h := newEdge(t, nil)
	const mutation = `mutation { deleteEntity(id: "x") { id } }`
	for _, tc := range []struct {
		name   string
		values []string
	}{
		{"empty", []string{""}},
		{"256 characters", []string{strings.Repeat("k", 256)}},
		{"a space inside", []string{"two words"}},
		{"a tab inside", []string{"two\twords"}},
		{"not ASCII", []string{"clé"}},
		{"twice", []string{"one", "two"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := h.PostWith(http.Header{"Idempotency-Key": tc.values}, mutation, nil)
			if res.Status != http.StatusBadRequest || res.Code() != "BAD_USER_INPUT" || res.Reason() != casegraph.ReasonInvalidIdempotencyKey {
				t.Errorf("status %d, %s; want 400 BAD_USER_INPUT %s", res.Status, res.Raw, casegraph.ReasonInvalidIdempotencyKey)
			}
		})
	}
}
