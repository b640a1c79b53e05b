// Command hostile measures what a flood of the dearest requests the limits
// admit does to the readers beside it (bench/README.md, "a hostile
// client"): for each server given, readers of entities by id at each
// concurrency, first alone and then while -flood clients send nothing but
// the flood's request; it prints the readers' throughput and latencies
// both ways, and the flood's own. Start the servers first, one with the
// cost in flight bounded (the default) and one without, on a generated
// graph:
//
//	CASEGRAPH_ANONYMOUS='*' CASEGRAPH_RATE_LIMIT=0 CASEGRAPH_ADDR=127.0.0.1:8093 bin/casegraph serve &
//	CASEGRAPH_ANONYMOUS='*' CASEGRAPH_RATE_LIMIT=0 CASEGRAPH_ADDR=127.0.0.1:8094 CASEGRAPH_MAX_COST_IN_FLIGHT=0 bin/casegraph serve &
//	go run ./bench/hostile -dataset bench-100k \
//	    -url capped=http://127.0.0.1:8093/graphql -url open=http://127.0.0.1:8094/graphql
//
// The flood's default request is the depth-2 read of the entities with
// the most relations (complexity 4,812 of the default limit of 5,000): the
// 14 of the dataset's entities of highest degree, 10 relations of each and
// 10 of each far end's. The readers ask for entities of the dataset by id,
// in turn. A server that refuses or fails a request counts an error; the
// figures are of the answers that came.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/casegraph/casegraph/bench/internal/benchflag"
)

const (
	readQuery  = `query($id: ID!) { entity(id: $id) { id name aliases } }`
	floodQuery = `query($ds: String!) { entities(filter: {datasets: [$ds]}, orderBy: {field: DEGREE, direction: DESC}, first: 14) {
  edges { node { id name relations(first: 10) { edges { node { id type to { id name
    relations(first: 10) { edges { node { id type to { id name } } } } } } } } } } } }`
	idsQuery = `query($ds: String!) { entities(filter: {datasets: [$ds]}, first: 100) { edges { node { id } } } }`
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "hostile:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("hostile", flag.ContinueOnError)
	var urls benchflag.Servers
	fs.Var(&urls, "url", "NAME=URL of a server's /graphql (repeat: measured in turn)")
	dataset := fs.String("dataset", "bench-100k", "the generated dataset the requests read")
	readers := fs.String("readers", "1,16", "the readers' concurrencies, comma-separated")
	flood := fs.Int("flood", 16, "flooding clients")
	dur := fs.Duration("d", 12*time.Second, "how long readers are measured, alone and flooded")
	settle := fs.Duration("settle", 4*time.Second, "how long the flood runs before the readers are measured")
	timeout := fs.Duration("timeout", time.Minute, "a request's timeout")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if len(urls) == 0 {
		return errors.New("give at least one -url")
	}
	var cs []int
	for _, f := range strings.Split(*readers, ",") {
		c, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || c < 1 {
			return fmt.Errorf("-readers: %q is not a concurrency", f)
		}
		cs = append(cs, c)
	}
	if *flood < 1 {
		return errors.New("-flood must be at least 1")
	}
	client := &http.Client{Timeout: *timeout, Transport: &http.Transport{MaxIdleConnsPerHost: 256, DisableCompression: true}}
	flooding, err := body(floodQuery, map[string]any{"ds": *dataset})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "| server | readers | alone req/s | alone p50 / p95 / p99 ms | flooded req/s | flooded p50 / p95 / p99 ms | flood req/s | flood p50 ms | errors |\n")
	fmt.Fprintf(stdout, "|---|---:|---:|---|---:|---|---:|---:|---:|\n")
	for _, srv := range urls {
		reads, err := readBodies(ctx, client, srv.URL, *dataset)
		if err != nil {
			return fmt.Errorf("%s: %w", srv.Name, err)
		}
		// Both shapes once, so that neither is planned inside a measurement.
		for _, b := range [][]byte{reads[0], flooding} {
			if _, err := ask(ctx, client, srv.URL, b); err != nil {
				return fmt.Errorf("%s: %w", srv.Name, err)
			}
		}
		for _, c := range cs {
			alone := load(ctx, client, srv.URL, reads, c, *dur)
			floodCtx, stop := context.WithCancel(ctx)
			floodDone := make(chan result, 1)
			go func() { floodDone <- loadUntil(floodCtx, client, srv.URL, [][]byte{flooding}, *flood) }()
			time.Sleep(*settle)
			flooded := load(ctx, client, srv.URL, reads, c, *dur)
			stop()
			f := <-floodDone
			fmt.Fprintf(stdout, "| %s | %d | %.1f | %s | %.1f | %s | %.1f | %.0f | %d |\n", srv.Name, c,
				alone.rate(), alone.latencies(), flooded.rate(), flooded.latencies(), f.rate(), ms(f.percentile(0.5)),
				alone.errors+flooded.errors+f.errors)
		}
	}
	return nil
}

