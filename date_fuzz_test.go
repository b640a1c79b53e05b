package casegraph_test

import (
	"strings"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
)

// FuzzPartialDate: a partial date that parses is written back exactly as
// given (the canonical form is the only accepted form), parses again to an
// equal date, and allows a range of real days whose first and last begin
// with it, the day before the first and the day after the last not; any
// other text is refused with BAD_USER_INPUT. Two dates compare the same
// way both ways round.
func FuzzPartialDate(f *testing.F) {
	for _, seed := range [][2]string{
		{"2011", "2011-03"}, {"2011-03-15", "2011-03"}, {"2012-02-29", "2013-02-28"}, {"0001", "9999-12-31"},
		{"2013-02-29", "2013-13"}, {"2011-3-5", "+011"}, {"-201", "2011-03-"}, {"２０１１", "2011-03-15T00:00"},
		{"0000", "2011--03"}, {"", " 2011"}, {"2011-03-15-01", "99999"}, {"1900-02-29", "2000-02-29"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, s, other string) {
		d, ok := checkPartialDate(t, s)
		o, okOther := checkPartialDate(t, other)
		if !ok || !okOther {
			return
		}
		if got, want := d.Compare(o), -o.Compare(d); sign(got) != sign(want) {
			t.Errorf("%s.Compare(%s) = %d but %s.Compare(%s) = %d", s, other, got, other, s, -want)
		}
		if d.Compare(o) < 0 && d.Earliest() > o.Earliest() {
			t.Errorf("%s sorts before %s but starts later", s, other)
		}
	})
}

// checkPartialDate checks the properties of one text and reports whether
// it is a date.
func checkPartialDate(t *testing.T, s string) (casegraph.PartialDate, bool) {
	t.Helper()
	d, err := casegraph.ParsePartialDate(s)
	if err != nil {
		if code := casegraph.ErrorCode(err); code != casegraph.CodeBadUserInput {
			t.Errorf("ParsePartialDate(%q): code %s, want BAD_USER_INPUT", s, code)
		}
		return d, false
	}
	if d.IsZero() {
		t.Errorf("ParsePartialDate(%q) accepted no date", s)
	}
	if got := d.String(); got != s {
		t.Errorf("ParsePartialDate(%q).String() = %q, want the text as given", s, got)
	}
	again, err := casegraph.ParsePartialDate(d.String())
	if err != nil || again.Compare(d) != 0 {
		t.Errorf("%q does not parse back to itself: %v, %v", d.String(), again, err)
	}
	first, errFirst := time.Parse(time.DateOnly, d.Earliest())
	last, errLast := time.Parse(time.DateOnly, d.Latest())
	if errFirst != nil || errLast != nil {
		t.Fatalf("%q allows days that do not exist: %s (%v) to %s (%v)", s, d.Earliest(), errFirst, d.Latest(), errLast)
	}
	if first.After(last) || d.Earliest() > d.Latest() {
		t.Errorf("%q: earliest %s is after latest %s", s, d.Earliest(), d.Latest())
	}
	if !strings.HasPrefix(d.Earliest(), s) || !strings.HasPrefix(d.Latest(), s) {
		t.Errorf("%q: %s to %s are not days of it", s, d.Earliest(), d.Latest())
	}
	before, after := first.AddDate(0, 0, -1).Format(time.DateOnly), last.AddDate(0, 0, 1).Format(time.DateOnly)
	if strings.HasPrefix(before, s) || strings.HasPrefix(after, s) {
		t.Errorf("%q: %s to %s is not its whole range (%s or %s is in it too)", s, d.Earliest(), d.Latest(), before, after)
	}
	return d, true
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}
