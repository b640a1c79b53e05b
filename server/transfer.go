package server

import (
	"net/http"
	"sync"
	"time"

	casegraph "github.com/casegraph/casegraph"
)

// Exports and imports over HTTP move a dataset's file: seconds to minutes
// of one transaction (an export) or of batches (an import), and, for an
// import, up to MaxImportBytes of memory. At most MaxTransfers of each run
// at once, and at most transfersPerCaller of each for one caller; one more
// is BUSY (429, reason TOO_MANY_TRANSFERS) at once, rather than holding
// connections and memory the GraphQL requests need. An export whose reader takes
// no bytes for TransferStall is cut off (stallWriter): slow readers do not
// hold the slots, nor a read transaction, for the whole TransferTimeout.

// ReasonTooManyTransfers is the reason of an export or import refused
// because MaxTransfers of its kind are running, or the caller runs one.
const ReasonTooManyTransfers = "TOO_MANY_TRANSFERS"

// transfersPerCaller bounds the exports, and the imports, one caller (an
// API key or token, or an address for anonymous callers) runs at once:
// one caller's slow readers cannot take every slot.
const transfersPerCaller = 1

// transfers are the slots of the exports and of the imports, and who
// holds them.
type transfers struct {
	exports, imports chan struct{}

	mu      sync.Mutex
	holders map[string]int // by kind and caller
}

func newTransfers(n int) *transfers {
	return &transfers{exports: make(chan struct{}, n), imports: make(chan struct{}, n), holders: map[string]int{}}
}

// takeTransfer takes a slot of slots (what: "export" or "import") for r's
// caller, or says BUSY when none is free or the caller holds
// transfersPerCaller of them.
func (s *Server) takeTransfer(r *http.Request, slots chan struct{}, what string) (release func(), err error) {
	p, _ := casegraph.PrincipalFrom(r.Context())
	holder := what + " " + callerKey(p, clientAddr(r))
	t := s.transfers
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.holders[holder] >= transfersPerCaller {
		s.metrics.busy.WithLabelValues("transfers").Inc()
		return nil, casegraph.Errorf(casegraph.CodeBusy, "you are running %d %s over HTTP, the most one caller may at once; retry when it ends", transfersPerCaller, what).
			WithReason(ReasonTooManyTransfers)
	}
	select {
	case slots <- struct{}{}:
	default:
		s.metrics.busy.WithLabelValues("transfers").Inc()
		return nil, casegraph.Errorf(casegraph.CodeBusy, "%d %ss over HTTP are running, the most at once; retry later", cap(slots), what).
			WithReason(ReasonTooManyTransfers)
	}
	t.holders[holder]++
	return func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.holders[holder]--; t.holders[holder] == 0 {
			delete(t.holders, holder)
		}
		<-slots
	}, nil
}

// stallWriter writes a transfer's response, and cuts it off when its
// reader takes no bytes for stall: before each write the connection's
// write deadline moves to stall from now (never past the request's own,
// until), so a write that cannot go out within it fails. stalled says that
// one did.
type stallWriter struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	stall   time.Duration
	until   time.Time
	stalled bool
}

func newStallWriter(w http.ResponseWriter, stall time.Duration, until time.Time) *stallWriter {
	return &stallWriter{w: w, rc: http.NewResponseController(w), stall: stall, until: until}
}

func (s *stallWriter) Write(p []byte) (int, error) {
	deadline := time.Now().Add(s.stall)
	if !s.until.IsZero() && deadline.After(s.until) {
		deadline = s.until
	}
	_ = s.rc.SetWriteDeadline(deadline) // unsupported (a test recorder): no stall to cut
	n, err := s.w.Write(p)
	if err != nil {
		s.stalled = true
	}
	return n, err
}
