package casegraph

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Search limits.
const (
	MinSearchLength = 2
	MaxSearchLength = 200
	// SearchWindow is how many candidates a search ranks; pages go through
	// these.
	SearchWindow = 200
)

var searchTextRule = TextRule{Max: MaxSearchLength, Required: true}

// ValidateSearchText checks a search's text: 2 to 200 characters with at
// least one letter or digit. Any other character is plain text.
func ValidateSearchText(field, text string) ([]string, error) {
	if err := searchTextRule.Check(field, text); err != nil {
		return nil, err
	}
	if n := utf8.RuneCountInString(strings.TrimSpace(text)); n < MinSearchLength {
		return nil, Errorf(CodeBadUserInput, "%s: give at least %d characters", field, MinSearchLength)
	}
	words := Words(text)
	if len(words) == 0 {
		return nil, Errorf(CodeBadUserInput, "%s: nothing to search for (no letters or digits)", field)
	}
	return words, nil
}

// stopWords are the English stop words of Lucene's English analyzer (and
// so of Neo4j's "english" full-text analyzer): words too common to say
// what a text is about.
var stopWords = map[string]bool{
	"a": true, "an": true, "and": true, "are": true, "as": true, "at": true, "be": true, "but": true,
	"by": true, "for": true, "if": true, "in": true, "into": true, "is": true, "it": true, "no": true,
	"not": true, "of": true, "on": true, "or": true, "such": true, "that": true, "the": true,
	"their": true, "then": true, "there": true, "these": true, "they": true, "this": true, "to": true,
	"was": true, "will": true, "with": true,
}

// IsStopWord reports whether a folded word is a stop word ("the", "of",
// "in" ...): a search never finds an entity by its stop words alone.
func IsStopWord(w string) bool { return stopWords[w] }

// ContentWords are the words that are not stop words, in order. A text of
// stop words only has none.
func ContentWords(words []string) []string {
	out := make([]string, 0, len(words))
	for _, w := range words {
		if !stopWords[w] {
			out = append(out, w)
		}
	}
	return out
}

// SearchFilter narrows a search.
type SearchFilter struct {
	Kinds    []Kind
	Datasets []string
}

// SearchHit is a candidate a full-text search found.
type SearchHit struct {
	Entity Entity
	Score  float64 // the full-text score
	Degree int64   // how many relations the entity has
}

// MatchField says where a search matched an entity.
type MatchField string

// The fields a search matches.
const (
	MatchName        MatchField = "NAME"
	MatchAlias       MatchField = "ALIAS"
	MatchIdentifier  MatchField = "IDENTIFIER"
	MatchDescription MatchField = "DESCRIPTION"
)

// MatchFields are the fields a search matches, in the order Rank prefers
// them.
func MatchFields() []MatchField {
	return []MatchField{MatchName, MatchAlias, MatchIdentifier, MatchDescription}
}

// SearchResult is a ranked hit.
type SearchResult struct {
	SearchHit
	Field MatchField
	// Tier orders results: 0 exact name, 1 exact alias or identifier
	// (a passport or registry number's value), 2 every word in the name, 3
	// every word in an alias or identifier, 4 words beginning the name's,
	// an alias's or an identifier's words, 5 a word one typo from the name
	// or an alias, 6 the rest (the description).
	Tier int
}

// Rank orders search hits for the words searched: exact names first, then
// exact aliases and identifiers, then names, aliases and identifiers that
// hold every word, then words that begin them, then misspellings (of names
// and aliases: a number one digit off is another number), then matches in
// descriptions; past the exact tiers stop words are not counted (see
// IsStopWord). Within a tier the better-connected entity comes first,
// then the full-text score, then the id; but among the misspellings the
// full-text score comes first when the text has two words or more
// (typosByScore). Rank is the ranking's
// definition: the store ranks a search's candidates the same way inside
// its statement (cypher's Search, on each text's RankText), so that only
// the page is read, and its tests hold the two to each other.
func Rank(words []string, hits []SearchHit) []SearchResult {
	phrase, match := RankingWords(words)
	out := make([]SearchResult, len(hits))
	for i, h := range hits {
		out[i] = classify(match, phrase, h)
	}
	slices.SortStableFunc(out, func(a, b SearchResult) int {
		return cmp.Or(
			cmp.Compare(a.Tier, b.Tier),
			typosByScore(len(match), a, b),
			cmp.Compare(b.Degree, a.Degree),
			cmp.Compare(b.Score, a.Score),
			cmp.Compare(a.Entity.ID, b.Entity.ID),
		)
	})
	return out
}

