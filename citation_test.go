package casegraph_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	casegraph "github.com/casegraph/casegraph"
)

func TestSourceGradesAndFieldsValidate(t *testing.T) {
	ok := casegraph.Source{ID: "s", Title: "A report", Dataset: "d", Kind: casegraph.SourceReport, Language: "ar",
		ArchivedURL: "https://web.archive.org/web/2014/https://example.org/r", SHA256: strings.Repeat("ab", 32), Reliability: casegraph.ReliabilityB}
	if err := ok.Validate(); err != nil {
		t.Fatalf("a valid source: %v", err)
	}
	tests := []struct {
		name, want string
		change     func(*casegraph.Source)
	}{
		{"unknown kind", "unknown source kind \"BLOG\" (one of ARTICLE,", func(s *casegraph.Source) { s.Kind = "BLOG" }},
		{"a three-letter language", "ISO 639-1", func(s *casegraph.Source) { s.Language = "eng" }},
		{"an upper-case language", "ISO 639-1", func(s *casegraph.Source) { s.Language = "EN" }},
		{"no such language", "ISO 639-1", func(s *casegraph.Source) { s.Language = "zz" }},
		{"a relative archived URL", "archivedUrl", func(s *casegraph.Source) { s.ArchivedURL = "/web/2014" }},
		{"an ftp archived URL", "archivedUrl", func(s *casegraph.Source) { s.ArchivedURL = "ftp://example.org/x" }},
		{"a short hash", "sha256", func(s *casegraph.Source) { s.SHA256 = "abc" }},
		{"an upper-case hash", "sha256", func(s *casegraph.Source) { s.SHA256 = strings.Repeat("AB", 32) }},
		{"a SHA-1", "sha256", func(s *casegraph.Source) { s.SHA256 = strings.Repeat("a", 40) }},
		{"reliability G", "reliability \"G\" is not a reliability grade A to F", func(s *casegraph.Source) { s.Reliability = "G" }},
		{"reliability in lower case", "reliability \"b\"", func(s *casegraph.Source) { s.Reliability = "b" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := ok
			tt.change(&s)
			err := s.Validate()
			if casegraph.ErrorCode(err) != casegraph.CodeBadUserInput || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err %v, want BAD_USER_INPUT saying %q", err, tt.want)
			}
		})
	}
	s := casegraph.Source{ID: "s", Title: "t", Dataset: "d"}
	if err := s.Normalize(); err != nil || s.Reliability != casegraph.DefaultReliability {
		t.Errorf("a source without a reliability: %q, %v; want %q", s.Reliability, err, casegraph.DefaultReliability)
	}
}

func TestCitationsValidate(t *testing.T) {
	base := casegraph.Relation{ID: "r", Type: "AUTHORED", FromID: "a", ToID: "b", Dataset: "d"}
	tests := []struct {
		name      string
		citations []casegraph.Citation
		sourceIDs []string
		quote     string
		want      string // "" for valid
	}{
		{name: "two sources, two quotes", citations: []casegraph.Citation{
			{SourceID: "s1", Quote: "one", Locator: "p. 12", Credibility: 2}, {SourceID: "s2", Quote: "two", Locator: "00:12:31"}}},
		{name: "credibility 1 is computed, not typed", citations: []casegraph.Citation{{SourceID: "s1", Credibility: 1}},
			want: "citations[0].credibility: 1 (confirmed by other sources) is not typed"},
		{name: "credibility 7", citations: []casegraph.Citation{{SourceID: "s1", Credibility: 7}}, want: "credibility 7 is not a credibility grade 2 to 6"},
		{name: "a long locator", citations: []casegraph.Citation{{SourceID: "s1", Locator: strings.Repeat("p", 101)}}, want: "citations[0].locator"},
		{name: "a bad source id", citations: []casegraph.Citation{{SourceID: "../x"}}, want: "citations[0].sourceId"},
		{name: "the old way", sourceIDs: []string{"s1", "s2"}, quote: "q"},
		{name: "no evidence", want: "sourceIds: cite at least one source"},
		{name: "both ways, saying the same", citations: []casegraph.Citation{{SourceID: "s1", Quote: "q"}}, sourceIDs: []string{"s1"}, quote: "q"},
		{name: "both ways, disagreeing", citations: []casegraph.Citation{{SourceID: "s1"}}, sourceIDs: []string{"s2"},
			want: "give citations, or sourceIds and quote"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := base
			r.Citations, r.SourceIDs, r.Quote = tt.citations, tt.sourceIDs, tt.quote
			err := r.Normalize()
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Normalize: %v", err)
				}
				return
			}
			if casegraph.ErrorCode(err) != casegraph.CodeBadUserInput || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err %v, want BAD_USER_INPUT saying %q", err, tt.want)
			}
		})
	}
}

