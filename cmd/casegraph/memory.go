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
