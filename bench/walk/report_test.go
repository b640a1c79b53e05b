package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAnalyse walks a made-up window: a.go calls b.go's F and G (one
// return to b.go), c.go calls G too (a second file into b.go), and the
// idle window ran c.go's ticker block, which the request's window ran as
// often (not the request's).
func TestAnalyse(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("idle/cover.txt", "mode: atomic\nm/c.go:20.1,22.2 2 3\n")
	write("idle/edges.tsv", "")
	write("req/cover.txt", "mode: atomic\nm/a.go:1.1,3.2 2 1\nm/b.go:1.1,2.2 1 1\nm/b.go:5.1,6.2 1 2\nm/c.go:1.1,2.2 1 1\nm/c.go:20.1,22.2 2 3\nm/gen.go:1.1,2.2 1 1\n")
	write("req/edges.tsv", "1\t\t\tm/a.go\tm.A\n1\tm/a.go\tm.A\tm/b.go\tm.F\n2\tm/a.go\tm.A\tm/b.go\tm.G\n1\tm/c.go\tm.C\tm/b.go\tm.G\n1\tm/a.go\tm.A\tm/c.go\tm.C\n1\tm/b.go\tm.F\tm/b.go\tm.h\n")
	hand := map[string]bool{"m/a.go": true, "m/b.go": true, "m/c.go": true}
	funcs := []fn{
		{file: "m/a.go", from: pos{1, 1}, to: pos{3, 2}, name: "A"},
		{file: "m/b.go", from: pos{1, 1}, to: pos{2, 2}, name: "F"},
		{file: "m/b.go", from: pos{5, 1}, to: pos{6, 2}, name: "G"},
		{file: "m/c.go", from: pos{1, 1}, to: pos{2, 2}, name: "C"},
		{file: "m/c.go", from: pos{19, 1}, to: pos{23, 2}, name: "tick"},
	}
	// readCounters runs go tool covdata, which these folders are not for:
	// feed analyse's readers directly.
	counts := func(name string) map[block]int {
		t.Helper()
		c, err := parseCounters(filepath.Join(dir, name, "cover.txt"), hand)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	rep, err := analyseCounts([]windowData{
		{window: window{name: "", dir: filepath.Join(dir, "idle")}, counts: counts("idle")},
		{window: window{name: "r", dir: filepath.Join(dir, "req")}, counts: counts("req")},
	}, hand, funcs)
	if err != nil {
		t.Fatal(err)
	}
	wk := rep.walks[0]
	got := map[string]any{
		"files": wk.files, "functions": wk.functionCount(), "entries": wk.entryCount(),
		"returns": wk.returns(), "fileReturns": wk.fileReturns(), "idle": rep.idle,
	}
	want := map[string]any{
		"files": []string{"m/a.go", "m/b.go", "m/c.go"}, "functions": 4, "entries": 4,
		"returns": 1, "fileReturns": 1, "idle": []string{"m/c.go"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("walk (-want +got):\n%s", diff)
	}
}
