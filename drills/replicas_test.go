//go:build drills

package drills

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const (
	// replicaRound is one measurement of the throughput part: one target
	// (one replica alone, or the balancer) at one concurrency, closed loop.
	replicaRound = 2 * time.Second
	// replicaRounds: each target is measured this many times at each
	// concurrency, the two interleaved (which goes first alternates).
	replicaRounds = 2
	// The kill part: readers and writers through the balancer, the kill
	// after killAfter of load, the load going on for loadAfterKill.
	replicaReaders = 6
	replicaWriters = 4
	killAfter      = 3 * time.Second
	loadAfterKill  = 5 * time.Second
	// replicaSettle bounds how long a read or a write is retried.
	replicaSettle = 90 * time.Second
)

// replicaConcurrency: the throughput part's concurrencies.
var replicaConcurrency = []int{1, 8, 32}

// replicaQuery is W2's shape on the seed: an entity and ten relations
// with both ends.
const replicaQuery = `{ entity(id: "desmond-de-silva") { id name relations(first: 10) {
	edges { node { id type from { id name } to { id name } } } } } }`

// drillReplicas: three `casegraph serve` replicas on the shared Neo4j
// behind HAProxy on the project's deploy/haproxy.cfg. First the same read
// at a few concurrencies against one replica alone and through the
// balancer (figures only); then, under readers and writers and with a
// changes subscriber through the balancer, the subscriber's replica is
// killed with -9: every read and write is answered to clients that retry
// by the README's rules, no request fails but those in flight at the
// kill, and the subscriber, resumed by its cursor on another replica,
// hears of every write once.
func (e *env) drillReplicas(t *testing.T) {
	db := e.sharedDB(t)
	// Rate limits are per replica and per caller: off, so that one caller
	// measures the replicas, not its own allowance.
	settings := []string{"CASEGRAPH_REQUEST_TIMEOUT=5s", "CASEGRAPH_SHUTDOWN_TIMEOUT=10s", "CASEGRAPH_KEY_CACHE_TTL=10m",
		"CASEGRAPH_RATE_LIMIT=0", "CASEGRAPH_DRAIN_DELAY=3s"}
	start := time.Now()
	replicas := make([]*server, balancerReplicas)
	for i := range replicas {
		replicas[i] = e.serve(t, db.uri(), settings...)
	}
	for _, r := range replicas {
		c := r.client("", 5*time.Second)
		untilOK(t, "a replica's /readyz", func() Outcome { return c.Get(context.Background(), "/readyz") })
	}
	lb := e.balance(t, replicas)
	reader := e.readerKey(t, "drills replicas")
	up := time.Now()
	e.replicaThroughput(t, replicas[0], lb, reader)
	measured := time.Now()
	e.replicaKill(t, replicas, lb, reader)
	t.Logf("drill: replicas: up_s=%.1f throughput_s=%.1f kill_s=%.1f", up.Sub(start).Seconds(), measured.Sub(up).Seconds(), time.Since(measured).Seconds())
}

// replicaThroughput measures replicaQuery against one replica alone and
// through the balancer (three replicas), interleaved, and logs requests
// a second and p50/p95 at each concurrency. Through the balancer, with
// nothing broken, every answer is OK, BUSY or TIMEOUT (never a 502).
func (e *env) replicaThroughput(t *testing.T, one *server, lb *balancer, token string) {
	ctx := context.Background()
	targets := []struct {
		name string
		c    *Client
	}{{"one", one.client(token, 30*time.Second)}, {"lb", lb.client(token, 30*time.Second)}}
	for _, tg := range targets {
		untilOK(t, "the throughput query via "+tg.name, func() Outcome { return tg.c.GraphQL(ctx, replicaQuery, nil, nil) })
	}
	type point struct {
		tally   Tally
		elapsed time.Duration
		served  counter
	}
	points := map[string]*point{}
	for round := range replicaRounds {
		for _, c := range replicaConcurrency {
			for i := range targets {
				tg := targets[(i+round)%len(targets)]
				k := fmt.Sprintf("%s/%d", tg.name, c)
				if points[k] == nil {
					points[k] = &point{}
				}
				p := points[k]
				p.elapsed += closedLoop(ctx, tg.c, c, replicaRound, &p.tally, &p.served)
			}
		}
	}
	for _, c := range replicaConcurrency {
		one, lbp := points[fmt.Sprintf("one/%d", c)], points[fmt.Sprintf("lb/%d", c)]
		rps := func(p *point) float64 { return float64(p.tally.Count("OK")) / p.elapsed.Seconds() }
		ratio := 0.0
		if rps(one) > 0 {
			ratio = rps(lbp) / rps(one)
		}
		t.Logf("drill: replicas: c=%d one_rps=%.0f lb_rps=%.0f lb_over_one=%.2f %s %s",
			c, rps(one), rps(lbp), ratio, one.tally.Latency().Fields("one"), lbp.tally.Latency().Fields("lb"))
		t.Logf("drill: replicas: c=%d one=%s lb=%s lb_by_replica=%s", c, one.tally.Counts(), lbp.tally.Counts(), lbp.served.String())
		for _, p := range []*point{one, lbp} {
			if p.tally.Count("OK") == 0 {
				t.Errorf("c=%d: no request answered: %s", c, p.tally.Counts())
			}
		}
		if n := lbp.tally.Total() - lbp.tally.Count("OK") - lbp.tally.Count("BUSY") - lbp.tally.Count("TIMEOUT"); n > 0 {
			t.Errorf("c=%d: %d requests through the balancer failed with nothing broken: %s", c, n, lbp.tally.Counts())
		}
	}
}

