package server

import (
	casegraph "github.com/casegraph/casegraph"
)

// Exports and imports over HTTP move a dataset's file: seconds to minutes
// of one transaction (an export) or of batches (an import), and, for an
// import, up to MaxImportBytes of memory. At most MaxTransfers of each run
// at once; one more is BUSY (429, reason TOO_MANY_TRANSFERS) at once,
// rather than holding connections and memory the queries need.

// ReasonTooManyTransfers is the reason of an export or import refused
// because MaxTransfers of its kind are running.
const ReasonTooManyTransfers = "TOO_MANY_TRANSFERS"

// transfers are the slots of the exports and of the imports.
type transfers struct {
	exports, imports chan struct{}
}

func newTransfers(n int) transfers {
	return transfers{exports: make(chan struct{}, n), imports: make(chan struct{}, n)}
}

// takeTransfer takes a slot of slots (what: "export" or "import"), or says
// BUSY when none is free.
func (s *Server) takeTransfer(slots chan struct{}, what string) (release func(), err error) {
	select {
	case slots <- struct{}{}:
		return func() { <-slots }, nil
	default:
		s.metrics.busy.WithLabelValues("transfers").Inc()
		return nil, casegraph.Errorf(casegraph.CodeBusy, "%d %ss over HTTP are running, the most at once; retry later", cap(slots), what).
			WithReason(ReasonTooManyTransfers)
	}
}
