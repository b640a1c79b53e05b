package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The servers and the callers.
const (
	serverBase = iota
	serverNew
	nServers
)

const (
	callerAdmin = iota
	callerReader
	nCallers
)

var serverNames = [nServers]string{"base", "new"}
var callerNames = [nCallers]string{"admin", "reader"}

// callerTitles say who the callers are, for the report.
var callerTitles = [nCallers]string{"cleared admin", "uncleared reader of the dataset"}

func callerIndex(name string) int {
	for i, n := range callerNames {
		if n == name {
			return i
		}
	}
	return -1
}

// client sends one caller's requests to one server.
type client struct {
	name    string // "base/admin"
	base    string // http://host:port
	token   string
	http    *http.Client
	timeout time.Duration
}

func newClient(name, base, token string, timeout time.Duration) *client {
	transport := &http.Transport{
		// Every worker keeps its connection.
		MaxIdleConns:        256,
		MaxIdleConnsPerHost: 256,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
	}
	return &client{name: name, base: strings.TrimSuffix(base, "/"), token: token, http: &http.Client{Transport: transport}, timeout: timeout}
}

// post sends a prepared GraphQL body and returns the response body. A
// status other than 200, or a response with GraphQL errors, is an error.
// It looks for the "errors" key without decoding the answer: none of the
// workloads selects a field of that name, and a JSON string cannot hold
// an unescaped quote.
func (c *client) post(ctx context.Context, body []byte) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/graphql", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.token)
	res, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	out, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	if res.StatusCode != http.StatusOK {
		return out, fmt.Errorf("%s: HTTP %d: %s", c.name, res.StatusCode, clip(out))
	}
	if bytes.Contains(out, []byte(`"errors":`)) {
		return out, fmt.Errorf("%s: %s", c.name, clip(out))
	}
	return out, nil
}

func (c *client) waitReady(ctx context.Context, wait time.Duration) error {
	deadline := time.Now().Add(wait)
	for {
		_, err := c.post(ctx, []byte(`{"query":"{ __typename }"}`))
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s at %s does not answer: %w", c.name, c.base, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// roundTrips is the sum of casegraph_cypher_queries_total over its labels,
// from the server's /metrics (the statements it has sent to Neo4j).
func (c *client) roundTrips(ctx context.Context) (float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/metrics", nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	res, err := c.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("GET %s/metrics: HTTP %d", c.base, res.StatusCode)
	}
	const name = "casegraph_cypher_queries_total"
	var sum float64
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := sc.Text()
		rest, ok := strings.CutPrefix(line, name)
		if !ok || rest == "" || (rest[0] != '{' && rest[0] != ' ') {
			continue
		}
		fields := strings.Fields(rest[strings.LastIndexByte(rest, '}')+1:])
		if len(fields) == 0 {
			continue
		}
		v, err := strconv.ParseFloat(fields[0], 64)
		if err != nil {
			return 0, fmt.Errorf("%s: %q: %w", name, line, err)
		}
		sum += v
	}
	return sum, sc.Err()
}

func clip(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}

// harness holds the clients: one a server and caller.
type harness struct {
	cfg     config
	clients [nServers][nCallers]*client
	logf    func(string, ...any)
}

func newHarness(cfg config, logf func(string, ...any)) *harness {
	h := &harness{cfg: cfg, logf: logf}
	urls := [nServers]string{cfg.BaseURL, cfg.NewURL}
	for s := range nServers {
		for k := range nCallers {
			h.clients[s][k] = newClient(serverNames[s]+"/"+callerNames[k], urls[s], cfg.Keys[s][k], cfg.Timeout)
		}
	}
	return h
}

// stats accumulates one arm's slices (an arm: a server and a caller) in a
// cell.
type stats struct {
	Requests  int
	Errors    int
	FirstErr  string
	Work      float64 // requests inside the windows, a request over its slice's end counting for its share inside
	Window    time.Duration
	Latencies []time.Duration
	Trips     float64 // Neo4j statements over the slices
	// RoundP50 is each round's p50, for the spread of the per-round ratio.
	RoundP50 []time.Duration
}

func (s *stats) throughput() float64 {
	if s.Window <= 0 {
		return 0
	}
	return s.Work / s.Window.Seconds()
}

func (s *stats) percentile(p float64) time.Duration { return percentile(s.Latencies, p) }

