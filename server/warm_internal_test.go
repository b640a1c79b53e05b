package server

import "testing"

// TestWarmTotalsNameRequests: every request the warm-up sends as a caller
// who may read every dataset too is one of its requests (a name that is
// not would silently leave that caller's plan cold).
func TestWarmTotalsNameRequests(t *testing.T) {
	names := map[string]bool{}
	for _, r := range warmRequests {
		names[r.name] = true
	}
	for name := range warmTotals {
		if !names[name] {
			t.Errorf("warmTotals names %q, which is no warm request", name)
		}
	}
	if got, want := len(warmSends()), len(warmRequests)+len(warmTotals); got != want {
		t.Errorf("%d requests sent, want %d", got, want)
	}
}
