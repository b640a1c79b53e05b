package watch

// The path watch's pure parts: comparing paths, parsing cursors.

import (
	"testing"

	casegraph "github.com/casegraph/casegraph"
)

func path(ids ...string) *casegraph.Path {
	p := &casegraph.Path{}
	for i, id := range ids {
		p.Nodes = append(p.Nodes, casegraph.Entity{ID: id})
		if i > 0 {
			p.Relations = append(p.Relations, casegraph.Relation{ID: ids[i-1] + "-" + id})
		}
	}
	return p
}

func TestCompare(t *testing.T) {
	tests := []struct {
		name     string
		was, is  *casegraph.Path
		want     PathKind
		reported bool
	}{
		{"still none", nil, nil, "", false},
		{"appeared", nil, path("a", "b"), PathAppeared, true},
		{"disappeared", path("a", "b"), nil, PathDisappeared, true},
		{"shorter", path("a", "m", "b"), path("a", "b"), PathShorter, true},
		{"longer", path("a", "b"), path("a", "m", "b"), PathLonger, true},
		{"another of the same length", path("a", "m", "b"), path("a", "n", "b"), PathChanged, true},
		{"the same", path("a", "m", "b"), path("a", "m", "b"), "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, reported := compare(tc.was, tc.is)
			if got != tc.want || reported != tc.reported {
				t.Errorf("compare = %q, %t; want %q, %t", got, reported, tc.want, tc.reported)
			}
		})
	}
}

func TestParseCursor(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		bad  bool
	}{
		{"", -1, false},
		{"0", 0, false},
		{"42", 42, false},
		{"-1", 0, true},
		{"yesterday", 0, true},
		{"9999999999999999999999", 0, true},
	}
	for _, tc := range tests {
		got, err := ParseCursor(tc.in)
		if (err != nil) != tc.bad || (!tc.bad && got != tc.want) {
			t.Errorf("ParseCursor(%q) = %d, %v; want %d (bad: %t)", tc.in, got, err, tc.want, tc.bad)
		}
		if err != nil && casegraph.ErrorCode(err) != casegraph.CodeBadUserInput {
			t.Errorf("ParseCursor(%q): code %s, want BAD_USER_INPUT", tc.in, casegraph.ErrorCode(err))
		}
	}
}