// closedLoop runs workers callers sending replicaQuery back to back for
// d, and returns how long they ran; served counts the answers by the
// replica the balancer chose.
func closedLoop(ctx context.Context, c *Client, workers int, d time.Duration, tally *Tally, served *counter) time.Duration {
	start := time.Now()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for time.Since(start) < d {
				o := c.GraphQL(ctx, replicaQuery, nil, nil)
				tally.Add(o)
				served.add(o.ServedBy)
			}
		})
	}
	wg.Wait()
	return time.Since(start)
}

// counter counts strings; safe for concurrent use.
type counter struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *counter) add(s string) {
	if s == "" {
		s = "direct"
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	c.n[s]++
}

func (c *counter) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.ReplaceAll(formatCounts(c.n), " ", ",")
}

// read is one logical read of the kill part and its attempts.
type read struct {
	began    time.Time
	attempts []string
	broke    string // the first failed attempt's outcome
	answered bool
}

// inflight counts a client's requests sent and not yet answered (their
// headers), wrapping its transport.
type inflight struct {
	next http.RoundTripper
	n    atomic.Int64
}

func (f *inflight) RoundTrip(r *http.Request) (*http.Response, error) {
	f.n.Add(1)
	defer f.n.Add(-1)
	return f.next.RoundTrip(r)
}

