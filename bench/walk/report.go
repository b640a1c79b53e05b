package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// block is a coverage block: a file and the line it starts on, its
// columns, and its statement count.
type block struct {
	file                    string
	line, col, endLine, end int
	stmts                   int
}

// fn is a function as instrument lists it: its file, where it starts and
// ends, and its name.
type fn struct {
	file     string
	from, to pos
	name     string
}

// pos is a line and column.
type pos struct{ line, col int }

func (p pos) after(q pos) bool { return p.line > q.line || p.line == q.line && p.col > q.col }

// entry is a hand-written function entered from another file: the file
// and the function (as the runtime names it: closures are Name.funcN).
type entry struct{ file, callee string }

// walk is one request's figures.
type walk struct {
	name       string
	files      []string                   // hand-written files with a statement run
	functions  map[string]int             // by file: functions with a statement run
	entries    map[string][]string        // by file: its functions entered from another file
	callers    map[string]map[string]bool // by file: the files those calls came from ("": none hand-written)
	statements map[string]float64
	traceOnly  []string // files the trace entered that coverage does not show (expected: none)
}

// report is every walk, and what the idle windows ran.
type report struct {
	commit string
	module string
	walks  []walk
	idle   []string // hand-written files the idle windows ran
}

// windowData is a window with its blocks' counts.
type windowData struct {
	window
	counts map[block]int
}

// analyse reads each window's counters (go tool covdata) and analyses them
// with its edges (analyseCounts).
func analyse(windows []window, handWritten map[string]bool, funcs []fn) (*report, error) {
	var data []windowData
	for _, w := range windows {
		counts, err := readCounters(w.dir, handWritten)
		if err != nil {
			return nil, err
		}
		data = append(data, windowData{w, counts})
	}
	return analyseCounts(data, handWritten, funcs)
}

// analyseCounts makes the walks: a request's walk is what its window ran
// beyond the idle windows (those without a name). A block counts when it
// ran more times in the request's window than in the busiest idle one, an
// edge (from edges.tsv in the window's folder) when no idle window took
// it.
func analyseCounts(windows []windowData, handWritten map[string]bool, funcs []fn) (*report, error) {
	type busyWindow struct {
		windowData
		edges map[entry]map[string]bool
	}
	idleCounts := map[block]int{}
	idleEdges := map[entry]bool{}
	idleFiles := map[string]bool{}
	var busy []busyWindow
	for _, w := range windows {
		edges, err := readEdges(filepath.Join(w.dir, "edges.tsv"))
		if err != nil {
			return nil, err
		}
		if w.name != "" {
			busy = append(busy, busyWindow{w, edges})
			continue
		}
		for b, n := range w.counts {
			idleCounts[b] = max(idleCounts[b], n)
			if n > 0 {
				idleFiles[b.file] = true
			}
		}
		for e := range edges {
			idleEdges[e] = true
		}
	}
	rep := &report{idle: sortedKeys(idleFiles), module: moduleOf(handWritten)}
	for _, b := range busy {
		ran := map[block]bool{}
		files := map[string]bool{}
		for blk, n := range b.counts {
			if n > idleCounts[blk] {
				ran[blk] = true
				files[blk.file] = true
			}
		}
		wk := walk{name: b.name, files: sortedKeys(files), functions: functionsRun(funcs, ran),
			entries: map[string][]string{}, callers: map[string]map[string]bool{}, statements: b.statements}
		traced := map[string]bool{}
		for e, callers := range b.edges {
			if idleEdges[e] {
				continue
			}
			traced[e.file] = true
			entered := false
			for caller := range callers {
				if caller == e.file {
					continue
				}
				entered = true
				if wk.callers[e.file] == nil {
					wk.callers[e.file] = map[string]bool{}
				}
				wk.callers[e.file][caller] = true
			}
			if entered {
				wk.entries[e.file] = append(wk.entries[e.file], e.callee)
			}
		}
		for f := range traced {
			if !files[f] {
				wk.traceOnly = append(wk.traceOnly, f)
			}
		}
		sort.Strings(wk.traceOnly)
		for f := range wk.entries {
			sort.Strings(wk.entries[f])
		}
		rep.walks = append(rep.walks, wk)
	}
	return rep, nil
}

// functionsRun counts, by file, the functions with a block that ran: the
// function a block is inside (a closure's blocks count for the function it
// is written in).
func functionsRun(funcs []fn, ran map[block]bool) map[string]int {
	byFile := map[string][]fn{}
	for _, f := range funcs {
		byFile[f.file] = append(byFile[f.file], f)
	}
	seen := map[fn]bool{}
	for b := range ran {
		at := pos{b.line, b.col}
		for _, f := range byFile[b.file] {
			if !f.from.after(at) && !at.after(f.to) {
				seen[f] = true
				break
			}
		}
	}
	out := map[string]int{}
	for f := range seen {
		out[f.file]++
	}
	return out
}

// readCounters runs go tool covdata textfmt over a window's folder and
// returns each hand-written block's count.
func readCounters(dir string, handWritten map[string]bool) (map[block]int, error) {
	txt := filepath.Join(dir, "cover.txt")
	if out, err := exec.Command("go", "tool", "covdata", "textfmt", "-i", dir, "-o", txt).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go tool covdata textfmt -i %s: %w: %s", dir, err, out)
	}
	return parseCounters(txt, handWritten)
}