func percentile(l []time.Duration, p float64) time.Duration {
	if len(l) == 0 {
		return 0
	}
	sorted := slices.Clone(l)
	slices.Sort(sorted)
	i := int(p*float64(len(sorted))+0.5) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

func (s *stats) tripsPerRequest() float64 {
	if s.Requests == 0 {
		return 0
	}
	return s.Trips / float64(s.Requests)
}

// cellResult is one workload at one concurrency, for every arm.
type cellResult struct {
	w           workload
	concurrency int
	rounds      int
	paired      bool
	arms        [nServers][nCallers]stats
	// pairRatios are, in a paired cell, new's latency over base's for
	// each input, by caller.
	pairRatios [nCallers][]float64
}

type sliceResult struct {
	latencies []time.Duration
	errors    int
	firstErr  string
	work      float64
	window    time.Duration
}

// slice runs one arm at concurrency c from input next onwards until the
// deadline. Each worker finishes the request it is in; a request that runs
// over the deadline counts for the share of its time inside the window.
func (h *harness) slice(ctx context.Context, p *prepared, cl *client, c int, next *atomic.Int64, until time.Time) sliceResult {
	var mu sync.Mutex
	var wg sync.WaitGroup
	var res sliceResult
	start := time.Now()
	for range c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := make([]time.Duration, 0, 256)
			var work float64
			var errs int
			var first string
			for ctx.Err() == nil && time.Now().Before(until) {
				i := int(next.Add(1)-1) % len(p.bodies)
				t0 := time.Now()
				_, err := cl.post(ctx, p.bodies[i])
				took := time.Since(t0)
				mine = append(mine, took)
				if took <= 0 {
					work++
				} else {
					work += float64(min(took, until.Sub(t0))) / float64(took)
				}
				if err != nil {
					errs++
					if first == "" {
						first = err.Error()
					}
				}
			}
			mu.Lock()
			res.latencies = append(res.latencies, mine...)
			res.work += work
			res.errors += errs
			if res.firstErr == "" {
				res.firstErr = first
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	res.window = until.Sub(start)
	return res
}

// cell runs a workload at concurrency c on every arm, interleaved: a
// warm-up each, then rounds in which every arm gets one slice. The order
// within a round alternates (base first, then new first; the callers'
// order flips every other round), so that both servers share the
// machine's noise and neither always runs after the other. Every arm
// walks the same inputs in the same order.
func (h *harness) cell(ctx context.Context, p *prepared, c int) (cellResult, error) {
	if slices.Contains(h.cfg.Paired, c) {
		return h.pairedCell(ctx, p, c)
	}
	res := cellResult{w: p.w, concurrency: c, rounds: h.cfg.Rounds}
	var next [nServers][nCallers]atomic.Int64
	for _, k := range h.cfg.Callers {
		for s := range nServers {
			var warm atomic.Int64
			h.slice(ctx, p, h.clients[s][k], c, &warm, time.Now().Add(h.cfg.Warmup))
		}
	}
	for round := range h.cfg.Rounds {
		callers := slices.Clone(h.cfg.Callers)
		if round/2%2 == 1 {
			slices.Reverse(callers)
		}
		for _, k := range callers {
			for j := range nServers {
				s := (round + j) % nServers
				cl := h.clients[s][k]
				before, errBefore := cl.roundTrips(ctx)
				sl := h.slice(ctx, p, cl, c, &next[s][k], time.Now().Add(h.cfg.Slice))
				if err := ctx.Err(); err != nil {
					return res, err
				}
				after, errAfter := cl.roundTrips(ctx)
				st := &res.arms[s][k]
				if err := cmp.Or(errBefore, errAfter); err != nil {
					h.logf("%s: no round trips: %v", cl.name, err)
					st.Trips = math.NaN()
				}
				st.Trips += after - before
				st.Requests += len(sl.latencies)
				st.Errors += sl.errors
				st.Work += sl.work
				st.Window += sl.window
				st.Latencies = append(st.Latencies, sl.latencies...)
				st.RoundP50 = append(st.RoundP50, percentile(sl.latencies, 0.5))
				if st.FirstErr == "" {
					st.FirstErr = sl.firstErr
				}
			}
		}
	}
	h.logCell(res)
	return res, nil
}

func (h *harness) logCell(res cellResult) {
	p, c := res, res.concurrency
	for _, k := range h.cfg.Callers {
		b, n := &res.arms[serverBase][k], &res.arms[serverNew][k]
		if res.paired {
			h.logf("%s c=%d paired %s: per-input ratio median %s", p.w.Key, c, callerNames[k], medianRatio(res.pairRatios[k]))
		}
		h.logf("%s c=%d %s: p50 base %s new %s (%s), p99 base %s new %s, req/s base %.1f new %.1f, errors %d/%d",
			p.w.Key, c, callerNames[k], ms(b.percentile(.5)), ms(n.percentile(.5)), ratio(float64(n.percentile(.5)), float64(b.percentile(.5))),
			ms(b.percentile(.99)), ms(n.percentile(.99)), b.throughput(), n.throughput(), b.Errors, n.Errors)
		for s := range nServers {
			if st := res.arms[s][k]; st.Errors > 0 {
				h.logf("%s c=%d %s/%s: %d errors, the first: %s", p.w.Key, c, serverNames[s], callerNames[k], st.Errors, st.FirstErr)
			}
		}
	}
}

// pairedCell runs a workload at concurrency c with every input asked of
// both servers, one after the other (which first alternating by input),
// by each of c workers: the two latencies of an input are measured
// moments apart, so the machine's noise, which moves over seconds, falls
// on both alike, and their ratio is one sample of the gates' cost. At c=1
// one request runs at a time; at c > 1 each server sees between 0 and c
// requests at once, c/2 on average. Each round gives every caller a slice
// of twice -slice (a slice a server, as the unpaired cells).
func (h *harness) pairedCell(ctx context.Context, p *prepared, c int) (cellResult, error) {
	res := cellResult{w: p.w, concurrency: c, rounds: h.cfg.Rounds, paired: true}
	var next [nCallers]atomic.Int64
	for _, k := range h.cfg.Callers {
		var warm atomic.Int64
		h.pairedSlice(ctx, p, k, c, &warm, time.Now().Add(h.cfg.Warmup), &cellResult{})
	}
	for round := range h.cfg.Rounds {
		callers := slices.Clone(h.cfg.Callers)
		if round%2 == 1 {
			slices.Reverse(callers)
		}
		for _, k := range callers {
			var before [nServers]float64
			var errs [nServers]error
			for s := range nServers {
				before[s], errs[s] = h.clients[s][k].roundTrips(ctx)
			}
			h.pairedSlice(ctx, p, k, c, &next[k], time.Now().Add(2*h.cfg.Slice), &res)
			if err := ctx.Err(); err != nil {
				return res, err
			}
			for s := range nServers {
				after, err := h.clients[s][k].roundTrips(ctx)
				if err = cmp.Or(errs[s], err); err != nil {
					res.arms[s][k].Trips = math.NaN()
				}
				res.arms[s][k].Trips += after - before[s]
			}
		}
	}
	h.logCell(res)
	return res, nil
}

// pairedSlice is one paired slice of caller k, added to res.
func (h *harness) pairedSlice(ctx context.Context, p *prepared, k, c int, next *atomic.Int64, until time.Time, res *cellResult) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	var lat [nServers][]time.Duration
	var ratios []float64
	var errs [nServers]int
	var first [nServers]string
	for range c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine [nServers][]time.Duration
			var rs []float64
			var myErrs [nServers]int
			var myFirst [nServers]string
			for ctx.Err() == nil && time.Now().Before(until) {
				i := int(next.Add(1) - 1)
				var took [nServers]time.Duration
				var failed bool
				for j := range nServers {
					s := (i + j) % nServers
					t0 := time.Now()
					_, err := h.clients[s][k].post(ctx, p.bodies[i%len(p.bodies)])
					took[s] = time.Since(t0)
					mine[s] = append(mine[s], took[s])
					if err != nil {
						failed = true
						myErrs[s]++
						if myFirst[s] == "" {
							myFirst[s] = err.Error()
						}
					}
				}
				if !failed && took[serverBase] > 0 {
					rs = append(rs, float64(took[serverNew])/float64(took[serverBase]))
				}
			}
			mu.Lock()
			for s := range nServers {
				lat[s] = append(lat[s], mine[s]...)
				errs[s] += myErrs[s]
				if first[s] == "" {
					first[s] = myFirst[s]
				}
			}
			ratios = append(ratios, rs...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	window := time.Since(start)
	for s := range nServers {
		st := &res.arms[s][k]
		st.Requests += len(lat[s])
		st.Work += float64(len(lat[s]))
		st.Window += window
		st.Errors += errs[s]
		if st.FirstErr == "" {
			st.FirstErr = first[s]
		}
		st.Latencies = append(st.Latencies, lat[s]...)
		st.RoundP50 = append(st.RoundP50, percentile(lat[s], 0.5))
	}
	res.pairRatios[k] = append(res.pairRatios[k], ratios...)
}

// medianRatio is the median of ratios, with the share of them above 1.
func medianRatio(rs []float64) string {
	if len(rs) == 0 {
		return "-"
	}
	sorted := slices.Clone(rs)
	slices.Sort(sorted)
	above := 0
	for _, r := range rs {
		if r > 1 {
			above++
		}
	}
	return fmt.Sprintf("%.3f (n %d, %.0f%% above 1)", sorted[len(sorted)/2], len(rs), 100*float64(above)/float64(len(rs)))
}

func ms(d time.Duration) string {
	return fmt.Sprintf("%.1f", float64(d.Microseconds())/1000)
}

func ratio(a, b float64) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.3f", a/b)
}
