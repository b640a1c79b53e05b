package casegraph

import (
	"cmp"
	"slices"
	"strings"
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
	MatchDescription MatchField = "DESCRIPTION"
)

// SearchResult is a ranked hit.
type SearchResult struct {
	SearchHit
	Field MatchField
	// Tier orders results: 0 exact name, 1 exact alias, 2 every word in
	// the name, 3 every word in an alias, 4 words beginning the name's or
	// an alias's words, 5 a word one typo from the name or an alias, 6 the
	// rest (the description).
	Tier int
}

// Rank orders search hits for the words searched: exact names first, then
// exact aliases, then names and aliases that hold every word, then words
// that begin them, then misspellings, then matches in descriptions. Within a
// tier the better-connected entity comes first, then the full-text score,
// then the id.
func Rank(words []string, hits []SearchHit) []SearchResult {
	phrase := strings.Join(words, " ")
	out := make([]SearchResult, len(hits))
	for i, h := range hits {
		out[i] = classify(words, phrase, h)
	}
	slices.SortStableFunc(out, func(a, b SearchResult) int {
		return cmp.Or(
			cmp.Compare(a.Tier, b.Tier),
			cmp.Compare(b.Degree, a.Degree),
			cmp.Compare(b.Score, a.Score),
			cmp.Compare(a.Entity.ID, b.Entity.ID),
		)
	})
	return out
}

func classify(words []string, phrase string, h SearchHit) SearchResult {
	r := SearchResult{SearchHit: h, Tier: 6, Field: MatchDescription}
	name := Words(h.Entity.Name)
	aliases := make([][]string, len(h.Entity.Aliases))
	for i, a := range h.Entity.Aliases {
		aliases[i] = Words(a)
	}
	set := func(tier int, f MatchField) {
		if tier < r.Tier {
			r.Tier, r.Field = tier, f
		}
	}
	if strings.Join(name, " ") == phrase {
		set(0, MatchName)
	}
	for _, a := range aliases {
		if strings.Join(a, " ") == phrase {
			set(1, MatchAlias)
		}
	}
	if containsAll(name, words, equalWord) {
		set(2, MatchName)
	}
	for _, a := range aliases {
		if containsAll(a, words, equalWord) {
			set(3, MatchAlias)
		}
	}
	if containsAll(name, words, strings.HasPrefix) {
		set(4, MatchName)
	}
	for _, a := range aliases {
		if containsAll(a, words, strings.HasPrefix) {
			set(4, MatchAlias)
		}
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
			if withinOneEdit(h, w) {
				return true
			}
		}
	}
	return false
}

// withinOneEdit reports whether a and b differ by at most one insertion,
// deletion or substitution.
func withinOneEdit(a, b string) bool {
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