// RankingWords are what Rank compares a search's words (of
// ValidateSearchText) with: the phrase, every word joined by one space,
// which the exact tiers compare with whole names, aliases and identifiers
// (RankText); and the words the other tiers look for, the content words
// (ContentWords), or every word for a text of stop words only. The store
// ranks with the same (cypher's Search), on the RankText of each text.
func RankingWords(words []string) (phrase string, match []string) {
	if content := ContentWords(words); len(content) > 0 {
		match = content
	} else {
		match = words
	}
	return strings.Join(words, " "), match
}

// RankText is a text as Rank compares it: its words (Words), joined by
// one space. The store keeps it of every name, alias and identifier's
// value, so that a search ranks its candidates without reading them.
func RankText(s string) string { return strings.Join(Words(s), " ") }

func classify(words []string, phrase string, h SearchHit) SearchResult {
	r := SearchResult{SearchHit: h, Tier: 6, Field: MatchDescription}
	name := Words(h.Entity.Name)
	// The aliases, then the identifiers' values, each with its field.
	type text struct {
		words []string
		field MatchField
	}
	others := make([]text, 0, len(h.Entity.Aliases)+len(h.Entity.Identifiers))
	for _, a := range h.Entity.Aliases {
		others = append(others, text{Words(a), MatchAlias})
	}
	for _, id := range h.Entity.Identifiers {
		others = append(others, text{Words(id.Value), MatchIdentifier})
	}
	set := func(tier int, f MatchField) {
		if tier < r.Tier {
			r.Tier, r.Field = tier, f
		}
	}
	// Past the exact tiers the words are RankingWords' match, without the
	// stop words: "minister of defence" has every word in "Defence
	// Minister", and "of" alone is no typo of a name (a text of stop words
	// only keeps them).
	if strings.Join(name, " ") == phrase {
		set(0, MatchName)
	}
	for _, o := range others {
		if strings.Join(o.words, " ") == phrase {
			set(1, o.field)
		}
	}
	if containsAll(name, words, equalWord) {
		set(2, MatchName)
	}
	for _, o := range others {
		if containsAll(o.words, words, equalWord) {
			set(3, o.field)
		}
	}
	if containsAll(name, words, strings.HasPrefix) {
		set(4, MatchName)
	}
	for _, o := range others {
		if containsAll(o.words, words, strings.HasPrefix) {
			set(4, o.field)
		}
	}
	aliases := make([][]string, len(h.Entity.Aliases))
	for i, a := range h.Entity.Aliases {
		aliases[i] = Words(a)
	}
	if containsAny(name, words) {
		set(5, MatchName)
	}
	for _, a := range aliases {
		if containsAny(a, words) {
			set(5, MatchAlias)
		}
	}
	return r
}

// typosByScore orders two results of tier 5 (a word a typo away) of a
// text of two words or more (words: how many Rank matches) by their
// full-text score, and says nothing of others. The score is Lucene's (a
// sum over the words each field matches, weighed by the field and its
// length), not a count of words, but a name that matches more of the
// words, exactly or by a typo, mostly scores higher: a full name with a
// typo in it comes before the better-connected names that share only one
// of its words (bench/README.md, "A full name with a typo"). Of one word,
// every typo matches it alike, and the degree orders them as in the
// other tiers.
func typosByScore(words int, a, b SearchResult) int {
	if words < 2 || a.Tier != 5 || b.Tier != 5 {
		return 0
	}
	return cmp.Compare(b.Score, a.Score)
}