// result is one load's answers: the latencies of those that came, the
// errors, and how long it ran.
type result struct {
	took   []time.Duration
	errors int
	window time.Duration
}

func (r result) rate() float64 { return float64(len(r.took)) / r.window.Seconds() }

func (r result) percentile(p float64) time.Duration {
	if len(r.took) == 0 {
		return 0
	}
	sorted := slices.Clone(r.took)
	slices.Sort(sorted)
	return sorted[min(len(sorted)-1, int(p*float64(len(sorted))))]
}

func (r result) latencies() string {
	return fmt.Sprintf("%.1f / %.1f / %.1f", ms(r.percentile(0.5)), ms(r.percentile(0.95)), ms(r.percentile(0.99)))
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// load runs c clients sending the bodies in turn for d.
func load(ctx context.Context, client *http.Client, url string, bodies [][]byte, c int, d time.Duration) result {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	return loadUntil(ctx, client, url, bodies, c)
}

// loadUntil runs c clients sending the bodies in turn until ctx ends; a
// request cut by ctx's end counts for nothing.
func loadUntil(ctx context.Context, client *http.Client, url string, bodies [][]byte, c int) result {
	start := time.Now()
	var mu sync.Mutex
	var out result
	var wg sync.WaitGroup
	for w := range c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; ctx.Err() == nil; i += c {
				took, err := ask(ctx, client, url, bodies[i%len(bodies)])
				if ctx.Err() != nil {
					return
				}
				mu.Lock()
				if err != nil {
					out.errors++
				} else {
					out.took = append(out.took, took)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	out.window = time.Since(start)
	return out
}

// ask posts one request; a status other than 200 or an answer with errors
// is an error.
func ask(ctx context.Context, client *http.Client, url string, b []byte) (time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	start := time.Now()
	res, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	out, err := io.ReadAll(res.Body)
	took := time.Since(start)
	if err != nil {
		return 0, err
	}
	if res.StatusCode != http.StatusOK || bytes.Contains(out, []byte(`"errors":`)) {
		return 0, fmt.Errorf("HTTP %d: %.200s", res.StatusCode, out)
	}
	return took, nil
}

func body(query string, variables map[string]any) ([]byte, error) {
	return json.Marshal(map[string]any{"query": query, "variables": variables})
}

// readBodies are the readers' requests: one for each of the first 100
// entities of the dataset, asked of the server itself.
func readBodies(ctx context.Context, client *http.Client, url, dataset string) ([][]byte, error) {
	b, err := body(idsQuery, map[string]any{"ds": dataset})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	var answer struct {
		Data struct {
			Entities struct {
				Edges []struct {
					Node struct{ ID string }
				}
			}
		}
		Errors []struct{ Message string }
	}
	if err := json.NewDecoder(res.Body).Decode(&answer); err != nil {
		return nil, fmt.Errorf("reading the dataset's ids: %w", err)
	}
	if len(answer.Errors) > 0 {
		return nil, fmt.Errorf("reading the dataset's ids: %s", answer.Errors[0].Message)
	}
	var out [][]byte
	for _, e := range answer.Data.Entities.Edges {
		b, err := body(readQuery, map[string]any{"id": e.Node.ID})
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("dataset %s has no entity this server lets its callers read: import a generated graph (bench/README.md)", dataset)
	}
	return out, nil
}
