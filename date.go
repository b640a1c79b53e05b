package casegraph

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// PartialDate is a date as investigations know it: a year (2011), a month
// (2011-03) or a day (2011-03-15). The zero value is "no date".
//
// Comparisons use the range of days a partial date allows: 2011-03 runs
// from 2011-03-01 (Earliest) to 2011-03-31 (Latest). Sorted by Compare,
// 2011 comes before 2011-03, which comes before 2011-03-15: earlier first
// day first, and on the same first day the less precise date first.
type PartialDate struct {
	year, month, day int // month and day are 0 when not known
}

// ParsePartialDate parses YYYY, YYYY-MM or YYYY-MM-DD and refuses dates that
// do not exist (2013-13, 2013-02-30) with a BAD_USER_INPUT error. The year
// must be between 1 and 9999.
func ParsePartialDate(s string) (PartialDate, error) {
	bad := func(why string) (PartialDate, error) {
		return PartialDate{}, Errorf(CodeBadUserInput, "%q is not a valid date: %s", truncate(s, 40), why)
	}
	parts := strings.Split(s, "-")
	if len(parts) > 3 {
		return bad("use YYYY, YYYY-MM or YYYY-MM-DD")
	}
	widths := []int{4, 2, 2}
	nums := make([]int, len(parts))
	for i, p := range parts {
		if len(p) != widths[i] {
			return bad("use YYYY, YYYY-MM or YYYY-MM-DD")
		}
		for _, c := range p {
			if c < '0' || c > '9' {
				return bad("use YYYY, YYYY-MM or YYYY-MM-DD")
			}
		}
		nums[i], _ = strconv.Atoi(p)
	}
	d := PartialDate{year: nums[0]}
	if d.year < 1 {
		return bad("the year must be 0001 or later")
	}
	if len(nums) > 1 {
		d.month = nums[1]
		if d.month < 1 || d.month > 12 {
			return bad("there is no month " + parts[1])
		}
	}
	if len(nums) > 2 {
		d.day = nums[2]
		if d.day < 1 || d.day > daysIn(d.year, d.month) {
			return bad(fmt.Sprintf("%s %04d has %d days", time.Month(d.month), d.year, daysIn(d.year, d.month)))
		}
	}
	return d, nil
}

// MustPartialDate is ParsePartialDate for literals known to be valid.
func MustPartialDate(s string) PartialDate {
	d, err := ParsePartialDate(s)
	if err != nil {
		panic(err)
	}
	return d
}

