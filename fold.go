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
