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
	delayRequestTimeout = time.Second
	delayHeld           = 2 * time.Second
	// deadlineSlack: a request answers within its timeout plus this.
	deadlineSlack = 50 * time.Millisecond
	// healthzBound: /healthz answers within this whatever the database does.
	healthzBound = 50 * time.Millisecond
)

// drillDelayProxy: Neo4j answers through a proxy that holds every chunk
// for 2 s while requests have 1 s: reads and writes are answered TIMEOUT
// (a write may be OUTCOME_UNKNOWN) within 1 s + 50 ms, /healthz stays
// under 50 ms, a write answered TIMEOUT is not in the database, and once
// the delay is gone queries work again.
func (e *env) drillDelayProxy(t *testing.T) {
	db := e.sharedDB(t)
	proxy, err := NewDelayProxy(db.addr())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { proxy.Close() })
	srv := e.serve(t, "bolt://"+proxy.Addr(), "CASEGRAPH_REQUEST_TIMEOUT="+delayRequestTimeout.String(),
		"CASEGRAPH_PATH_TIMEOUT=900ms", "CASEGRAPH_SHUTDOWN_TIMEOUT=5s",
		"CASEGRAPH_ANONYMOUS=caesar-report", "CASEGRAPH_KEY_CACHE_TTL=10m")
	reader := srv.client("", 30*time.Second)
	writer := reader.WithToken(e.adminToken)
	ctx := context.Background()
	ds := fmt.Sprintf("drills-delay-%d", time.Now().UnixNano())
	src := ds + ":src"

	// Undelayed: ready, reads work, the key is looked up and trusted, and
	// the dataset's source exists (tried again while a busy machine makes
	// them miss the 1 s deadline).
	if _, err := waitFor(ctx, setupWait, 100*time.Millisecond, func() error {
		if o := reader.Get(ctx, "/readyz"); o.Status != http.StatusOK {
			return fmt.Errorf("/readyz: %s", o)
		}
		if o := reader.GraphQL(ctx, cheapQuery, nil, nil); !o.OK() {
			return fmt.Errorf("query: %s", o)
		}
		if o := upsertSource(ctx, writer, src, ds); !o.OK() {
			return fmt.Errorf("upsertSource: %s", o)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}

	stop := make(chan struct{})
	var health Tally
	var hw sync.WaitGroup
	hw.Go(func() {
		for {
			health.Add(reader.Get(ctx, "/healthz"))
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	})

	proxy.SetDelay(delayHeld)
	bound := delayRequestTimeout + deadlineSlack
	var reads, writes Tally
	var mu sync.Mutex
	var timedOut []string // ids of writes answered TIMEOUT: not executed
	var wg sync.WaitGroup
	for w := range 3 {
		wg.Go(func() {
			for i := range 4 {
				q, vars := cheapQuery, map[string]any(nil)
				if i%2 == 1 {
					q = `{ neighborhood(id: "desmond-de-silva", depth: 2) { nodes { id name } } }`
				}
				o := reader.GraphQL(ctx, q, vars, nil)
				reads.Add(o)
				if o.Label() != "TIMEOUT" || o.Took > bound {
					t.Errorf("read %d.%d with Neo4j %s away: %s, want TIMEOUT within %s", w, i, delayHeld, o, bound)
				}
			}
		})
	}
	for w := range 2 {
		wg.Go(func() {
			for i := range 3 {
				id := fmt.Sprintf("%s:w%d-%d", ds, w, i)
				o := upsertEntity(ctx, writer, entityInput(ds, src, id, "Delay drill "+id), "")
				writes.Add(o)
				switch {
				case o.Label() == "TIMEOUT":
					mu.Lock()
					timedOut = append(timedOut, id)
					mu.Unlock()
				case o.Label() == "OUTCOME_UNKNOWN":
				default:
					t.Errorf("write %s with Neo4j %s away: %s, want TIMEOUT or OUTCOME_UNKNOWN", id, delayHeld, o)
				}
				if o.Took > bound {
					t.Errorf("write %s: answered after %s, want within %s", id, o.Took.Round(time.Millisecond), bound)
				}
			}
		})
	}
	wg.Wait()
	proxy.SetDelay(0)
	close(stop)
	hw.Wait()

	if l := health.Latency(); l.Max > healthzBound || health.Count("OK") != health.Total() {
		t.Errorf("/healthz while Neo4j was slow: %s, %s; want all 200 within %s", health.Counts(), l.Fields("healthz"), healthzBound)
	}
	// Recovered: a read works again; then every write answered TIMEOUT
	// must have written nothing.
	recovered, err := waitFor(ctx, setupWait, 100*time.Millisecond, func() error {
		if o := reader.GraphQL(ctx, cheapQuery, nil, nil); !o.OK() {
			return fmt.Errorf("query: %s", o)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("after the delay ended: %v", err)
	}
	// Connections that were held may still deliver late chunks: a read
	// is tried again until it is answered.
	for _, id := range timedOut {
		o := untilOK(t, "reading "+id, func() Outcome {
			return writer.GraphQL(ctx, `query($id: ID!) { entity(id: $id) { id } }`, map[string]any{"id": id}, nil)
		})
		if string(o.Data) != `{"entity":null}` {
			t.Errorf("write %s was answered TIMEOUT (not executed) but is in the database: %s", id, o.Data)
		}
	}
	t.Logf("drill: delay-proxy: delay_ms=%d request_timeout_ms=%d reads=%s %s writes=%s %s",
		delayHeld.Milliseconds(), delayRequestTimeout.Milliseconds(), reads.Counts(), reads.Latency().Fields("read"), writes.Counts(), writes.Latency().Fields("write"))
	t.Logf("drill: delay-proxy: %s recovered_s=%.2f timeout_writes_in_db=checked_%d",
		health.Latency().Fields("healthz"), recovered.Seconds(), len(timedOut))
}
