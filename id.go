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
	} else if IsReservedID(slug + "-") {
		slug = prefix + "-" + slug // a name such as "Protected area"
	}
	var rnd [4]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return slug + "-" + hex.EncodeToString(rnd[:])
}

// OpaqueIDPrefix begins the opaque id that stands in for a protected
// entity's, and for its relations', before callers without clearance:
// "protected-" and 16 hex digits, made by the statements that write them
// (statements/UpsertEntities.cypher.tmpl and the relations' writes).
const OpaqueIDPrefix = "protected-"

// IsReservedID says whether an id has a form that the API gives ids of its
// own: the opaque ids (OpaqueIDPrefix, in any form after it, so that a
// change of their form never meets an id someone holds) and the node ids
// of relations, sources and saved queries (relation~, source~,
// savedQuery~: see NodeID). An entity, relation or source of such an id
// would stand in for what the API names so, before callers that read by
// it: nobody may create one (CheckNewID), and migrate reports any held.
func IsReservedID(id string) bool {
	for _, prefix := range ReservedIDPrefixes() {
		if strings.HasPrefix(id, prefix) {
			return true
		}
	}
	return false
}

// ReservedIDPrefixes returns the prefixes of the reserved ids
// (IsReservedID).
func ReservedIDPrefixes() []string {
	out := []string{OpaqueIDPrefix}
	for _, t := range []NodeType{NodeRelation, NodeSource, NodeSavedQuery} {
		out = append(out, string(t)+nodeSeparator)
	}
	return out
}

// CheckNewID refuses (BAD_USER_INPUT) an id that a write would create or
// change and that is of a reserved form (IsReservedID); field names it.
func CheckNewID(field, id string) error {
	if IsReservedID(id) {
		return Errorf(CodeBadUserInput, "%s %q is of a form reserved for the ids the API gives (%s...): choose another",
			field, truncate(id, 40), strings.Join(ReservedIDPrefixes(), "..., "))
	}
	return nil
}

// ValidateID checks an id: 1 to MaxIDLength characters of letters, digits
// and . _ : -, starting with a letter or digit.
func ValidateID(field, id string) error {
	if id == "" {
		return Errorf(CodeBadUserInput, "%s is required", field)
	}
	if len(id) > MaxIDLength || !idForm(id) {
		return Errorf(CodeBadUserInput, "%s %q is not a valid id: use 1 to %d letters, digits, '.', '_', ':' or '-'", field, truncate(id, 40), MaxIDLength)
	}
	return nil
}

// idForm says whether id is of the form ValidateID asks, byte by byte:
// ^[A-Za-z0-9][A-Za-z0-9._:-]*$ (every byte of a multi-byte character is
// outside it). An import validates every id of millions of rows, and the
// regular expression was a fifth of reading a file.
func idForm(id string) bool {
	for i := 0; i < len(id); i++ {
		switch c := id[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case i > 0 && (c == '.' || c == '_' || c == ':' || c == '-'):
		default:
			return false
		}
	}
	return len(id) > 0
}
