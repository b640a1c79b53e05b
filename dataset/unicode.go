package dataset

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	casegraph "github.com/casegraph/casegraph"
)

// checkUnicode refuses a line with bytes that are not UTF-8, or a JSON
// escape of half a UTF-16 surrogate pair (\ud800 alone): JSON decoding
// would store either as U+FFFD, and the text would be lost without a word.
// It names the place, counted in bytes from the line's start (1 is the
// first).
func checkUnicode(line []byte) error {
	for i := 0; i < len(line); {
		r, n := utf8.DecodeRune(line[i:])
		if r == utf8.RuneError && n == 1 {
			return casegraph.Errorf(casegraph.CodeBadUserInput, "invalid UTF-8 at byte %d: the file must be UTF-8", i+1)
		}
		if r != '\\' {
			i += n
			continue
		}
		// A backslash is only valid JSON inside a string, where it starts
		// an escape of two characters, or six for \uXXXX.
		if i+1 < len(line) && line[i+1] == 'u' {
			if u, ok := hex4(line, i+2); ok && utf16.IsSurrogate(u) {
				low, okLow := rune(0), false
				if i+7 < len(line) && line[i+6] == '\\' && line[i+7] == 'u' {
					low, okLow = hex4(line, i+8)
				}
				if !okLow || utf16.DecodeRune(u, low) == utf8.RuneError {
					return casegraph.Errorf(casegraph.CodeBadUserInput,
						"invalid Unicode at byte %d: the escape %s is half a surrogate pair", i+1, line[i:i+6])
				}
				i += 12
				continue
			}
		}
		if i+1 < len(line) && line[i+1] < utf8.RuneSelf {
			i += 2
		} else {
			i++ // not an escape (the decoder says so); read on
		}
	}
	return nil
}

// hex4 reads the four hex digits at line[i:], if there are.
func hex4(line []byte, i int) (rune, bool) {
	if i+4 > len(line) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(line[i:i+4]), 16, 32)
	return rune(v), err == nil
}
