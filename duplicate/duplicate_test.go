package duplicate_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/duplicate"
)

func TestPhonetic(t *testing.T) {
	for _, tc := range []struct{ words []string }{
		{[]string{"mohammed", "muhammad", "mohamed", "mohamad"}},
		{[]string{"aleksandr", "alexander", "aleksander"}},
		{[]string{"assad", "asad"}},
		{[]string{"youssef", "yusuf", "yousef", "jusuf"}},
		{[]string{"hassan", "hasan"}},
		{[]string{"omar", "umar"}},
		{[]string{"khalil", "kalil"}},
		{[]string{"philip", "filip"}},
	} {
		want := duplicate.Phonetic(tc.words[0])
		if want == "" {
			t.Fatalf("Phonetic(%q) is empty", tc.words[0])
		}
		for _, w := range tc.words[1:] {
			if got := duplicate.Phonetic(w); got != want {
				t.Errorf("Phonetic(%q) = %q, want %q (as %q)", w, got, want, tc.words[0])
			}
		}
	}
	for _, pair := range [][2]string{{"smith", "haddad"}, {"ahmad", "mahmud"}, {"123", "124"}} {
		if a, b := duplicate.Phonetic(pair[0]), duplicate.Phonetic(pair[1]); a == b {
			t.Errorf("Phonetic(%q) = Phonetic(%q) = %q, want them different", pair[0], pair[1], a)
		}
	}
}

func TestCompareNames(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b string
		want duplicate.NameMatch
	}{
		{"same", "Ahmad Haddad", "AHMAD HADDAD", duplicate.NameMatch{Similarity: 1}},
		{"accents", "Miloš Petrović", "Milos Petrovic", duplicate.NameMatch{Similarity: 1}},
		{"particle", "Bashar al-Assad", "Bashar Assad", duplicate.NameMatch{Similarity: 1}},
		{"transliteration", "Bashar al-Assad", "Bashar al Asad", duplicate.NameMatch{Similarity: 0.95, Sound: true}},
		{"initials", "J. R. Smith", "John Robert Smith", duplicate.NameMatch{Similarity: 0.9, Initials: true}},
		{"the same initials", "A. Limhamo", "A. Limhamo", duplicate.NameMatch{Similarity: 0.925, Initials: true}},
		{"initial and missing middle name", "J. Smith", "John Robert Smith", duplicate.NameMatch{Similarity: 0.875, Initials: true}},
		{"swapped", "Smith, John", "John Smith", duplicate.NameMatch{Similarity: 1, Reordered: true}},
		{"other surname", "Ahmad Haddad", "Ahmad Khalil", duplicate.NameMatch{}},
		{"one word and two", "Haddad", "Ahmad Haddad", duplicate.NameMatch{}},
		{"a name within a longer one", "Caesar report", "News article on the Caesar report", duplicate.NameMatch{Similarity: 0.6499999999999999}},
		{"initials only", "A. H.", "Ahmad Haddad", duplicate.NameMatch{}},
		{"numbers differ", "National Front 123", "National Front 124", duplicate.NameMatch{}},
		{"sound", "Jovanovic Dragan", "Jovanovich Dragan", duplicate.NameMatch{Similarity: 0.95, Sound: true}},
		{"typo", "Dragan Jovanovic", "Dragan Jovanovics", duplicate.NameMatch{Similarity: 0.9410000000000001, Spelling: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := duplicate.CompareNames(duplicate.NameWords(tc.a), duplicate.NameWords(tc.b))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("CompareNames(%q, %q) (-want +got):\n%s", tc.a, tc.b, diff)
			}
		})
	}
}

