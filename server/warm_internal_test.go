package server

import (
	"testing"

	casegraph "github.com/casegraph/casegraph"
)

// TestWarmTotalsNameRequests: every request the warm-up sends again (as
// a caller who may read every dataset, or with short ids) is one of its
// requests (a name that is not would silently leave a plan cold).
func TestWarmTotalsNameRequests(t *testing.T) {
	names := map[string]bool{}
	for _, r := range warmRequests {
		names[r.name] = true
	}
	for _, set := range []map[string]bool{warmTotals, warmShort, warmCallerNamed, warmPaged} {
		for name := range set {
			if !names[name] {
				t.Errorf("%q is no warm request", name)
			}
		}
	}
	for _, id := range []string{warmShortVariables["id"].(string), warmShortVariables["to"].(string)} {
		if len(id) > 10 {
			t.Errorf("short id %q has %d characters, over 10", id, len(id))
		}
	}
	if len(warmShortCaller.ID) > 10 || len(warmShortCaller.ID) < 2 || len(casegraph.AnonymousID) > 10 {
		t.Errorf("warmShortCaller's id %q is not of the anonymous caller's length class (2 to 10)", warmShortCaller.ID)
	}
	pagedTotals := 0
	for name := range warmPaged {
		if warmTotals[name] {
			pagedTotals++
		}
	}
	if got, want := len(warmSends()), len(warmRequests)+len(warmTotals)+len(warmShort)+len(warmCallerNamed)+len(warmPaged)+pagedTotals; got != want {
		t.Errorf("%d requests sent, want %d", got, want)
	}
}
