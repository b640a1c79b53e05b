package casegraph

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// NewID makes up an id for something new: a slug of its name (accents
// dropped, ASCII letters and digits, at most 40 characters) and 8 random
// hex digits; prefix stands in when the name has no ASCII letters.
func NewID(prefix, name string) string {
	var b strings.Builder
	dash := false
	for _, r := range norm.NFKD.String(name) {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue // a combining accent, split off by NFKD
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(unicode.ToLower(r))
		default:
			dash = true
		}
		if b.Len() >= 40 {
			break
		}
	}
	slug := strings.Trim(b.String(), "-")
	if slug == "" {
		slug = prefix
	}
	var rnd [4]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return slug + "-" + hex.EncodeToString(rnd[:])
}
