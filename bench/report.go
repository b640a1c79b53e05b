package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// report prints the results as Markdown: the answer checks, round trips
// at c=1, and the table.
func report(w io.Writer, cfg config, checks []checkResult, trips []roundTripResult, results []cellResult) {
	budget := fmt.Sprintf("%s per system per cell", cfg.Duration)
	if cfg.Requests > 0 {
		budget = fmt.Sprintf("%d requests per system per cell", cfg.Requests)
	}
	fmt.Fprintf(w, "\n# Casegraph vs @neo4j/graphql vs raw store\n\n")
	fmt.Fprintf(w, "Dataset %s, inputs seed %d; %s in up to %d interleaved turns (fewer where a slice would be under %d median latencies), after a %s warm-up each.\n",
		cfg.Dataset, cfg.Seed, budget, cfg.Turns, sliceLatencies, cfg.Warmup)
	fmt.Fprintf(w, "req/s: throughput; p50/p95: latency in ms; err: failed requests; cg/peer and cg/raw: Casegraph's throughput over theirs (above 1: Casegraph is faster); rt/req: Casegraph's Neo4j round trips per request.\n")

	if len(checks) > 0 {
		fmt.Fprintf(w, "\n## Answers (the first %d inputs of each workload)\n\n", cfg.Checks)
		fmt.Fprintf(w, "| workload | casegraph = raw | casegraph vs peer | the peer's query |\n|---|---|---|---|\n")
		for _, key := range cfg.Workloads {
			var raw, peer []string
			var wl workload
			for _, c := range checks {
				if c.Workload.Key == key {
					wl = c.Workload
					raw, peer = append(raw, c.Raw), append(peer, c.Peer)
				}
			}
			if len(raw) == 0 {
				continue
			}
			note := wl.PeerNote
			if note == "" {
				note = "the same query"
			}
			fmt.Fprintf(w, "| %s %s | %s | %s | %s |\n", key, wl.Title, tally(raw), tally(peer), note)
		}
		var loud []string
		for _, c := range checks {
			if c.disagrees() {
				loud = append(loud, fmt.Sprintf("- %s input %d (%s): raw %s, peer %s\n\n```\n%s\n```", c.Workload.Key, c.Input,
					describeInput(c.in), c.Raw, c.Peer, c.Detail))
			}
		}
		if len(loud) > 0 {
			fmt.Fprintf(w, "\n**ANSWER MISMATCHES** (see bench/README.md for the known reasons):\n\n%s\n", strings.Join(loud, "\n"))
		}
		var expected []string
		for _, c := range checks {
			if c.Peer == verdictExpected {
				expected = append(expected, "- "+c.Detail)
			}
		}
		if len(expected) > 0 {
			fmt.Fprintf(w, "\nExpected differences:\n\n%s\n", strings.Join(expected, "\n"))
		}
	}

	if len(trips) > 0 {
		fmt.Fprintf(w, "\n## Neo4j round trips per request at c=1 (%d requests one after another)\n\n", cfg.RoundTrips)
		fmt.Fprintf(w, "| workload | casegraph | raw | errors |\n|---|---:|---:|---:|\n")
		for _, t := range trips {
			fmt.Fprintf(w, "| %s %s | %.2f | %.2f | %d |\n", t.Workload.Key, t.Workload.Title, t.Casegraph, t.Raw, t.Errors)
		}
	}

	fmt.Fprintf(w, "\n## Throughput and latency\n\n")
	fmt.Fprintf(w, "| workload | c | turns |")
	for _, name := range systemNames {
		fmt.Fprintf(w, " %s req/s | p50 | p95 | err |", name)
	}
	fmt.Fprintf(w, " cg/peer | cg/raw | rt/req |\n|---|---:|---:|")
	for range systemNames {
		fmt.Fprintf(w, "---:|---:|---:|---:|")
	}
	fmt.Fprintf(w, "---:|---:|---:|\n")
	for _, r := range results {
		fmt.Fprintf(w, "| %s %s | %d | %d |", r.Workload.Key, r.Workload.Title, r.Concurrency, r.Turns)
		for i := range nSystems {
			st := &r.Systems[i]
			fmt.Fprintf(w, " %.1f | %s | %s | %d |", st.throughput(), ms(st.percentile(0.50)), ms(st.percentile(0.95)), st.Errors)
		}
		cg := r.Systems[sysCasegraph].throughput()
		fmt.Fprintf(w, " %s | %s | %.2f |\n", ratio(cg, r.Systems[sysPeer].throughput()), ratio(cg, r.Systems[sysRaw].throughput()),
			r.Systems[sysCasegraph].roundTripsPerRequest())
	}
	reportCPU(w, results)
}

