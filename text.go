package casegraph

import (
	"strings"
	"unicode"
	"unicode/utf8"

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
	return strings.FieldsFunc(Fold(s), notWordRune)
}

func notWordRune(r rune) bool { return !IsWordRune(r) }

// IsWordRune says whether r is part of a word (Words): a letter or a digit.
func IsWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// Limits on stored text. They keep one careless or hostile write from
// bloating the graph; the body-size limit of the server is far above them.
const (
	MaxIDLength          = 128
	MaxNameLength        = 500
	MaxAliases           = 100
	MaxDescriptionLength = 20000
	MaxSourceIDs         = 100
	MaxURLLength         = 2048
)

// The rules of the free-text fields that several types share.
var (
	nameRule         = TextRule{Max: MaxNameLength, Required: true}
	optionalNameRule = TextRule{Max: MaxNameLength}
	descriptionRule  = TextRule{Max: MaxDescriptionLength, Multiline: true}
	urlRule          = TextRule{Max: MaxURLLength}
)

// TextRule says what a free-text field may hold. The zero rule's Max of 0
// allows only the empty string.
type TextRule struct {
	// Max is the most characters (runes) the text may have.
	Max int
	// Required refuses an empty or blank text.
	Required bool
	// Multiline allows tab, newline and carriage return.
	Multiline bool
}

// Check checks free text s, named field in errors: valid UTF-8, no control
// characters (NUL included; tab and newline only where the rule is
// Multiline), at most Max characters, and present when Required.
func (rule TextRule) Check(field, s string) error {
	if s == "" {
		if rule.Required {
			return Errorf(CodeBadUserInput, "%s is required", field)
		}
		return nil
	}
	if !utf8.ValidString(s) {
		return Errorf(CodeBadUserInput, "%s is not valid UTF-8", field)
	}
	if n := utf8.RuneCountInString(s); n > rule.Max {
		return Errorf(CodeBadUserInput, "%s is %d characters long; the limit is %d", field, n, rule.Max)
	}
	for _, r := range s {
		if rule.Multiline && (r == '\n' || r == '\t' || r == '\r') {
			continue
		}
		if unicode.IsControl(r) {
			return Errorf(CodeBadUserInput, "%s contains the control character %U", field, r)
		}
	}
	if rule.Required && isBlank(s) {
		return Errorf(CodeBadUserInput, "%s is blank", field)
	}
	return nil
}

func isBlank(s string) bool {
	for _, r := range s {
		if !unicode.IsSpace(r) {
			return false
		}
	}
	return true
}

func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}
