// Package hook opens and closes measuring windows in a running casegraph
// built by bench/walk: with WALK_CONTROL set to a folder, each SIGUSR1
// toggles a window. Opening one clears the coverage counters, starts
// walktrace and writes WALK_CONTROL/N/started (N counts the windows from
// 1); closing it writes the counters and the call edges to WALK_CONTROL/N
// and then WALK_CONTROL/N/done. The measurer waits for each of the two
// files, which are empty unless something failed.
//
// It is not part of Casegraph: bench/walk adds a blank import of it to
// cmd/casegraph in the copy of the source it builds. The binary must be
// built with -cover -covermode=atomic (ClearCounters needs atomic).
package hook

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/coverage"
	"syscall"

	"github.com/casegraph/casegraph/bench/walk/walktrace"
)

func init() {
	dir := os.Getenv("WALK_CONTROL")
	if dir == "" {
		return
	}
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGUSR1)
	go serve(dir, c)
}

// serve toggles a window on each signal; an error ends up in the window's
// done file, so that the measurer sees it.
func serve(dir string, c <-chan os.Signal) {
	n, open := 0, false
	for range c {
		if !open {
			n++
			err := coverage.ClearCounters()
			if err == nil {
				walktrace.Start()
				open = true
			}
			report(filepath.Join(dir, fmt.Sprint(n)), "started", err)
			continue
		}
		open = false
		edges := walktrace.Stop()
		report(filepath.Join(dir, fmt.Sprint(n)), "done", write(filepath.Join(dir, fmt.Sprint(n)), edges))
	}
}

// write puts the window's counters, the coverage meta-data they need, and
// its edges (edges.tsv: count, caller file, caller, callee file, callee)
// into dir.
func write(dir string, edges []walktrace.Count) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := coverage.WriteMetaDir(dir); err != nil {
		return err
	}
	if err := coverage.WriteCountersDir(dir); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "edges.tsv"))
	if err != nil {
		return err
	}
	for _, e := range edges {
		fmt.Fprintf(f, "%d\t%s\t%s\t%s\t%s\n", e.N, e.CallerFile, e.Caller, e.CalleeFile, e.Callee)
	}
	return f.Close()
}

// report writes dir/name: empty when all went well, else the error.
func report(dir, name string, err error) {
	_ = os.MkdirAll(dir, 0o755)
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	// Whole or not at all: the measurer reads it as soon as it appears.
	tmp := filepath.Join(dir, "."+name)
	if os.WriteFile(tmp, []byte(msg), 0o644) == nil {
		_ = os.Rename(tmp, filepath.Join(dir, name))
	}
}
