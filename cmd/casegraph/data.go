package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/mattn/go-isatty"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/dataset"
)

func runImport(ctx context.Context, args []string, e env) error {
	var batchSize, writers int
	var format, into, prefix string
	flags := func(fs *flag.FlagSet) {
		fs.IntVar(&batchSize, "batch-size", 5000, "rows written in one transaction")
		fs.IntVar(&writers, "writers", 2, "transactions written at once")
		fs.StringVar(&format, "format", "ndjson", "ndjson (Casegraph's data file) or ftm (FollowTheMoney entities)")
		fs.StringVar(&into, "dataset", "", "ftm: the dataset that receives the file (required)")
		fs.StringVar(&prefix, "id-prefix", "", "ftm: put before every id read (ids are unique across datasets)")
	}
	return withStore(ctx, "import", args, e, flags, func(ctx context.Context, store *cypher.Store, rest []string) error {
		if len(rest) != 1 {
			return usagef("import: name the file to import (or - for standard input)")
		}
		if batchSize < 1 || batchSize > 100000 {
			return usagef("import: batch-size must be between 1 and 100000")
		}
		if writers < 1 || writers > 16 {
			return usagef("import: writers must be between 1 and 16")
		}
		if format != "ndjson" && format != "ftm" {
			return usagef("import: format must be ndjson or ftm, not %q", format)
		}
		if format == "ftm" && into == "" {
			return usagef("import: --format ftm needs --dataset, the dataset that receives the file")
		}
		in, closeIn, err := openInput(rest[0])
		if err != nil {
			return err
		}
		defer closeIn()
		start := time.Now()
		var b dataset.Batch
		if format == "ftm" {
			var notes []dataset.FtMNote
			b, notes, err = dataset.ReadFtM(in, dataset.FtMReadOptions{Dataset: into, IDPrefix: prefix})
			// What FtM holds that Casegraph has no place for is said, line by line.
			for _, n := range notes {
				fmt.Fprintf(e.stderr, "ftm: %s\n", n)
			}
		} else if regularFile(rest[0]) {
			// Its entities and relations are left in the file, and read
			// again a chunk at a time to be checked and written: a file
			// of millions is imported in the memory of their ids.
			b, err = dataset.ReadFile(rest[0])
		} else {
			b, err = dataset.Read(in)
		}
		var bad *dataset.LinesError
		if err != nil && !errors.As(err, &bad) {
			return describe(err)
		}
		// Bad lines are reported with what the graph check finds in the
		// others, in one list; Import writes nothing while any is bad.
		// The operator's import passes the write gate as any import does,
		// with the operator's rights (withStore): it may write every
		// dataset, set and lift protections and move entities between
		// datasets, but not take a reserved id. Say so: an import over
		// HTTP has only its caller's.
		fmt.Fprintf(e.stderr, "%s so far, in %s; checking against the graph with the operator's rights (every dataset, protected people included)\n",
			dataset.Summarize(b, err), time.Since(start).Round(time.Millisecond))
		bar := newProgress(e.stderr)
		st, err := dataset.Import(ctx, b, store, dataset.Options{BatchSize: batchSize, Writers: writers, Progress: bar.update})
		bar.done()
		if errors.As(err, &bad) {
			return reportLines(e.stderr, b, bad)
		}
		if err != nil {
			return describe(err)
		}
		fmt.Fprintln(e.stderr, dataset.Summarize(b, nil))
		if err := dataset.RecordImport(ctx, store, b, st); err != nil {
			return describe(err)
		}
		printStats(e.stdout, "imported", st)
		return nil
	})
}

