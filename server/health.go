package server

// /healthz (the process is up) and /readyz (Neo4j answers, the schema
// is applied and the warm-up is over).

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	casegraph "github.com/casegraph/casegraph"
)

// readiness answers /readyz: ready once Neo4j answers and every index and
// constraint of the schema is online. It asks afresh (at most once a
// second), so a database that comes up late, or goes away, is seen without
// a restart.
type readiness struct {
	db Checker

	mu      sync.Mutex
	checked time.Time
	err     error
	schema  bool // the schema was seen applied; it does not go away

	draining atomic.Bool // shutting down: never ready again

	warm *warmUp // the warm-up (warm.go); nil: none
}

// drain makes the server not ready for good: it is shutting down.
func (r *readiness) drain() { r.draining.Store(true) }

var errDraining = casegraph.Errorf(casegraph.CodeDatabaseUnavailable, "shutting down")

func newReadiness(db Checker) *readiness {
	return &readiness{db: db}
}

const readinessTTL = time.Second

// check is what /readyz answers: the probe's error (reachable), or, while
// the warm-up runs, that it does.
func (r *readiness) check(ctx context.Context) error {
	if err := r.reachable(ctx); err != nil {
		return err
	}
	if done, status := r.warm.state(); !done {
		if status == "" {
			status = "warming up"
		}
		return casegraph.Errorf(casegraph.CodeDatabaseUnavailable, "%s", status)
	}
	return nil
}

// reachable is whether the database answers, has the schema and takes
// writes, asked at most once a second.
func (r *readiness) reachable(ctx context.Context) error {
	if r.draining.Load() {
		return errDraining
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if time.Since(r.checked) < readinessTTL {
		return r.err
	}
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(ctx), 3*time.Second) // the service's own work
	defer cancel()
	r.err = r.probe(ctx)
	r.checked = time.Now()
	return r.err
}

func (r *readiness) probe(ctx context.Context) error {
	if err := r.db.Ping(ctx); err != nil {
		return err
	}
	if !r.schema {
		missing, err := r.db.SchemaApplied(ctx)
		if err != nil {
			return err
		}
		if len(missing) > 0 {
			return casegraph.Errorf(casegraph.CodeDatabaseUnavailable,
				"schema not applied (missing %s): run `casegraph migrate`", strings.Join(missing, ", "))
		}
		r.schema = true
	}
	// A database that answers can still refuse writes for a while (after
	// a crash it recovers first): ready means a write commits.
	if err := r.db.ProbeWrite(ctx); err != nil {
		return casegraph.Errorf(casegraph.CodeDatabaseUnavailable, "the database does not take writes yet: %s", casegraph.ErrorMessage(err))
	}
	return nil
}

type healthResponse struct {
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
	// WarmUp says how the warm-up went, once it is over (warm.go).
	WarmUp string `json:"warmUp,omitempty"`
}

func (s *Server) healthz(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, healthResponse{Status: "ok"})
}

func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	if err := s.ready.check(r.Context()); err != nil {
		writeJSON(w, http.StatusServiceUnavailable, healthResponse{Status: "unavailable", Error: casegraph.ErrorMessage(err)})
		return
	}
	_, warm := s.ready.warm.state()
	writeJSON(w, http.StatusOK, healthResponse{Status: "ready", WarmUp: warm})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
