//go:build drills

package drills

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"
)

const (
	killWriters = 8
	// settleBound: a write retried with its key settles within this of
	// the drill's start, Neo4j's restart included.
	settleBound = 6 * time.Minute
)

// drillKill9Writers: 8 writers upsert entities (half with ids, half
// without), each write under an Idempotency-Key of its own, and retry
// every non-success with the same key until it settles; meanwhile Neo4j is
// killed with -9 and started again. Every acknowledged write is in the
// database once, every write settles, and no key made two entities.
func (e *env) drillKill9Writers(t *testing.T) {
	db := e.sharedDB(t)
	srv := e.serve(t, db.uri(), "CASEGRAPH_REQUEST_TIMEOUT=5s", "CASEGRAPH_SHUTDOWN_TIMEOUT=10s", "CASEGRAPH_KEY_CACHE_TTL=10m")
	c := srv.client(e.adminToken, 30*time.Second)
	// Cancelled when the drill ends, even by a failure half-way: the
	// writers stop retrying before the server stops.
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	run := time.Now().UnixNano()
	ds := fmt.Sprintf("drills-kill-%d", run)
	src := ds + ":src"
	untilOK(t, "upsertSource", func() Outcome { return upsertSource(ctx, c, src, ds) })

	start := time.Now()
	stop := make(chan struct{})
	var mu sync.Mutex
	var firstOKAfterKill time.Time
	var killedAt time.Time
	ws := startWriters(ctx, killWriters, c, ds, src, run, start.Add(settleBound), stop, func() {
		mu.Lock()
		defer mu.Unlock()
		if !killedAt.IsZero() && firstOKAfterKill.IsZero() {
			firstOKAfterKill = time.Now()
		}
	})
	attempts := &ws.attempts
	// /readyz, polled throughout: when does it say ready after the restart?
	var readyAt time.Time
	var sawDown bool // a 503 since the kill: the next 200 is the recovery
	var readyPolls Tally
	pollStop := make(chan struct{})
	var pw sync.WaitGroup
	pw.Go(func() {
		for {
			o := c.Get(ctx, "/readyz")
			readyPolls.Add(o)
			mu.Lock()
			switch {
			case killedAt.IsZero():
			case o.Status != http.StatusOK:
				sawDown = true
			case sawDown && readyAt.IsZero():
				readyAt = time.Now()
			}
			mu.Unlock()
			select {
			case <-pollStop:
				return
			case <-ctx.Done():
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	})

	// Kill once writes are flowing: some acknowledged (at least two a
	// writer), or after a minute on a machine too slow for that.
	_, _ = waitFor(ctx, time.Minute, 100*time.Millisecond, func() error {
		if n := attempts.Count("OK"); n < 2*killWriters {
			return fmt.Errorf("%d writes acknowledged", n)
		}
		return nil
	})
	ackedBefore := attempts.Count("OK")
	db.kill9(t)
	mu.Lock()
	killedAt = time.Now()
	mu.Unlock()
	db.up(t, e.parent)
	upAt := time.Now()
	time.Sleep(3 * time.Second) // writes go on after the restart
	close(stop)
	writes := ws.wait()
	close(pollStop)
	pw.Wait()

	// What the database holds, by name (each name holds its key).
	untilOK(t, "a query after the restart", func() Outcome { return c.GraphQL(ctx, cheapQuery, nil, nil) })
	n := checkWrites(t, writes, entitiesOf(t, ctx, c, ds), settleBound)

	figure := func(ts time.Time, from time.Time) string {
		if ts.IsZero() {
			return "never"
		}
		return fmt.Sprintf("%.2f", ts.Sub(from).Seconds())
	}
	t.Logf("drill: kill9-writers: writers=%d writes=%d acked=%d acked_before_kill=%d lost=%d duplicates=%d unsettled=%d failed=%d retried=%d outcome_unknown_settled=%d",
		killWriters, len(writes), n.acked, ackedBefore, n.lost, n.dups, n.unsettled, n.failed, n.retried, n.unknownSettled)
	t.Logf("drill: kill9-writers: attempts=%s", attempts.Counts())
	t.Logf("drill: kill9-writers: neo4j_down_s=%.1f first_write_ok_after_up_s=%s readyz_ok_after_up_s=%s readyz=%s",
		upAt.Sub(killedAt).Seconds(), figure(firstOKAfterKill, upAt), figure(readyAt, upAt), readyPolls.Counts())
}
