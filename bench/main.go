// Command bench is the peer comparison of Casegraph: one load generator that
// runs five read workloads against three systems, taking turns in small
// slices so that all three share the machine's noise, and prints a table of
// throughput, latency, errors, ratios and Casegraph's Neo4j round trips per
// request.
//
// The systems:
//
//	casegraph  Casegraph over HTTP (POST /graphql)
//	peer       the Neo4j GraphQL Library 7 on graphql-yoga (bench/peer)
//	raw        the same work in this process through Casegraph's own store
//	           (cypher.Store), without HTTP and GraphQL
//
// bench/README.md says how to set it up, run it and read the table;
// bench/run.sh starts the two servers and runs it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/bench/internal/benchdb"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		var uerr usageError
		if errors.As(err, &uerr) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// usageError is a bad flag or value: exit code 2.
type usageError struct{ error }

// config is what the command line and the environment set.
type config struct {
	CasegraphURL string
	PeerURL      string
	MetricsURL   string
	Neo4j        benchdb.Flags // for the raw system and the inputs
	Database     string
	Dataset      string
	Concurrency  []int
	Duration     time.Duration // per system per cell
	Requests     int           // per system per cell; overrides Duration when > 0
	Turns        int           // slices per system per cell
	Warmup       time.Duration // per system per cell, not measured
	Workloads    []string
	Seed         uint64
	Inputs       int      // inputs drawn per workload
	Checks       int      // inputs per workload whose answers are compared
	KeepGoing    bool     // time a workload whose answers disagree (else the run stops)
	Draw         string   // how entities are drawn: drawByDegree or drawUniform
	Anonymous    []string // the datasets Casegraph's server lets anonymous callers read (the raw system's rights)
	RoundTrips   int      // sequential requests per workload for round trips at c=1
	Wait         time.Duration
	Timeout      time.Duration // of one request
	// The processes whose CPU a request costs (cpu.go): 0 is not measured.
	CasegraphPID, PeerPID, Neo4jPID int
}

