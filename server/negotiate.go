package server

import (
	"context"
	"encoding/json"
	"mime"
	"net/http"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	casegraph "github.com/casegraph/casegraph"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// This file gives a GraphQL request that fails before execution (a
// request error: parse, validation, variable coercion, a limit) the status
// and body the GraphQL-over-HTTP spec asks of the media type the client
// accepts, which gqlgen's transports choose from the Accept header:
//
//   - application/json (also when Accept is absent): 200, as for any
//     well-formed request (gqlgen answers parse and validation failures
//     with 422);
//   - application/graphql-response+json: 4xx, the status of the error's
//     code (400, or 403 for FORBIDDEN); gqlgen answers some with 200;
//
// and in both, a body without "data": the GraphQL spec leaves it out when
// nothing was executed (gqlgen writes "data": null). A request with no
// document at all (no query and no persisted-query hash) is not a GraphQL
// request: 400 under either. Statuses set by this package's own refusals
// (405 for a mutation over GET, 400 for text that is not UTF-8) still
// override these, in statusWriter.

const graphQLResponseJSON = "application/graphql-response+json"

// negotiated holds a transport's status until the body, when it is known
// whether the executor reported a request error.
type negotiated struct {
	http.ResponseWriter
	status  int  // the transport's, 0 until it sets one
	written bool // the status went out
	// Set by codedExecutor when the request failed before execution.
	requestError *graphql.Response
	noDocument   bool
}

func (w *negotiated) WriteHeader(code int) {
	if !w.written && w.status == 0 {
		w.status = code
	}
}

func (w *negotiated) Write(b []byte) (int, error) {
	n := len(b)
	if !w.written {
		w.writeStatus()
		if w.requestError != nil {
			b = withoutData(b)
		}
	}
	if _, err := w.ResponseWriter.Write(b); err != nil {
		return 0, err
	}
	return n, nil
}

func (w *negotiated) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush sends the status and what was written so far: the multipart
// transport flushes each part of a deferred answer.
func (w *negotiated) Flush() {
	if !w.written {
		w.writeStatus()
	}
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

// finish sends a status that was set without a body.
func (w *negotiated) finish() {
	if !w.written && w.status != 0 {
		w.writeStatus()
	}
}

func (w *negotiated) writeStatus() {
	w.written = true
	status := w.status
	if status == 0 {
		status = http.StatusOK
	}
	if w.requestError != nil {
		media, _, _ := mime.ParseMediaType(w.Header().Get("Content-Type"))
		switch {
		case w.noDocument:
			status = http.StatusBadRequest
		case media == graphQLResponseJSON && status < 400:
			code := ""
			if len(w.requestError.Errors) > 0 {
				code, _ = w.requestError.Errors[0].Extensions["code"].(string)
			}
			status = statusOf(code)
		case media != graphQLResponseJSON && status == http.StatusUnprocessableEntity:
			status = http.StatusOK
		}
	}
	w.ResponseWriter.WriteHeader(status)
}

// withoutData removes a null "data" from a JSON response body.
func withoutData(b []byte) []byte {
	var res struct {
		Errors     json.RawMessage `json:"errors,omitempty"`
		Data       json.RawMessage `json:"data"`
		Extensions json.RawMessage `json:"extensions,omitempty"`
	}
	if json.Unmarshal(b, &res) != nil || (res.Data != nil && string(res.Data) != "null") {
		return b
	}
	res.Data = nil
	out, err := json.Marshal(struct {
		Errors     json.RawMessage `json:"errors,omitempty"`
		Extensions json.RawMessage `json:"extensions,omitempty"`
	}{res.Errors, res.Extensions})
	if err != nil {
		return b
	}
	return out
}

// codedExecutor runs a transport's requests: it codes the errors a
// transport reports without a code (badrequest.go), and tells the response
// writer about a request error.
type codedExecutor struct {
	graphql.GraphExecutor
	w *negotiated
}

func (e codedExecutor) CreateOperationContext(ctx context.Context, params *graphql.RawParams) (*graphql.OperationContext, gqlerror.List) {
	oc, errs := e.GraphExecutor.CreateOperationContext(ctx, params)
	if errs != nil && strings.TrimSpace(params.Query) == "" && params.Extensions["persistedQuery"] == nil {
		e.w.noDocument = true
	}
	return oc, errs
}

func (e codedExecutor) DispatchError(ctx context.Context, list gqlerror.List) *graphql.Response {
	res := e.GraphExecutor.DispatchError(ctx, codeErrors(list))
	e.w.requestError = res
	return res
}

// @defer works over multipart/mixed only: gqlgen's other transports send
// the first part of a deferred answer alone (the deferred fields null,
// "hasNext": true), and so does a saved query's run. A request that defers
// anything elsewhere is refused, before it runs, with BAD_USER_INPUT,
// reason DEFER_NEEDS_MULTIPART.

type incrementalKey struct{}

// incremental marks the requests of a transport that delivers deferred
// parts as they come.
func incremental(t any, r *http.Request) *http.Request {
	if _, ok := t.(transport.MultipartMixed); !ok {
		return r
	}
	return r.WithContext(context.WithValue(r.Context(), incrementalKey{}, true))
}

// refuseDefer refuses an operation that uses @defer unless ctx is a
// request of the multipart transport and the operation is not nested.
func refuseDefer(ctx context.Context, op *ast.OperationDefinition, nested bool) *gqlerror.Error {
	if multipart, _ := ctx.Value(incrementalKey{}).(bool); multipart && !nested {
		return nil
	}
	if !defers(op.SelectionSet, map[*ast.FragmentDefinition]bool{}) {
		return nil
	}
	if nested {
		return codedError(casegraph.CodeBadUserInput, "DEFER_NEEDS_MULTIPART", "a saved query cannot use @defer: its answer comes in one part")
	}
	return codedError(casegraph.CodeBadUserInput, "DEFER_NEEDS_MULTIPART",
		"@defer needs a POST with Accept: multipart/mixed, which gets the deferred parts as they come")
}

// defers reports whether a selection set uses @defer, through fragments
// (each read once).
func defers(set ast.SelectionSet, seen map[*ast.FragmentDefinition]bool) bool {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if defers(s.SelectionSet, seen) {
				return true
			}
		case *ast.InlineFragment:
			if s.Directives.ForName("defer") != nil || defers(s.SelectionSet, seen) {
				return true
			}
		case *ast.FragmentSpread:
			if s.Directives.ForName("defer") != nil {
				return true
			}
			if d := s.Definition; d != nil && !seen[d] {
				seen[d] = true
				if defers(d.SelectionSet, seen) {
					return true
				}
			}
		}
	}
	return false
}
