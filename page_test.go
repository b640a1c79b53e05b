package casegraph_test

import (
	"testing"

	casegraph "github.com/casegraph/casegraph"
)

func TestPageWindowSize(t *testing.T) {
	n := func(i int) *int { return &i }
	for _, c := range []struct {
		name     string
		w        casegraph.PageWindow
		size     int
		backward bool
		code     casegraph.Code
	}{
		{"nothing given", casegraph.PageWindow{}, casegraph.DefaultPageSize, false, ""},
		{"first", casegraph.PageWindow{First: n(5), After: true}, 5, false, ""},
		{"last", casegraph.PageWindow{Last: n(7)}, 7, true, ""},
		{"before alone", casegraph.PageWindow{Before: true}, casegraph.DefaultPageSize, true, ""},
		{"the largest page", casegraph.PageWindow{First: n(casegraph.MaxPageSize)}, casegraph.MaxPageSize, false, ""},
		{"first 0", casegraph.PageWindow{First: n(0)}, 0, false, casegraph.CodeBadUserInput},
		{"first too many", casegraph.PageWindow{First: n(casegraph.MaxPageSize + 1)}, 0, false, casegraph.CodeBadUserInput},
		{"last negative", casegraph.PageWindow{Last: n(-1)}, 0, false, casegraph.CodeBadUserInput},
		{"both ways", casegraph.PageWindow{First: n(5), Last: n(5)}, 0, false, casegraph.CodeBadUserInput},
		{"after and before", casegraph.PageWindow{After: true, Before: true}, 0, false, casegraph.CodeBadUserInput},
	} {
		size, backward, err := c.w.Size()
		if c.code != "" {
			if casegraph.ErrorCode(err) != c.code {
				t.Errorf("%s: %v, want %s", c.name, err, c.code)
			}
			continue
		}
		if err != nil || size != c.size || backward != c.backward {
			t.Errorf("%s: %d, %t, %v; want %d, %t", c.name, size, backward, err, c.size, c.backward)
		}
	}
}
