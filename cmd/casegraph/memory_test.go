package main

import (
	"math"
	"runtime/debug"
	"testing"

	"github.com/rs/zerolog"
)

// TestApplyMemoryLimit: the setting becomes the runtime's limit, 0 leaves
// none, and a limit already in force (GOMEMLIMIT at start) is kept.
func TestApplyMemoryLimit(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))

	if got := applyMemoryLimit(0, zerolog.Nop()); got != 0 {
		t.Errorf("limit 0: in force %d, want 0", got)
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("limit 0: runtime limit %d, want none", got)
	}
	if got := applyMemoryLimit(64<<20, zerolog.Nop()); got != 64<<20 {
		t.Errorf("limit 64 MiB: in force %d", got)
	}
	if got := debug.SetMemoryLimit(-1); got != 64<<20 {
		t.Errorf("limit 64 MiB: runtime limit %d", got)
	}
	// As if started with GOMEMLIMIT=32MiB: the setting does not replace it.
	debug.SetMemoryLimit(32 << 20)
	if got := applyMemoryLimit(defaultMemoryLimit, zerolog.Nop()); got != 32<<20 {
		t.Errorf("GOMEMLIMIT in force: got %d, want it kept", got)
	}
	if got := debug.SetMemoryLimit(-1); got != 32<<20 {
		t.Errorf("GOMEMLIMIT in force: runtime limit %d, want 32 MiB", got)
	}
}

// TestApplyGCPercent: under a memory limit the collector's pace is
// gcPercentUnderLimit; without one, or when the process was started with
// GOGC, it stays as it is.
func TestApplyGCPercent(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	noEnv := func(string) string { return "" }
	withGOGC := func(k string) string {
		if k == "GOGC" {
			return "150"
		}
		return ""
	}
	for _, c := range []struct {
		name   string
		limit  int64
		getenv func(string) string
		want   int
	}{
		{"no limit", 0, noEnv, 100},
		{"a limit", defaultMemoryLimit, noEnv, gcPercentUnderLimit},
		{"a limit and GOGC", defaultMemoryLimit, withGOGC, 100},
	} {
		debug.SetGCPercent(100)
		if got := applyGCPercent(c.limit, c.getenv); got != (c.want != 100) {
			t.Errorf("%s: said %v, want %v", c.name, got, c.want != 100)
		}
		if got := debug.SetGCPercent(100); got != c.want {
			t.Errorf("%s: runtime pace %d, want %d", c.name, got, c.want)
		}
	}
}