func equalWord(have, want string) bool { return have == want }

// containsAll reports whether every word has a match among have.
func containsAll(have, words []string, match func(have, want string) bool) bool {
	for _, w := range words {
		if !slices.ContainsFunc(have, func(h string) bool { return match(h, w) }) {
			return false
		}
	}
	return len(words) > 0
}

// containsAny reports whether some word is within one edit of a word of have.
func containsAny(have, words []string) bool {
	for _, w := range words {
		for _, h := range have {
			if WithinOneEdit(h, w) {
				return true
			}
		}
	}
	return false
}

// WithinOneEdit reports whether a and b differ by at most one insertion,
// deletion or substitution.
func WithinOneEdit(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	if len(ra) < len(rb) {
		ra, rb = rb, ra
	}
	if len(ra)-len(rb) > 1 {
		return false
	}
	i, j, edits := 0, 0, 0
	for i < len(ra) && j < len(rb) {
		if ra[i] == rb[j] {
			i++
			j++
			continue
		}
		edits++
		if edits > 1 {
			return false
		}
		if len(ra) == len(rb) {
			j++
		}
		i++
	}
	return edits+(len(ra)-i) <= 1
}

// Suggestion is a type-ahead match: the entity and the name or alias that
// matched.
type Suggestion struct {
	SearchHit
	Text string
	tier int
}

// RankSuggestions orders type-ahead hits for a prefix (words, the last of
// which may be unfinished): names that begin with it first, then aliases
// that do, then names and aliases whose words begin with its words; within
// a tier the better-connected entity first, then the shorter text.
func RankSuggestions(words []string, hits []SearchHit) []Suggestion {
	phrase := strings.Join(words, " ")
	out := make([]Suggestion, 0, len(hits))
	for _, h := range hits {
		s := Suggestion{SearchHit: h, Text: h.Entity.Name, tier: 4}
		try := func(text string, startTier, wordTier int) {
			w := Words(text)
			tier := 4
			switch {
			case strings.HasPrefix(strings.Join(w, " "), phrase):
				tier = startTier
			case prefixWords(w, words):
				tier = wordTier
			}
			if tier < s.tier {
				s.tier, s.Text = tier, text
			}
		}
		try(h.Entity.Name, 0, 2)
		for _, a := range h.Entity.Aliases {
			try(a, 1, 3)
		}
		out = append(out, s)
	}
	slices.SortStableFunc(out, func(a, b Suggestion) int {
		return cmp.Or(
			cmp.Compare(a.tier, b.tier),
			cmp.Compare(b.Degree, a.Degree),
			cmp.Compare(utf8.RuneCountInString(a.Text), utf8.RuneCountInString(b.Text)),
			cmp.Compare(a.Entity.ID, b.Entity.ID),
		)
	})
	return out
}

// prefixWords reports whether every word but the last is a word of have,
// and the last begins one.
func prefixWords(have, words []string) bool {
	if len(words) == 0 {
		return false
	}
	last := len(words) - 1
	return containsAll(have, words[:last], equalWord) && containsAll(have, words[last:], strings.HasPrefix)
}

// SearchScope is the full-text index's token set for an entity's dataset
// and kind (see the entity_search index): "d_<dataset> k_<kind>", the
// dataset's characters other than letters and digits made "_".
func SearchScope(dataset string, kind Kind) string {
	return DatasetToken(dataset) + " k_" + strings.ToLower(string(kind))
}

// DatasetToken is a dataset's token in SearchScope.
func DatasetToken(dataset string) string {
	return "d_" + strings.Map(func(r rune) rune {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return unicode.ToLower(r)
		}
		return '_'
	}, dataset)
}

// Limits and defaults of a type-ahead suggestion.
const (
	DefaultSuggest = 10
	MaxSuggest     = 25
)

// Validate checks a filter of a search.
func (f SearchFilter) Validate() error {
	return validateScope("", f.Kinds, f.Datasets)
}

