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
