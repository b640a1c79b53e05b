// Command pathload times shortestPath through the service (HTTP) on
// joined pairs of a generated dataset, at one or more concurrencies, for
// one or more servers taking turns (a base build and a new one, under the
// same load), and prints p50, p95 and the slowest pairs
// (bench/README.md, "shortestPath on 1M / 5M").
//
//	go run ./bench/pathload -dataset bench-1m -pairs /tmp/pairs-1m.json -n 400 -c 1,8 \
//	    -url base=http://127.0.0.1:8091/graphql -url new=http://127.0.0.1:8092/graphql
//
// The pairs are drawn as bench/'s W5 draws them (bench/draw.go): a start
// drawn by degree (a random end of a random relation: hubs as often as
// the relations they hold), then a random walk of 1 to 4 steps to a
// random neighbour each, never ending where it started, so that a path
// exists within 4 hops (a random pair in the generated graph mostly has
// an isolated end, and times only the search's failure). They are written
// to -pairs the first time and read from it after, so that runs compare
// the same pairs.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/casegraph/casegraph/bench/internal/benchdb"
	"github.com/casegraph/casegraph/bench/internal/benchflag"
)

const query = `query W5($from: ID!, $to: ID!) { shortestPath(from: $from, to: $to, filter: {maxDepth: 4}) { length nodes { id } } }`

// pair is one input: two entities joined within 4 hops.
type pair struct{ From, To string }

func main() {
	if err := run(context.Background(), os.Args[1:], os.Getenv, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "pathload:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	fs := flag.NewFlagSet("pathload", flag.ContinueOnError)
	var urls benchflag.Servers
	fs.Var(&urls, "url", "a server's GraphQL endpoint, NAME=URL (repeat it: the servers take turns)")
	var db benchdb.Flags // to draw the pairs
	db.Register(fs, "neo4j", getenv)
	ds := fs.String("dataset", "bench-1m", "the generated dataset the pairs are drawn from")
	pairsFile := fs.String("pairs", "", "the pairs: read when the file exists, else drawn and written to it")
	inputs := fs.Int("inputs", 400, "pairs to draw")
	seed := fs.Uint64("seed", 7, "seed of the draw")
	n := fs.Int("n", 400, "requests per server per concurrency")
	conc := fs.String("c", "1,8", "concurrency levels, comma-separated")
	turns := fs.Int("turns", 4, "how many times the servers take turns in a cell")
	slowest := fs.Int("slowest", 5, "the slowest pairs to list per server and cell")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if len(urls) == 0 {
		urls.Set("http://127.0.0.1:8080/graphql")
	}
	pairs, err := loadPairs(ctx, *pairsFile, db, *ds, *inputs, *seed)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d pairs of %s\n", len(pairs), *ds)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256, DisableCompression: true}}
	for _, cs := range strings.Split(*conc, ",") {
		c, err := strconv.Atoi(cs)
		if err != nil || c < 1 {
			return fmt.Errorf("-c: %q is not a concurrency", cs)
		}
		// Each turn every server gets n/turns requests (its share of the
		// pairs, in the same order for each), one after the other.
		took := make([][]timed, len(urls))
		per := max(1, *n / *turns)
		for t := range *turns {
			for i, s := range urls {
				got, err := load(ctx, client, s.URL, pairs, t*per, per, c)
				if err != nil {
					return fmt.Errorf("%s: %w", s.Name, err)
				}
				took[i] = append(took[i], got...)
			}
		}
		for i, s := range urls {
			p50, p95, worst := stats(took[i])
			fmt.Fprintf(stdout, "%s c=%d: %d requests, p50 %.1f ms, p95 %.1f ms, max %.1f ms\n", s.Name, c, len(took[i]), ms(p50), ms(p95), ms(worst))
			slices.SortFunc(took[i], func(a, b timed) int { return int(b.d - a.d) })
			for _, x := range took[i][:min(*slowest, len(took[i]))] {
				fmt.Fprintf(stdout, "  %.1f ms  %s -> %s (length %d)\n", ms(x.d), x.p.From, x.p.To, x.length)
			}
		}
	}
	return nil
}

// timed is one request's time, and the length of the path it found.
type timed struct {
	p      pair
	d      time.Duration
	length int
}

// load sends pairs[from..from+count) (round the list) from c workers and
// returns each one's time. Any error (an HTTP status, a GraphQL error, no
// path where the walk found one) stops it.
func load(ctx context.Context, client *http.Client, url string, pairs []pair, from, count, c int) ([]timed, error) {
	jobs := make(chan pair)
	var mu sync.Mutex
	var out []timed
	var first error
	var wg sync.WaitGroup
	for range c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range jobs {
				start := time.Now()
				length, err := ask(ctx, client, url, p)
				d := time.Since(start)
				mu.Lock()
				if err != nil && first == nil {
					first = fmt.Errorf("%s -> %s: %w", p.From, p.To, err)
				}
				out = append(out, timed{p, d, length})
				mu.Unlock()
			}
		}()
	}
	for k := range count {
		jobs <- pairs[(from+k)%len(pairs)]
	}
	close(jobs)
	wg.Wait()
	return out, first
}

