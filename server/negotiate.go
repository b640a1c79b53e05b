package server

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	casegraph "github.com/casegraph/casegraph"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
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
	if errs != nil && strings.TrimSpace(params.Query) == "" && params.Extensions["persistedQuery"] == nil && !documentIDSent(ctx) {
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
	if !defers(op.SelectionSet, nil, map[string]bool{}) {
		return nil
	}
	if nested {
		return codedError(casegraph.CodeBadUserInput, "DEFER_NEEDS_MULTIPART", "a saved query cannot use @defer: its answer comes in one part")
	}
	return codedError(casegraph.CodeBadUserInput, "DEFER_NEEDS_MULTIPART",
		"@defer needs a POST with Accept: multipart/mixed, which gets the deferred parts as they come")
}

// defers reports whether a selection set uses @defer, through fragments
// (each read once): a validated document's spreads know their fragment,
// a document only parsed (doc) has them by name.
func defers(set ast.SelectionSet, doc *ast.QueryDocument, seen map[string]bool) bool {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if defers(s.SelectionSet, doc, seen) {
				return true
			}
		case *ast.InlineFragment:
			if s.Directives.ForName("defer") != nil || defers(s.SelectionSet, doc, seen) {
				return true
			}
		case *ast.FragmentSpread:
			if s.Directives.ForName("defer") != nil {
				return true
			}
			d := s.Definition
			if d == nil && doc != nil {
				d = doc.Fragments.ForName(s.Name)
			}
			if d != nil && !seen[s.Name] {
				seen[s.Name] = true
				if defers(d.SelectionSet, doc, seen) {
					return true
				}
			}
		}
	}
	return false
}

// Media types: a query or mutation is answered in the media type the
// client's Accept ranks best among those the server can send for that
// operation (accept.go):
//
//   - application/json and application/graphql-response+json, for any
//     query or mutation (a wildcard takes them, application/json first);
//   - text/event-stream, for any operation sent by POST, as the
//     GraphQL-over-SSE spec's distinct connections mode allows: a
//     subscription's events, or a query's or a mutation's one answer;
//   - multipart/mixed, for an operation sent by POST: the parts of one
//     that uses @defer, or one part.
//
// The streams are chosen only where Accept names them. A GET is a query's,
// in a JSON type. Which type that is can depend on the operation (urql
// lists the JSON types first and text/event-stream after, for every
// operation): only then is the body read, before the route's layers, to
// find the operation's kind. The request goes on with its Accept replaced
// by the type chosen, which gqlgen's transports then select by; when the
// client accepts nothing the server can send, the answer is 406
// (NOT_ACCEPTABLE, naming what it can send), and for an operation that
// needs a stream or multipart the client does not accept (a subscription,
// @defer) 406 too, from the guard that refuses it (refuseMisplaced,
// refuseDefer).

// opKind is what the media types a request can be answered in depend on.
type opKind int

const (
	plainOp        opKind = iota // a query or mutation without @defer, or one not known before it runs
	deferredOp                   // one that uses @defer
	subscriptionOp               // a subscription
)

var (
	offerJSON        = offer{media: "application/json"}
	offerGraphQLJSON = offer{media: graphQLResponseJSON}
	offerEventStream = offer{media: "text/event-stream", named: true}
	offerMultipart   = offer{media: "multipart/mixed", params: map[string]string{"deferspec": "20220824"}, named: true}
	offersOfGET      = []offer{offerJSON, offerGraphQLJSON}
	offersOfPOST     = map[opKind][]offer{
		plainOp:        {offerJSON, offerGraphQLJSON, offerEventStream, offerMultipart},
		deferredOp:     {offerMultipart},
		subscriptionOp: {offerEventStream},
	}
)

// servable names what the server sends, for a 406.
const servable = "application/json or application/graphql-response+json (any query or mutation); " +
	"text/event-stream (a POST of any operation, subscriptions included); multipart/mixed (a POST, for @defer)"

// mediaKey holds a request's negotiation in its context.
type mediaKey struct{}

// negotiation is what choosing a request's media type found.
type negotiation struct {
	accept string // the client's Accept, as sent
	media  string // the type chosen, "" when the client accepts none
}

