package cypher

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	casegraph "github.com/casegraph/casegraph"
)

// TestExactName: a text of stop words only keeps the folded names and
// aliases that are just those words, whatever separates them; any other
// text keeps everything.
func TestExactName(t *testing.T) {
	if p := exactName([]string{"the", "hague"}); p != nil {
		t.Errorf("a text with a content word: %v, want nil", p)
	}
	re := regexp.MustCompile("^(?:" + exactName([]string{"to", "be"}).(string) + ")$")
	for name, want := range map[string]bool{
		"to be": true, "to-be": true, " to  be.": true, "(to be)": true,
		"to be or not": false, "to bed": false, "tobe": false, "to": false,
	} {
		if got := re.MatchString(name); got != want {
			t.Errorf("%q: matched %v, want %v", name, got, want)
		}
	}
}

// FuzzOneEditForms: for any text searched and any word of an entity's
// text, Search's statement's test of a word (a form of its own length,
// rankParams' $edits, that it begins and ends with) says what
// casegraph.Rank's does: the word is within one edit of a word searched
// (casegraph.WithinOneEdit, of the words RankingWords keeps). Go's
// HasPrefix, HasSuffix and rune count stand for Cypher's STARTS WITH,
// ENDS WITH and size(), which counts characters, not UTF-16 units.
func FuzzOneEditForms(f *testing.F) {
	for _, seed := range [][2]string{
		{"ponte", "pont"}, {"ponte", "ponta"}, {"ponte", "pontes"}, {"ponte", "opnte"}, {"carla ponte", "karla"},
		{"x", "y"}, {"the of", "to"}, {"𠀀𠀁", "𠀀𠀂"}, {"milošević", "milosevic"}, {"abc", "abcde"}, {"ab", "ba"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, text, entity string) {
		words := casegraph.Words(text)
		if len(words) == 0 {
			return
		}
		_, match := casegraph.RankingWords(words)
		edits := rankParams(words)["edits"].([][][]string)
		for _, h := range casegraph.Words(entity) {
			want := slices.ContainsFunc(match, func(w string) bool { return casegraph.WithinOneEdit(h, w) })
			got := false
			if n := utf8.RuneCountInString(h); n < len(edits) {
				got = slices.ContainsFunc(edits[n], func(e []string) bool { return strings.HasPrefix(h, e[0]) && strings.HasSuffix(h, e[1]) })
			}
			if got != want {
				t.Fatalf("%q against the words %q: the forms say %v, WithinOneEdit %v", h, match, got, want)
			}
		}
	})
}
