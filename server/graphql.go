package server

// The gqlgen handler: transports, caches, limits (depth, complexity, root
// fields, tokens), validation rules, the cap on errors, and the error
// presenter with its use outside GraphQL (writeCodedError).

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/rs/zerolog"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/validator/core"
	"github.com/vektah/gqlparser/v2/validator/rules"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/graph"
)

// newGraphQL builds the gqlgen handler with every limit in place. Parsing,
// validation and the limits run before any resolver, so a refused request
// never reaches the database.
func newGraphQL(cfg Config, schema graphql.ExecutableSchema, docs *persistedDocuments, trusted *trustedDocuments, metrics *Metrics, initStream transport.WebsocketInitFunc, rate *rateLimiter) *handler.Server {
	srv := handler.New(schema)
	// Streams first: a WebSocket upgrade is a GET, and server-sent events
	// a POST (stream.go).
	for _, t := range streamTransports(cfg, initStream) {
		srv.AddTransport(t)
	}
	srv.AddTransport(codedTransport{getOrHead{}})
	// @defer: a POST that accepts multipart/mixed gets the deferred parts
	// as they come (this transport comes first: POST takes the request
	// too); elsewhere @defer is refused (refuseDefer, negotiate.go).
	srv.AddTransport(codedTransport{transport.MultipartMixed{}})
	srv.AddTransport(codedTransport{transport.POST{}})
	srv.SetQueryCache(counted(metrics, "documents", lru.New[*ast.QueryDocument](cfg.QueryCacheSize)))
	// Persisted documents (persisted.go): a client names a registered
	// document by its id. Automatic persisted queries: a client sends the
	// document's SHA-256, and the document only when the server does not
	// know it yet.
	srv.Use(docs)
	srv.Use(documentText{})
	srv.Use(persistedQueries{extension.AutomaticPersistedQuery{Cache: docs.apq}})
	if trusted != nil {
		srv.Use(trusted)
	}
	srv.SetParserTokenLimit(cfg.MaxTokens)
	srv.SetDisableSuggestion(true)
	srv.SetValidationRulesFn(validationRules)
	// Introspection is always on in the executor; when the configuration
	// turns it off, requestGuard refuses it with FORBIDDEN (the executor's
	// own refusal is an uncoded error).
	srv.Use(extension.Introspection{})
	srv.Use(requestGuard{maxDepth: cfg.MaxDepth, introspection: cfg.Introspection})
	srv.Use(streamOps{rate: rate})
	srv.Use(graph.ComplexityLimit(cfg.MaxComplexity))
	srv.Use(graph.IdempotentMutations{})
	if tracer := cfg.tracer(); tracer != nil {
		srv.Use(operationTracing{tracer})
	}
	srv.SetErrorPresenter(enumPresenter(schema.Schema(), cfg.Introspection))
	srv.SetRecoverFunc(recoverPanic)
	srv.AroundResponses(countedResponses)
	if cfg.MaxCostInFlight > 0 {
		srv.AroundResponses(newCostAdmission(cfg.MaxCostInFlight).around)
	}
	srv.AroundResponses(freshLoaders)
	if !cfg.Introspection {
		srv.AroundResponses(quietValidation)
	}
	return srv
}

// maxErrors is how many errors a response lists: a document of 400 repeated
// directives would otherwise be answered with 399 errors (78 KB), and the
// first few say what is wrong.
const maxErrors = 20

// capErrors keeps a response's first maxErrors errors, and adds one that
// says how many more there were (BAD_USER_INPUT, reason TOO_MANY_ERRORS,
// with their number in extensions.omitted).
func capErrors(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	res := next(ctx)
	if res == nil || len(res.Errors) <= maxErrors {
		return res
	}
	more := len(res.Errors) - maxErrors
	last := codedError(casegraph.CodeBadUserInput, "TOO_MANY_ERRORS", "%d more errors not shown", more)
	last.Extensions["omitted"] = more
	res.Errors = append(res.Errors[:maxErrors:maxErrors], last)
	return res
}

