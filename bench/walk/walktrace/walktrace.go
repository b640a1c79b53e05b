// Package walktrace records which hand-written function calls which while
// a window is open: the call edges of one request's walk, which coverage
// (which says what ran, not from where) cannot give.
//
// It is not part of Casegraph: bench/walk copies this file into a copy of
// the source it measures, puts a call to Enter at the start of every
// function body of every hand-written file there (Instrument), and the
// hook package opens and closes windows. Outside such a build Enter is
// never called and the package does nothing.
package walktrace

import (
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
)

// Edge is a call from one hand-written function to another: the caller is
// the nearest hand-written function up the callee's stack (generated code,
// gqlgen, net/http and the driver are looked through), or none (Caller and
// CallerFile empty) when the goroutine has none, as in one started by a
// library.
type Edge struct {
	CallerFile, Caller string
	CalleeFile, Callee string
}

// Count is an Edge and how many times it was taken in the window.
type Count struct {
	Edge
	N int
}

var (
	// instrumented holds the files (as the runtime names them, module path
	// and file) that Instrument rewrote; set by the file Instrument adds
	// beside this one.
	instrumented = map[string]bool{}

	on    atomic.Bool
	mu    sync.Mutex
	edges map[Edge]int
)

// Start opens a window: from now on every Enter is recorded.
func Start() {
	mu.Lock()
	edges = map[Edge]int{}
	mu.Unlock()
	on.Store(true)
}

// Stop closes the window and returns its edges, sorted.
func Stop() []Count {
	on.Store(false)
	mu.Lock()
	defer mu.Unlock()
	out := make([]Count, 0, len(edges))
	for e, n := range edges {
		out = append(out, Count{e, n})
	}
	edges = nil
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].Edge, out[j].Edge
		if a.CalleeFile != b.CalleeFile {
			return a.CalleeFile < b.CalleeFile
		}
		if a.Callee != b.Callee {
			return a.Callee < b.Callee
		}
		if a.CallerFile != b.CallerFile {
			return a.CallerFile < b.CallerFile
		}
		return a.Caller < b.Caller
	})
	return out
}

// Enter is the call Instrument puts first in every function body. Outside
// a window it returns at once.
func Enter() {
	if on.Load() {
		record()
	}
}

// record notes the edge into the function that called Enter.
//
//go:noinline
func record() {
	var pcs [512]uintptr
	n := runtime.Callers(3, pcs[:]) // runtime.Callers, record, Enter
	frames := runtime.CallersFrames(pcs[:n])
	callee, more := frames.Next()
	if !instrumented[callee.File] {
		return
	}
	e := Edge{CalleeFile: callee.File, Callee: callee.Function}
	for more {
		var f runtime.Frame
		f, more = frames.Next()
		if instrumented[f.File] {
			e.CallerFile, e.Caller = f.File, f.Function
			break
		}
	}
	mu.Lock()
	if edges != nil {
		edges[e]++
	}
	mu.Unlock()
}
