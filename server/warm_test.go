package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server"
)

// heldReads is a store whose ReadEntities waits for release (or its
// context), then fails with fail when it is set: a warm-up that cannot
// finish, or that meets a refusing database.
type heldReads struct {
	server.Store
	release chan struct{}
	fail    error
}

func (s heldReads) ReadEntities(ctx context.Context, ids []string, read *casegraph.EntityRead) (casegraph.ReadResult, error) {
	select {
	case <-s.release:
	case <-ctx.Done():
		return casegraph.ReadResult{}, ctx.Err()
	}
	if s.fail != nil {
		return casegraph.ReadResult{}, s.fail
	}
	return s.Store.ReadEntities(ctx, ids, read)
}

func readyBody(t *testing.T, raw string) (status, warmUp, reason string) {
	t.Helper()
	var v struct{ Status, WarmUp, Error string }
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		t.Fatalf("/readyz: %v: %s", err, raw)
	}
	return v.Status, v.WarmUp, v.Error
}

// waitReady polls /readyz until it says 200 or within fails the test.
func waitReady(t *testing.T, h *harness, within time.Duration) (warmUp string) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		res := h.Get("/readyz")
		if res.Status == http.StatusOK {
			_, warm, _ := readyBody(t, res.Raw)
			return warm
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz not ready within %s: %d %s", within, res.Status, res.Raw)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestWarmUpBeforeReady: with a warm-up, /readyz says 503 "warming up"
// until the common requests have been answered (here, until the held
// reads are let go), /healthz answers meanwhile, and the statements of
// the common requests were sent (ReadEntities, Search, Paths, Timeline,
// the command statements) through the store's read path.
func TestWarmUpBeforeReady(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	h := newHarness(t, options{
		Config: func(c *server.Config) { c.WarmUp = time.Minute },
		Store:  func(s server.Store) server.Store { return heldReads{Store: s, release: release} },
	})
	deadline := time.Now().Add(10 * time.Second)
	for {
		res := h.Get("/readyz")
		if res.Status == http.StatusOK {
			t.Fatalf("/readyz ready while the warm-up's reads are held: %s", res.Raw)
		}
		if _, _, reason := readyBody(t, res.Raw); strings.Contains(reason, "warming up") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz never said it was warming up: %d %s", res.Status, res.Raw)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if res := h.Get("/healthz"); res.Status != http.StatusOK {
		t.Errorf("/healthz during the warm-up: %d %s", res.Status, res.Raw)
	}
	close(release)
	warm := waitReady(t, h, 2*time.Minute)
	if !strings.Contains(warm, "warm-up done") || strings.Contains(warm, "failed") {
		t.Errorf("/readyz's warm-up: %q, want done without failures", warm)
	}
	metrics := h.Get("/metrics").Raw
	// Each statement family a common request reaches (a document the
	// schema refuses would reach none: GraphQL's validation errors are
	// answers, not failures, to warmOne).
	for _, stmt := range []string{"ReadEntities", "Search/", "SearchCounts", "Entities/", "Paths/d4/any/k1", "Paths/d4/any/k3", "Neighborhood/d1/any",
		"Connections/", "Timeline", "DatasetTimeline", "CommandChain", "WhoWasInCommand", "SavedQueries/"} {
		if !strings.Contains(metrics, `casegraph_cypher_queries_total{query="`+stmt) {
			t.Errorf("the warm-up sent no %s", stmt)
		}
	}
}

// TestWarmUpFailureAndBudget: a warm-up whose reads fail (the database
// refuses them) does not stop the server: /readyz says ready, and says
// how many common requests failed; one whose reads never end is ready
// when its budget runs out, and says so.
func TestWarmUpFailureAndBudget(t *testing.T) {
	t.Parallel()
	refused := casegraph.Errorf(casegraph.CodeDatabaseUnavailable, "the database refused")
	open := make(chan struct{})
	close(open)
	for _, tt := range []struct {
		name   string
		store  heldReads
		budget time.Duration
		want   string
	}{
		{"refused", heldReads{release: open, fail: refused}, time.Minute, "common requests failed (first: entity: "},
		{"budget", heldReads{release: make(chan struct{})}, 2 * time.Second, "warm-up ran out of its budget (2s)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, options{
				Config: func(c *server.Config) { c.WarmUp = tt.budget },
				Store: func(s server.Store) server.Store {
					st := tt.store
					st.Store = s
					return st
				},
			})
			if warm := waitReady(t, h, time.Minute); !strings.Contains(warm, tt.want) {
				t.Errorf("/readyz's warm-up: %q, want %q", warm, tt.want)
			}
			if res := h.Post(`{ __typename }`, nil); res.Status != http.StatusOK {
				t.Errorf("after the warm-up: %d %s", res.Status, res.Raw)
			}
		})
	}
}

// TestWarmUpWaitsForTheDatabase: while Neo4j refuses connections, /readyz
// says 503 with the database's reason (not "warming up": the warm-up has
// not started) and /healthz 200; once it answers, the warm-up runs, and
// then /readyz says ready and how the warm-up went.
func TestWarmUpWaitsForTheDatabase(t *testing.T) {
	t.Parallel()
	cyphertest.Driver(t)
	target := strings.TrimPrefix(strings.TrimPrefix(cyphertest.URI(), "bolt://"), "neo4j://")
	g := newGate(t, target)
	h := newHarness(t, options{
		Driver: driverTo(t, g.ln.Addr().String()),
		Config: func(c *server.Config) { c.WarmUp = time.Minute },
	})
	res := h.Get("/readyz")
	if _, _, reason := readyBody(t, res.Raw); res.Status != http.StatusServiceUnavailable || reason == "" || strings.Contains(reason, "warm") {
		t.Errorf("/readyz while the database is down: %d %s, want 503 with the database's reason", res.Status, res.Raw)
	}
	if res := h.Get("/healthz"); res.Status != http.StatusOK {
		t.Errorf("/healthz while the database is down: %d %s", res.Status, res.Raw)
	}
	g.open.Store(true)
	if warm := waitReady(t, h, 2*time.Minute); !strings.Contains(warm, "warm-up done") {
		t.Errorf("/readyz's warm-up once the database answers: %q", warm)
	}
}