// validationRules are gqlparser's default rules with none that suggests
// names ("Did you mean ..."), which would tell anyone the schema's
// arguments, enum values, input fields and types with introspection off.
// gqlgen's SetDisableSuggestion swaps only the rules for fields and leaf
// selections; these are all five that suggest.
func validationRules() *rules.Rules {
	r := rules.NewDefaultRules()
	for name, quiet := range map[string]core.Rule{
		"FieldsOnCorrectType": rules.FieldsOnCorrectTypeRuleWithoutSuggestions,
		"ScalarLeafs":         rules.ScalarLeafsRuleWithoutSuggestions,
		"KnownArgumentNames":  rules.KnownArgumentNamesRuleWithoutSuggestions,
		"KnownTypeNames":      rules.KnownTypeNamesRuleWithoutSuggestions,
		"ValuesOfCorrectType": rules.ValuesOfCorrectTypeRuleWithoutSuggestions,
	} {
		r.ReplaceRule(name, quiet.RuleFunc)
	}
	return r
}

// requestGuard refuses, before execution, a mutation sent over GET (GET must
// be safe to repeat and to cache) and a selection nested deeper than
// maxDepth. It also records the operation name for the log and metrics.
type requestGuard struct {
	maxDepth      int
	introspection bool
	nested        bool // a saved query run inside a request: not its HTTP side
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
	graphql.OperationInterceptor
} = requestGuard{}

func (requestGuard) ExtensionName() string                   { return "CasegraphRequestGuard" }
func (requestGuard) Validate(graphql.ExecutableSchema) error { return nil }

func (g requestGuard) MutateOperationContext(ctx context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil {
		return nil
	}
	info := &requestInfo{}
	// A stream's operations run at once on one connection: they leave
	// the request's record (its log line and metrics) alone.
	if !g.nested && !streamed(ctx) {
		info = infoFrom(ctx)
		info.operation = oc.OperationName
		if info.operation == "" {
			info.operation = oc.Operation.Name
		}
	}
	if (info.method == http.MethodGet || info.method == http.MethodHead) && oc.Operation.Operation != ast.Query && !streamed(ctx) {
		info.status = http.StatusMethodNotAllowed
		return codedError(casegraph.CodeBadUserInput, "METHOD_NOT_ALLOWED",
			"%s operations are not allowed over GET; use POST", oc.Operation.Operation)
	}
	if !g.introspection && introspects(oc.Operation.SelectionSet) {
		return codedError(casegraph.CodeForbidden, "INTROSPECTION_DISABLED", "introspection is disabled on this server")
	}
	// The client accepts no media type this operation can be sent in (a
	// request's record: a stream's and a saved query's are not).
	if err := refuseDefer(ctx, oc.Operation, g.nested); err != nil {
		info.status = http.StatusNotAcceptable
		return err
	}
	if err := refuseMisplaced(ctx, oc.Operation); err != nil {
		info.status = http.StatusNotAcceptable
		return err
	}
	if n := rootFields(oc.Operation.SelectionSet, "runSavedQuery"); n > 1 {
		return codedError(casegraph.CodeBadUserInput, "ONE_SAVED_QUERY",
			"a request may run one saved query; this one runs %d (send them one by one)", n)
	}
	if d := depth(oc.Operation.SelectionSet, 0, g.maxDepth); d > g.maxDepth {
		return codedError(casegraph.CodeBadUserInput, "DEPTH_LIMIT_EXCEEDED",
			"the query is nested deeper than the limit of %d", g.maxDepth)
	}
	return nil
}

// InterceptOperation notes that the operation passed validation and every
// limit: gqlgen dispatches only those.
func (g requestGuard) InterceptOperation(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	if !g.nested && !streamed(ctx) {
		infoFrom(ctx).validated = true
	}
	return next(ctx)
}

