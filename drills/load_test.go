//go:build drills

package drills

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"
)

const (
	genDataset   = "drills-gen"
	heavyWorkers = 50
	heavyFor     = 15 * time.Second
)

// genGraph imports a generated graph into the shared Neo4j, once, and
// returns some of its entity ids (read through c, a server of it): ground
// for heavy searches.
func (e *env) genGraph(t *testing.T, c *Client) []string {
	t.Helper()
	db := e.sharedDB(t)
	if e.genEntities != nil {
		return e.genEntities
	}
	file := e.tmp + "/gen.ndjson"
	start := time.Now()
	e.casegraph(t, db, "gen", "--entities", "1500", "--relations", "7500", "--seed", "7", "--dataset", genDataset, "--out", file)
	e.casegraph(t, db, "import", file)
	t.Logf("drill: gen: entities=1500 relations=7500 import_s=%.1f", time.Since(start).Seconds())

	for _, ent := range entitiesOf(t, context.Background(), c.WithToken(e.adminToken), genDataset) {
		e.genEntities = append(e.genEntities, ent.ID)
	}
	return e.genEntities
}

// heavySearch is a deep search on the generated graph: a shortestPath of
// up to 5 to 8 hops with no degree limit, or a neighbourhood 2 or 3 levels
// deep. Each takes a slot of the heavy pool.
func heavySearch(rng *rand.Rand, ids []string) (string, map[string]any) {
	a, b := ids[rng.IntN(len(ids))], ids[rng.IntN(len(ids))]
	if rng.IntN(2) == 0 {
		return `query($a: ID!, $b: ID!, $d: Int!) { shortestPath(from: $a, to: $b, filter: {maxDepth: $d}) { length nodes { id name } } }`,
			map[string]any{"a": a, "b": b, "d": 5 + rng.IntN(4)}
	}
	return `query($a: ID!, $d: Int!) { neighborhood(id: $a, depth: $d, limit: 1000) { truncated nodes { id name } } }`,
		map[string]any{"a": a, "d": 2 + rng.IntN(2)}
}

// drillHeavyLoad: 50 callers send heavy searches back to back while
// another reads one entity in a loop; the cheap reads keep being served
// (never DATABASE_UNAVAILABLE), and the heavy ones get an answer, BUSY or
// TIMEOUT, never a lie about the database. A 429 carries Retry-After.
func (e *env) drillHeavyLoad(t *testing.T) {
	db := e.sharedDB(t)
	heavyKey, cheapKey := e.readerKey(t, "drills heavy"), e.readerKey(t, "drills cheap")
	srv := e.serve(t, db.uri(), "CASEGRAPH_REQUEST_TIMEOUT=5s", "CASEGRAPH_PATH_TIMEOUT=4s",
		"CASEGRAPH_SHUTDOWN_TIMEOUT=10s", "CASEGRAPH_KEY_CACHE_TTL=10m")
	heavy, cheap := srv.client(heavyKey, 30*time.Second), srv.client(cheapKey, 30*time.Second)
	ctx := context.Background()
	ids := e.genGraph(t, heavy)

	// Idle: the cheap query's time with nothing else running.
	var idle Tally
	for range 30 {
		idle.Add(untilOK(t, "idle cheap query", func() Outcome { return cheap.GraphQL(ctx, cheapQuery, nil, nil) }))
	}

	stop := make(chan struct{})
	var heavyT, cheapT, health Tally
	var wrong sync.Map // label -> an example, of outcomes the drill refuses
	var wg sync.WaitGroup
	for w := range heavyWorkers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(7, uint64(w)))
			for {
				select {
				case <-stop:
					return
				default:
				}
				q, vars := heavySearch(rng, ids)
				o := heavy.GraphQL(ctx, q, vars, nil)
				heavyT.Add(o)
				switch o.Label() {
				case "OK", "BUSY", "TIMEOUT":
				default:
					wrong.LoadOrStore("heavy "+o.Label(), o.String())
				}
				if o.Status == http.StatusTooManyRequests && o.RetryAfter == "" {
					wrong.LoadOrStore("429 without Retry-After", o.String())
				}
				if o.Label() == "BUSY" {
					time.Sleep(retryAfter(o, 200*time.Millisecond))
				}
			}
		})
	}
	loop := func(tally *Tally, do func() Outcome) {
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			tally.Add(do())
		}
	}
	wg.Go(func() {
		loop(&cheapT, func() Outcome {
			o := cheap.GraphQL(ctx, cheapQuery, nil, nil)
			if o.Label() == "DATABASE_UNAVAILABLE" || o.Label() == "INTERNAL" || o.Label() == "NETWORK" {
				wrong.LoadOrStore("cheap "+o.Label(), o.String())
			}
			return o
		})
	})
	wg.Go(func() { loop(&health, func() Outcome { return cheap.Get(ctx, "/healthz") }) })
	time.Sleep(heavyFor)
	close(stop)
	wg.Wait()

	wrong.Range(func(k, v any) bool {
		t.Errorf("%s: for example %s", k, v)
		return true
	})
	t.Logf("drill: heavy-load: workers=%d seconds=%.0f heavy=%s %s", heavyWorkers, heavyFor.Seconds(), heavyT.Counts(), heavyT.Latency().Fields("heavy"))
	t.Logf("drill: heavy-load: cheap=%s %s %s", cheapT.Counts(), cheapT.Latency().Fields("cheap"), idle.Latency().Fields("cheap_idle"))
	t.Logf("drill: heavy-load: healthz=%s %s", health.Counts(), health.Latency().Fields("healthz"))
}

// retryAfter is how long a BUSY answer asks the client to wait (its
// Retry-After seconds), or def without one; at most 2 s, to keep drills short.
func retryAfter(o Outcome, def time.Duration) time.Duration {
	if s, err := strconv.Atoi(o.RetryAfter); err == nil && s >= 0 {
		return min(time.Duration(s)*time.Second, 2*time.Second)
	}
	return def
}
