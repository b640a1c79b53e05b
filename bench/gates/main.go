// Command gates measures what the access gates cost (issue 23, "Access by
// construction"): two Casegraph servers over the same Neo4j and the same
// generated graph, one built before the gates (base) and one after (new),
// are asked the same requests in short interleaved rounds, by two callers
// each (a cleared admin, and an uncleared reader of the one dataset: the
// caller for whom the gates do the most work), and it prints a Markdown
// table of p50 and p99 latency, throughput, errors and the ratios new/base.
//
// It speaks only HTTP to the servers, so it builds against any commit's
// API; its inputs come from the generated graph's NDJSON file (casegraph
// gen), not from the database. bench/gates/run.sh builds both binaries,
// makes the keys, starts the servers and runs it; bench/README.md ("The
// gates' cost") says how to set it up and read it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "gates: %v\n", err)
		var uerr usageError
		if errors.As(err, &uerr) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

type usageError struct{ error }

type config struct {
	BaseURL, NewURL string
	Keys            [nServers][nCallers]string
	Data            string
	Dataset         string
	Seed            uint64
	Inputs          int
	Concurrency     []int
	Paired          []int
	Workloads       []string
	Callers         []int
	Rounds          int
	Slice           time.Duration
	Warmup          time.Duration
	Checks          int
	ExportRuns      int
	ExportFormat    string
	ExportDatasets  []string
	// ExportReaderKeys are readers' keys of the export datasets other
	// than Dataset, by server and dataset.
	ExportReaderKeys [nServers]map[string]string
	Timeout          time.Duration
	ExportTimeout    time.Duration
	Hubs             int
	HubShare         float64
	Commits          [nServers]string
}

// The environment variables that hold the four API keys.
var keyEnv = [nServers][nCallers]string{
	{"GATES_BASE_ADMIN_KEY", "GATES_BASE_READER_KEY"},
	{"GATES_NEW_ADMIN_KEY", "GATES_NEW_READER_KEY"},
}

