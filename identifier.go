package casegraph

// Identifiers: the typed numbers that identify a person or an
// organization (passport, national id, service number, registry number),
// their limits and checks, and how the property table stores them.

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// IdentifierType is the kind of number an identifier is.
type IdentifierType string

// The identifier types.
const (
	IdentifierPassport     IdentifierType = "PASSPORT"
	IdentifierNationalID   IdentifierType = "NATIONAL_ID"
	IdentifierServiceNo    IdentifierType = "SERVICE_NUMBER"
	IdentifierRegistration IdentifierType = "REGISTRATION_NUMBER"
	IdentifierTax          IdentifierType = "TAX_NUMBER"
	IdentifierOther        IdentifierType = "OTHER"
)

// IdentifierTypes lists every identifier type.
func IdentifierTypes() []IdentifierType {
	return []IdentifierType{IdentifierPassport, IdentifierNationalID, IdentifierServiceNo,
		IdentifierRegistration, IdentifierTax, IdentifierOther}
}

// Identifier is a number that identifies a person or an organization: its
// type, its value as issued, and who issued it (a country's ISO 3166 code
// or an authority's name; empty when unknown).
type Identifier struct {
	Type   IdentifierType `json:"type"`
	Value  string         `json:"value"`
	Issuer string         `json:"issuer,omitempty"`
}

// Limits on identifiers.
const (
	MaxIdentifiers      = 20
	MaxIdentifierLength = 100 // characters, of a value and of an issuer
)

var (
	identifierRule = TextRule{Max: MaxIdentifierLength, Required: true}
	issuerRule     = TextRule{Max: MaxIdentifierLength}
)

// identifiers stores identifiers as a list of strings, each the JSON of
// its [type, issuer, value] (EncodeIdentifier).
func identifiers(at func(*Entity) *[]Identifier) fieldRef {
	return fieldRef{
		typ: PropertyList,
		get: func(e *Entity) any {
			ids := *at(e)
			out := make([]string, len(ids))
			for i, id := range ids {
				out[i] = EncodeIdentifier(id)
			}
			return out
		},
		set: func(e *Entity, v any) error {
			list, ok := v.([]string)
			if !ok {
				return fmt.Errorf("want []string, got %T", v)
			}
			ids := make([]Identifier, 0, len(list))
			for _, s := range list {
				id, err := DecodeIdentifier(s)
				if err != nil {
					return err
				}
				ids = append(ids, id)
			}
			if len(ids) == 0 {
				ids = nil
			}
			*at(e) = ids
			return nil
		},
	}
}

// EncodeIdentifier is how an identifier is stored: the JSON of [type,
// issuer, value].
func EncodeIdentifier(id Identifier) string {
	b, _ := json.Marshal([]string{string(id.Type), id.Issuer, id.Value}) // strings always encode
	return string(b)
}

// DecodeIdentifier reads what EncodeIdentifier wrote.
func DecodeIdentifier(s string) (Identifier, error) {
	if id, ok := decodePlainIdentifier(s); ok {
		return id, nil
	}
	var parts []string
	if json.Unmarshal([]byte(s), &parts) != nil || len(parts) != 3 {
		return Identifier{}, fmt.Errorf("identifier %q is not a stored identifier", truncate(s, 40))
	}
	return Identifier{Type: IdentifierType(parts[0]), Issuer: parts[1], Value: parts[2]}, nil
}

// decodePlainIdentifier reads, without decoding JSON, what
// EncodeIdentifier writes of most identifiers: ["TYPE","issuer","value"]
// with no character JSON escapes, its parts parts of s (a duplicate run
// reads the identifiers of a hundred thousand entities, and JSON's
// decoder allocated several times each). ok is false for anything else,
// which the JSON decoder reads (FuzzDecodeIdentifier: they agree).
func decodePlainIdentifier(s string) (Identifier, bool) {
	inner, ok := strings.CutPrefix(s, `["`)
	if !ok {
		return Identifier{}, false
	}
	if inner, ok = strings.CutSuffix(inner, `"]`); !ok {
		return Identifier{}, false
	}
	typ, rest, ok1 := strings.Cut(inner, `","`)
	issuer, value, ok2 := strings.Cut(rest, `","`)
	if !ok1 || !ok2 || !utf8.ValidString(inner) {
		return Identifier{}, false
	}
	for _, part := range []string{typ, issuer, value} {
		for i := 0; i < len(part); i++ {
			if c := part[i]; c == '"' || c == '\\' || c < 0x20 {
				return Identifier{}, false // an escape, a fourth part, or not JSON
			}
		}
	}
	return Identifier{Type: IdentifierType(typ), Issuer: issuer, Value: value}, true
}

func checkIdentifiers(e Entity) error {
	if len(e.Identifiers) > MaxIdentifiers {
		return Errorf(CodeBadUserInput, "%d identifiers; the limit is %d", len(e.Identifiers), MaxIdentifiers)
	}
	seen := make(map[Identifier]bool, len(e.Identifiers))
	for i, id := range e.Identifiers {
		field := fmt.Sprintf("identifiers[%d]", i)
		if !slices.Contains(IdentifierTypes(), id.Type) {
			return InField(field, UnknownValue("type", "identifier type", string(id.Type), IdentifierTypes()))
		}
		if err := identifierRule.Check(field+".value", id.Value); err != nil {
			return atField(field+".value", err)
		}
		if err := issuerRule.Check(field+".issuer", id.Issuer); err != nil {
			return atField(field+".issuer", err)
		}
		if seen[id] {
			// At the repeated value, for a form to show it there.
			return atField(field+".value", Errorf(CodeBadUserInput, "%s repeats %s %q", field, id.Type, truncate(id.Value, 40)))
		}
		seen[id] = true
	}
	return nil
}