func parseConfig(args []string, getenv func(string) string, stderr io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	env := func(name, def string) string {
		if v := getenv(name); v != "" {
			return v
		}
		return def
	}
	conc := fs.String("c", "8,32", "concurrency levels, comma-separated")
	workloads := fs.String("w", "W1,W2,W3,W4,W5", "workloads to run, comma-separated")
	fs.StringVar(&c.CasegraphURL, "casegraph", "http://127.0.0.1:8080/graphql", "Casegraph's GraphQL endpoint")
	fs.StringVar(&c.PeerURL, "peer", "http://127.0.0.1:4000/graphql", "the peer's GraphQL endpoint")
	fs.StringVar(&c.MetricsURL, "metrics", "", "Casegraph's Prometheus endpoint (default: /metrics beside -casegraph)")
	c.Neo4j.Register(fs, "neo4j-uri", getenv)
	fs.StringVar(&c.Database, "neo4j-database", env("NEO4J_DATABASE", "neo4j"), "Neo4j database (NEO4J_DATABASE)")
	fs.StringVar(&c.Dataset, "dataset", "bench-100k", "the generated dataset the inputs are drawn from")
	fs.DurationVar(&c.Duration, "d", 15*time.Second, "measured time per system per cell")
	fs.IntVar(&c.Requests, "n", 0, "requests per system per cell (overrides -d when set)")
	fs.IntVar(&c.Turns, "turns", 10, "slices per system per cell: the systems take turns this many times")
	fs.DurationVar(&c.Warmup, "warmup", time.Second, "unmeasured warm-up per system per cell")
	fs.Uint64Var(&c.Seed, "seed", 7, "seed of the inputs")
	anonymous := fs.String("anonymous", env("BENCH_ANONYMOUS", casegraph.AllDatasets), "the datasets Casegraph's server lets anonymous callers read, comma-separated (bench/run.sh starts it with BENCH_ANONYMOUS, default every one): the raw system reads with the same rights (BENCH_ANONYMOUS)")
	fs.StringVar(&c.Draw, "draw", drawByDegree, "how W1-W3's entities and W5's starts are drawn: degree (a random end of a random relation: hubs as often as the relations they hold) or uniform")
	fs.IntVar(&c.Inputs, "inputs", 2000, "inputs drawn per workload")
	fs.IntVar(&c.Checks, "check", 5, "inputs per workload whose answers are compared across systems before timing (0: none)")
	fs.BoolVar(&c.KeepGoing, "keep-going", false, "time a workload even when the systems' answers disagree (by default the run stops there: a speed of wrong answers means nothing)")
	fs.IntVar(&c.RoundTrips, "rt", 20, "sequential requests per workload that measure round trips at c=1 (0: none)")
	fs.DurationVar(&c.Wait, "wait", 90*time.Second, "how long to wait for the servers to answer")
	fs.DurationVar(&c.Timeout, "timeout", 15*time.Second, "deadline of one request (Casegraph's default request timeout)")
	fs.IntVar(&c.CasegraphPID, "casegraph-pid", 0, "Casegraph server's process id, to read its CPU a request (0: not measured; bench/run.sh gives it)")
	fs.IntVar(&c.PeerPID, "peer-pid", 0, "the peer server's process id, likewise")
	fs.IntVar(&c.Neo4jPID, "neo4j-pid", 0, "Neo4j's process id, likewise (on this machine only)")
	if err := fs.Parse(args); err != nil {
		return c, usageError{err}
	}
	if fs.NArg() > 0 {
		return c, usageError{fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	}
	for _, s := range strings.Split(*conc, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return c, usageError{fmt.Errorf("-c: %q is not a concurrency", s)}
		}
		c.Concurrency = append(c.Concurrency, n)
	}
	for _, w := range strings.Split(*workloads, ",") {
		w = strings.ToUpper(strings.TrimSpace(w))
		if _, ok := workloadByKey(w); !ok {
			return c, usageError{fmt.Errorf("-w: no workload %q (W1 to W5)", w)}
		}
		c.Workloads = append(c.Workloads, w)
	}
	c.Anonymous = strings.Split(*anonymous, ",")
	if c.Draw != drawByDegree && c.Draw != drawUniform {
		return c, usageError{fmt.Errorf("-draw: %q is neither %s nor %s", c.Draw, drawByDegree, drawUniform)}
	}
	if c.CasegraphPID < 0 || c.PeerPID < 0 || c.Neo4jPID < 0 {
		return c, usageError{errors.New("-casegraph-pid, -peer-pid and -neo4j-pid must not be negative")}
	}
	if c.Turns < 1 || c.Inputs < 10 || c.Duration <= 0 || c.Requests < 0 {
		return c, usageError{errors.New("-turns must be at least 1, -inputs at least 10, -d positive, -n not negative")}
	}
	if c.Requests > 0 && c.Requests < c.Turns {
		return c, usageError{fmt.Errorf("-n %d is fewer than -turns %d", c.Requests, c.Turns)}
	}
	if c.MetricsURL == "" {
		u := strings.TrimSuffix(c.CasegraphURL, "/graphql")
		c.MetricsURL = u + "/metrics"
	}
	return c, nil
}

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := parseConfig(args, getenv, stderr)
	if err != nil {
		return err
	}
	logf := func(format string, a ...any) { fmt.Fprintf(stderr, format+"\n", a...) }

	raw, err := openRaw(ctx, cfg)
	if err != nil {
		return err
	}
	defer raw.Close()

	cg := newGraphQLClient("casegraph", cfg.CasegraphURL, cfg.Timeout)
	peer := newGraphQLClient("peer", cfg.PeerURL, cfg.Timeout)
	for _, c := range []*graphQLClient{cg, peer} {
		if err := c.waitReady(ctx, cfg.Wait); err != nil {
			return err
		}
	}
	metrics := &metricsClient{url: cfg.MetricsURL, http: cg.http}
	if _, err := metrics.roundTrips(ctx); err != nil {
		return fmt.Errorf("casegraph metrics: %w", err)
	}

	logf("drawing inputs from dataset %s (seed %d)", cfg.Dataset, cfg.Seed)
	sample, err := drawSample(ctx, raw, cfg.Dataset)
	if err != nil {
		return err
	}
	logf("%d entities in %s", len(sample), cfg.Dataset)
	var walkFailed error // the first failure of W5's walk, if any
	pop := newPopulation(sample, cfg.Draw, raw.neighborOf(ctx, &walkFailed))

	b := &bench{cfg: cfg, raw: raw, cg: cg, peer: peer, metrics: metrics, logf: logf,
		cpu: &cpuMeter{servers: [nSystems]int{sysCasegraph: cfg.CasegraphPID, sysPeer: cfg.PeerPID}, neo4j: cfg.Neo4jPID, read: processCPU}}
	var results []cellResult
	var trips []roundTripResult
	var checks []checkResult
	for _, key := range cfg.Workloads {
		w, _ := workloadByKey(key)
		inputs := w.inputs(newRand(cfg.Seed, key), pop, cfg.Inputs)
		if len(inputs) == 0 {
			if walkFailed != nil {
				return fmt.Errorf("%s: no inputs could be drawn from %s: %w", w.Key, cfg.Dataset, walkFailed)
			}
			return fmt.Errorf("%s: no inputs could be drawn from %s (W5: no entity has a relation)", w.Key, cfg.Dataset)
		}
		prepared, err := b.prepare(w, inputs)
		if err != nil {
			return err
		}
		if cfg.Checks > 0 {
			checked := b.check(ctx, prepared, min(cfg.Checks, len(inputs)))
			checks = append(checks, checked...)
			if bad := disagreements(checked); bad > 0 && !cfg.KeepGoing {
				report(stdout, cfg, checks, trips, results)
				return fmt.Errorf("%s: %d of %d inputs answered differently (see ANSWER MISMATCHES); the run stops (-keep-going times it anyway)", w.Key, bad, len(checked))
			}
		}
		if cfg.RoundTrips > 0 {
			rt, err := b.roundTripsAtOne(ctx, prepared, cfg.RoundTrips)
			if err != nil {
				return err
			}
			trips = append(trips, rt)
		}
		for _, c := range cfg.Concurrency {
			if err := ctx.Err(); err != nil {
				return err
			}
			res, err := b.cell(ctx, prepared, c)
			if err != nil {
				return err
			}
			logf("%s c=%d: %s", w.Key, c, res.summary())
			results = append(results, res)
		}
	}
	report(stdout, cfg, checks, trips, results)
	return nil
}
