package casegraph

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Fold makes text comparable for search: compatibility decomposition
// (NFKD), combining marks dropped (accents, and Arabic short vowels),
// lower case. "Slobodan Milošević" and "SLOBODAN MILOSEVIC" fold alike,
// whether the š came composed or decomposed.
func Fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range norm.NFKD.String(s) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// Words splits folded text into words: runs of letters and digits.
// Everything else (punctuation, and so every character with a meaning in
// Lucene's query syntax) separates words.
func Words(s string) []string {
	return strings.FieldsFunc(Fold(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
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