func runExport(ctx context.Context, args []string, e env) error {
	var datasets, format string
	flags := func(fs *flag.FlagSet) {
		fs.StringVar(&datasets, "dataset", "", "comma-separated datasets to export (default: all)")
		fs.StringVar(&format, "format", "ndjson", "ndjson (Casegraph's data file) or ftm (FollowTheMoney entities)")
	}
	return withStore(ctx, "export", args, e, flags, func(ctx context.Context, store *cypher.Store, _ []string) error {
		if format != "ndjson" && format != "ftm" {
			return usagef("export: format must be ndjson or ftm, not %q", format)
		}
		var ds []string
		if datasets != "" {
			for _, d := range strings.Split(datasets, ",") {
				if err := casegraph.ValidateID("dataset", d); err != nil {
					return usageError{err}
				}
				ds = append(ds, d)
			}
			missing, err := store.MissingDatasets(ctx, ds)
			if err != nil {
				return describe(err)
			}
			if len(missing) > 0 {
				noun := "dataset"
				if len(missing) > 1 {
					noun = "datasets"
				}
				return fmt.Errorf("export: no %s %s in the graph (nothing belongs to it); nothing was exported", noun, quoteList(missing))
			}
		}
		w := bufio.NewWriterSize(e.stdout, 1<<16)
		if format == "ftm" {
			ftm := dataset.NewFtMWriter(w)
			if err := store.Export(ctx, ds, cypher.Exporter{Source: ftm.Source, Entity: ftm.Entity, Relation: ftm.Relation}); err != nil {
				return describe(err)
			}
			fmt.Fprint(e.stderr, ftm.Report)
			return w.Flush()
		}
		if err := store.Export(ctx, ds, dataset.NewEncoder(w).Sink()); err != nil {
			return describe(err)
		}
		return w.Flush()
	})
}

func runGen(_ context.Context, args []string, e env) error {
	var opts dataset.GenOptions
	var out string
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	fs.IntVar(&opts.Entities, "entities", 10000, "how many entities")
	fs.IntVar(&opts.Relations, "relations", 50000, "how many relations")
	fs.Uint64Var(&opts.Seed, "seed", 1, "random seed: the same seed gives the same graph")
	fs.StringVar(&opts.Dataset, "dataset", "synthetic", "dataset name (and id prefix)")
	fs.StringVar(&out, "out", "-", "output file (- for standard output)")
	fs.IntVar(&opts.PlantDuplicates, "plant-duplicates", 0, "plant this many duplicates of people and organizations (for measuring duplicateCandidates; names people from a wider space)")
	var force dataset.ForceOptions
	fs.IntVar(&force.Units, "force-units", 0, "generate a fictional security force of this many units instead (dataset "+dataset.ForceDataset+" unless --dataset says otherwise; --entities and --relations do not apply)")
	fs.IntVar(&force.Posts, "force-posts", 0, "the force's posts (COMMANDS tenures; default 5 a unit)")
	fs.IntVar(&force.Incidents, "force-incidents", 0, "the force's incidents (default one for every 20 units)")
	if err := parseFlags(fs, args, e, summaryOf("gen"), 0); err != nil {
		return err
	}
	if force.Units > 0 {
		return genForce(fs, force, opts.Seed, opts.Dataset, out, e)
	}
	if opts.Entities < 10 || opts.Entities > 10_000_000 || opts.Relations < 0 || opts.Relations > 50_000_000 {
		return usagef("gen: entities must be 10 to 10000000 and relations 0 to 50000000")
	}
	if opts.PlantDuplicates < 0 || opts.PlantDuplicates > opts.Entities/4 {
		return usagef("gen: plant-duplicates must be 0 to a quarter of the entities")
	}
	if opts.Relations > opts.Entities*(opts.Entities-1)/4 {
		return usagef("gen: %d relations is too many for %d entities", opts.Relations, opts.Entities)
	}
	if err := casegraph.ValidateID("dataset", opts.Dataset); err != nil {
		return usageError{err}
	}
	return writeGenerated(out, e, func(emit func(dataset.Record) error) error { return dataset.Generate(opts, emit) })
}

// genForce generates a fictional force (gen --force-units).
func genForce(fs *flag.FlagSet, opts dataset.ForceOptions, seed uint64, ds, out string, e env) error {
	opts.Seed, opts.Dataset = seed, dataset.ForceDataset
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "dataset" {
			opts.Dataset = ds
		}
	})
	if opts.Posts == 0 {
		opts.Posts = 5 * opts.Units
	}
	if opts.Incidents == 0 {
		opts.Incidents = max(1, opts.Units/20)
	}
	if opts.Units < 10 || opts.Units > 1_000_000 || opts.Posts < opts.Units || opts.Posts > 10_000_000 || opts.Incidents < 0 || opts.Incidents > 1_000_000 {
		return usagef("gen: force-units must be 10 to 1000000, force-posts at least force-units and at most 10000000, force-incidents 0 to 1000000")
	}
	if err := casegraph.ValidateID("dataset", opts.Dataset); err != nil {
		return usageError{err}
	}
	return writeGenerated(out, e, func(emit func(dataset.Record) error) error { return dataset.GenerateForce(opts, emit) })
}