// ask sends one shortestPath request and returns the path's length.
func ask(ctx context.Context, client *http.Client, url string, p pair) (int, error) {
	body, _ := json.Marshal(map[string]any{"query": query, "variables": map[string]any{"from": p.From, "to": p.To}})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	var got struct {
		Data struct {
			ShortestPath *struct{ Length int } `json:"shortestPath"`
		} `json:"data"`
		Errors []any `json:"errors"`
	}
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, err
	}
	if res.StatusCode != http.StatusOK || json.Unmarshal(b, &got) != nil || len(got.Errors) > 0 {
		return 0, fmt.Errorf("HTTP %d: %.300s", res.StatusCode, b)
	}
	if got.Data.ShortestPath == nil {
		return 0, errors.New("no path, where the draw's walk found one")
	}
	return got.Data.ShortestPath.Length, nil
}

func stats(t []timed) (p50, p95, worst time.Duration) {
	d := make([]time.Duration, len(t))
	for i, x := range t {
		d[i] = x.d
	}
	slices.Sort(d)
	at := func(p float64) time.Duration { return d[max(0, min(len(d)-1, int(p*float64(len(d))+0.5)-1))] }
	return at(0.5), at(0.95), d[len(d)-1]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// loadPairs reads the pairs of a file, or draws them and writes them there.
func loadPairs(ctx context.Context, file string, db benchdb.Flags, ds string, n int, seed uint64) ([]pair, error) {
	if b, err := os.ReadFile(file); err == nil {
		var pairs []pair
		return pairs, json.Unmarshal(b, &pairs)
	}
	driver, err := db.Open(ctx)
	if err != nil {
		return nil, err
	}
	defer driver.Close(ctx)
	pairs, err := draw(ctx, driver, ds, n, seed)
	if err != nil {
		return nil, err
	}
	if file != "" {
		b, _ := json.Marshal(pairs)
		if err := os.WriteFile(file, b, 0o644); err != nil {
			return nil, err
		}
	}
	return pairs, nil
}

// entity is one of the dataset's entities, with its degree.
type entity struct {
	id     string
	degree int64
}

// draw draws n joined pairs as bench/draw.go does (joinedPair).
func draw(ctx context.Context, driver neo4j.DriverWithContext, ds string, n int, seed uint64) ([]pair, error) {
	res, err := neo4j.ExecuteQuery(ctx, driver, `MATCH (e:Entity {dataset: $ds}) RETURN e.id AS id, coalesce(e.degree, 0) AS degree ORDER BY e.id`,
		map[string]any{"ds": ds}, neo4j.EagerResultTransformer)
	if err != nil {
		return nil, err
	}
	entities := make([]entity, len(res.Records))
	cumulative := make([]int64, len(res.Records))
	var sum int64
	for i, rec := range res.Records {
		id, _, err1 := neo4j.GetRecordValue[string](rec, "id")
		degree, _, err2 := neo4j.GetRecordValue[int64](rec, "degree")
		if err := errors.Join(err1, err2); err != nil {
			return nil, err
		}
		entities[i] = entity{id, degree}
		sum += max(degree, 1)
		cumulative[i] = sum
	}
	if len(entities) < 2 {
		return nil, fmt.Errorf("dataset %s has %d entities", ds, len(entities))
	}
	byID := func(id string) (entity, bool) {
		i, ok := slices.BinarySearchFunc(entities, id, func(e entity, id string) int { return strings.Compare(e.id, id) })
		if !ok {
			return entity{}, false
		}
		return entities[i], true
	}
	neighbor := func(id string, k int) (string, bool) {
		res, err := neo4j.ExecuteQuery(ctx, driver, `MATCH (:Entity {id: $id})--(n:Entity) WITH DISTINCT n ORDER BY n.id SKIP $k LIMIT 1 RETURN n.id AS id`,
			map[string]any{"id": id, "k": k}, neo4j.EagerResultTransformer)
		if err != nil || len(res.Records) == 0 {
			return "", false
		}
		next, _, err := neo4j.GetRecordValue[string](res.Records[0], "id")
		return next, err == nil
	}
	rng := rand.New(rand.NewPCG(seed, 5))
	var pairs []pair
	for len(pairs) < n {
		found := false
		for range 100 {
			x := rng.Int64N(sum)
			i, _ := slices.BinarySearch(cumulative, x+1)
			start := entities[i]
			at, ok := start, true
			for range 1 + rng.IntN(4) {
				if at.degree < 1 {
					ok = false
					break
				}
				next, found := neighbor(at.id, rng.IntN(int(at.degree)))
				if !found {
					ok = false
					break
				}
				if at, found = byID(next); !found {
					ok = false
					break
				}
			}
			if ok && at.id != start.id {
				pairs = append(pairs, pair{start.id, at.id})
				found = true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("no joined pair found in %s", ds)
		}
	}
	return pairs, nil
}
