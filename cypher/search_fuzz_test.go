package cypher

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	casegraph "github.com/casegraph/casegraph"
)

// FuzzSearchQuery: any search text is refused with BAD_USER_INPUT or gives
// full-text queries (search, suggest, each scoped to datasets and kinds)
// that a strict reader of the small Lucene grammar they are written in
// accepts, whose terms are only the words of the text (letters and digits,
// never an operator: Lucene's are upper case) or the scope tokens, and
// that name every word. (The number of terms is not bounded here: Neo4j
// took a query of 1,045 terms, over Lucene's default of 1,024 clauses.)
func FuzzSearchQuery(f *testing.F) {
	for _, seed := range []string{
		"caesar", "Slobodan Milošević", "de Silva", "Carter-Ruck", "O'Brien", "AND OR NOT", "a AND b",
		`name:x OR *`, `"quoted phrase"~3`, "fuzzy~2 boost^10", "(group) [range TO z] {x TO y}", `\escaped\:colon`,
		"+must -not !bang && || ?", "/regex.*/", "ＡＮＤ ＯＲ", "ǅ ǈ ǋ", "İstanbul ß ﬁ", "x\u0301\u0301", "a\u3000b",
		"١٢٣ ٤", "中文 検索", "a b c d e f g h i j k l m n o p q r s t u v w x y z a b c d e f g h i j k l m n o p q r s t u v w x y z a b c d e f g h i j k l m n o p q r s t u v w x y z a b c d e f g h i j k l m n o p q r s t u v w x y z",
		"", " ", "!!", "a", "\xff\xfe", "\x00\x00", strings.Repeat("ab", 101),
	} {
		f.Add(seed)
	}
	filter := casegraph.SearchFilter{
		Kinds:    casegraph.Kinds(),
		Datasets: []string{"caesar-report", "a dataset: (with) [syntax]*", "ÉTÉ"},
	}
	f.Fuzz(func(t *testing.T, text string) {
		words, err := casegraph.ValidateSearchText("text", text)
		if err != nil {
			if code := casegraph.ErrorCode(err); code != casegraph.CodeBadUserInput {
				t.Fatalf("ValidateSearchText(%q): code %s, want BAD_USER_INPUT", text, code)
			}
			return
		}
		if len(words) == 0 {
			t.Fatalf("ValidateSearchText(%q) accepted no words", text)
		}
		for name, q := range map[string]string{
			"search": LuceneSearch(words), "suggest": luceneSuggest(words),
			"scoped search": scoped(LuceneSearch(words), filter), "scoped suggest": scoped(luceneSuggest(words), filter),
		} {
			terms, err := readLucene(q)
			if err != nil {
				t.Fatalf("%s query for %q: %v\n%s", name, text, err, q)
			}
			seen := map[string]bool{}
			for _, term := range terms {
				if term.field == "searchScope" {
					continue
				}
				if !slices.Contains(words, term.word) {
					t.Fatalf("%s query for %q searches %q, not one of its words %q", name, text, term.word, words)
				}
				seen[term.word] = true
			}
			for _, w := range words {
				if !seen[w] {
					t.Errorf("%s query for %q leaves out the word %q", name, text, w)
				}
			}
		}
	})
}

// luceneTerm is one field:word term of a query.
type luceneTerm struct{ field, word string }

// readLucene reads the only Lucene the search builds, strictly:
//
//	query  = clause { (" OR " | " AND " | " ") clause }
//	clause = ["+"] ( "(" query ")" [boost] | field ":" word ["*"] ["~1"] [boost]
//	         | field ":" '"' word { " " word } '"' [boost] )
//	boost  = "^" digits
//
// a word being letters and digits that are not an operator (and "_" in a
// scope token). Anything else is an error: a character of the user's text
// that escaped into the syntax.
func readLucene(q string) ([]luceneTerm, error) {
	r := &luceneReader{s: []rune(q)}
	terms, err := r.query()
	if err == nil && r.i < len(r.s) {
		err = r.errorf("unexpected %q", string(r.s[r.i:]))
	}
	return terms, err
}

type luceneReader struct {
	s []rune
	i int
}

func (r *luceneReader) errorf(format string, args ...any) error {
	return fmt.Errorf("at %d: %s", r.i, fmt.Sprintf(format, args...))
}

func (r *luceneReader) eat(s string) bool {
	if strings.HasPrefix(string(r.s[r.i:]), s) {
		r.i += len([]rune(s))
		return true
	}
	return false
}

func (r *luceneReader) query() ([]luceneTerm, error) {
	var terms []luceneTerm
	for {
		more, err := r.clause()
		if err != nil {
			return nil, err
		}
		terms = append(terms, more...)
		if !r.eat(" OR ") && !r.eat(" AND ") && !r.eat(" ") {
			return terms, nil
		}
	}
}

func (r *luceneReader) clause() ([]luceneTerm, error) {
	r.eat("+")
	if r.eat("(") {
		terms, err := r.query()
		if err != nil {
			return nil, err
		}
		if !r.eat(")") {
			return nil, r.errorf("want )")
		}
		return terms, r.boost()
	}
	var field string
	for _, f := range []string{"searchName", "searchAliases", "searchDescription", "searchScope"} {
		if r.eat(f + ":") {
			field = f
			break
		}
	}
	if field == "" {
		return nil, r.errorf("want a field")
	}
	if field != "searchScope" && r.eat(`"`) {
		var terms []luceneTerm
		for {
			word, err := r.word(field)
			if err != nil {
				return nil, err
			}
			terms = append(terms, luceneTerm{field, word})
			if r.eat(`"`) {
				return terms, r.boost()
			}
			if !r.eat(" ") {
				return nil, r.errorf(`want " or a space`)
			}
		}
	}
	word, err := r.word(field)
	if err != nil {
		return nil, err
	}
	r.eat("*")
	r.eat("~1")
	return []luceneTerm{{field, word}}, r.boost()
}

func (r *luceneReader) word(field string) (string, error) {
	start := r.i
	for r.i < len(r.s) && (unicode.IsLetter(r.s[r.i]) || unicode.IsDigit(r.s[r.i]) || field == "searchScope" && r.s[r.i] == '_') {
		r.i++
	}
	word := string(r.s[start:r.i])
	switch word {
	case "":
		return "", r.errorf("want a word")
	case "AND", "OR", "NOT", "TO":
		return "", r.errorf("the word %q is an operator", word)
	}
	return word, nil
}

func (r *luceneReader) boost() error {
	if !r.eat("^") {
		return nil
	}
	start := r.i
	for r.i < len(r.s) && r.s[r.i] >= '0' && r.s[r.i] <= '9' {
		r.i++
	}
	if r.i == start {
		return r.errorf("want a boost")
	}
	return nil
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
