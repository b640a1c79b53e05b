package server

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/gqlerror"

	casegraph "github.com/casegraph/casegraph"
)

// With introspection off the schema's names are the operator's to give,
// and validation must not give them either. Dropping "Did you mean" is not
// enough (validationRules does that always): every message tells a known
// name from an unknown one ("Cannot query field" for a guess, "argument
// id of type ID! is required" or "must have a selection" for a name that
// exists), and so do the number of errors and their places, so that a
// word list recovered 14 of the 26 root fields in 1,046 requests. A
// document that fails validation then gets one error that names nothing;
// with introspection on, the messages stay, as the schema is public.

// schemaHidden is the one message of a document refused by validation
// while introspection is off.
const schemaHidden = "the document does not validate against the schema; with introspection off, this server does not say where or why"

// quietValidation answers a response refused by validation (every error
// GRAPHQL_VALIDATION_FAILED, nothing executed) with one error without a
// message of the schema's or a location. Use it only where introspection
// is off.
func quietValidation(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	res := next(ctx)
	if res == nil || len(res.Errors) == 0 || res.Data != nil {
		return res
	}
	for _, err := range res.Errors {
		if err.Extensions["reason"] != errcode.ValidationFailed {
			return res
		}
	}
	res.Errors = gqlerror.List{codedError(casegraph.CodeBadUserInput, errcode.ValidationFailed, schemaHidden)}
	return res
}

// validationMessage is msg, a validation error's message, or schemaHidden
// when introspection is off.
func validationMessage(introspection bool, msg string) string {
	if !introspection {
		return schemaHidden
	}
	return msg
}