// rootFields counts the root fields of a selection named name, aliases
// and fragments included.
func rootFields(set ast.SelectionSet, name string) int {
	n := 0
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if s.Name == name {
				n++
			}
		case *ast.InlineFragment:
			n += rootFields(s.SelectionSet, name)
		case *ast.FragmentSpread:
			if s.Definition != nil {
				n += rootFields(s.Definition.SelectionSet, name)
			}
		}
	}
	return n
}

// depth returns the nesting depth of a selection set, stopping once it is
// past limit (fragments are inlined; validation has already refused cycles).
// Introspection fields do not count: their shape is fixed by the spec and
// their depth is bounded by gqlparser's own introspection rule.
func depth(set ast.SelectionSet, current, limit int) int {
	if current > limit {
		return current
	}
	deepest := current
	for _, sel := range set {
		var d int
		switch s := sel.(type) {
		case *ast.Field:
			if len(s.Name) > 1 && s.Name[:2] == "__" {
				continue
			}
			d = depth(s.SelectionSet, current+1, limit)
		case *ast.InlineFragment:
			d = depth(s.SelectionSet, current, limit)
		case *ast.FragmentSpread:
			if s.Definition != nil {
				d = depth(s.Definition.SelectionSet, current, limit)
			}
		}
		if d > deepest {
			deepest = d
		}
	}
	return deepest
}

// introspects reports whether a selection set asks for __schema or __type
// anywhere (__typename is not introspection of the schema).
func introspects(set ast.SelectionSet) bool {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if s.Name == "__schema" || s.Name == "__type" || introspects(s.SelectionSet) {
				return true
			}
		case *ast.InlineFragment:
			if introspects(s.SelectionSet) {
				return true
			}
		case *ast.FragmentSpread:
			if s.Definition != nil && introspects(s.Definition.SelectionSet) {
				return true
			}
		}
	}
	return false
}

// argumentField is the input an error of reading a field's arguments is
// about (a date or an id that is no such thing, refused as it is read,
// before any resolver runs), as a path within the argument:
// "birthDate" for upsertEntity(input: {birthDate: ...}), the argument's
// own name for a value given bare; "" for an error about no argument.
func argumentField(ctx context.Context, path ast.Path) string {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || fc.Field.Definition == nil {
		return ""
	}
	at := fc.Path()
	if len(path) <= len(at) || !slices.Equal(path[:len(at)], at) {
		return ""
	}
	arg, ok := path[len(at)].(ast.PathName)
	if !ok || fc.Field.Definition.Arguments.ForName(string(arg)) == nil {
		return ""
	}
	return inputPath(string(arg), path[len(at)+1:])
}

// inputPath is the path within an input named name ("identifiers[0].type"),
// or name itself for the input as a whole.
func inputPath(name string, within ast.Path) string {
	var b strings.Builder
	for _, el := range within {
		switch el := el.(type) {
		case ast.PathName:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(string(el))
		case ast.PathIndex:
			fmt.Fprintf(&b, "[%d]", int(el))
		}
	}
	if b.Len() == 0 {
		return name
	}
	return b.String()
}

// variableField is the input an error of reading the variables is about,
// as argumentField gives it for an argument: gqlparser's path of such an
// error is "variable", the variable's name, then the path within it
// ("identifiers[0].type" for $in: {identifiers: [{type: "DNA"}]}; the
// variable's own name for a value given bare); "" for any other path.
func variableField(path ast.Path) string {
	if len(path) < 2 || path[0] != ast.PathName("variable") {
		return ""
	}
	name, ok := path[1].(ast.PathName)
	if !ok {
		return ""
	}
	return inputPath(string(name), path[2:])
}

// problem is one of the problems of an error that joins several.
type problem struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Field   string `json:"field,omitempty"`
}

func problemList(list []*casegraph.Error) []problem {
	out := make([]problem, len(list))
	for i, p := range list {
		out[i] = problem{Code: string(p.Code), Message: p.Message, Field: p.Field}
	}
	return out
}

