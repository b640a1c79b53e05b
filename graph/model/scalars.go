// Package model holds the GraphQL models: those gqlgen generates
// (models_gen.go) and the scalars it binds to code of ours.
package model

import (
	"encoding/json"
	"io"
	"math"
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

// Strict built-in scalars. gqlgen's own coerce across types (42 becomes
// "42", "7" becomes 7, "NaN" a float); the GraphQL spec, and careful
// clients, expect a value of the wrong type to be refused.

// MarshalString writes a String.
func MarshalString(s string) graphql.Marshaler { return graphql.MarshalString(s) }

// UnmarshalString accepts only a string.
func UnmarshalString(v any) (string, error) {
	if s, ok := v.(string); ok {
		return s, nil
	}
	return "", typeError("String", v)
}

// MarshalInt writes an Int.
func MarshalInt(i int) graphql.Marshaler { return graphql.MarshalInt(i) }

// UnmarshalInt accepts only a whole number within 32 bits, as the spec says.
func UnmarshalInt(v any) (int, error) {
	var n int64
	switch x := v.(type) {
	case int:
		n = int64(x)
	case int64:
		n = x
	case json.Number:
		var err error
		if n, err = x.Int64(); err != nil {
			return 0, typeError("Int", v)
		}
	default:
		return 0, typeError("Int", v)
	}
	if n < math.MinInt32 || n > math.MaxInt32 {
		return 0, casegraph.Errorf(casegraph.CodeBadUserInput, "%d does not fit in an Int (32 bits)", n)
	}
	return int(n), nil
}

// MarshalFloat writes a Float.
func MarshalFloat(f float64) graphql.Marshaler { return graphql.MarshalFloat(f) }

// UnmarshalFloat accepts only a finite number.
func UnmarshalFloat(v any) (float64, error) {
	var f float64
	switch x := v.(type) {
	case float64:
		f = x
	case int:
		f = float64(x)
	case int64:
		f = float64(x)
	case json.Number:
		var err error
		if f, err = x.Float64(); err != nil {
			return 0, typeError("Float", v)
		}
	default:
		return 0, typeError("Float", v)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, casegraph.Errorf(casegraph.CodeBadUserInput, "a Float must be a finite number")
	}
	return f, nil
}

func typeError(want string, v any) error {
	got := "null"
	switch v.(type) {
	case string:
		got = "a string"
	case bool:
		got = "a boolean"
	case json.Number, int, int64, float64:
		got = "a number"
	case []any:
		got = "a list"
	case map[string]any:
		got = "an object"
	}
	return casegraph.Errorf(casegraph.CodeBadUserInput, "expected a %s, got %s", want, got)
}

// JSON is the JSON scalar: any JSON value, kept as its encoding.
type JSON json.RawMessage

// UnmarshalGQL accepts any input value and keeps its JSON encoding.
func (j *JSON) UnmarshalGQL(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return casegraph.Errorf(casegraph.CodeBadUserInput, "not a JSON value")
	}
	*j = JSON(b)
	return nil
}

// MarshalGQL writes the JSON as it is.
func (j JSON) MarshalGQL(w io.Writer) {
	if len(j) == 0 {
		_, _ = io.WriteString(w, "null")
		return
	}
	_, _ = w.Write(j)
}
