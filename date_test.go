package casegraph_test

import (
	"slices"
	"strings"
	"testing"

	casegraph "github.com/casegraph/casegraph"
)

func TestParsePartialDate(t *testing.T) {
	tests := []struct {
		in               string
		earliest, latest string
		wantErr          string
	}{
		{"2011", "2011-01-01", "2011-12-31", ""},
		{"2011-03", "2011-03-01", "2011-03-31", ""},
		{"2012-02", "2012-02-01", "2012-02-29", ""},
		{"2011-03-15", "2011-03-15", "2011-03-15", ""},
		{"2012-02-29", "2012-02-29", "2012-02-29", ""},
		{"2013-13", "", "", "no month 13"},
		{"2013-00", "", "", "no month 00"},
		{"2013-02-29", "", "", "February 2013 has 28 days"},
		{"2013-02-30", "", "", "has 28 days"},
		{"2013-04-31", "", "", "April 2013 has 30 days"},
		{"0000", "", "", "0001 or later"},
		{"11", "", "", "use YYYY"},
		{"2011-3", "", "", "use YYYY"},
		{"2011-03-15T00:00", "", "", "use YYYY"},
		{"２０１１", "", "", "use YYYY"}, // full-width digits
		{"", "", "", "use YYYY"},
		{"2011-03-15-01", "", "", "use YYYY"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			d, err := casegraph.ParsePartialDate(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || casegraph.ErrorCode(err) != casegraph.CodeBadUserInput {
					t.Fatalf("err = %v, want BAD_USER_INPUT with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d.String() != tt.in || d.Earliest() != tt.earliest || d.Latest() != tt.latest {
				t.Errorf("got %s [%s, %s], want %s [%s, %s]", d, d.Earliest(), d.Latest(), tt.in, tt.earliest, tt.latest)
			}
		})
	}
}

func TestPartialDateOrder(t *testing.T) {
	in := []string{"2011-03-15", "2012", "2011-03", "2011", "2011-02-28", "2010-12-31"}
	dates := make([]casegraph.PartialDate, len(in))
	for i, s := range in {
		dates[i] = casegraph.MustPartialDate(s)
	}
	slices.SortFunc(dates, casegraph.PartialDate.Compare)
	var got []string
	for _, d := range dates {
		got = append(got, d.String())
	}
	want := []string{"2010-12-31", "2011", "2011-02-28", "2011-03", "2011-03-15", "2012"}
	if !slices.Equal(got, want) {
		t.Errorf("sorted %v, want %v", got, want)
	}
}

func TestDateRange(t *testing.T) {
	for _, tt := range []struct {
		start, end string
		ok         bool
	}{
		{"2011", "2011-03", true}, // overlapping: the end may be inside the start's year
		{"2011-03", "2011", true},
		{"2011-03-15", "2011-03-15", true},
		{"2011-03-15", "2011-03-14", false},
		{"2012", "2011-12-31", false},
		{"", "2011", true},
		{"2011", "", true},
	} {
		err := casegraph.ValidateDateRange("startDate", tt.start, "endDate", tt.end)
		if (err == nil) != tt.ok {
			t.Errorf("%q to %q: err = %v, want ok %v", tt.start, tt.end, err, tt.ok)
		}
	}
}

func TestVocabulary(t *testing.T) {
	seen := map[casegraph.RelationType]bool{}
	for _, s := range casegraph.Vocabulary() {
		if seen[s.Type] || s.Label == "" || s.InverseLabel == "" || len(s.FromKinds) == 0 || len(s.ToKinds) == 0 {
			t.Errorf("bad spec %+v", s)
		}
		seen[s.Type] = true
		if !s.Directed && s.Allows(s.FromKinds[0], s.ToKinds[0]) != s.Allows(s.ToKinds[0], s.FromKinds[0]) {
			t.Errorf("%s is undirected but not symmetric", s.Type)
		}
	}
	authored, _ := casegraph.Spec("AUTHORED")
	if !authored.Allows(casegraph.KindPerson, casegraph.KindDocument) || authored.Allows(casegraph.KindDocument, casegraph.KindPerson) {
		t.Error("AUTHORED goes from a person to a document, not back")
	}
	if _, err := casegraph.Spec("MATCH (n) DETACH DELETE n"); casegraph.ErrorCode(err) != casegraph.CodeBadUserInput {
		t.Errorf("unknown type: %v", err)
	}
}

func TestNewID(t *testing.T) {
	for name, prefix := range map[string]string{
		"Slobodan Milošević":   "slobodan-milosevic-",
		"  Sir Geoffrey Nice ": "sir-geoffrey-nice-",
		"بشار الأسد":           "person-",
		"":                     "person-",
	} {
		id := casegraph.NewID("person", name)
		if !strings.HasPrefix(id, prefix) || casegraph.ValidateID("id", id) != nil {
			t.Errorf("NewID(%q) = %q, want a valid id starting %q", name, id, prefix)
		}
	}
	if a, b := casegraph.NewID("x", "a"), casegraph.NewID("x", "a"); a == b {
		t.Errorf("two new ids are equal: %q", a)
	}
}

func TestPeriodOverlaps(t *testing.T) {
	d := func(s string) casegraph.PartialDate {
		if s == "" {
			return casegraph.PartialDate{}
		}
		return casegraph.MustPartialDate(s)
	}
	day := func(s string) casegraph.Period { return casegraph.Period{Start: d(s), End: d(s)} }
	span := func(from, to string) casegraph.Period { return casegraph.Period{Start: d(from), End: d(to)} }
	for _, c := range []struct {
		name   string
		tenure casegraph.Period
		at     casegraph.Period
		want   casegraph.Overlap
	}{
		{"a year's tenure, a day in it", span("2012", "2012"), day("2012-06-15"), casegraph.OverlapPossible},
		{"from March to the next year, a day in June", span("2012-03", "2013"), day("2012-06-15"), casegraph.OverlapCertain},
		{"the day itself", span("2012-06-15", "2012-06-15"), day("2012-06-15"), casegraph.OverlapCertain},
		{"ended the day before", span("2011", "2012-06-14"), day("2012-06-15"), casegraph.OverlapNone},
		{"began the day after", span("2012-06-16", "2014"), day("2012-06-15"), casegraph.OverlapNone},
		{"ended that month", span("2011", "2012-06"), day("2012-06-15"), casegraph.OverlapPossible},
		{"a month-dated incident inside the tenure", span("2011", "2014"), day("2012-06"), casegraph.OverlapCertain},
		{"a month-dated incident at the tenure's last month", span("2011", "2012-06"), day("2012-06"), casegraph.OverlapPossible},
		{"no end date: it may have ended before", span("2010", ""), day("2012-06-15"), casegraph.OverlapPossible},
		{"no start date: it may have begun after", span("", "2013"), day("2012-06-15"), casegraph.OverlapPossible},
		{"no start date, ended before", span("", "2011"), day("2012-06-15"), casegraph.OverlapNone},
		{"no dates at all", span("", ""), day("2012-06-15"), casegraph.OverlapPossible},
		{"an incident with no date", span("2011", "2014"), span("", ""), casegraph.OverlapPossible},
		{"two tenures that surely meet", span("2011", "2012-06"), span("2012-03", "2013"), casegraph.OverlapCertain},
		{"two tenures that may meet in a year", span("2011", "2012"), span("2012", "2013"), casegraph.OverlapPossible},
	} {
		if got := c.tenure.Overlaps(c.at); got != c.want {
			t.Errorf("%s: %v against %v: %v, want %v", c.name, c.tenure, c.at, got, c.want)
		}
		if got := c.at.Overlaps(c.tenure); got != c.want {
			t.Errorf("%s, the other way: %v, want %v", c.name, got, c.want)
		}
	}
}