func codedError(code casegraph.Code, reason, format string, args ...any) *gqlerror.Error {
	return &gqlerror.Error{
		Message:    fmt.Sprintf(format, args...),
		Extensions: map[string]any{"code": string(code), "reason": reason},
	}
}

// presentError gives every error a code in extensions.code and a message
// that is safe to show: a *casegraph.Error keeps its own; parse, validation
// and limit errors become BAD_USER_INPUT (with gqlgen's code as the reason);
// anything else is logged with the request id and shown as "internal error".
func presentError(ctx context.Context, err error) *gqlerror.Error {
	gqlErr := graphql.DefaultErrorPresenter(ctx, err)

	var coded *casegraph.Error
	if errors.As(err, &coded) {
		out := &gqlerror.Error{Message: coded.Message, Path: gqlErr.Path, Locations: gqlErr.Locations,
			Extensions: map[string]any{"code": string(coded.Code)}}
		if coded.Reason != "" {
			out.Extensions["reason"] = coded.Reason
		}
		// The input the error is about, for a form to show it at its field.
		if coded.Field != "" {
			out.Extensions["field"] = coded.Field
		} else if f := argumentField(ctx, gqlErr.Path); f != "" {
			out.Extensions["field"] = f
		}
		// An input refused for several problems says each with its field
		// (extensions.problems), so that a form shows each at its input.
		if len(coded.Problems) > 1 {
			out.Extensions["problems"] = problemList(coded.Problems)
		}
		switch coded.Code {
		case casegraph.CodeBusy:
			// Nothing of this field ran: the whole answer says so with 429
			// and Retry-After, partial data or not, so that clients and
			// proxies back off.
			infoFrom(ctx).busy.Store(true)
		case casegraph.CodeInternal, casegraph.CodeDatabaseUnavailable, casegraph.CodeTimeout, casegraph.CodeOutcomeUnknown:
			logErr(zerolog.Ctx(ctx).Warn(), coded.Cause).Str("code", string(coded.Code)).Msg(truncate(coded.Message, maxLoggedText))
		case casegraph.CodeForbidden:
			// A refusal of the caller's rights: logged (never the body)
			// and counted in /metrics.
			infoFrom(ctx).forbidden.Add(1)
			zerolog.Ctx(ctx).Info().Str("code", string(coded.Code)).Msg(truncate(coded.Message, maxLoggedText))
		}
		return out
	}

	if code, ok := gqlErr.Extensions["code"].(string); ok {
		switch code {
		case string(casegraph.CodeBadUserInput), string(casegraph.CodeInternal), string(casegraph.CodeForbidden):
			return gqlErr // set by this package
		case errcode.ParseFailed, errcode.ValidationFailed, "COMPLEXITY_LIMIT_EXCEEDED",
			"PERSISTED_QUERY_NOT_FOUND", "PERSISTED_QUERY_NOT_SUPPORTED":
			gqlErr.Extensions = map[string]any{"code": string(casegraph.CodeBadUserInput), "reason": code}
			if f := variableField(gqlErr.Path); f != "" {
				gqlErr.Extensions["field"] = f
			}
			return gqlErr
		}
	}

	// gqlgen's errors can quote the document or the body: cut.
	logErr(zerolog.Ctx(ctx).Error(), err).Msg("internal error")
	return &gqlerror.Error{Message: "internal error", Path: gqlErr.Path,
		Extensions: map[string]any{"code": string(casegraph.CodeInternal)}}
}