func parseConfig(args []string, getenv func(string) string, stderr io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("gates", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.BaseURL, "base", "http://127.0.0.1:8091", "the base server (before the gates)")
	fs.StringVar(&c.NewURL, "new", "http://127.0.0.1:8092", "the new server (with the gates)")
	fs.StringVar(&c.Data, "data", "/tmp/bench-gates.ndjson", "the generated graph's NDJSON file (casegraph gen --out), the inputs' source")
	fs.StringVar(&c.Dataset, "dataset", "bench-gates", "the dataset the file was imported as")
	fs.Uint64Var(&c.Seed, "seed", 7, "seed of the inputs")
	fs.IntVar(&c.Inputs, "inputs", 2000, "inputs drawn per workload (W5: a quarter of it)")
	conc := fs.String("c", "8,1", "concurrency levels, comma-separated")
	paired := fs.String("paired", "1", "concurrency levels run paired (each input asked of base and new one after the other), comma-separated; empty: none")
	wl := fs.String("w", "W1,W3,W3X,W4,W5,EXPORT", "workloads, comma-separated (W1 W2 W3 W3X W4 W5 EXPORT)")
	callers := fs.String("callers", "admin,reader", "callers, comma-separated (admin: cleared admin; reader: uncleared reader of -dataset)")
	fs.IntVar(&c.Rounds, "rounds", 6, "rounds a cell: in each, every server and caller gets one slice, the order alternating")
	fs.DurationVar(&c.Slice, "slice", 8*time.Second, "length of one slice")
	fs.DurationVar(&c.Warmup, "warmup", 2*time.Second, "unmeasured warm-up per server and caller in each cell")
	fs.IntVar(&c.Checks, "check", 20, "inputs per workload and caller whose answers are compared, base against new, before timing")
	fs.IntVar(&c.ExportRuns, "export-runs", 3, "exports per dataset, server and caller (the first ones' bodies are compared)")
	exportDatasets := fs.String("export-datasets", "", "datasets EXPORT exports, comma-separated (default: -dataset); the reader's key must grant them")
	fs.StringVar(&c.ExportFormat, "export-format", "ndjson", "format of the export (ndjson or ftm)")
	fs.DurationVar(&c.Timeout, "timeout", 20*time.Second, "deadline of one GraphQL request")
	fs.DurationVar(&c.ExportTimeout, "export-timeout", 10*time.Minute, "deadline of one export")
	fs.IntVar(&c.Hubs, "hubs", 50, "the most connected entities, from which W1 and W3X draw a share of their ids")
	fs.Float64Var(&c.HubShare, "hub-share", 0.1, "share of W1 and W3X inputs that are hubs")
	fs.StringVar(&c.Commits[serverBase], "base-commit", "", "the base server's commit, for the report")
	fs.StringVar(&c.Commits[serverNew], "new-commit", "", "the new server's commit, for the report")
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
	for _, s := range strings.Split(*paired, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return c, usageError{fmt.Errorf("-paired: %q is not a concurrency", s)}
		}
		c.Paired = append(c.Paired, n)
	}
	for _, w := range strings.Split(*wl, ",") {
		w = strings.ToUpper(strings.TrimSpace(w))
		if _, ok := workloadByKey(w); !ok && w != exportKey {
			return c, usageError{fmt.Errorf("-w: no workload %q", w)}
		}
		c.Workloads = append(c.Workloads, w)
	}
	for _, s := range strings.Split(*callers, ",") {
		i := callerIndex(strings.TrimSpace(s))
		if i < 0 {
			return c, usageError{fmt.Errorf("-callers: no caller %q (admin, reader)", s)}
		}
		c.Callers = append(c.Callers, i)
	}
	if c.Rounds < 1 || c.Slice <= 0 || c.Inputs < 10 || c.ExportRuns < 0 {
		return c, usageError{errors.New("-rounds at least 1, -slice positive, -inputs at least 10, -export-runs not negative")}
	}
	c.ExportDatasets = []string{c.Dataset}
	if *exportDatasets != "" {
		c.ExportDatasets = nil
		for _, ds := range strings.Split(*exportDatasets, ",") {
			c.ExportDatasets = append(c.ExportDatasets, strings.TrimSpace(ds))
		}
	}
	if c.ExportFormat != "ndjson" && c.ExportFormat != "ftm" {
		return c, usageError{fmt.Errorf("-export-format %q: ndjson or ftm", c.ExportFormat)}
	}
	for s, name := range []string{"GATES_BASE_EXPORT_READER_KEYS", "GATES_NEW_EXPORT_READER_KEYS"} {
		c.ExportReaderKeys[s] = map[string]string{}
		for _, kv := range strings.Fields(getenv(name)) {
			ds, token, ok := strings.Cut(kv, "=")
			if !ok {
				return c, usageError{fmt.Errorf("%s: %q is not dataset=token", name, kv)}
			}
			c.ExportReaderKeys[s][ds] = token
		}
		for _, ds := range c.ExportDatasets {
			if _, ok := c.ExportReaderKeys[s][ds]; !ok && ds != c.Dataset && slices.Contains(c.Callers, callerReader) {
				return c, usageError{fmt.Errorf("%s holds no reader key of %s, an export dataset", name, ds)}
			}
		}
	}
	for s := range nServers {
		for _, k := range c.Callers {
			c.Keys[s][k] = getenv(keyEnv[s][k])
			if c.Keys[s][k] == "" {
				return c, usageError{fmt.Errorf("%s is not set (an API key: bench/gates/run.sh makes them)", keyEnv[s][k])}
			}
		}
	}
	return c, nil
}

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := parseConfig(args, getenv, stderr)
	if err != nil {
		return err
	}
	logf := func(format string, a ...any) { fmt.Fprintf(stderr, "gates: "+format+"\n", a...) }

	g, err := readGraph(cfg.Data, cfg.Dataset)
	if err != nil {
		return err
	}
	logf("%s: %d entities, %d relations of dataset %s", cfg.Data, len(g.ids), g.relations, cfg.Dataset)

	h := newHarness(cfg, logf)
	for s := range nServers {
		for _, k := range cfg.Callers {
			if err := h.clients[s][k].waitReady(ctx, time.Minute); err != nil {
				return err
			}
		}
	}

	rep := &report{cfg: cfg, graph: g}
	err = h.measure(ctx, g, rep)
	// An interrupted run still prints what it measured.
	rep.write(stdout)
	return err
}

func (h *harness) measure(ctx context.Context, g *graph, rep *report) error {
	cfg := h.cfg
	for _, key := range cfg.Workloads {
		if err := ctx.Err(); err != nil {
			return err
		}
		if key == exportKey {
			for _, ds := range cfg.ExportDatasets {
				for _, k := range cfg.Callers {
					res, err := h.export(ctx, ds, k)
					if err != nil {
						return err
					}
					rep.exports = append(rep.exports, res)
				}
			}
			continue
		}
		w, _ := workloadByKey(key)
		p := h.prepare(w, g)
		for _, k := range cfg.Callers {
			rep.checks = append(rep.checks, h.check(ctx, p, k))
		}
		for _, c := range cfg.Concurrency {
			res, err := h.cell(ctx, p, c)
			if err != nil {
				return err
			}
			rep.cells = append(rep.cells, res)
		}
	}
	return nil
}