// writeGenerated writes what gen generates to out (- for standard output).
func writeGenerated(out string, e env, gen func(emit func(dataset.Record) error) error) error {
	w := e.stdout
	if out != "-" {
		f, err := os.Create(out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	enc := dataset.NewEncoder(bw)
	if err := gen(enc.Encode); err != nil {
		return err
	}
	return bw.Flush()
}

func openInput(name string) (io.Reader, func(), error) {
	if name == "-" {
		return os.Stdin, func() {}, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	return bufio.NewReaderSize(f, 1<<20), func() { f.Close() }, nil
}

// regularFile says whether name (not - for standard input) is a regular
// file, one that can be read again.
func regularFile(name string) bool {
	if name == "-" {
		return false
	}
	info, err := os.Stat(name)
	return err == nil && info.Mode().IsRegular()
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

// printStats says what an import wrote, telling new or changed rows from
// those the graph already held as they are.
func printStats(w io.Writer, what string, st dataset.Stats) {
	rows := st.Sources + st.Entities + st.Relations
	changed := st.SourcesChanged + st.EntitiesChanged + st.RelationsChanged
	fmt.Fprintf(w, "%s %d sources, %d entities, %d relations in %d batches, %s (%.0f rows/s)\n",
		what, st.Sources, st.Entities, st.Relations, st.Batches, st.Took.Round(time.Millisecond), float64(rows)/max(st.Took.Seconds(), 1e-9))
	if rows > 0 {
		fmt.Fprintf(w, "  took:           %s checking, %s entities (%s), %s relations (%s)\n",
			st.CheckTook.Round(time.Millisecond), st.EntitiesTook.Round(time.Millisecond), perSecond(st.Entities, st.EntitiesTook),
			st.RelationsTook.Round(time.Millisecond), perSecond(st.Relations, st.RelationsTook))
	}
	fmt.Fprintf(w, "  new or changed: %d sources, %d entities, %d relations\n", st.SourcesChanged, st.EntitiesChanged, st.RelationsChanged)
	fmt.Fprintf(w, "  unchanged:      %d sources, %d entities, %d relations\n",
		st.Sources-st.SourcesChanged, st.Entities-st.EntitiesChanged, st.Relations-st.RelationsChanged)
	if rows > 0 && changed == 0 {
		fmt.Fprintln(w, "  nothing changed: the graph already held every row as it is in the file")
	}
}

// perSecond is a rate for the took line, or "-" when nothing was written.
func perSecond(n int, took time.Duration) string {
	if n == 0 || took <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f/s", float64(n)/took.Seconds())
}

// reportLines prints a refused file's problems, one a line (the first
// 100, then how many more), and its summary, and returns the error that
// makes the exit non-zero.
func reportLines(w io.Writer, b dataset.Batch, bad *dataset.LinesError) error {
	list, omitted := bad.Problems()
	for _, p := range list {
		fmt.Fprintln(w, p)
	}
	if omitted > 0 {
		fmt.Fprintf(w, "and %d more errors not shown\n", omitted)
	}
	return fmt.Errorf("%s; nothing was imported", dataset.Summarize(b, bad))
}

// progress draws a one-line progress bar on a terminal, and nothing
// elsewhere (logs and CI output stay clean).
type progress struct {
	w     io.Writer
	on    bool
	start time.Time
	last  time.Time
}

func newProgress(w io.Writer) *progress {
	f, ok := w.(*os.File)
	return &progress{w: w, on: ok && isatty.IsTerminal(f.Fd()), start: time.Now()}
}

func (p *progress) update(done, total int) {
	if !p.on || (time.Since(p.last) < 100*time.Millisecond && done < total) {
		return
	}
	p.last = time.Now()
	const width = 30
	filled := width * done / max(total, 1)
	rate := float64(done) / time.Since(p.start).Seconds()
	fmt.Fprintf(p.w, "\r[%s%s] %3d%% %d/%d rows, %.0f rows/s ", strings.Repeat("#", filled), strings.Repeat(".", width-filled),
		100*done/max(total, 1), done, total, rate)
}

func (p *progress) done() {
	if p.on {
		fmt.Fprintln(p.w)
	}
}