// parseCounters reads a coverage profile (textfmt), keeping the blocks of
// hand-written files.
func parseCounters(txt string, handWritten map[string]bool) (map[block]int, error) {
	f, err := os.Open(txt)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	counts := map[block]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// github.com/x/y/file.go:12.34,15.2 3 1
		line := sc.Text()
		if strings.HasPrefix(line, "mode:") {
			continue
		}
		var b block
		var n int
		colon := strings.LastIndex(line, ":")
		if colon < 0 {
			return nil, fmt.Errorf("%s: %q", txt, line)
		}
		b.file = line[:colon]
		if !handWritten[b.file] {
			continue
		}
		if _, err := fmt.Sscanf(line[colon+1:], "%d.%d,%d.%d %d %d", &b.line, &b.col, &b.endLine, &b.end, &b.stmts, &n); err != nil {
			return nil, fmt.Errorf("%s: %q: %w", txt, line, err)
		}
		counts[b] += n
	}
	return counts, sc.Err()
}

// readFuncs reads instrument's list of functions (funcsList), keeping
// those of hand-written files.
func readFuncs(file string, handWritten map[string]bool) ([]fn, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var funcs []fn
	for _, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			return nil, fmt.Errorf("%s: %q", file, line)
		}
		if !handWritten[f[0]] {
			continue
		}
		d := fn{file: f[0], name: f[3]}
		if _, err := fmt.Sscanf(f[1]+" "+f[2], "%d.%d %d.%d", &d.from.line, &d.from.col, &d.to.line, &d.to.col); err != nil {
			return nil, fmt.Errorf("%s: %q: %w", file, line, err)
		}
		funcs = append(funcs, d)
	}
	return funcs, nil
}

// readEdges reads the hook's edges.tsv: for each function entered, the
// files of its callers (empty: none hand-written).
func readEdges(file string) (map[entry]map[string]bool, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	edges := map[entry]map[string]bool{}
	for _, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		if line == "" {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 5 {
			return nil, fmt.Errorf("%s: %q", file, line)
		}
		e := entry{file: f[3], callee: f[4]}
		if edges[e] == nil {
			edges[e] = map[string]bool{}
		}
		edges[e][f[1]] = true
	}
	return edges, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// print writes the table, then each walk's files by package.
func (r *report) print(w io.Writer) {
	short := func(f string) string { return strings.TrimPrefix(f, r.module+"/") }
	fmt.Fprintf(w, "## Request walks at %s\n\n", r.commit)
	fmt.Fprintln(w, "| request | files | functions | entries | returns | returns by file | statements |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---|")
	for _, wk := range r.walks {
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %d | %s |\n", wk.name, len(wk.files), wk.functionCount(),
			wk.entryCount(), wk.returns(), wk.fileReturns(), statementList(wk.statements))
	}
	if len(r.idle) > 0 {
		fmt.Fprintf(w, "\nThe idle windows ran %d hand-written files (subtracted, block by block): %s\n",
			len(r.idle), strings.Join(mapStrings(r.idle, short), ", "))
	} else {
		fmt.Fprintln(w, "\nThe idle windows ran no hand-written code.")
	}
	for _, wk := range r.walks {
		fmt.Fprintf(w, "\n### %s: %d files\n\n", wk.name, len(wk.files))
		byPkg := map[string][]string{}
		for _, f := range wk.files {
			pkg := path.Dir(short(f))
			if pkg == "." {
				pkg = "(root)"
			}
			item := path.Base(f)
			if es := wk.entries[f]; len(es) > 1 {
				names := mapStrings(es, funcName)
				item += fmt.Sprintf(" [%d entries: %s]", len(es), strings.Join(names, ", "))
			} else if len(es) == 0 {
				item += " [not entered in the window]"
			}
			byPkg[pkg] = append(byPkg[pkg], item)
		}
		for _, pkg := range sortedKeys(byPkg) {
			fmt.Fprintf(w, "- %s (%d): %s\n", pkg, len(byPkg[pkg]), strings.Join(byPkg[pkg], ", "))
		}
		if len(wk.traceOnly) > 0 {
			fmt.Fprintf(w, "- entered but without a counted statement (a check that failed): %s\n", strings.Join(mapStrings(wk.traceOnly, short), ", "))
		}
	}
}

func (wk walk) functionCount() int {
	n := 0
	for _, c := range wk.functions {
		n += c
	}
	return n
}

func (wk walk) entryCount() int {
	n := 0
	for _, es := range wk.entries {
		n += len(es)
	}
	return n
}

// returns counts the entries into a file beyond its first: how many times
// the walk comes back to a file it has already opened, for another of its
// functions.
func (wk walk) returns() int {
	n := 0
	for _, es := range wk.entries {
		n += max(len(es)-1, 0)
	}
	return n
}

// fileReturns counts the files a file is entered from beyond the first:
// the returns when a reader who opens a file for one function reads there
// every other function its caller needs (coarser than returns).
func (wk walk) fileReturns() int {
	n := 0
	for _, cs := range wk.callers {
		n += max(len(cs)-1, 0)
	}
	return n
}

func statementList(st map[string]float64) string {
	var parts []string
	for _, name := range sortedKeys(st) {
		if st[name] == 1 {
			parts = append(parts, name)
		} else {
			parts = append(parts, fmt.Sprintf("%s ×%g", name, st[name]))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// moduleOf is the folder every file is in: the module path (its root
// package has files).
func moduleOf(files map[string]bool) string {
	prefix := ""
	for f := range files {
		if prefix == "" {
			prefix = path.Dir(f)
		}
		for !strings.HasPrefix(f, prefix+"/") {
			prefix = path.Dir(prefix)
		}
	}
	return prefix
}

// funcName is a runtime function name without its package path:
// (*Server).compose.func1.
func funcName(s string) string {
	s = path.Base(s)
	if _, rest, ok := strings.Cut(s, "."); ok {
		return rest
	}
	return s
}

func mapStrings(in []string, f func(string) string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = f(s)
	}
	return out
}