func daysIn(year, month int) int {
	return time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// IsZero reports whether d is "no date".
func (d PartialDate) IsZero() bool { return d.year == 0 }

// String formats d as it was given: YYYY, YYYY-MM or YYYY-MM-DD.
func (d PartialDate) String() string {
	switch {
	case d.year == 0:
		return ""
	case d.month == 0:
		return fmt.Sprintf("%04d", d.year)
	case d.day == 0:
		return fmt.Sprintf("%04d-%02d", d.year, d.month)
	}
	return fmt.Sprintf("%04d-%02d-%02d", d.year, d.month, d.day)
}

// Earliest is the first day d allows, as YYYY-MM-DD.
func (d PartialDate) Earliest() string {
	return d.earliest().String()
}

// Latest is the last day d allows, as YYYY-MM-DD.
func (d PartialDate) Latest() string {
	return d.latest().String()
}

// day is a day as the number YYYYMMDD, which orders days as they come
// (and as their YYYY-MM-DD strings sort): what comparisons of periods
// use, so that the command queries' overlaps, thousands an answer, make
// no strings.
type day int

// Days before and after every day a date allows: the bounds of a
// period whose start or end is not known.
const (
	beforeEveryDay day = 0
	afterEveryDay  day = 99999999
)

func dayOf(year, month, d int) day { return day(year*10000 + month*100 + d) }

// String is the day as YYYY-MM-DD.
func (d day) String() string {
	return fmt.Sprintf("%04d-%02d-%02d", int(d)/10000, int(d)/100%100, int(d)%100)
}

// earliest is the first day d allows.
func (d PartialDate) earliest() day {
	return dayOf(d.year, max(d.month, 1), max(d.day, 1))
}

// latest is the last day d allows.
func (d PartialDate) latest() day {
	m := d.month
	if m == 0 {
		m = 12
	}
	last := d.day
	if last == 0 {
		last = daysIn(d.year, m)
	}
	return dayOf(d.year, m, last)
}

// precision is 1 for a year, 2 for a month, 3 for a day.
func (d PartialDate) precision() int {
	switch {
	case d.month == 0:
		return 1
	case d.day == 0:
		return 2
	}
	return 3
}

// Compare orders dates by their first day, then the less precise first.
func (d PartialDate) Compare(o PartialDate) int {
	if c := cmp.Compare(d.earliest(), o.earliest()); c != 0 {
		return c
	}
	return d.precision() - o.precision()
}

// ValidateDateRange checks two optional partial dates and that the end can
// not be before the start: an end is before a start when its last possible
// day is before the start's first possible day (2011 to 2011-03 is fine).
func ValidateDateRange(startField, start, endField, end string) error {
	var s, e PartialDate
	var err error
	if start != "" {
		if s, err = ParsePartialDate(start); err != nil {
			return InField(startField, err)
		}
	}
	if end != "" {
		if e, err = ParsePartialDate(end); err != nil {
			return InField(endField, err)
		}
	}
	if !s.IsZero() && !e.IsZero() && e.Latest() < s.Earliest() {
		return Errorf(CodeBadUserInput, "%s %s is before %s %s", endField, end, startField, start)
	}
	return nil
}

// ValidateDate checks one optional partial date.
func ValidateDate(field, value string) error {
	if value == "" {
		return nil
	}
	if _, err := ParsePartialDate(value); err != nil {
		return InField(field, err)
	}
	return nil
}

// Period is a span of partial dates, a tenure or an incident's: a zero
// Start or End is not known (not "open": a post with no end date may have
// ended on a day no source gives).
type Period struct {
	Start, End PartialDate
}

// Overlap says how surely two periods share a day, given only what their
// partial dates allow.
type Overlap int

// The overlaps, from none to certain.
const (
	// OverlapNone: no reading of the two periods shares a day.
	OverlapNone Overlap = iota
	// OverlapPossible: some readings share a day, others do not (a
	// tenure of "2012" against an incident on 2012-06-15), or a date
	// the question needs is not known.
	OverlapPossible
	// OverlapCertain: every reading shares a day (a tenure from 2012-03
	// to 2013 against an incident on 2012-06-15).
	OverlapCertain
)

// String names the overlap as the API does: NONE, POSSIBLE or CERTAIN.
func (o Overlap) String() string {
	switch o {
	case OverlapCertain:
		return "CERTAIN"
	case OverlapPossible:
		return "POSSIBLE"
	}
	return "NONE"
}

// Overlaps says how surely p and q share a day. A period is any span
// from a day its start allows to a day its end allows, never ending
// before it starts; a date not known allows any day (a start no later
// than the end, an end no earlier than the start). They may share a day
// when the earliest start of each is no later than the latest end of the
// other, and surely do when the latest start of each is no later than
// the earliest end of the other. So a date not known can make an overlap
// possible, never certain: a gap in the record stays a gap.
func (p Period) Overlaps(q Period) Overlap {
	if p.earliestStart() > q.latestEnd() || q.earliestStart() > p.latestEnd() {
		return OverlapNone
	}
	if p.latestStart() <= q.earliestEnd() && q.latestStart() <= p.earliestEnd() {
		return OverlapCertain
	}
	return OverlapPossible
}

// Bounds of the days a period's ends allow; a date not known is bounded
// only by the other end.
func (p Period) earliestStart() day {
	if p.Start.IsZero() {
		return beforeEveryDay
	}
	return p.Start.earliest()
}

func (p Period) latestEnd() day {
	if p.End.IsZero() {
		return afterEveryDay
	}
	return p.End.latest()
}

// latestStart is the last day the start allows that is no later than the
// end's last.
func (p Period) latestStart() day {
	s := afterEveryDay
	if !p.Start.IsZero() {
		s = p.Start.latest()
	}
	return min(s, p.latestEnd())
}

// earliestEnd is the first day the end allows that is no earlier than
// the start's first.
func (p Period) earliestEnd() day {
	e := beforeEveryDay
	if !p.End.IsZero() {
		e = p.End.earliest()
	}
	return max(e, p.earliestStart())
}