// enumPresenter is presentError, which first gives a value outside one of
// the schema's enums its code: gqlparser's check of variables takes an
// enum's value in any case ("male"), and gqlgen's generated UnmarshalGQL
// then refuses it with a plain "male is not a valid Gender", which would
// be INTERNAL. It is BAD_USER_INPUT, with the values accepted and the
// nearest (enum values in GraphQL are exact names, as the spec has them;
// data files take them in any case: casegraph.Canonical). With
// introspection off it names nothing of the schema (quiet.go): the error
// is the one of a document refused by validation.
func enumPresenter(schema *ast.Schema, introspection bool) graphql.ErrorPresenterFunc {
	return func(ctx context.Context, err error) *gqlerror.Error {
		if bad := enumError(schema, err); bad != nil {
			if !introspection {
				return codedError(casegraph.CodeBadUserInput, errcode.ValidationFailed, schemaHidden)
			}
			out := presentError(ctx, bad)
			var gqlErr *gqlerror.Error
			if errors.As(err, &gqlErr) {
				out.Path, out.Locations = gqlErr.Path, gqlErr.Locations
				// The input it is about, as for any argument refused as
				// it is read ("gender" for upsertEntity(input: {gender})).
				if f := argumentField(ctx, gqlErr.Path); f != "" {
					out.Extensions["field"] = f
				} else if f := variableField(gqlErr.Path); f != "" {
					out.Extensions["field"] = f
				}
			}
			out.Extensions["accepted"] = bad.Accepted
			if bad.Suggestion != "" {
				out.Extensions["suggestion"] = bad.Suggestion
			}
			return out
		}
		return presentError(ctx, err)
	}
}

// notValidEnum is the message of gqlgen's generated UnmarshalGQL.
var notValidEnum = regexp.MustCompile(`^(.*) is not a valid ([_A-Za-z][_0-9A-Za-z]*)$`)

// enumError is err as the coded error of a value outside an enum of the
// schema, or nil when it is not one.
func enumError(schema *ast.Schema, err error) *casegraph.Error {
	for e := err; e != nil; e = errors.Unwrap(e) {
		if _, coded := e.(*casegraph.Error); coded {
			return nil
		}
		msg := e.Error()
		if g, ok := e.(*gqlerror.Error); ok {
			msg = g.Message // without the path before it
		}
		m := notValidEnum.FindStringSubmatch(msg)
		if m == nil {
			continue
		}
		def := schema.Types[m[2]]
		if def == nil || def.Kind != ast.Enum {
			return nil
		}
		values := make([]string, len(def.EnumValues))
		for i, v := range def.EnumValues {
			values[i] = v.Name
		}
		return casegraph.UnknownValue("", def.Name, m[1], values)
	}
	return nil
}

// writeCodedError answers a request refused outside GraphQL (saved
// queries, dataset export and import) with the error as GraphQL would
// present it, counted in the error metrics, with the status of its code.
func writeCodedError(w http.ResponseWriter, ctx context.Context, err error) {
	errs := gqlerror.List{presentError(ctx, err)}
	countErrors(ctx, errs)
	writeJSON(w, statusOf(string(casegraph.ErrorCode(err))), graphql.Response{Errors: errs})
}

// statusOf is the HTTP status of an error code.
func statusOf(code string) int {
	switch casegraph.Code(code) {
	case casegraph.CodeNotFound:
		return http.StatusNotFound
	case casegraph.CodeForbidden:
		return http.StatusForbidden
	case casegraph.CodeConflict:
		return http.StatusConflict
	case casegraph.CodeTimeout:
		return http.StatusGatewayTimeout
	case casegraph.CodeBusy:
		return http.StatusTooManyRequests
	case casegraph.CodeDatabaseUnavailable:
		return http.StatusServiceUnavailable
	case casegraph.CodeInternal:
		return http.StatusInternalServerError
	}
	return http.StatusBadRequest
}

// recoverPanic logs a resolver's panic with the request id and its stack,
// and answers INTERNAL; the server goes on serving.
func recoverPanic(ctx context.Context, p any) error {
	logPanic(zerolog.Ctx(ctx).Error(), p, debug.Stack()).Msg("panic in resolver")
	// Already logged: a coded *gqlerror.Error passes the presenter as it is.
	return codedError(casegraph.CodeInternal, "PANIC", "internal error")
}