func TestScore(t *testing.T) {
	person := func(id, name string, aliases ...string) casegraph.Entity {
		return casegraph.Entity{ID: id, Kind: casegraph.KindPerson, Name: name, Aliases: aliases}
	}
	event := func(id, name, start, end string) casegraph.Entity {
		e := casegraph.Entity{ID: id, Kind: casegraph.KindEvent, Name: name}
		e.StartDate, e.EndDate = start, end
		return e
	}
	withNationality := func(e casegraph.Entity, n string) casegraph.Entity { e.Nationality = n; return e }
	for _, tc := range []struct {
		name   string
		a, b   casegraph.Entity
		shared []duplicate.SharedNeighbour
		want   *duplicate.Candidate // nil: names not alike
	}{
		{name: "alias, initials, one shared neighbour of degree 2",
			a: person("p:2", "John Robert Smith"), b: person("p:1", "Smithy", "J. R. Smith"),
			shared: []duplicate.SharedNeighbour{{Degree: 2}},
			want: &duplicate.Candidate{Pair: duplicate.Pair{A: "p:1", B: "p:2"}, Score: 0.71, Reasons: []duplicate.Reason{
				{Kind: duplicate.ReasonAlias, Detail: `"John Robert Smith" and "J. R. Smith": 90% alike`, Weight: 0.54},
				{Kind: duplicate.ReasonInitials, Detail: "a word matches its initial"},
				{Kind: duplicate.ReasonSameKind, Detail: "both are Person", Weight: 0.05},
				{Kind: duplicate.ReasonSharedNeighbours, Detail: "1 shared neighbour(s)", Weight: 0.12},
			}}},
		{name: "other nationality",
			a: withNationality(person("p:1", "Mohammed Haddad"), "SY"), b: withNationality(person("p:2", "Muhammad Haddad"), "QA"),
			want: &duplicate.Candidate{Pair: duplicate.Pair{A: "p:1", B: "p:2"}, Score: 0.52, Reasons: []duplicate.Reason{
				{Kind: duplicate.ReasonName, Detail: `"Mohammed Haddad" and "Muhammad Haddad": 95% alike`, Weight: 0.57},
				{Kind: duplicate.ReasonTransliteration, Detail: "a word matches another spelling of it"},
				{Kind: duplicate.ReasonSameKind, Detail: "both are Person", Weight: 0.05},
				{Kind: duplicate.ReasonNationality, Detail: "SY and QA", Weight: -0.1},
			}}},
		{name: "events of compatible dates",
			a: event("e:1", "Siege of Homs", "2012", ""), b: event("e:2", "Homs siege", "2012-02", "2014-05"),
			want: &duplicate.Candidate{Pair: duplicate.Pair{A: "e:1", B: "e:2"}, Score: 0.7, Reasons: []duplicate.Reason{
				{Kind: duplicate.ReasonName, Detail: `"Siege of Homs" and "Homs siege": 100% alike`, Weight: 0.6},
				{Kind: duplicate.ReasonWordOrder, Detail: "the words come in another order"},
				{Kind: duplicate.ReasonSameKind, Detail: "both are Event", Weight: 0.05},
				{Kind: duplicate.ReasonDates, Detail: "their dates are compatible", Weight: 0.05},
			}}},
		{name: "events of incompatible dates",
			a: event("e:1", "Siege of Homs", "2012", "2014"), b: event("e:2", "Siege of Homs", "2016", ""),
			want: &duplicate.Candidate{Pair: duplicate.Pair{A: "e:1", B: "e:2"}, Score: 0.4, Reasons: []duplicate.Reason{
				{Kind: duplicate.ReasonName, Detail: `"Siege of Homs" and "Siege of Homs": 100% alike`, Weight: 0.6},
				{Kind: duplicate.ReasonSameKind, Detail: "both are Event", Weight: 0.05},
				{Kind: duplicate.ReasonDates, Detail: "their dates cannot be the same", Weight: -0.25},
			}}},
		{name: "names not alike", a: person("p:1", "Ahmad Haddad"), b: person("p:2", "Ahmad Khalil")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			names, ok := duplicate.ScoreNames(tc.a, tc.b)
			if !ok {
				if tc.want != nil {
					t.Fatalf("ScoreNames: not alike, want alike")
				}
				return
			}
			if tc.want == nil {
				t.Fatalf("ScoreNames: alike (%v), want not alike", names)
			}
			got := duplicate.Score(tc.a, tc.b, names, tc.shared)
			if diff := cmp.Diff(*tc.want, got); diff != "" {
				t.Errorf("Score (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBlockNames(t *testing.T) {
	es := []casegraph.Entity{
		{ID: "p0", Kind: casegraph.KindPerson, Name: "John Robert Smith"},
		{ID: "p1", Kind: casegraph.KindPerson, Name: "J. R. Smith"},
		{ID: "p2", Kind: casegraph.KindPerson, Name: "Bashar al-Assad"},
		{ID: "p3", Kind: casegraph.KindPerson, Name: "Asad, Bashar"},
		{ID: "o4", Kind: casegraph.KindOrganization, Name: "Bashar al-Assad"}, // another kind: never paired
		{ID: "p5", Kind: casegraph.KindPerson, Name: "Carla Smith"},
		{ID: "p6", Kind: casegraph.KindPerson, Name: "Ahmad Haddad"},
		{ID: "p7", Kind: casegraph.KindPerson, Name: "Ahmed Hadad"},
		{ID: "p8", Kind: casegraph.KindPerson, Name: "Ahmad Khalil"},
	}
	pairs := func(b duplicate.Blocking) []duplicate.Pair {
		var out []duplicate.Pair
		for _, c := range b.Candidates {
			out = append(out, duplicate.OrderedPair(es[c.I].ID, es[c.J].ID))
		}
		return out
	}
	all := []duplicate.Pair{{A: "p2", B: "p3"}, {A: "p0", B: "p1"}, {A: "p6", B: "p7"}}
	for _, tc := range []struct {
		name   string
		limits duplicate.Limits
		skip   func(duplicate.Pair) bool
		want   []duplicate.Pair
	}{
		{name: "default limits", limits: duplicate.DefaultLimits(), want: all},
		{name: "dismissed skipped", limits: duplicate.DefaultLimits(),
			skip: func(p duplicate.Pair) bool { return p == duplicate.Pair{A: "p6", B: "p7"} },
			want: all[:2]},
		// Smith's block (three) is skipped, and John Robert Smith has rare
		// words (John, Robert) that J. R. Smith does not spell out.
		{name: "blocks of two only", limits: duplicate.Limits{MaxBlock: 2, MaxComparisons: 100, MaxCandidates: 100},
			want: []duplicate.Pair{all[0], all[2]}},
		{name: "one comparison", limits: duplicate.Limits{MaxBlock: 200, MaxComparisons: 1, MaxCandidates: 100},
			want: all[:1]},
		{name: "one candidate", limits: duplicate.Limits{MaxBlock: 200, MaxComparisons: 100, MaxCandidates: 1},
			want: all[:1]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := duplicate.BlockNames(context.Background(), es, tc.limits, tc.skip)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, pairs(got)); diff != "" {
				t.Errorf("pairs (-want +got):\n%s", diff)
			}
			if got.Compared > tc.limits.MaxComparisons {
				t.Errorf("compared %d pairs, more than %d", got.Compared, tc.limits.MaxComparisons)
			}
		})
	}
}

// TestBlockNamesStops: a run whose request has ended stops with its error.
func TestBlockNamesStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	es := []casegraph.Entity{{ID: "a", Kind: casegraph.KindPerson, Name: "Ahmad Haddad"}, {ID: "b", Kind: casegraph.KindPerson, Name: "Ahmad Haddad"}}
	if _, err := duplicate.BlockNames(ctx, es, duplicate.DefaultLimits(), nil); err != context.Canceled {
		t.Errorf("err = %v, want %v", err, context.Canceled)
	}
}

func TestDuplicateQueryNormalize(t *testing.T) {
	q := duplicate.Request{Dataset: "d", First: 10, Kinds: []casegraph.Kind{casegraph.KindPerson, casegraph.KindEvent, casegraph.KindPerson}}
	if err := q.Normalize(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]casegraph.Kind{casegraph.KindEvent, casegraph.KindPerson}, q.Kinds); diff != "" {
		t.Errorf("kinds (-want +got):\n%s", diff)
	}
	for _, bad := range []duplicate.Request{{Dataset: "", First: 10}, {Dataset: "d", First: 0}, {Dataset: "d", First: 101}} {
		if err := bad.Normalize(); casegraph.ErrorCode(err) != casegraph.CodeBadUserInput {
			t.Errorf("%+v: %v, want BAD_USER_INPUT", bad, err)
		}
	}
}
