package cypher

import (
	"context"
	"errors"
	"fmt"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// A traced Store gives each statement it sends a span of its own, a child
// of the request's, named after the statement (its file of statements/, or
// the variant): never its text nor its parameters, which hold what
// callers asked for and stored. An error is told by its kind alone (the
// Neo4j status code, or the Go type), as its message may quote a value.

// statementSpan starts the span of one statement; nil when the Store is
// not traced, which then costs nothing, and outside a request's span: the
// statements a process runs on its own (the watches' polls of the change
// feed, twice a second; migrations) would each be a trace of one span.
func (s *Store) statementSpan(ctx context.Context, name string) trace.Span {
	if s.tracer == nil || !trace.SpanContextFromContext(ctx).IsValid() {
		return nil
	}
	_, span := s.tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(
			attribute.String("db.system.name", "neo4j"),
			attribute.String("db.namespace", s.database),
			attribute.String("db.operation.name", name),
		))
	return span
}

// endStatementSpan ends span with the statement's outcome.
func endStatementSpan(span trace.Span, err error) {
	if span == nil {
		return
	}
	if err != nil {
		kind := errorKind(err)
		span.SetAttributes(attribute.String("error.type", kind))
		span.SetStatus(codes.Error, kind)
	}
	span.End()
}

// errorKind names an error without its message: the Neo4j status code
// (Neo.ClientError.Schema.ConstraintValidationFailed), the context's
// error, or the Go type.
func errorKind(err error) string {
	var limit *neo4j.TransactionExecutionLimit
	if errors.As(err, &limit) && len(limit.Errors) > 0 {
		err = limit.Errors[len(limit.Errors)-1]
	}
	var dbErr *neo4j.Neo4jError
	switch {
	case errors.As(err, &dbErr):
		return dbErr.Code
	case errors.Is(err, context.DeadlineExceeded):
		return "context.DeadlineExceeded"
	case errors.Is(err, context.Canceled):
		return "context.Canceled"
	}
	return fmt.Sprintf("%T", err)
}
