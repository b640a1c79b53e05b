package server_test

// Rate limits: a caller over its rate, failed sign-ins, and BUSY as 429.

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/server"
	"github.com/casegraph/casegraph/server/servertest"
)

// TestRateLimit: a caller over its rate gets BUSY with 429 and
// Retry-After, and nothing of its request runs; another caller is not
// held up by it. Anonymous callers are told apart by address, so here,
// all from one address, they share a bucket.
func TestRateLimit(t *testing.T) {
	t.Parallel()
	h := newEdge(t, func(c *server.Config) {
		c.RateLimit = 0.5 // a token every 2 s: none comes back during the test
		c.RateBurst = 3
	})
	for i := range 3 {
		if res := h.Post(`{ __typename }`, nil); res.Status != http.StatusOK {
			t.Fatalf("request %d within the burst: %d %s", i+1, res.Status, res.Raw)
		}
	}
	res := h.Post(`{ __typename }`, nil)
	if res.Status != http.StatusTooManyRequests || res.Code() != "BUSY" || res.Reason() != "RATE_LIMITED" {
		t.Fatalf("over the rate: got %d %s, want 429 BUSY RATE_LIMITED", res.Status, res.Raw)
	}
	if s, err := strconv.Atoi(res.Header.Get("Retry-After")); err != nil || s < 1 || s > 2 {
		t.Errorf("Retry-After: got %q, want 1 or 2 seconds", res.Header.Get("Retry-After"))
	}
	if res := h.Get("/metrics"); !strings.Contains(res.Raw, `casegraph_busy_total{limit="rate"} 1`) {
		t.Errorf("/metrics does not count the refusal once:\n%s", res.Raw)
	}
}

// TestFailedSignInsAreLimited: an address that keeps sending bad
// credentials spends a bucket of its own, and once it is empty its
// credentials are not even looked up (a flood of made-up key ids would
// otherwise cost a database read each).
func TestFailedSignInsAreLimited(t *testing.T) {
	t.Parallel()
	h := newEdge(t, func(c *server.Config) {
		c.RateLimit = 0.5
		c.RateBurst = 2
	})
	for i := range 2 {
		if res := h.PostAs("not-a-key", `{ __typename }`, nil); res.Status != http.StatusUnauthorized {
			t.Fatalf("failed sign-in %d: got %d %s, want 401", i+1, res.Status, res.Raw)
		}
	}
	res := h.PostAs("not-a-key", `{ __typename }`, nil)
	if res.Status != http.StatusTooManyRequests || res.Code() != "BUSY" || res.Header.Get("Retry-After") == "" {
		t.Fatalf("after the failures' burst: got %d %s, want 429 BUSY with Retry-After", res.Status, res.Raw)
	}
	// Health checks are not behind sign-in, and not limited.
	if res := h.Get("/healthz"); res.Status != http.StatusOK {
		t.Errorf("/healthz: %d", res.Status)
	}
}

// busyStore is the refusing store, except that its searches find the
// database's admission pool full, as a flood of path searches would.
type busyStore struct{ server.Store }

func (busyStore) Search(context.Context, casegraph.SearchRequest) (casegraph.SearchPage, error) {
	return casegraph.SearchPage{}, casegraph.Errorf(casegraph.CodeBusy, "the server is busy: too many database queries at once; retry in a moment")
}

// TestBusyIs429: a field refused for want of a database slot makes the
// whole answer 429 with Retry-After (nothing of it ran, so a retry is
// safe), with the error coded BUSY.
func TestBusyIs429(t *testing.T) {
	t.Parallel()
	h := servertest.Edge(t, options{Store: func(s server.Store) server.Store { return busyStore{s} }})
	res := h.Post(`{ t: __typename  s: search(text: "caesar") { edges { node { id } } } }`, nil)
	if res.Status != http.StatusTooManyRequests || res.Code() != "BUSY" || res.Header.Get("Retry-After") != "1" {
		t.Fatalf("got %d %s (Retry-After %q), want 429 BUSY with Retry-After 1", res.Status, res.Raw, res.Header.Get("Retry-After"))
	}
}
