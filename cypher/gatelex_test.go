package cypher

import (
	"strings"
	"unicode"
)

// The gate's checker reads statements as tokens (gatecheck_test.go).

// cypherToken is one token of a statement.
type cypherToken struct {
	text string
	word bool // an identifier or keyword
}

// stripCypher removes comments and blanks string literals (each becomes
// ”), so that neither can satisfy the checker.
func stripCypher(text string) string {
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '/' && i+1 < len(text) && text[i+1] == '/':
			for i < len(text) && text[i] != '\n' {
				i++
			}
			b.WriteByte('\n')
		case c == '/' && i+1 < len(text) && text[i+1] == '*':
			end := strings.Index(text[i+2:], "*/")
			if end < 0 {
				return b.String()
			}
			i += end + 3
			b.WriteByte(' ')
		case c == '\'' || c == '"':
			for i++; i < len(text) && text[i] != c; i++ {
				if text[i] == '\\' {
					i++
				}
			}
			b.WriteString("''")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// tokenizeCypher splits a stripped statement into tokens.
func tokenizeCypher(text string) []cypherToken {
	var out []cypherToken
	isWord := func(r byte) bool { return r == '_' || unicode.IsLetter(rune(r)) || unicode.IsDigit(rune(r)) }
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == ' ' || c == '\n' || c == '\t' || c == '\r':
			i++
		case c == '`':
			end := strings.IndexByte(text[i+1:], '`')
			if end < 0 {
				end = len(text) - i - 1
			}
			out = append(out, cypherToken{text: text[i+1 : i+1+end], word: true})
			i += end + 2
		case c == '$' || isWord(c):
			j := i + 1
			for j < len(text) && isWord(text[j]) {
				j++
			}
			// A decimal: 0.8 (never 1..3, a range).
			if unicode.IsDigit(rune(c)) && j+1 < len(text) && text[j] == '.' && unicode.IsDigit(rune(text[j+1])) {
				for j++; j < len(text) && isWord(text[j]); j++ {
				}
			}
			out = append(out, cypherToken{text: text[i:j], word: c != '$' && !unicode.IsDigit(rune(c))})
			i = j
		case c == '\'':
			out = append(out, cypherToken{text: "''"})
			i += 2
		default:
			n := 1
			if i+1 < len(text) {
				switch text[i : i+2] {
				case "<>", "<=", ">=", "=~", "..", "+=":
					n = 2
				}
			}
			out = append(out, cypherToken{text: text[i : i+n]})
			i += n
		}
	}
	return out
}
