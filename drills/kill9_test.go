//go:build drills

package drills

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
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

// write is one logical write of the kill drill and every attempt at it.
type write struct {
	key      string // its Idempotency-Key; the entity's name holds it too
	id       string // the id sent, or "" for one the server makes up
	attempts []string
	ackedID  string // the id of the success, when one came
	failed   string // a refusal no retry can change
}

func (w *write) name() string { return "Kill drill " + w.key }

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
	var writes []*write
	var firstOKAfterKill time.Time
	var killedAt time.Time
	var attempts Tally
	var wg sync.WaitGroup
	for w := range killWriters {
		wg.Go(func() {
			for j := 0; time.Since(start) < settleBound; j++ {
				select {
				case <-stop:
					return
				case <-ctx.Done():
					return
				default:
				}
				wr := &write{key: fmt.Sprintf("k%d-w%d-%d", run, w, j)}
				if j%2 == 0 {
					wr.id = fmt.Sprintf("%s:w%d-%d", ds, w, j)
				}
				mu.Lock()
				writes = append(writes, wr)
				mu.Unlock()
				for ctx.Err() == nil && time.Since(start) < settleBound {
					o := upsertEntity(ctx, c, entityInput(ds, src, wr.id, wr.name()), wr.key)
					attempts.Add(o)
					wr.attempts = append(wr.attempts, o.Label())
					if o.OK() {
						id, err := upserted(o)
						if err != nil {
							wr.failed = err.Error()
						}
						wr.ackedID = id
						mu.Lock()
						if !killedAt.IsZero() && firstOKAfterKill.IsZero() {
							firstOKAfterKill = time.Now()
						}
						mu.Unlock()
						break
					}
					if !retryable(o) {
						wr.failed = o.String()
						break
					}
					time.Sleep(retryAfter(o, 250*time.Millisecond))
				}
			}
		})
	}
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
	wg.Wait()
	close(pollStop)
	pw.Wait()

	// What the database holds, by name (each name holds its key).
	untilOK(t, "a query after the restart", func() Outcome { return c.GraphQL(ctx, cheapQuery, nil, nil) })
	stored := entitiesOf(t, ctx, c, ds)
	byName := map[string][]string{}
	for _, s := range stored {
		byName[s.Name] = append(byName[s.Name], s.ID)
	}

	var acked, lost, dups, unsettled, failed, unknownSettled, retried int
	// At most a few lines of each kind of failure, then how many more.
	shown := map[string]int{}
	errorf := func(kind, format string, args ...any) {
		if shown[kind]++; shown[kind] <= 5 {
			t.Errorf(format, args...)
		}
	}
	for _, wr := range writes {
		ids := byName[wr.name()]
		delete(byName, wr.name())
		if len(wr.attempts) > 1 {
			retried++
		}
		if slices.Contains(wr.attempts, "OUTCOME_UNKNOWN") && wr.ackedID != "" {
			unknownSettled++
		}
		switch {
		case wr.failed != "":
			failed++
			errorf("refused", "write %s: refused for good: %s (attempts %s)", wr.key, wr.failed, summarise(wr.attempts))
		case wr.ackedID == "":
			unsettled++
			errorf("unsettled", "write %s: not settled within %s of the drill's start (attempts %s)", wr.key, settleBound, summarise(wr.attempts))
		default:
			acked++
		}
		switch {
		case wr.ackedID != "" && len(ids) == 0:
			lost++
			errorf("lost", "write %s: acknowledged (id %s) but not in the database (attempts %s)", wr.key, wr.ackedID, summarise(wr.attempts))
		case len(ids) > 1:
			dups++
			errorf("duplicate", "write %s: %d entities for one key: %v (attempts %s)", wr.key, len(ids), ids, summarise(wr.attempts))
		case wr.ackedID != "" && ids[0] != wr.ackedID:
			errorf("moved", "write %s: acknowledged as %s, stored as %s (attempts %s)", wr.key, wr.ackedID, ids[0], summarise(wr.attempts))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(byName)) {
		errorf("stray", "entity %q %v: written by no write of this drill", name, byName[name])
	}
	for _, kind := range slices.Sorted(maps.Keys(shown)) {
		if n := shown[kind]; n > 5 {
			t.Errorf("... and %d more writes %s", n-5, kind)
		}
	}

	figure := func(ts time.Time, from time.Time) string {
		if ts.IsZero() {
			return "never"
		}
		return fmt.Sprintf("%.2f", ts.Sub(from).Seconds())
	}
	t.Logf("drill: kill9-writers: writers=%d writes=%d acked=%d acked_before_kill=%d lost=%d duplicates=%d unsettled=%d failed=%d retried=%d outcome_unknown_settled=%d",
		killWriters, len(writes), acked, ackedBefore, lost, dups, unsettled, failed, retried, unknownSettled)
	t.Logf("drill: kill9-writers: attempts=%s", attempts.Counts())
	t.Logf("drill: kill9-writers: neo4j_down_s=%.1f first_write_ok_after_up_s=%s readyz_ok_after_up_s=%s readyz=%s",
		upAt.Sub(killedAt).Seconds(), figure(firstOKAfterKill, upAt), figure(readyAt, upAt), readyPolls.Counts())
}

// summarise counts a write's attempts by outcome, in the order they
// first came: "DATABASE_UNAVAILABLE x12, OK".
func summarise(attempts []string) string {
	var order []string
	n := map[string]int{}
	for _, a := range attempts {
		if n[a] == 0 {
			order = append(order, a)
		}
		n[a]++
	}
	parts := make([]string, len(order))
	for i, a := range order {
		parts[i] = a
		if n[a] > 1 {
			parts[i] = fmt.Sprintf("%s x%d", a, n[a])
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// retryable says whether a write's answer leaves it to be tried again with
// its key (README, "Retrying writes"): not executed (DATABASE_UNAVAILABLE,
// BUSY, TIMEOUT), maybe executed (OUTCOME_UNKNOWN, or no answer at all),
// or a server failure. (A request whose key's first attempt still runs
// waits for it and answers its outcome.)
func retryable(o Outcome) bool {
	switch o.Label() {
	case "DATABASE_UNAVAILABLE", "BUSY", "TIMEOUT", "OUTCOME_UNKNOWN", "NETWORK":
		return true
	}
	return o.Status >= 500
}