// The old shape (sources and one quote) becomes one citation per source,
// the quote on the first; and what the old shape could say reads back as
// it (OldShape), what it could not does not.
func TestCitationsOfTheOldShape(t *testing.T) {
	r := casegraph.Relation{ID: "r", Type: "AUTHORED", FromID: "a", ToID: "b", Dataset: "d", SourceIDs: []string{"s1", "s2"}, Quote: "words"}
	if err := r.Normalize(); err != nil {
		t.Fatal(err)
	}
	want := []casegraph.Citation{{SourceID: "s1", Quote: "words", Credibility: 6}, {SourceID: "s2", Credibility: 6}}
	if diff := cmp.Diff(want, r.Citations); diff != "" {
		t.Errorf("citations (-want +got):\n%s", diff)
	}
	if ids, quote, old := casegraph.OldShape(r.Citations); !old || quote != "words" || !cmp.Equal(ids, []string{"s1", "s2"}) {
		t.Errorf("OldShape = %v, %q, %t; want [s1 s2], words, true", ids, quote, old)
	}
	for name, cs := range map[string][]casegraph.Citation{
		"a quote on the second": {{SourceID: "s1", Credibility: 6}, {SourceID: "s2", Quote: "x", Credibility: 6}},
		"a locator":             {{SourceID: "s1", Locator: "p. 1", Credibility: 6}},
		"a credibility":         {{SourceID: "s1", Credibility: 3}},
		"a source twice":        {{SourceID: "s1", Quote: "a", Credibility: 6}, {SourceID: "s1", Quote: "b", Credibility: 6}},
	} {
		if _, _, old := casegraph.OldShape(cs); old {
			t.Errorf("%s: OldShape says the old shape holds it", name)
		}
	}
}

func TestGradeCitations(t *testing.T) {
	sources := map[string]casegraph.Source{
		"guardian":  {ID: "guardian", Publisher: "The Guardian", Reliability: casegraph.ReliabilityB},
		"guardian2": {ID: "guardian2", Publisher: "the guardian ", Reliability: casegraph.ReliabilityC},
		"hrw":       {ID: "hrw", Publisher: "Human Rights Watch", Reliability: casegraph.ReliabilityA},
		"anonymous": {ID: "anonymous", Reliability: casegraph.ReliabilityE},
		"ungraded":  {ID: "ungraded", Publisher: "Someone"},
	}
	tests := []struct {
		name      string
		citations []casegraph.Citation
		want      []casegraph.Grade
	}{
		{"one source: its reliability and the typed credibility",
			[]casegraph.Citation{{SourceID: "guardian", Credibility: 3}}, []casegraph.Grade{"B3"}},
		{"an independent source of 3 or better confirms the other (and is confirmed by it)",
			[]casegraph.Citation{{SourceID: "guardian", Credibility: 3}, {SourceID: "hrw", Credibility: 2}}, []casegraph.Grade{"B1", "A1"}},
		{"confirmation needs only the other to be credible",
			[]casegraph.Citation{{SourceID: "guardian", Credibility: 6}, {SourceID: "hrw", Credibility: 2}}, []casegraph.Grade{"B1", "A2"}},
		{"a doubtful independent source confirms nothing",
			[]casegraph.Citation{{SourceID: "guardian", Credibility: 3}, {SourceID: "hrw", Credibility: 4}}, []casegraph.Grade{"B3", "A1"}},
		{"one publisher (case and spacing aside) is not independent",
			[]casegraph.Citation{{SourceID: "guardian", Credibility: 2}, {SourceID: "guardian2", Credibility: 2}}, []casegraph.Grade{"B2", "C2"}},
		{"a publisher unknown is not independent",
			[]casegraph.Citation{{SourceID: "guardian", Credibility: 2}, {SourceID: "anonymous", Credibility: 2}}, []casegraph.Grade{"B2", "E2"}},
		{"one source cited twice does not confirm itself",
			[]casegraph.Citation{{SourceID: "hrw", Credibility: 2, Locator: "p. 1"}, {SourceID: "hrw", Credibility: 2, Locator: "p. 9"}}, []casegraph.Grade{"A2", "A2"}},
		{"a source without a reliability, or missing, is F",
			[]casegraph.Citation{{SourceID: "ungraded", Credibility: 5}, {SourceID: "gone"}}, []casegraph.Grade{"F5", "F6"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			graded := casegraph.GradeCitations(tt.citations, sources)
			got := make([]casegraph.Grade, len(graded))
			for i, c := range graded {
				got[i] = c.Grade
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("grades (-want +got):\n%s", diff)
			}
			if tt.citations[0].Grade != "" {
				t.Errorf("GradeCitations changed its argument")
			}
		})
	}
}

