// Package model holds the GraphQL models: those gqlgen generates
// (models_gen.go) and the scalars it binds to code of ours.
package model

import (
	"io"
	"strconv"

	"github.com/99designs/gqlgen/graphql"

	casegraph "github.com/casegraph/casegraph"
)

// PartialDate is the PartialDate scalar: a validated YYYY, YYYY-MM or
// YYYY-MM-DD string.
type PartialDate string

// UnmarshalGQL accepts a string that is a possible partial date.
func (d *PartialDate) UnmarshalGQL(v any) error {
	s, ok := v.(string)
	if !ok {
		return casegraph.Errorf(casegraph.CodeBadUserInput, "a PartialDate is a string such as 2011, 2011-03 or 2011-03-15, not %T", v)
	}
	if _, err := casegraph.ParsePartialDate(s); err != nil {
		return err
	}
	*d = PartialDate(s)
	return nil
}

// MarshalGQL writes the date as a JSON string.
func (d PartialDate) MarshalGQL(w io.Writer) {
	_, _ = io.WriteString(w, strconv.Quote(string(d)))
}

var _ graphql.Marshaler = PartialDate("")
