package server

import (
	"context"
	"net/http"
	"strconv"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	casegraph "github.com/casegraph/casegraph"
)

// Tracing (OpenTelemetry) is on when Config.Tracer is set: each request
// has a server span (joining the client's trace when it sends a W3C
// traceparent), each GraphQL operation a span under it, each root resolver a
// span under that, and each Neo4j statement a span under the resolver
// that ran it (the store's, cypher/tracing.go). Spans carry names and
// codes, never what a client sent (a document, variables, a body) nor
// what the database holds. With no Config.Tracer nothing is started, so
// that tracing off costs nothing.

// tracerName is the instrumentation scope of the server's spans.
const tracerName = "github.com/casegraph/casegraph/server"

// traceContext reads and writes W3C traceparent and tracestate headers.
var traceContext propagation.TraceContext

// tracer returns the tracer of the server's spans, nil when tracing is
// off.
func (c Config) tracer() trace.Tracer {
	if c.Tracer == nil {
		return nil
	}
	return c.Tracer.Tracer(tracerName)
}

// remoteParent returns ctx with the client's trace (from its traceparent
// header) as the parent of the spans to come; ctx when it sent none, or
// one that is not well-formed.
func remoteParent(ctx context.Context, h http.Header) context.Context {
	if h.Get("Traceparent") == "" {
		return ctx
	}
	return traceContext.Extract(ctx, propagation.HeaderCarrier(h))
}

// knownMethods are the methods a span may name; others are _OTHER, as a
// client can send any token as its method.
var knownMethods = map[string]bool{
	http.MethodGet: true, http.MethodHead: true, http.MethodPost: true, http.MethodPut: true, http.MethodPatch: true,
	http.MethodDelete: true, http.MethodConnect: true, http.MethodOptions: true, http.MethodTrace: true,
}

// startRequestSpan starts the server span of a request on route; nil when
// tracing is off.
func startRequestSpan(ctx context.Context, tracer trace.Tracer, r *http.Request, route, id string) (context.Context, trace.Span) {
	if tracer == nil {
		return ctx, nil
	}
	method := r.Method
	if !knownMethods[method] {
		method = "_OTHER"
	}
	return tracer.Start(ctx, method+" "+route, trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(
		attribute.String("http.request.method", method),
		attribute.String("http.route", route),
		attribute.String("casegraph.request_id", id),
	))
}

// endRequestSpan ends a request's span with its status and operation.
func endRequestSpan(span trace.Span, info *requestInfo, status int) {
	if span == nil {
		return
	}
	span.SetAttributes(attribute.Int("http.response.status_code", status))
	if info.validated && graphQLName.MatchString(info.operation) {
		span.SetAttributes(attribute.String("graphql.operation.name", info.operation))
	}
	if status >= 500 {
		span.SetStatus(codes.Error, strconv.Itoa(status))
	}
	span.End()
}

// operationTracing is the gqlgen extension that traces operations and
// resolvers.
type operationTracing struct{ tracer trace.Tracer }

var _ interface {
	graphql.HandlerExtension
	graphql.OperationInterceptor
	graphql.FieldInterceptor
} = operationTracing{}

func (operationTracing) ExtensionName() string                   { return "CasegraphTracing" }
func (operationTracing) Validate(graphql.ExecutableSchema) error { return nil }

// InterceptOperation spans an operation from its dispatch to its last
// response (a deferred one's included). It is named by its type and,
// when it is a GraphQL name, its name.
func (t operationTracing) InterceptOperation(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	oc := graphql.GetOperationContext(ctx)
	kind, name := "operation", oc.OperationName
	if oc.Operation != nil {
		kind = string(oc.Operation.Operation)
		if name == "" {
			name = oc.Operation.Name
		}
	}
	attrs := []attribute.KeyValue{attribute.String("graphql.operation.type", kind)}
	spanName := kind
	if name != "" && graphQLName.MatchString(name) {
		spanName += " " + name
		attrs = append(attrs, attribute.String("graphql.operation.name", name))
	}
	ctx, span := t.tracer.Start(ctx, spanName, trace.WithAttributes(attrs...))
	respond := next(ctx)
	// A subscription's events come without HasNext: it ends when its
	// stream does (no more responses).
	subscription := oc.Operation != nil && oc.Operation.Operation == ast.Subscription
	return func(ctx context.Context) *graphql.Response {
		res := respond(ctx)
		switch {
		case res == nil:
			span.End()
		case subscription:
			if len(res.Errors) > 0 {
				endWithErrors(span, res.Errors)
			}
		case res.HasNext == nil || !*res.HasNext:
			endWithErrors(span, res.Errors)
			span.End()
		}
		return res
	}
}

// InterceptField spans each resolver that does I/O: the root fields',
// which run the statements (a root field compiles its whole selection
// into one, DESIGN.md). A nested resolver reads what its root field
// returned, or, where a selection cannot be compiled, goes through the
// request's loaders, whose batch runs under the span of the field that
// started it; a span for each of the hundreds of nested fields of a
// large answer would cost more than the request (BenchmarkTracing).
func (t operationTracing) InterceptField(ctx context.Context, next graphql.Resolver) (any, error) {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || !fc.IsResolver || !rootTypes[fc.Object] {
		return next(ctx)
	}
	ctx, span := t.tracer.Start(ctx, fc.Object+"."+fc.Field.Name)
	res, err := next(ctx)
	if err != nil {
		code := string(casegraph.ErrorCode(err))
		span.SetAttributes(attribute.String("casegraph.error.code", code))
		if serverFault(code) {
			span.SetStatus(codes.Error, code)
		}
	}
	span.End()
	return res, err
}

// rootTypes are the schema's root operation types.
var rootTypes = map[string]bool{"Query": true, "Mutation": true, "Subscription": true}

// endWithErrors marks an operation's span with its errors' codes.
func endWithErrors(span trace.Span, errs gqlerror.List) {
	if len(errs) == 0 {
		return
	}
	var list []string
	seen := map[string]bool{}
	for _, e := range errs {
		code := errorCode(e)
		if !seen[code] {
			seen[code] = true
			list = append(list, code)
		}
	}
	span.SetAttributes(attribute.StringSlice("casegraph.error.codes", list))
	for _, code := range list {
		if serverFault(code) {
			span.SetStatus(codes.Error, code)
			return
		}
	}
}

// serverFault reports a code that says the server failed (INTERNAL,
// TIMEOUT, DATABASE_UNAVAILABLE ...), which makes a span an error; a
// client's mistake (BAD_USER_INPUT, NOT_FOUND ...) is an answer.
func serverFault(code string) bool {
	return statusOf(code) >= 500 || code == string(casegraph.CodeOutcomeUnknown)
}

// errorCode is a presented error's extensions.code (INTERNAL when it has
// none: every error the presenter returns has one).
func errorCode(e *gqlerror.Error) string {
	if code, ok := e.Extensions["code"].(string); ok && code != "" {
		return code
	}
	return string(casegraph.CodeInternal)
}
