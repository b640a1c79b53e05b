package casegraph

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Code classifies an error for clients. The values are the strings that
// appear in a GraphQL error's extensions.code.
type Code string

// The codes a client can see. Anything that is not a *Error with one of
// these codes is reported as INTERNAL, without its message.
const (
	CodeBadUserInput        Code = "BAD_USER_INPUT"
	CodeUnauthenticated     Code = "UNAUTHENTICATED"
	CodeNotFound            Code = "NOT_FOUND"
	CodeForbidden           Code = "FORBIDDEN"
	CodeConflict            Code = "CONFLICT"
	CodeTimeout             Code = "TIMEOUT"
	CodeDatabaseUnavailable Code = "DATABASE_UNAVAILABLE"
	// CodeOutcomeUnknown says a write may or may not have committed: the
	// connection broke, or the deadline passed, while its COMMIT was on
	// the way. The client settles it by sending the same request again
	// with the same Idempotency-Key. (DATABASE_UNAVAILABLE and TIMEOUT on
	// a write mean it was not executed.)
	CodeOutcomeUnknown Code = "OUTCOME_UNKNOWN"
	CodeInternal       Code = "INTERNAL"
)

// CodeBusy refuses what the server had no room for at the moment (admission
// control, rate limits): nothing was executed, and the same request may be
// sent again after a moment.
const CodeBusy Code = "BUSY"

// Error is an error whose message is safe to show to a client. Cause, when
// set, is for logs only: it may hold a driver message or Cypher text.
type Error struct {
	Code Code
	// Reason, when set, says which case of the code it is, for programs
	// (extensions.reason): IDEMPOTENCY_KEY_REUSED, ...
	Reason  string
	Message string
	Cause   error

	// Field, when set, names the input the error is about: a field's
	// name or a JSON path ("kind", "identifiers[0].type").
	Field string
	// Accepted and Suggestion, for a value outside a closed set (a kind,
	// a relation type, a status, ...): the values accepted, and the one
	// nearest the value given ("" when none is near).
	Accepted   []string
	Suggestion string
	// Problems, when set, are the several errors this one joins (its
	// Message is theirs, joined): a record's every problem, reported at
	// once (Problems).
	Problems []*Error
}

// Error returns the client-safe message; the cause is reached with Unwrap.
func (e *Error) Error() string {
	return e.Message
}

// Unwrap returns the cause, so errors.Is and errors.As see through an Error.
func (e *Error) Unwrap() error {
	return e.Cause
}

// Errorf returns an *Error with the code and a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// WithReason sets the error's reason and returns it.
func (e *Error) WithReason(reason string) *Error {
	e.Reason = reason
	return e
}

// ErrorCode returns the code of the first *Error in err's chain, or
// CodeInternal when there is none.
func ErrorCode(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeInternal
}

// ErrorMessage returns the client-safe message of the first *Error in err's
// chain, or a generic message when there is none.
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "internal error"
}

// InField returns err with the field's name before its message, keeping
// its code, cause and what it says of its value; field, when it is a
// field's name or path (not a phrase), becomes its Field too. No error is
// nil.
func InField(field string, err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		if len(e.Problems) > 0 {
			var p problems
			for _, each := range e.Problems {
				p.add("", InField(field, each))
			}
			return p.err()
		}
		out := *e
		out.Message = field + ": " + e.Message
		out.Problems = nil
		if fieldPath.MatchString(field) {
			out.Field = joinPath(field, e.Field)
		}
		return &out
	}
	return fmt.Errorf("%s: %w", field, err)
}

// fieldPath is a field's name or a JSON path to it.
var fieldPath = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\[[0-9]+\])*(\.[A-Za-z_][A-Za-z0-9_]*(\[[0-9]+\])*)*$`)

// joinPath is the path of inner (relative, "" for none) within field.
func joinPath(field, inner string) string {
	switch {
	case inner == "":
		return field
	case strings.HasPrefix(inner, "["):
		return field + inner
	}
	return field + "." + inner
}

// MaxProblems bounds the problems one record reports (Problems).
const MaxProblems = 20

// problems collects the problems of one value, each with its field, so
// that a record reports all of them at once rather than the first.
type problems []*Error

// add adds err (nil: nothing) as the problem of field ("" when err names
// its own, or none): each of its problems when it joins several.
func (p *problems) add(field string, err error) {
	if err == nil {
		return
	}
	var e *Error
	if !errors.As(err, &e) {
		// Not a client's mistake: kept as the INTERNAL it is.
		*p = append(*p, &Error{Code: CodeInternal, Message: "internal error", Cause: err})
		return
	}
	if len(e.Problems) > 0 {
		for _, each := range e.Problems {
			p.add(field, each)
		}
		return
	}
	if field != "" && e.Field == "" {
		c := *e
		c.Field = field
		e = &c
	}
	*p = append(*p, e)
}

// atField is err about field when it names no field of its own (its
// message as it is: it names what it is about already).
func atField(field string, err error) error {
	var p problems
	p.add(field, err)
	return p.err()
}

// err is nil when there is no problem, the one problem, or one error that
// joins them (Problems), with the code they share (BAD_USER_INPUT when
// they differ, INTERNAL when one is).
func (p problems) err() error {
	switch len(p) {
	case 0:
		return nil
	case 1:
		return p[0]
	}
	list := p
	if len(list) > MaxProblems {
		list = list[:MaxProblems]
	}
	code := p[0].Code
	msgs := make([]string, len(list))
	for i, e := range list {
		msgs[i] = e.Message
		if e.Code == CodeInternal {
			code = CodeInternal
		} else if e.Code != code && code != CodeInternal {
			code = CodeBadUserInput
		}
	}
	msg := strings.Join(msgs, "; ")
	if len(p) > len(list) {
		msg += fmt.Sprintf("; and %d more", len(p)-len(list))
	}
	return &Error{Code: code, Message: msg, Problems: slices.Clone(list)}
}

// Problems splits err into the problems it reports: the several an error
// joins, or err itself (as INTERNAL when it is not a *Error); none for nil.
func Problems(err error) []*Error {
	if err == nil {
		return nil
	}
	var e *Error
	if !errors.As(err, &e) {
		return []*Error{{Code: CodeInternal, Message: "internal error", Cause: err}}
	}
	if len(e.Problems) > 0 {
		return e.Problems
	}
	return []*Error{e}
}

// Ended is the coded error of work cut short because its context ended
// (err, or the context's own error, says so): TIMEOUT, "ran out of time"
// or "was cancelled", with cause kept for the log; nil when neither did.
func Ended(ctx context.Context, err, cause error) error {
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded):
		return &Error{Code: CodeTimeout, Message: "the request ran out of time", Cause: cause}
	case errors.Is(err, context.Canceled) || errors.Is(ctx.Err(), context.Canceled):
		return &Error{Code: CodeTimeout, Message: "the request was cancelled", Cause: cause}
	}
	return nil
}
