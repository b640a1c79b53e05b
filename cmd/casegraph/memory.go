package main

import (
	"math"
	"runtime/debug"

	"github.com/rs/zerolog"
)

// defaultMemoryLimit (100 MiB) keeps the serve process's resident memory
// well under 150 MB under the peer benchmark's heaviest load (32 clients,
// W1 to W5, bench/README.md): with the garbage collector's default alone
// (GOGC 100: the heap may grow to twice what is live) W3's large answers
// took it to 147 MB. Below the limit the collector runs as often as without
// it; near it, more often, which costs CPU only while the heap is that
// large. Resident memory is the limit plus the program's code in use.
const defaultMemoryLimit int64 = 100 << 20

// applyMemoryLimit sets the runtime's soft memory limit to limit bytes,
// unless it is 0 or the process was started with GOMEMLIMIT (the runtime's
// own variable, already applied: an operator who sets it, say to a
// container's limit, means it). It returns the limit in force (0: none).
func applyMemoryLimit(limit int64, log zerolog.Logger) int64 {
	if current := debug.SetMemoryLimit(-1); current != math.MaxInt64 {
		log.Debug().Int64("bytes", current).Msg("memory limit from GOMEMLIMIT")
		return current
	}
	if limit <= 0 {
		return 0
	}
	debug.SetMemoryLimit(limit)
	return limit
}

// gcPercentUnderLimit is the collector's pace (GOGC) while a memory limit
// is in force: the heap may grow to five times what is live before a
// collection, where GOGC's default, 100, lets it grow to twice. A request
// leaves little live (an answer, once written, is garbage), so at the
// default the collector ran often over a small heap: its work was about a
// sixth of the server's CPU on W3 (bench/README.md). The limit bounds the
// heap all the same: near it the collector runs as often as it must.
// Measured side by side (W2 and W3 at 8 clients): 10 to 12% less CPU a
// request, resident memory at most the limit plus the code.
const gcPercentUnderLimit = 400

// applyGCPercent sets the collector's pace to gcPercentUnderLimit when a
// memory limit is in force (limit, as applyMemoryLimit returns it) and the
// process was not started with GOGC (the runtime's own variable, already
// applied: an operator who sets it means it), and says whether it did.
// Without a limit it leaves the default, which alone bounds the heap.
func applyGCPercent(limit int64, getenv func(string) string) bool {
	if limit <= 0 || getenv("GOGC") != "" {
		return false
	}
	debug.SetGCPercent(gcPercentUnderLimit)
	return true
}
