package casegraph

import (
	"context"
	"errors"
	"fmt"
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
// its code and cause.
func InField(field string, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return &Error{Code: e.Code, Reason: e.Reason, Message: field + ": " + e.Message, Cause: e.Cause}
	}
	return fmt.Errorf("%s: %w", field, err)
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