// negotiateMedia chooses the media type of each GraphQL request to path
// (not a WebSocket upgrade) before the route's layers see it, reading the
// body (at most limit bytes, then handing it on whole) only where the
// choice depends on the operation.
func negotiateMedia(path string, limit, maxTokens int64, docs *persistedDocuments, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != path || strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
			next.ServeHTTP(w, r)
			return
		}
		var media string
		switch r.Method {
		case http.MethodGet, http.MethodHead:
			if o, ok := choose(parseAccept(r.Header.Values("Accept")), offersOfGET); ok {
				media = o.media
			}
		case http.MethodPost:
			media = choosePOST(parseAccept(r.Header.Values("Accept")), func() opKind {
				return peekKind(r, limit, int(maxTokens), docs)
			})
		default:
			next.ServeHTTP(w, r)
			return
		}
		n := &negotiation{accept: strings.Join(r.Header.Values("Accept"), ", "), media: media}
		if media == "" {
			r.Header.Del("Accept")
		} else {
			r.Header.Set("Accept", media)
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), mediaKey{}, n)))
	})
}

// choosePOST chooses a POST's media type: the one the client ranks best
// for its operation's kind, which kind() finds (reading the body) only
// when two kinds would get different types. A kind the client accepts
// nothing for gets a plain operation's type: the guard refuses it.
func choosePOST(ranges []mediaRange, kind func() opKind) string {
	var chosen [3]string
	distinct := map[string]bool{}
	for k, offers := range offersOfPOST {
		if o, ok := choose(ranges, offers); ok {
			chosen[k] = o.media
			distinct[o.media] = true
		}
	}
	if len(distinct) > 1 {
		if media := chosen[kind()]; media != "" {
			return media
		}
	}
	return chosen[plainOp]
}

// peekKind reads a POST's body (at most limit bytes) to find its
// operation's kind, and puts the body back for the layers after it. A
// body too large, not JSON or not a document (a persisted query's hash
// alone) is a plain operation's: the layers after refuse what is wrong
// with it. A document named by id (persisted.go) is read from docs.
func peekKind(r *http.Request, limit int64, maxTokens int, docs *persistedDocuments) opKind {
	media, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if media != "application/json" || r.Body == nil || r.Header.Get("Content-Encoding") != "" {
		return plainOp
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	r.Body = readCloser{io.MultiReader(bytes.NewReader(body), r.Body), r.Body}
	if err != nil || int64(len(body)) > limit {
		return plainOp
	}
	var params struct {
		Query         string `json:"query"`
		OperationName string `json:"operationName"`
		DocumentID    string `json:"documentId"`
		DocID         string `json:"doc_id"`
	}
	if json.Unmarshal(body, &params) != nil {
		return plainOp
	}
	if id := cmp.Or(params.DocumentID, params.DocID); params.Query == "" && id != "" {
		params.Query, _ = docs.lookup(r.Context(), id)
	}
	if params.Query == "" {
		return plainOp
	}
	doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: params.Query}, maxTokens)
	if err != nil {
		return plainOp
	}
	var op *ast.OperationDefinition
	if params.OperationName != "" {
		op = doc.Operations.ForName(params.OperationName)
	} else if len(doc.Operations) == 1 {
		op = doc.Operations[0]
	}
	switch {
	case op == nil:
		return plainOp
	case op.Operation == ast.Subscription:
		return subscriptionOp
	case defers(op.SelectionSet, doc, map[string]bool{}):
		return deferredOp
	}
	return plainOp
}

// readCloser reads what was read ahead and then the rest, and closes the
// original body.
type readCloser struct {
	io.Reader
	io.Closer
}

// refuseUnacceptable answers 406 to a request whose client accepts none of
// the media types the server can send (negotiateMedia), before gqlgen.
func refuseUnacceptable(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n, ok := r.Context().Value(mediaKey{}).(*negotiation); ok && n.media == "" {
			writeReasonedError(w, http.StatusNotAcceptable, "NOT_ACCEPTABLE",
				fmt.Sprintf("the request accepts %q; this server sends %s", truncate(n.accept, 200), servable))
			return
		}
		next.ServeHTTP(w, r)
	})
}
