package server

// The requests being served, for the log of a shutdown that cuts some off.

import (
	"sync"
	"time"

	"github.com/rs/zerolog"
)

// inflight are the requests being served: a shutdown that cannot wait for
// them all says in the log which ones it cut off.
type inflight struct {
	mu   sync.Mutex
	reqs map[*requestInfo]struct{}
}

func newInflight() *inflight {
	return &inflight{reqs: map[*requestInfo]struct{}{}}
}

func (f *inflight) add(info *requestInfo) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reqs[info] = struct{}{}
}

func (f *inflight) remove(info *requestInfo) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.reqs, info)
}

// logCutOff logs, at warn, each request still in flight (request id,
// method, route and age), and returns how many there were.
func (f *inflight) logCutOff(log zerolog.Logger) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	for info := range f.reqs {
		log.Warn().Str("req_id", info.id).Str("method", truncate(info.method, 16)).Str("route", info.route).
			Dur("age", time.Since(info.start)).Msg("shutdown: request cut off")
	}
	return len(f.reqs)
}
