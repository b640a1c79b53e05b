package main

import (
	"bytes"
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestParseStatCPU: utime and stime are fields 14 and 15, counted from
// the command name's last parenthesis, whatever the name holds.
func TestParseStatCPU(t *testing.T) {
	// 52 fields, as Linux 5 and 6 write them; utime 1234, stime 66.
	tail := " S 1 1 1 0 -1 4194560 100 0 0 0 1234 66 0 0 20 0 9 0 100 1000 10 18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	for _, name := range []string{"java", "we ird) (x", "a b c", ")"} {
		got, err := parseStatCPU([]byte("4242 (" + name + ")" + tail))
		if err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		if want := 13 * time.Second; got != want {
			t.Errorf("%q: %v, want %v (1,300 ticks of 10 ms)", name, got, want)
		}
	}
	for _, bad := range []string{
		"",
		"4242 java S 1 1",
		"4242 (java) S 1 1 1 0 -1 4194560 100 0 0 0",
		"4242 (java) S 1 1 1 0 -1 4194560 100 0 0 0 12x4 66 0",
		"4242 (java) S 1 1 1 0 -1 4194560 100 0 0 0 -3 66 0",
	} {
		if _, err := parseStatCPU([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestProcessCPUOfThisProcess reads this process's own line, which grows
// as it works.
func TestProcessCPUOfThisProcess(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc/PID/stat is Linux's")
	}
	before, err := processCPU(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	var sink []byte
	for start := time.Now(); time.Since(start) < 150*time.Millisecond; {
		sink = bytes.Repeat([]byte("x"), 1<<12)
	}
	_ = sink
	after, err := processCPU(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if after-before < 50*time.Millisecond {
		t.Errorf("150 ms of work read as %v of CPU", after-before)
	}
	if _, err := processCPU(-1); err == nil {
		t.Error("pid -1: no error")
	}
}

// TestCPUMeter: what a slice spent in each process a system passes
// through; a process without a pid, or that could not be read in one of
// a cell's slices, is not measured over the cell.
func TestCPUMeter(t *testing.T) {
	clock := map[int]time.Duration{10: 0, 20: 0, 30: 0}
	self := time.Duration(0)
	failing := map[int]bool{}
	m := &cpuMeter{servers: [nSystems]int{sysCasegraph: 10, sysPeer: 0}, neo4j: 30,
		read: func(pid int) (time.Duration, error) {
			if failing[pid] {
				return 0, errors.New("gone")
			}
			if pid == os.Getpid() {
				return self, nil
			}
			return clock[pid], nil
		}}
	slice := func(sys int, server, neo, client time.Duration) sample {
		before := m.take(sys)
		clock[10] += server
		clock[30] += neo
		self += client
		return m.take(sys).since(before)
	}
	var cg, peer sample
	cg = cg.plus(slice(sysCasegraph, 3*time.Millisecond, 5*time.Millisecond, time.Millisecond), true)
	cg = cg.plus(slice(sysCasegraph, 1*time.Millisecond, 5*time.Millisecond, time.Millisecond), false)
	if want := [nProcs]time.Duration{4 * time.Millisecond, 10 * time.Millisecond, 2 * time.Millisecond}; cg.cpu != want || cg.ok != [nProcs]bool{true, true, true} {
		t.Errorf("casegraph: %v %v, want %v, all read", cg.cpu, cg.ok, want)
	}
	st := systemStats{Requests: 4, CPU: cg}
	if d, ok := st.cpuPerRequest(procNeo4j); !ok || d != 2500*time.Microsecond {
		t.Errorf("neo4j a request: %v %v, want 2.5ms", d, ok)
	}
	// The peer's server has no pid: not measured; Neo4j fails in the
	// second slice: not measured over the cell either.
	peer = peer.plus(slice(sysPeer, 0, 5*time.Millisecond, time.Millisecond), true)
	failing[30] = true
	peer = peer.plus(slice(sysPeer, 0, 5*time.Millisecond, time.Millisecond), false)
	if peer.ok != [nProcs]bool{false, false, true} || peer.cpu[procClient] != 2*time.Millisecond {
		t.Errorf("peer: %v %v, want only the client read (2ms)", peer.cpu, peer.ok)
	}
	if s := (*cpuMeter)(nil).take(sysCasegraph); s.ok != [nProcs]bool{} {
		t.Errorf("no meter: %v, want nothing read", s.ok)
	}
	if d, ok := (&systemStats{CPU: cg}).cpuPerRequest(procServer); ok {
		t.Errorf("no requests: %v, want not measured", d)
	}
}

// TestReportCPU: the table of CPU a request, its sums and ratios, "-"
// where a process was not measured, and no table when none was.
func TestReportCPU(t *testing.T) {
	w4, _ := workloadByKey("W4")
	measured := func(server, neo, client time.Duration, requests int) systemStats {
		return systemStats{Requests: requests, CPU: sample{
			cpu: [nProcs]time.Duration{server * time.Duration(requests), neo * time.Duration(requests), client * time.Duration(requests)},
			ok:  [nProcs]bool{server > 0, true, true}}}
	}
	ms := time.Millisecond
	r := cellResult{Workload: w4, Concurrency: 8}
	r.Systems[sysCasegraph] = measured(ms, 5*ms, ms/2, 100)
	r.Systems[sysPeer] = measured(3*ms, 6*ms, ms/2, 50)
	r.Systems[sysRaw] = measured(0, 5*ms, ms/2, 200)
	var b strings.Builder
	reportCPU(&b, []cellResult{r})
	out := b.String()
	for _, want := range []string{
		"| workload | c | casegraph server | casegraph neo4j | casegraph client | casegraph all | peer server | peer neo4j | peer client | peer all | raw neo4j | raw client | raw all | peer/cg | raw/cg |",
		"|---|---:|" + strings.Repeat("---:|", 13) + "\n",
		"| W4 full-text search, 20 hits | 8 | 1.00 | 5.00 | 0.50 | 6.50 | 3.00 | 6.00 | 0.50 | 9.50 | 5.00 | 0.50 | 5.50 | 1.46x | 0.85x |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}

	r.Systems[sysPeer].CPU.ok[procNeo4j] = false
	b.Reset()
	reportCPU(&b, []cellResult{r})
	if want := "| 3.00 | - | 0.50 | - | 5.00 | 0.50 | 5.50 | - | 0.85x |"; !strings.Contains(b.String(), want) {
		t.Errorf("the peer's Neo4j not measured: no %q in\n%s", want, b.String())
	}

	b.Reset()
	reportCPU(&b, []cellResult{{Workload: w4, Concurrency: 8}})
	if b.Len() != 0 {
		t.Errorf("nothing measured, yet:\n%s", b.String())
	}
}
