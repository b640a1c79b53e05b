package main

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"time"
)

// Where a request's CPU goes. On this 2-core machine a cell at c=8 or 32
// is bound by CPU, so a system's throughput is about the cores over the
// CPU a request costs every process it passes through: the server, Neo4j
// and the load generator (this process, whose HTTP client is part of an
// HTTP system's cost). The table of CPU a request shows why a ratio is
// what it is: which process a system spends more in than another.

// The processes a slice's CPU is read of.
const (
	procServer = iota // the system's server (none for raw, in this process)
	procNeo4j
	procClient // this process: the load generator, and raw's driver
	nProcs
)

var procNames = [nProcs]string{"server", "neo4j", "client"}

// userHZ is the unit of /proc/PID/stat's CPU times: Linux reports them in
// USER_HZ, 100 a second on every architecture it runs on.
const userHZ = 100

// cpuMeter reads the CPU time of the processes a system's requests pass
// through. A pid of 0 is a process not measured (not given, or not on
// this machine); its column is left out of the table.
type cpuMeter struct {
	servers [nSystems]int // casegraph's and the peer's; raw has none
	neo4j   int
	// read returns a process's CPU time so far (processCPU; a test's own).
	read func(pid int) (time.Duration, error)
}

// sample is the CPU time of each process a system passes through, and
// whether it was read.
type sample struct {
	cpu [nProcs]time.Duration
	ok  [nProcs]bool
}

// pids are the processes of a system, by procServer, procNeo4j and
// procClient.
func (m *cpuMeter) pids(sys int) [nProcs]int {
	return [nProcs]int{m.servers[sys], m.neo4j, os.Getpid()}
}

// take reads the CPU time of the system's processes. A process that
// cannot be read (gone, or no /proc) is left unread.
func (m *cpuMeter) take(sys int) sample {
	var s sample
	if m == nil {
		return s
	}
	for p, pid := range m.pids(sys) {
		if pid <= 0 {
			continue
		}
		if d, err := m.read(pid); err == nil {
			s.cpu[p], s.ok[p] = d, true
		}
	}
	return s
}

// since is the CPU each process spent from before to s: read only where
// both samples read it.
func (s sample) since(before sample) sample {
	var d sample
	for p := range nProcs {
		if s.ok[p] && before.ok[p] {
			d.cpu[p], d.ok[p] = s.cpu[p]-before.cpu[p], true
		}
	}
	return d
}

// processCPU is a process's CPU time so far, user and system, from
// /proc/PID/stat.
func processCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	return parseStatCPU(b)
}

// parseStatCPU reads utime and stime (fields 14 and 15) of a
// /proc/PID/stat line. The command name (field 2) is in parentheses and
// may hold spaces and parentheses itself, so the fields are counted from
// its last closing parenthesis.
func parseStatCPU(stat []byte) (time.Duration, error) {
	end := bytes.LastIndexByte(stat, ')')
	if end < 0 {
		return 0, fmt.Errorf("stat %q: no command name", stat)
	}
	// After the name: state (field 3), ..., utime (14), stime (15).
	fields := bytes.Fields(stat[end+1:])
	if len(fields) < 13 {
		return 0, fmt.Errorf("stat: %d fields after the command name, want 13 or more", len(fields))
	}
	var ticks int64
	for _, f := range fields[11:13] {
		n, err := strconv.ParseInt(string(f), 10, 64)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("stat: CPU time %q is not a count of ticks", f)
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / userHZ, nil
}

// plus adds d to s. A process is measured over a cell only if every slice
// measured it: first is the cell's first slice, whose reading starts the
// sum.
func (s sample) plus(d sample, first bool) sample {
	for p := range nProcs {
		s.cpu[p] += d.cpu[p]
		s.ok[p] = d.ok[p] && (first || s.ok[p])
	}
	return s
}