func TestGradeFilter(t *testing.T) {
	cs := []casegraph.Citation{{Grade: "C2"}, {Grade: "A5"}}
	tests := []struct {
		f    casegraph.GradeFilter
		want bool
	}{
		{casegraph.GradeFilter{}, true},
		{casegraph.DefaultGradeFilter(), true},
		{casegraph.GradeFilter{MinReliability: "C", MinCredibility: 2}, true},
		{casegraph.GradeFilter{MinReliability: "A"}, true},
		{casegraph.GradeFilter{MinReliability: "A", MinCredibility: 4}, false}, // no one citation meets both
		{casegraph.GradeFilter{MinReliability: "B", MinCredibility: 3}, false},
		{casegraph.GradeFilter{MinCredibility: 1}, false},
	}
	for _, tt := range tests {
		if got := tt.f.Keeps(cs); got != tt.want {
			t.Errorf("%+v keeps C2, A5: %t, want %t", tt.f, got, tt.want)
		}
	}
	if casegraph.DefaultGradeFilter().Set() {
		t.Error("the default filter (F, 6) asks for something")
	}
	for _, f := range []casegraph.GradeFilter{{MinReliability: "G"}, {MinCredibility: 7}, {MinCredibility: -1}} {
		if err := f.Validate(); casegraph.ErrorCode(err) != casegraph.CodeBadUserInput {
			t.Errorf("%+v: err %v, want BAD_USER_INPUT", f, err)
		}
	}
	// Credibility 1 is a fine minimum: the confirmed.
	if err := (casegraph.GradeFilter{MinReliability: "A", MinCredibility: 1}).Validate(); err != nil {
		t.Errorf("A1: %v", err)
	}
}

// A merge keeps every citation of the survivor and of the merged, each
// once: a source both cite with other words is cited twice.
func TestPlanMergeKeepsCitations(t *testing.T) {
	survivor := casegraph.Entity{ID: "a", Kind: casegraph.KindPerson, Name: "A",
		Citations: []casegraph.Citation{{SourceID: "s1", Quote: "a", Credibility: 2, Grade: "B2"}}}
	merged := casegraph.Entity{ID: "b", Kind: casegraph.KindPerson, Name: "B",
		Citations: []casegraph.Citation{{SourceID: "s1", Quote: "a", Credibility: 2}, {SourceID: "s1", Quote: "b", Credibility: 6}}}
	plan, err := casegraph.PlanMerge(survivor, []casegraph.Entity{merged, {ID: "c", Kind: casegraph.KindPerson, Name: "C", SourceIDs: []string{"s2"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := []casegraph.Citation{{SourceID: "s1", Quote: "a", Credibility: 2}, {SourceID: "s1", Quote: "b", Credibility: 6}, {SourceID: "s2", Credibility: 6}}
	if diff := cmp.Diff(want, plan.Citations); diff != "" {
		t.Errorf("citations (-want +got):\n%s", diff)
	}
	if !cmp.Equal(plan.SourceIDs, []string{"s1", "s2"}) {
		t.Errorf("sources %v, want [s1 s2]", plan.SourceIDs)
	}
}
