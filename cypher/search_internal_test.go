package cypher

import (
	"regexp"
	"strings"
	"testing"

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

// TestLuceneSearchBoundsTypos: a long text matches one typo away only by
// its first maxTypoWords words of 4 letters or more (Lucene refuses a
// query of more than 1,024 clauses, and each typo term becomes up to 50).
func TestLuceneSearchBoundsTypos(t *testing.T) {
	words := casegraph.Words(strings.Repeat("12345 ab ", 22))
	q := LuceneSearch(words)
	if n := strings.Count(q, "~1"); n != 2*maxTypoWords {
		t.Errorf("%d typo terms, want %d: %s", n, 2*maxTypoWords, q)
	}
}

// TestLuceneSearchTypoClausesOnce: each typo clause (a fuzzy term, which
// Lucene rewrites into the terms it matches each time it meets it) is in
// the query once, in its word's clause, and the group of every word holds
// the words whole, as a prefix and in the description only.
func TestLuceneSearchTypoClausesOnce(t *testing.T) {
	words := []string{"omar", "al", "conteh", "of", "damascus"}
	q := LuceneSearch(words)
	for _, w := range []string{"omar", "conteh", "damascus"} {
		for _, field := range []string{"searchName", "searchAliases"} {
			if n := strings.Count(q, field+":"+w+"~1"); n != 1 {
				t.Errorf("%s:%s~1 %d times in %s", field, w, n, q)
			}
		}
	}
	if strings.Contains(q, "al~1") || strings.Contains(q, ":of") {
		t.Errorf("a typo clause of a short word, or a stop word: %s", q)
	}
	every := everyWord(casegraph.ContentWords(words))
	if !strings.Contains(q, every+"^4 OR ") || strings.Contains(every, "~") {
		t.Errorf("every word's group %s in %s", every, q)
	}
}
