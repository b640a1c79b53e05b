package walktrace

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

//go:noinline
func outer() { Enter(); inner() }

//go:noinline
func inner() { Enter() }

// TestEdges marks this file as instrumented: an edge's caller is the
// nearest function of an instrumented file up the stack (here the test
// itself, which calls no Enter), none on a goroutine started outside one
// (onGoroutine's file is not marked), and nothing is recorded outside a
// window.
func TestEdges(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	instrumented[file] = true
	defer delete(instrumented, file)

	outer() // outside a window
	Start()
	outer()
	outer()
	onGoroutine(inner)
	got := Stop()
	outer() // after it

	short := func(s string) string { return s[strings.LastIndex(s, ".")+1:] }
	var names []string
	for _, c := range got {
		names = append(names, fmt.Sprintf("%s -> %s ×%d", short(c.Caller), short(c.Callee), c.N))
		if c.CalleeFile != file || (c.Caller != "" && c.CallerFile != file) {
			t.Errorf("edge %+v: want both ends in %s", c, file)
		}
	}
	want := []string{" -> inner ×1", "outer -> inner ×2", "TestEdges -> outer ×2"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("edges (-want +got):\n%s", diff)
	}
}
