package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
)

type report struct {
	cfg     config
	graph   *graph
	checks  []checkResult
	cells   []cellResult
	exports []exportResult
}

func (r *report) write(w io.Writer) {
	cfg := r.cfg
	commit := func(s int) string { return cmp.Or(cfg.Commits[s], "?") }
	fmt.Fprintf(w, "\n# The gates' cost: base %s against new %s\n\n", commit(serverBase), commit(serverNew))
	fmt.Fprintf(w, "%s. Dataset %s (%d entities, %d relations), inputs seed %d. Each cell: a %s warm-up per arm, then %d rounds in which every arm (server x caller) runs one %s slice, the order alternating. Callers: admin = %s, reader = %s.\n",
		time.Now().UTC().Format("2006-01-02 15:04 MST"), cfg.Dataset, len(r.graph.ids), r.graph.relations, cfg.Seed,
		cfg.Warmup, cfg.Rounds, cfg.Slice, callerTitles[callerAdmin], callerTitles[callerReader])
	fmt.Fprintf(w, "p50/p99 in ms; ratio = new/base (above 1: new is slower; for req/s, below 1); rounds = the per-round p50 ratios' median [min, max]; paired cells (c=%v) ask each input of base and new one after the other, and give the median of the per-input ratios; rt = Neo4j statements per request.\n", cfg.Paired)

	if len(r.checks) > 0 {
		fmt.Fprintf(w, "\n## Answers, base against new (the first %d inputs)\n\n| workload | caller | verdicts |\n|---|---|---|\n", cfg.Checks)
		for _, c := range r.checks {
			fmt.Fprintf(w, "| %s | %s | %s |\n", c.w.Key, callerNames[c.caller], tally(c.verdicts))
		}
		var loud []string
		for _, c := range r.checks {
			for _, d := range c.details {
				loud = append(loud, "- "+callerNames[c.caller]+": "+d)
			}
		}
		if len(loud) > 0 {
			fmt.Fprintf(w, "\nDifferences and errors:\n\n%s\n", strings.Join(loud, "\n"))
		}
	}

	if len(r.cells) > 0 {
		fmt.Fprintf(w, "\n## Latency and throughput\n\n")
		fmt.Fprintf(w, "| workload | caller | c | base p50 | new p50 | ratio | rounds (paired: per input) | base p99 | new p99 | ratio | base req/s | new req/s | ratio | err base/new | rt base/new |\n")
		fmt.Fprintf(w, "|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
		for _, c := range r.cells {
			for _, k := range cfg.Callers {
				b, n := &c.arms[serverBase][k], &c.arms[serverNew][k]
				spread := roundRatios(b.RoundP50, n.RoundP50)
				conc := strconv.Itoa(c.concurrency)
				if c.paired {
					spread = medianRatio(c.pairRatios[k])
					conc += " paired"
				}
				fmt.Fprintf(w, "| %s %s | %s | %s | %s | %s | **%s** | %s | %s | %s | %s | %.1f | %.1f | %s | %d/%d | %.2f/%.2f |\n",
					c.w.Key, c.w.Title, callerNames[k], conc,
					ms(b.percentile(.5)), ms(n.percentile(.5)), ratio(float64(n.percentile(.5)), float64(b.percentile(.5))),
					spread,
					ms(b.percentile(.99)), ms(n.percentile(.99)), ratio(float64(n.percentile(.99)), float64(b.percentile(.99))),
					b.throughput(), n.throughput(), ratio(n.throughput(), b.throughput()),
					b.Errors, n.Errors, b.tripsPerRequest(), n.tripsPerRequest())
			}
		}
	}

	if len(r.exports) > 0 {
		fmt.Fprintf(w, "\n## Export, GET /datasets/{name}/export?format=%s (time to the whole body, %d runs each, taking turns)\n\n", cfg.ExportFormat, cfg.ExportRuns)
		fmt.Fprintf(w, "| dataset | caller | base median s | new median s | ratio | base runs s | new runs s | MB base/new | lines base/new | same body | err base/new |\n")
		fmt.Fprintf(w, "|---|---|---:|---:|---:|---|---|---:|---:|---|---:|\n")
		for _, e := range r.exports {
			mb, mn := median(e.times[serverBase]), median(e.times[serverNew])
			same := "yes"
			switch {
			case !e.compared:
				same = "not compared (a first run failed)"
			case !e.same:
				same = fmt.Sprintf("no: %d lines only in base, %d only in new", e.onlyBase, e.onlyNew)
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | **%s** | %s | %s | %.1f/%.1f | %d/%d | %s | %d/%d |\n", e.dataset, callerNames[e.caller],
				secs(mb), secs(mn), ratio(float64(mn), float64(mb)), runs(e.times[serverBase]), runs(e.times[serverNew]),
				float64(e.bytes[serverBase])/1e6, float64(e.bytes[serverNew])/1e6, e.lines[serverBase], e.lines[serverNew], same,
				e.errors[serverBase], e.errors[serverNew])
		}
		for _, e := range r.exports {
			if e.compared && !e.same {
				fmt.Fprintf(w, "\n%s's export of %s, lines only in base: %q; only in new: %q\n", callerNames[e.caller], e.dataset, e.sampleBase, e.sampleN)
			}
			for s := range nServers {
				if e.first[s] != "" {
					fmt.Fprintf(w, "\n%s's export of %s on %s failed %d times, the first: %s\n", callerNames[e.caller], e.dataset, serverNames[s], e.errors[s], e.first[s])
				}
			}
			if len(e.cutBytes[serverBase]) > 0 || len(e.cutBytes[serverNew]) > 0 {
				fmt.Fprintf(w, "\n%s's export of %s, runs broken off: base %s, new %s; MB/s new/base **%s**\n", callerNames[e.caller], e.dataset,
					cutRuns(e.cutBytes[serverBase], e.cutTimes[serverBase]), cutRuns(e.cutBytes[serverNew], e.cutTimes[serverNew]),
					ratio(rate(e.cutBytes[serverNew], e.cutTimes[serverNew]), rate(e.cutBytes[serverBase], e.cutTimes[serverBase])))
			}
		}
	}
}

// roundRatios is the median, least and greatest of the rounds' p50 ratios.
func roundRatios(base, nw []time.Duration) string {
	var rs []float64
	for i := range min(len(base), len(nw)) {
		if base[i] > 0 {
			rs = append(rs, float64(nw[i])/float64(base[i]))
		}
	}
	if len(rs) == 0 {
		return "-"
	}
	slices.Sort(rs)
	return fmt.Sprintf("%.2f [%.2f, %.2f]", rs[len(rs)/2], rs[0], rs[len(rs)-1])
}

// cutRuns describes the runs broken off: "152.6 MB in 60.7 s (2.51 MB/s), ...".
func cutRuns(bytes []int64, times []time.Duration) string {
	if len(bytes) == 0 {
		return "none"
	}
	parts := make([]string, len(bytes))
	for i := range bytes {
		parts[i] = fmt.Sprintf("%.1f MB in %s s (%.2f MB/s)", float64(bytes[i])/1e6, secs(times[i]), float64(bytes[i])/1e6/times[i].Seconds())
	}
	return strings.Join(parts, ", ")
}

// rate is the bytes over the time of all the runs.
func rate(bytes []int64, times []time.Duration) float64 {
	var b int64
	var t time.Duration
	for i := range bytes {
		b, t = b+bytes[i], t+times[i]
	}
	if t <= 0 {
		return 0
	}
	return float64(b) / t.Seconds()
}

// median is the middle of ds, or the mean of the two middle ones.
func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	sorted := slices.Clone(ds)
	slices.Sort(sorted)
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

func secs(d time.Duration) string { return fmt.Sprintf("%.2f", d.Seconds()) }

func runs(ds []time.Duration) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = secs(d)
	}
	return strings.Join(parts, ", ")
}
