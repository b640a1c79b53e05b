package server

// The runner of saved queries in-process (graph.QueryRunner): it checks a
// document when it is saved, and runs it as a request over HTTP would.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/executor"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/graph"
	"github.com/casegraph/casegraph/loaders"
)

// Runner checks and runs saved queries in-process, with the same executor
// settings, limits, error presenter and (through the context) loaders as a
// request over HTTP.
type Runner struct {
	cfg    Config
	schema graphql.ExecutableSchema
	exec   *executor.Executor
}

// NewRunner returns a runner with cfg's limits over a schema of its own
// over store (New makes the server's; `casegraph seed` makes one to check
// the example queries). That schema has no runner: a saved query's run
// refuses runSavedQuery before it would need one.
func NewRunner(cfg Config, store Store) *Runner {
	schema := graph.NewSchema(schemaStores(store), nil, nil)
	exec := executor.New(schema)
	exec.SetQueryCache(lru.New[*ast.QueryDocument](cfg.QueryCacheSize))
	exec.SetParserTokenLimit(cfg.MaxTokens)
	exec.SetDisableSuggestion(true)
	exec.SetDefaultRulesFn(validationRules)
	exec.Use(requestGuard{maxDepth: cfg.MaxDepth, introspection: cfg.Introspection, nested: true})
	exec.Use(queriesOnly{})
	// The variables of a run are not those the document was checked with
	// when it was saved: its complexity is measured again on every run,
	// against what the request around it leaves of the limit.
	exec.Use(graph.SavedRunLimit(cfg.MaxComplexity))
	if tracer := cfg.tracer(); tracer != nil {
		exec.Use(operationTracing{tracer})
	}
	exec.SetErrorPresenter(presentError)
	exec.SetRecoverFunc(recoverPanic)
	exec.AroundResponses(capErrors)
	if !cfg.Introspection {
		exec.AroundResponses(quietValidation)
	}
	return &Runner{cfg: cfg, schema: schema, exec: exec}
}

// forbiddenInSaved are root fields a saved query may not select: running a
// saved query from a saved query could loop.
var forbiddenInSaved = map[string]bool{"runSavedQuery": true}

// Check validates a document to be saved, against the live schema and the
// server's limits: one query operation (no mutation or subscription), no
// syntax or schema error, within the token, depth and complexity limits,
// every variable it uses declared (the validator's rule) and every default
// value declared and of its declared type.
func (r *Runner) Check(ctx context.Context, document string, defaults json.RawMessage) error {
	bad := func(format string, args ...any) error {
		return casegraph.Errorf(casegraph.CodeBadUserInput, "document: "+format, args...)
	}
	doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: document}, r.cfg.MaxTokens)
	if err != nil {
		return bad("%s", gqlMessage(err))
	}
	if errs := validator.ValidateWithRules(r.schema.Schema(), doc, validationRules()); len(errs) > 0 {
		return bad("%s", validationMessage(r.cfg.Introspection, errs[0].Message))
	}
	if len(doc.Operations) != 1 {
		return bad("holds %d operations; save one query", len(doc.Operations))
	}
	op := doc.Operations[0]
	if op.Operation != ast.Query {
		return bad("is a %s; only queries can be saved", op.Operation)
	}
	if defers(op.SelectionSet, nil, map[string]bool{}) {
		return bad("uses @defer; a saved query's answer comes in one part")
	}
	for _, f := range fields(op.SelectionSet) { // fragments inlined
		if forbiddenInSaved[f.Name] {
			return bad("a saved query cannot select %s", f.Name)
		}
	}
	if d := depth(op.SelectionSet, 0, r.cfg.MaxDepth); d > r.cfg.MaxDepth {
		return bad("is nested deeper than the limit of %d", r.cfg.MaxDepth)
	}
	vars := map[string]any{}
	if len(defaults) > 0 {
		dec := json.NewDecoder(bytes.NewReader(defaults))
		dec.UseNumber()
		if err := dec.Decode(&vars); err != nil {
			return casegraph.Errorf(casegraph.CodeBadUserInput, "defaultVariables must be a JSON object")
		}
	}
	for name, value := range vars {
		def := op.VariableDefinitions.ForName(name)
		if def == nil {
			return casegraph.Errorf(casegraph.CodeBadUserInput, "defaultVariables: $%s is not declared by the document", name)
		}
		one := *op
		one.VariableDefinitions = ast.VariableDefinitionList{def}
		if _, err := validator.VariableValues(r.schema.Schema(), &one, map[string]any{name: value}); err != nil {
			return casegraph.Errorf(casegraph.CodeBadUserInput, "defaultVariables: %s", validationMessage(r.cfg.Introspection, gqlMessage(err)))
		}
	}
	if c := graph.Complexity(ctx, r.schema, op, vars); c > r.cfg.MaxComplexity {
		return bad("has complexity %d; the limit is %d", c, r.cfg.MaxComplexity)
	}
	return nil
}

// Run executes a document with variables (a JSON object) and returns the
// response: data and coded errors, as a request over HTTP would get them.
func (r *Runner) Run(ctx context.Context, document string, variables json.RawMessage) *graphql.Response {
	vars := map[string]any{}
	if len(variables) > 0 {
		dec := json.NewDecoder(bytes.NewReader(variables))
		dec.UseNumber()
		if err := dec.Decode(&vars); err != nil {
			return &graphql.Response{Errors: gqlerror.List{codedError(casegraph.CodeBadUserInput, "BAD_VARIABLES", "variables must be a JSON object")}}
		}
	}
	ctx = graph.WithSavedRun(graph.WithSpentComplexity(ctx))
	if l, ok := loaders.From(ctx); ok {
		// The run's reads hold what its own operation shows, not the
		// outer request's (graph.operationProperties).
		ctx = loaders.With(ctx, l.Fresh())
	}
	ctx = graphql.StartOperationTrace(ctx)
	params := &graphql.RawParams{Query: document, Variables: vars, ReadTime: graphql.TraceTiming{Start: graphql.Now(), End: graphql.Now()}}
	opCtx, errs := r.exec.CreateOperationContext(ctx, params)
	if errs != nil {
		return r.exec.DispatchError(graphql.WithOperationContext(ctx, opCtx), errs)
	}
	handler, ctx := r.exec.DispatchOperation(ctx, opCtx)
	return handler(ctx)
}

// queriesOnly refuses anything but a query in a saved query's run (saving
// refuses them already; this holds for documents saved by other means).
type queriesOnly struct{}

func (queriesOnly) ExtensionName() string                   { return "CasegraphQueriesOnly" }
func (queriesOnly) Validate(graphql.ExecutableSchema) error { return nil }
func (queriesOnly) MutateOperationContext(ctx context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil {
		return nil
	}
	if oc.Operation.Operation != ast.Query {
		return codedError(casegraph.CodeBadUserInput, "NOT_A_QUERY", "a saved query runs queries only")
	}
	return nil
}

func gqlMessage(err error) string {
	// A gqlerror.List answers errors.As with its first *gqlerror.Error.
	var e *gqlerror.Error
	if errors.As(err, &e) {
		return e.Message
	}
	return err.Error()
}