// reportCPU prints the CPU a request cost each process of each system
// (cpu.go), when any was measured: the server (Casegraph's, the peer's;
// raw has none), Neo4j and the load generator (this process), in ms, and
// their sum, and the sums' ratios to Casegraph's (above 1: Casegraph
// costs less). A process that was not measured is "-", and so is a sum
// that would lack it.
func reportCPU(w io.Writer, results []cellResult) {
	measured := false
	for _, r := range results {
		for i := range nSystems {
			measured = measured || slices.Contains(r.Systems[i].CPU.ok[:], true)
		}
	}
	if !measured {
		return
	}
	fmt.Fprintf(w, "\n## CPU a request, ms (/proc, over the measured slices)\n\n")
	fmt.Fprintf(w, "server: the system's server (raw runs in the load generator); neo4j: the database; client: the load generator, this process (an HTTP system's client, raw's driver); all: their sum, whose ratio to Casegraph's bounds cg/peer and cg/raw where the cell is bound by the machine's CPU.\n\n")
	var cols []string
	for i, name := range systemNames {
		for p := range nProcs {
			if i != sysRaw || p != procServer {
				cols = append(cols, name+" "+procNames[p])
			}
		}
		cols = append(cols, name+" all")
	}
	cols = append(cols, "peer/cg", "raw/cg")
	fmt.Fprintf(w, "| workload | c | %s |\n|---|---:|%s\n", strings.Join(cols, " | "), strings.Repeat("---:|", len(cols)))
	for _, r := range results {
		fmt.Fprintf(w, "| %s %s | %d |", r.Workload.Key, r.Workload.Title, r.Concurrency)
		var all [nSystems]time.Duration
		var whole [nSystems]bool
		for i := range nSystems {
			st := &r.Systems[i]
			whole[i] = true
			for p := range nProcs {
				if i == sysRaw && p == procServer {
					continue
				}
				d, ok := st.cpuPerRequest(p)
				whole[i] = whole[i] && ok
				all[i] += d
				fmt.Fprintf(w, " %s |", cpuCell(d, ok))
			}
			fmt.Fprintf(w, " %s |", cpuCell(all[i], whole[i]))
		}
		for _, other := range []int{sysPeer, sysRaw} {
			if whole[other] && whole[sysCasegraph] {
				fmt.Fprintf(w, " %s |", ratio(float64(all[other]), float64(all[sysCasegraph])))
			} else {
				fmt.Fprintf(w, " - |")
			}
		}
		fmt.Fprintln(w)
	}
}

// cpuCell is a CPU time in ms, or "-" when not measured.
func cpuCell(d time.Duration, ok bool) string {
	if !ok {
		return "-"
	}
	return fmt.Sprintf("%.2f", float64(d.Microseconds())/1000)
}

func ratio(a, b float64) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fx", a/b)
}

// tally counts verdicts: "5 equal", "3 equal, 2 MISMATCH".
func tally(verdicts []string) string {
	counts := map[string]int{}
	var order []string
	for _, v := range verdicts {
		if counts[v] == 0 {
			order = append(order, v)
		}
		counts[v]++
	}
	parts := make([]string, len(order))
	for i, v := range order {
		parts[i] = fmt.Sprintf("%d %s", counts[v], v)
	}
	return strings.Join(parts, ", ")
}