// replicaKill: readers and writers through the balancer, and a changes
// subscriber of the writers' dataset; the subscriber's replica is killed
// with -9 under that load, and the checks of drillReplicas follow.
func (e *env) replicaKill(t *testing.T, replicas []*server, lb *balancer, readerToken string) {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	run := time.Now().UnixNano()
	ds := fmt.Sprintf("drills-replicas-%d", run)
	src := ds + ":src"
	counted := &inflight{}
	admin := lb.client(e.adminToken, 30*time.Second)
	counted.next = admin.HTTP.Transport
	admin.HTTP = &http.Client{Transport: counted, Timeout: admin.HTTP.Timeout}
	readers := admin.WithToken(readerToken)
	untilOK(t, "upsertSource", func() Outcome { return upsertSource(ctx, admin, src, ds) })

	// The subscriber, on a client of its own (not counted in flight),
	// away after the kill until a write was acknowledged meanwhile.
	var lastAck atomic.Int64 // when the last write was acknowledged, in Unix nanoseconds
	sub := startSubscriber(t, ctx, lb.client(e.adminToken, 30*time.Second), ds,
		func(since time.Time) bool { return lastAck.Load() <= since.UnixNano() })
	victim := -1
	for i := range replicas {
		if sub.firstServedBy == fmt.Sprintf("replica%d", i+1) {
			victim = i
		}
	}
	if victim < 0 {
		t.Fatalf("the subscription's replica %q is none of replica1..%d (X-Served-By)", sub.firstServedBy, len(replicas))
	}

	stop := make(chan struct{})
	deadline := time.Now().Add(replicaSettle)
	ws := startWriters(ctx, replicaWriters, admin, ds, src, run, deadline, stop, func() { lastAck.Store(time.Now().UnixNano()) })
	var mu sync.Mutex
	var reads []*read
	var readAttempts Tally
	var rg sync.WaitGroup
	for range replicaReaders {
		rg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				r := &read{began: time.Now()}
				mu.Lock()
				reads = append(reads, r)
				mu.Unlock()
				for ctx.Err() == nil && time.Now().Before(deadline) {
					o := readers.GraphQL(ctx, replicaQuery, nil, nil)
					readAttempts.Add(o)
					r.attempts = append(r.attempts, o.Label())
					if !o.OK() && r.broke == "" {
						r.broke = o.String()
					}
					// A query is always safe to send again; it is worth it
					// on the answers a write is retried on (no answer, a
					// 5xx from the balancer, the service unable to run it).
					if r.answered = o.OK(); r.answered || !retryable(o) {
						break
					}
					time.Sleep(retryAfter(o, 100*time.Millisecond))
				}
			}
		})
	}

	time.Sleep(killAfter)
	inflightAtKill := counted.n.Load()
	killAt := time.Now()
	goneAt := replicas[victim].kill9(t)
	downAfter, err := lb.waitServers(t, 30*time.Second, func(up int) bool { return up == len(replicas)-1 })
	if err != nil {
		t.Errorf("haproxy did not mark the killed replica down: %v", err)
	}
	time.Sleep(loadAfterKill - min(downAfter, loadAfterKill))
	close(stop)
	writes := ws.wait()
	rg.Wait()

	// Every acknowledged write, heard by the subscriber once.
	acked := map[string]bool{}
	for _, wr := range writes {
		if wr.ackedID != "" {
			acked[wr.ackedID] = true
		}
	}
	if _, err := waitFor(ctx, setupWait, 100*time.Millisecond, func() error {
		if n := sub.heardOf(acked); n < len(acked) {
			return fmt.Errorf("the subscriber heard of %d of %d acknowledged writes", n, len(acked))
		}
		return nil
	}); err != nil {
		t.Error(err)
	}
	events := sub.stop()

	n := checkWrites(t, writes, entitiesOf(t, ctx, admin, ds), replicaSettle)
	var answered, readsRetried, readsFailed, readsBroken, writesBroken, late int
	for _, r := range reads {
		if r.answered {
			answered++
		} else if readsFailed++; readsFailed <= 5 {
			t.Errorf("a read was never answered: attempts %s", summarise(r.attempts))
		}
		if len(r.attempts) > 1 || !r.answered {
			if readsRetried < 3 {
				t.Logf("a read broken by the kill: %s, sent %.3f s before the replica was gone", r.broke, goneAt.Sub(r.began).Seconds())
			}
			readsRetried++
			readsBroken++
			if !r.began.Before(goneAt) {
				late++
			}
		}
	}
	for _, wr := range writes {
		if len(wr.attempts) > 0 && wr.attempts[0] != "OK" {
			writesBroken++
			if !wr.began.Before(goneAt) {
				late++
			}
		}
	}
	// A request broken by the kill was sent before the replica was gone:
	// the balancer sends the later ones to another.
	if late > 0 {
		t.Errorf("%d requests sent after the replica was gone failed at their first attempt", late)
	}
	if broken := int64(readsBroken + writesBroken); broken > inflightAtKill {
		t.Errorf("%d requests failed at their first attempt, more than the %d in flight at the kill", broken, inflightAtKill)
	}
	checkResume(t, events, acked, fmt.Sprintf("replica%d", victim+1))
	// The resume is tested only if writes landed while the subscriber was away.
	away := 0
	if len(events.resumes) > 0 {
		r := events.resumes[0]
		for _, wr := range writes {
			if wr.ackedAt.After(r.brokeAt) && wr.ackedAt.Before(r.at) {
				away++
			}
		}
		if away == 0 {
			t.Errorf("no write was acknowledged while the subscriber was away (%s to %s): its resume is not tested", r.brokeAt.Format(time.StampMilli), r.at.Format(time.StampMilli))
		}
	}

	st, err := lb.stats(ctx)
	if err != nil {
		t.Errorf("haproxy statistics: %v", err)
	}
	be := st["BACKEND"]
	t.Logf("drill: replicas-kill: readers=%d writers=%d killed=replica%d in_flight_at_kill=%d kill_took_s=%.2f marked_down_after_s=%.2f lb_retries=%s lb_redispatches=%s",
		replicaReaders, replicaWriters, victim+1, inflightAtKill, goneAt.Sub(killAt).Seconds(), downAfter.Seconds(), be["wretr"], be["wredis"])
	t.Logf("drill: replicas-kill: reads sent=%d answered=%d retried=%d failed=%d attempts=%s",
		len(reads), answered, readsRetried, readsFailed, readAttempts.Counts())
	t.Logf("drill: replicas-kill: writes sent=%d answered=%d retried=%d failed=%d first_attempt_failed=%d lost=%d duplicates=%d unsettled=%d attempts=%s",
		len(writes), n.acked, n.retried, n.failed, writesBroken, n.lost, n.dups, n.unsettled, ws.attempts.Counts())
	t.Logf("drill: replicas-kill: subscriber changes=%d acked_writes=%d written_while_away=%d resumed=%d resumed_on=%s broke_after_gone_s=%s resumed_after_gone_s=%s",
		len(events.changes), len(acked), away, len(events.resumes), events.resumedOn(), events.brokeAfter(goneAt), events.resumedAfter(goneAt))
	if lines := balancerRefusals(lb.log, 10); lines != "" {
		t.Logf("haproxy: answers other than 200 (the first 10):\n%s", lines)
	}
}
