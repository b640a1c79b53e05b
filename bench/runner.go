package main

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// The systems, in the order of the table.
const (
	sysCasegraph = iota
	sysPeer
	sysRaw
	nSystems
)

var systemNames = [nSystems]string{"casegraph", "peer", "raw"}

// bench holds what every cell shares.
type bench struct {
	cfg     config
	raw     *rawStore
	cg      *graphQLClient
	peer    *graphQLClient
	metrics *metricsClient
	cpu     *cpuMeter
	logf    func(string, ...any)
}

// prepared is a workload with its inputs, and the request bodies of the
// two HTTP systems made in advance, so that the load generator does little
// besides sending them.
type prepared struct {
	w        workload
	inputs   []input
	cgBody   [][]byte
	peerBody [][]byte
}

func (b *bench) prepare(w workload, inputs []input) (*prepared, error) {
	p := &prepared{w: w, inputs: inputs, cgBody: make([][]byte, len(inputs)), peerBody: make([][]byte, len(inputs))}
	for i, in := range inputs {
		var err error
		if p.cgBody[i], err = w.casegraph(in).body(); err != nil {
			return nil, err
		}
		if p.peerBody[i], err = w.peer(in).body(); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// request runs input i of the workload on a system.
func (b *bench) request(ctx context.Context, p *prepared, sys, i int) error {
	i %= len(p.inputs)
	switch sys {
	case sysCasegraph:
		_, err := b.cg.post(ctx, p.cgBody[i])
		return err
	case sysPeer:
		_, err := b.peer.post(ctx, p.peerBody[i])
		return err
	default:
		ctx, cancel := context.WithTimeout(ctx, b.raw.timeout)
		defer cancel()
		_, err := p.w.raw(ctx, b.raw, p.inputs[i])
		return err
	}
}

// systemStats accumulates one system's slices of a cell.
type systemStats struct {
	Requests int
	Errors   int
	FirstErr string
	// Work is the requests done inside the slices' windows, a request that
	// runs over the end of its slice counting for the share of it inside;
	// Window is the slices' time.
	Work      float64
	Window    time.Duration
	Latencies []time.Duration
	// RoundTrips counts Neo4j statements over the measured slices
	// (Casegraph's from its metrics, raw's from its store).
	RoundTrips float64
	// CPU is what each process spent over the measured slices (cpu.go),
	// from before a slice's first request to after its last.
	CPU sample
}

func (s *systemStats) throughput() float64 {
	if s.Window <= 0 {
		return 0
	}
	return s.Work / s.Window.Seconds()
}

func (s *systemStats) percentile(p float64) time.Duration {
	if len(s.Latencies) == 0 {
		return 0
	}
	sorted := slices.Clone(s.Latencies)
	slices.Sort(sorted)
	i := int(p*float64(len(sorted))+0.5) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// cpuPerRequest is the CPU a request cost process p, and whether it was
// measured.
func (s *systemStats) cpuPerRequest(p int) (time.Duration, bool) {
	if !s.CPU.ok[p] || s.Requests == 0 {
		return 0, false
	}
	return s.CPU.cpu[p] / time.Duration(s.Requests), true
}

func (s *systemStats) roundTripsPerRequest() float64 {
	if s.Requests == 0 {
		return 0
	}
	return s.RoundTrips / float64(s.Requests)
}

// cellResult is one workload at one concurrency.
type cellResult struct {
	Workload    workload
	Concurrency int
	Turns       int
	Systems     [nSystems]systemStats
}

// sliceLatencies is the least length of a slice, in median latencies.
const sliceLatencies = 4

func (r cellResult) summary() string {
	s := ""
	for i := range nSystems {
		st := &r.Systems[i]
		s += fmt.Sprintf("%s %.1f req/s p50 %s p95 %s errors %d; ", systemNames[i], st.throughput(),
			ms(st.percentile(0.50)), ms(st.percentile(0.95)), st.Errors)
	}
	return s + fmt.Sprintf("casegraph round trips/request %.2f; %d turns", r.Systems[sysCasegraph].roundTripsPerRequest(), r.Turns)
}

// sliceResult is what one slice measured.
type sliceResult struct {
	Latencies []time.Duration
	Errors    int
	FirstErr  string
	Work      float64
	Window    time.Duration
}

// slice runs one system at concurrency c, from input next onwards, until
// the deadline or until it has sent budget requests (when budget > 0).
//
// Every worker finishes the request it is in when the slice ends. Counting
// whole requests over the time until the last one has finished would count
// the ramp-down as if it were load, and one slow request (a path search of
// seconds) would hold the slice open while the other workers idle. So a
// timed slice's throughput is measured over its window, from its start to
// its deadline: a request that runs over the deadline counts for the share
// of its time inside the window. With a request budget there is no window:
// every request counts, over the slice's whole time.
func (b *bench) slice(ctx context.Context, p *prepared, sys, c int, next *atomic.Int64, until time.Time, budget int64) sliceResult {
	var mu sync.Mutex
	var wg sync.WaitGroup
	var sent atomic.Int64
	var res sliceResult
	start := time.Now()
	window := until.Sub(start)
	for range c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := make([]time.Duration, 0, 256)
			var work float64
			var errs int
			var first string
			for ctx.Err() == nil {
				if budget > 0 {
					if sent.Add(1) > budget {
						break
					}
				} else if !time.Now().Before(until) {
					break
				}
				i := int(next.Add(1) - 1)
				t0 := time.Now()
				err := b.request(ctx, p, sys, i)
				took := time.Since(t0)
				mine = append(mine, took)
				if budget > 0 || took <= 0 {
					work++
				} else {
					inside := min(took, until.Sub(t0))
					work += float64(inside) / float64(took)
				}
				if err != nil {
					errs++
					if first == "" {
						first = err.Error()
					}
				}
			}
			mu.Lock()
			res.Latencies = append(res.Latencies, mine...)
			res.Work += work
			res.Errors += errs
			if res.FirstErr == "" {
				res.FirstErr = first
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	res.Window = window
	if budget > 0 {
		res.Window = time.Since(start)
	}
	return res
}

// cell runs a workload at concurrency c on the three systems, interleaved:
// each system gets a short warm-up, then the systems take turns (the first
// of a turn rotating), each turn a slice of -d/-turns (or -n/-turns
// requests) per system, so that all three share the machine's noise. Every
// system walks the same inputs in the same order. Casegraph's round trips
// are read from its metrics before and after each of its slices.
//
// A slice only a few requests long would be a burst of c requests started
// together more than a steady load, so a slice lasts at least
// sliceLatencies times the slowest system's median warm-up latency (or
// holds sliceLatencies requests a worker), with fewer turns where that is
// needed.
func (b *bench) cell(ctx context.Context, p *prepared, c int) (cellResult, error) {
	res := cellResult{Workload: p.w, Concurrency: c}
	var next [nSystems]atomic.Int64
	var slowest time.Duration
	for sys := range nSystems {
		var warm atomic.Int64
		warmed := systemStats{Latencies: b.slice(ctx, p, sys, c, &warm, time.Now().Add(b.cfg.Warmup), 0).Latencies}
		slowest = max(slowest, warmed.percentile(0.5))
	}
	turns := b.cfg.Turns
	var turnBudget int64
	if b.cfg.Requests > 0 {
		turns = max(1, min(turns, b.cfg.Requests/(sliceLatencies*c)))
		turnBudget = int64(b.cfg.Requests / turns)
	} else {
		turns = max(1, min(turns, int(b.cfg.Duration/(sliceLatencies*slowest+1))))
	}
	turnTime := b.cfg.Duration / time.Duration(turns)
	res.Turns = turns
	for turn := range turns {
		for k := range nSystems {
			sys := (turn + k) % nSystems
			var before float64
			var rawBefore int64
			switch sys {
			case sysCasegraph:
				var err error
				if before, err = b.metrics.roundTrips(ctx); err != nil {
					return res, fmt.Errorf("casegraph metrics: %w", err)
				}
			case sysRaw:
				rawBefore = b.raw.RoundTrips()
			}
			cpuBefore := b.cpu.take(sys)
			sl := b.slice(ctx, p, sys, c, &next[sys], time.Now().Add(turnTime), turnBudget)
			spent := b.cpu.take(sys).since(cpuBefore)
			if err := ctx.Err(); err != nil {
				return res, err
			}
			st := &res.Systems[sys]
			st.CPU = st.CPU.plus(spent, turn == 0)
			switch sys {
			case sysCasegraph:
				after, err := b.metrics.roundTrips(ctx)
				if err != nil {
					return res, fmt.Errorf("casegraph metrics: %w", err)
				}
				st.RoundTrips += after - before
			case sysRaw:
				st.RoundTrips += float64(b.raw.RoundTrips() - rawBefore)
			}
			st.Requests += len(sl.Latencies)
			st.Errors += sl.Errors
			st.Work += sl.Work
			st.Window += sl.Window
			st.Latencies = append(st.Latencies, sl.Latencies...)
			if st.FirstErr == "" {
				st.FirstErr = sl.FirstErr
			}
		}
	}
	for sys := range nSystems {
		if st := res.Systems[sys]; st.Errors > 0 {
			b.logf("%s c=%d %s: %d errors, the first: %s", p.w.Key, c, systemNames[sys], st.Errors, st.FirstErr)
		}
	}
	return res, nil
}

// roundTripResult is a workload's Neo4j round trips per request at c=1.
type roundTripResult struct {
	Workload  workload
	Requests  int
	Casegraph float64
	Raw       float64
	Errors    int
}

// roundTripsAtOne sends n requests one after another to Casegraph and to
// the raw system and counts their Neo4j statements.
func (b *bench) roundTripsAtOne(ctx context.Context, p *prepared, n int) (roundTripResult, error) {
	res := roundTripResult{Workload: p.w, Requests: n}
	before, err := b.metrics.roundTrips(ctx)
	if err != nil {
		return res, fmt.Errorf("casegraph metrics: %w", err)
	}
	for i := range n {
		if err := b.request(ctx, p, sysCasegraph, i); err != nil {
			res.Errors++
		}
	}
	after, err := b.metrics.roundTrips(ctx)
	if err != nil {
		return res, fmt.Errorf("casegraph metrics: %w", err)
	}
	res.Casegraph = (after - before) / float64(n)
	rawBefore := b.raw.RoundTrips()
	for i := range n {
		if err := b.request(ctx, p, sysRaw, i); err != nil {
			res.Errors++
		}
	}
	res.Raw = float64(b.raw.RoundTrips()-rawBefore) / float64(n)
	return res, nil
}

func ms(d time.Duration) string {
	return fmt.Sprintf("%.1f", float64(d.Microseconds())/1000)
}
