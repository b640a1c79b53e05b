package model

import (
	"fmt"
	"io"
	"slices"
	"strconv"

	casegraph "github.com/casegraph/casegraph"
)

// Gender and IdentifierType are written here, not generated, so that a
// value of the wrong case is refused as bad input: gqlparser's check of
// variables takes enum values in any case ("male"), and gqlgen's generated
// UnmarshalGQL then refuses it with a plain error, which the server shows
// as INTERNAL. gqlgen.yml binds the schema's enums to them.

// Gender is a person's gender (casegraph.Gender's values).
type Gender string

// The genders.
const (
	GenderMale   Gender = "MALE"
	GenderFemale Gender = "FEMALE"
	GenderOther  Gender = "OTHER"
)

// UnmarshalGQL reads a gender, exactly as the schema spells it.
func (g *Gender) UnmarshalGQL(v any) error { return unmarshalEnum(g, v, "Gender", casegraph.Genders()) }

// MarshalGQL writes the gender.
func (g Gender) MarshalGQL(w io.Writer) { _, _ = io.WriteString(w, strconv.Quote(string(g))) }

// IdentifierType is the kind of an identifier (casegraph.IdentifierType's
// values).
type IdentifierType string

// UnmarshalGQL reads an identifier type, exactly as the schema spells it.
func (t *IdentifierType) UnmarshalGQL(v any) error {
	return unmarshalEnum(t, v, "IdentifierType", casegraph.IdentifierTypes())
}

// MarshalGQL writes the identifier type.
func (t IdentifierType) MarshalGQL(w io.Writer) { _, _ = io.WriteString(w, strconv.Quote(string(t))) }

// unmarshalEnum sets *e to v when v is one of the domain's values, and
// refuses anything else with BAD_USER_INPUT.
func unmarshalEnum[E ~string, D ~string](e *E, v any, name string, values []D) error {
	s, ok := v.(string)
	if !ok || !slices.Contains(values, D(s)) {
		return casegraph.Errorf(casegraph.CodeBadUserInput, "%s is not a valid %s: one of %v", truncateValue(v), name, values)
	}
	*e = E(s)
	return nil
}

func truncateValue(v any) string {
	r := []rune(fmt.Sprint(v))
	if len(r) > 40 {
		r = append(r[:40], []rune("...")...)
	}
	return strconv.Quote(string(r))
}
