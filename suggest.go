package casegraph

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Enum values (kinds, relation types, statuses, categories, genders,
// identifier types, source kinds, reliabilities, family relationships) are
// read in any case, in data files and in the API's string fields: "person",
// "Person" and "PERSON" are the one kind, "armed_group" the category
// ARMED_GROUP (Canonical). They are written in one form, the schema's
// (UPPER_SNAKE: PERSON, ARMED_GROUP, EMPLOYED_BY). A value outside the set
// is refused with the values accepted and the nearest one (UnknownValue).
// GraphQL's own enum arguments follow the GraphQL spec: the exact name.

// Canonical returns the value of values that s spells in any case, or s
// itself when none does (for the check to refuse it).
func Canonical[T ~string](s T, values []T) T {
	for _, v := range values {
		if strings.EqualFold(string(v), string(s)) {
			return v
		}
	}
	return s
}

// EnumName is an enum value as the schema spells it (UPPER_SNAKE): an
// entity kind's label Person is PERSON; the others are already so.
func EnumName[T ~string](v T) string {
	return strings.ToUpper(string(v))
}

// UnknownValue is the BAD_USER_INPUT error of a value of field (what it is,
// for the message: "kind", "relation type") outside values: it lists the
// values accepted, in the schema's spelling, and suggests the nearest.
func UnknownValue[T ~string](field, what, got string, values []T) *Error {
	accepted := make([]string, len(values))
	for i, v := range values {
		accepted[i] = EnumName(v)
	}
	e := &Error{Code: CodeBadUserInput, Field: field, Accepted: accepted, Suggestion: Nearest(got, accepted)}
	var b strings.Builder
	fmt.Fprintf(&b, "unknown %s %q", what, truncate(got, 40))
	if e.Suggestion != "" {
		fmt.Fprintf(&b, "; did you mean %q?", e.Suggestion)
	}
	fmt.Fprintf(&b, " (one of %s)", strings.Join(accepted, ", "))
	e.Message = b.String()
	return e
}

// Nearest returns the value of values nearest s, ignoring case and
// counting '-' and ' ' as '_' (the first of those at the least edit
// distance), or "" when none is near: more than a third of s's letters
// (at least 2) would have to change, or every one of them.
func Nearest(s string, values []string) string {
	key := enumKey(s)
	n := utf8.RuneCountInString(key)
	if n > 64 {
		return "" // no value is that long; and the distance costs n times its length
	}
	limit := max(2, (n+2)/3)
	best, bestD := "", limit+1
	for _, v := range values {
		if d := EditDistance(key, enumKey(v)); d < bestD {
			best, bestD = v, d
		}
	}
	if bestD >= n {
		return "" // "G" is one letter from every grade: that is no suggestion
	}
	return best
}

func enumKey(s string) string {
	return strings.NewReplacer("-", "_", " ", "_").Replace(strings.ToUpper(s))
}

// EditDistance is the Levenshtein distance of a and b, in runes: the
// fewest insertions, deletions and substitutions that make one the other.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