// SearchRequest asks for the entities whose names, aliases or descriptions
// match Text, ranked (see Rank): the store ranks up to SearchWindow
// candidates, and returns the part of them that Page shows.
type SearchRequest struct {
	Text   string
	Filter SearchFilter
	// Words are the words searched for, set by Normalize.
	Words []string
	// Page is the page of ranked results: After, from a search cursor,
	// is the number of results before it (see Offset).
	Page Page
	// Shows, when not nil, names the entity properties (of
	// EntityProperties) the caller shows of any entity: the store may read
	// of the page's entities only the text a search matches
	// (BriefProperties) when that is all it shows. Nil: every property.
	Shows []string
}

// SearchPage is the page of a search: its ranked results (each with its
// tier and matched field), and how many candidates were ranked, from
// which Window tells where the page lies.
type SearchPage struct {
	Results []SearchResult
	Ranked  int
}

// BriefProperties are the entity properties a search matches (and Rank
// reads): a search that shows no other reads only these of its page.
var BriefProperties = []string{"name", "aliases", "identifiers"}

// Brief says whether the request shows no entity property beyond
// BriefProperties (and the id and kind, always read).
func (q SearchRequest) Brief() bool {
	if q.Shows == nil {
		return false
	}
	for _, p := range q.Shows {
		if !slices.Contains(BriefProperties, p) {
			return false
		}
	}
	return true
}

// Normalize checks the request and finds its words.
func (q *SearchRequest) Normalize() error {
	words, err := ValidateSearchText("text", q.Text)
	if err != nil {
		return err
	}
	if err := q.Filter.Validate(); err != nil {
		return err
	}
	q.Words = words
	return nil
}

// Offset is the number of ranked results before the page: a cursor's
// offset is the position after its item; a backward page without a cursor
// ends at the end (SearchWindow+1). An offset beyond the window is not a
// cursor of this list.
func (q SearchRequest) Offset() (int, error) {
	if q.Page.Backward && q.Page.After == "" {
		return SearchWindow + 1, nil
	}
	if q.Page.After == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(q.Page.After)
	if err != nil || n < 0 || n > SearchWindow {
		return 0, Errorf(CodeBadUserInput, "after: not a cursor of this list")
	}
	return n, nil
}

// Window is the part of n ranked results the page shows, from offset (see
// Offset). Forward: First results from the offset; backward: the last
// First before the cursor's item. more says there are results beyond the
// page in its direction.
func (q SearchRequest) Window(offset, n int) (start, end int, more bool) {
	if !q.Page.Backward {
		end = min(offset+q.Page.First, n)
		start = min(offset, end)
		return start, end, end < n
	}
	end = max(0, min(offset-1, n))
	start = max(0, end-q.Page.First)
	return start, end, start > 0
}

// SuggestRequest asks for up to First type-ahead matches of Prefix.
type SuggestRequest struct {
	Prefix string
	First  int // 1 to MaxSuggest
	Filter SearchFilter
	// Words are the words of the prefix, set by Normalize.
	Words []string
}

// NewSuggestRequest is the type-ahead of prefix with the default: at most
// DefaultSuggest matches.
func NewSuggestRequest(prefix string) SuggestRequest {
	return SuggestRequest{Prefix: prefix, First: DefaultSuggest}
}

// Normalize checks the request and finds its words.
func (q *SuggestRequest) Normalize() error {
	words, err := ValidateSearchText("prefix", q.Prefix)
	if err != nil {
		return err
	}
	if q.First < 1 || q.First > MaxSuggest {
		return Errorf(CodeBadUserInput, "first must be between 1 and %d, not %d", MaxSuggest, q.First)
	}
	if err := q.Filter.Validate(); err != nil {
		return err
	}
	q.Words = words
	return nil
}

// suggestCandidates is how many candidates a suggestion ranks for each
// one it returns: the full-text score does not know the tiers
// RankSuggestions orders by, so the best may come after the first First.
const suggestCandidates = 4

// Candidates is how many full-text candidates the store returns for the
// query to rank.
func (q SuggestRequest) Candidates() int { return suggestCandidates * q.First }
