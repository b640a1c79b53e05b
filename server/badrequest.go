package server

import (
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/gqlerror"

	casegraph "github.com/casegraph/casegraph"
)

// This file holds the refusals of requests that are not GraphQL requests
// at all, or not ones this server takes: each gets BAD_USER_INPUT with a
// reason, before gqlgen's transports see it, because those answer such
// requests with errors that have no code and may quote the body.

// codedTransport runs a gqlgen transport with an executor that gives a
// code to any error the transport reports without one (a body its JSON
// decoder refuses, say): BAD_USER_INPUT, reason INVALID_REQUEST, with a
// message of its own, as gqlgen's quote the whole body.
type codedTransport struct{ graphql.Transport }

func (t codedTransport) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	nw := &negotiated{ResponseWriter: w}
	t.Transport.Do(nw, incremental(t.Transport, r), codedExecutor{GraphExecutor: exec, w: nw})
	nw.finish()
}

// codeErrors gives a code to each error without one.
func codeErrors(list gqlerror.List) gqlerror.List {
	for i, err := range list {
		if _, ok := err.Extensions["code"]; !ok {
			list[i] = codedError(casegraph.CodeBadUserInput, "INVALID_REQUEST",
				"the body is not a GraphQL request: send {\"query\": ..., \"variables\": {...}}")
		}
	}
	return list
}

// getOrHead is gqlgen's GET transport, which also answers HEAD (the
// router sends HEAD /graphql here, as to every GET route; gqlgen's GET
// would leave it to "transport not supported", a 400 without a code): the
// answer is GET's, without its body.
type getOrHead struct{ transport.GET }

func (t getOrHead) Supports(r *http.Request) bool {
	return r.Header.Get("Upgrade") == "" && (r.Method == http.MethodGet || r.Method == http.MethodHead)
}

// documentText refuses a document with a \u escape of half a surrogate
// pair (INVALID_UTF8): gqlparser reads one as U+FFFD, which a mutation
// would store. The JSON body was checked for its own escapes; this is the
// document's, once the JSON is decoded. (A block string holds no escapes,
// so one there is refused too: rare enough to prefer one check.)
type documentText struct{}

func (documentText) ExtensionName() string                   { return "CasegraphDocumentText" }
func (documentText) Validate(graphql.ExecutableSchema) error { return nil }

func (documentText) MutateOperationParameters(ctx context.Context, raw *graphql.RawParams) *gqlerror.Error {
	if at := loneSurrogateAt([]byte(raw.Query)); at >= 0 {
		infoFrom(ctx).status = http.StatusBadRequest // as the body's bad text
		return codedError(casegraph.CodeBadUserInput, "INVALID_UTF8",
			"the query is not valid UTF-8 (a \\u escape of half a surrogate pair) at byte %d", at)
	}
	return nil
}

// persistedQueries is gqlgen's automatic persisted queries with coded
// refusals: gqlgen's own answers a hash that does not match its document,
// an unknown version or a malformed extension with errors without a code.
type persistedQueries struct {
	extension.AutomaticPersistedQuery
}

func (p persistedQueries) MutateOperationParameters(ctx context.Context, raw *graphql.RawParams) *gqlerror.Error {
	ext, sent := raw.Extensions["persistedQuery"]
	if !sent || ext == nil {
		return nil
	}
	fields, ok := ext.(map[string]any)
	hash, _ := fields["sha256Hash"].(string)
	if !ok || hash == "" {
		return codedError(casegraph.CodeBadUserInput, "INVALID_REQUEST",
			"extensions.persistedQuery must be {\"version\": 1, \"sha256Hash\": \"<hex>\"}")
	}
	// The transports decode with UseNumber.
	if v, _ := fields["version"].(json.Number); v != "1" {
		return codedError(casegraph.CodeBadUserInput, "PERSISTED_QUERY_VERSION_NOT_SUPPORTED",
			"extensions.persistedQuery.version must be 1")
	}
	if raw.Query != "" && casegraph.DocumentHash(raw.Query) != hash {
		return codedError(casegraph.CodeBadUserInput, "PERSISTED_QUERY_MISMATCH",
			"extensions.persistedQuery.sha256Hash is not the SHA-256 of the query sent with it")
	}
	if err := p.AutomaticPersistedQuery.MutateOperationParameters(ctx, raw); err != nil {
		if _, coded := err.Extensions["code"]; !coded {
			return codedError(casegraph.CodeBadUserInput, "INVALID_REQUEST", "%s", truncate(err.Message, maxLoggedText))
		}
		return err
	}
	return nil
}

// acceptsJSON refuses, with 415, a POST whose body is not declared JSON:
// the GraphQL-over-HTTP spec lets a server take application/json only, and
// a text/plain POST is what a cross-site form can send without a preflight.
func acceptsJSON(w http.ResponseWriter, r *http.Request) bool {
	media, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err == nil && media == "application/json" {
		return true
	}
	w.Header().Set("Accept-Post", "application/json")
	writeReasonedError(w, http.StatusUnsupportedMediaType, "UNSUPPORTED_MEDIA_TYPE",
		"send the request as Content-Type: application/json")
	return false
}

// checkURL refuses a request whose path or query string holds text that
// is not UTF-8 (INVALID_UTF8, with its position), or whose query string
// does not decode (a bad %-escape), and on GET /graphql one whose variables
// or extensions are not JSON objects (INVALID_REQUEST): gqlgen's GET
// transport answers these without a code, and Go's JSON decoder would turn
// bad bytes into U+FFFD and store them.
func checkURL(graphQL bool, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if refuseBadText(w, "the path", []byte(r.URL.Path)) {
			return
		}
		q, err := url.ParseQuery(r.URL.RawQuery)
		if err != nil {
			writeReasonedError(w, http.StatusBadRequest, "INVALID_REQUEST", "the query string is not well formed (a bad %-escape or ;)")
			return
		}
		for key, values := range q {
			if refuseBadText(w, "a query parameter's name", []byte(key)) {
				return
			}
			for _, v := range values {
				if refuseBadText(w, "query parameter "+truncate(key, 64), []byte(v)) {
					return
				}
			}
		}
		if graphQL && r.Method != http.MethodPost {
			for _, name := range []string{"variables", "extensions"} {
				v := q.Get(name)
				if v == "" {
					continue
				}
				var obj map[string]json.RawMessage // null decodes too, as gqlgen takes it
				if json.Unmarshal([]byte(v), &obj) != nil {
					writeReasonedError(w, http.StatusBadRequest, "INVALID_REQUEST",
						fmt.Sprintf("the %s parameter must be a JSON object", name))
					return
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}

// refuseBadText answers 400 BAD_USER_INPUT, reason INVALID_UTF8, and
// returns true, when text (named by where in the message) is not Unicode
// text: a byte that is not UTF-8, or a JSON (or GraphQL) \u escape of half
// a UTF-16 surrogate pair. Go's JSON decoder turns either into U+FFFD
// silently, which would be stored; so this runs before any decoding.
func refuseBadText(w http.ResponseWriter, where string, text []byte) bool {
	how, at := "", invalidUTF8At(text)
	if at < 0 {
		how, at = " (a \\u escape of half a surrogate pair)", loneSurrogateAt(text)
	}
	if at < 0 {
		return false
	}
	writeReasonedError(w, http.StatusBadRequest, "INVALID_UTF8", fmt.Sprintf("%s is not valid UTF-8%s at byte %d", where, how, at))
	return true
}

// invalidUTF8At returns the offset of the first byte of b that is not part
// of valid UTF-8, or -1.
func invalidUTF8At(b []byte) int {
	if utf8.Valid(b) {
		return -1
	}
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

// loneSurrogateAt returns the offset of the first \u escape in b that is
// half of a UTF-16 surrogate pair without the other half, or -1.
func loneSurrogateAt(b []byte) int {
	escape := func(i int) rune { // the rune \uXXXX at i names, or -1
		if i+6 > len(b) || b[i] != '\\' || b[i+1] != 'u' {
			return -1
		}
		n, err := strconv.ParseUint(string(b[i+2:i+6]), 16, 32)
		if err != nil {
			return -1
		}
		return rune(n)
	}
	for i := 0; i+6 <= len(b); i++ {
		if b[i] != '\\' {
			continue
		}
		r := escape(i)
		switch {
		case r < 0: // another escape, \\ among them: skip the escaped byte
			i++
		case !utf16.IsSurrogate(r):
			i += 5
		case r < 0xdc00 && utf16.DecodeRune(r, escape(i+6)) != utf8.RuneError:
			i += 11 // a pair
		default:
			return i
		}
	}
	return -1
}

// routeErrors serves mux, answering in JSON with a code what the mux
// refuses itself, which it would answer in plain text: a path no route
// serves (404 NOT_FOUND) and a method the path's routes do not take (405
// BAD_USER_INPUT, reason METHOD_NOT_ALLOWED, with the mux's Allow header).
// wrap wraps the refusals as the routes are wrapped (logs, metrics).
func routeErrors(mux *http.ServeMux, wrap func(route string, h http.Handler) http.Handler) http.Handler {
	refuse := wrap("unrouted", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		refusal, _ := mux.Handler(r)
		got := &headerOnly{header: http.Header{}}
		refusal.ServeHTTP(got, r)
		switch got.status {
		case http.StatusNotFound:
			writeError(w, http.StatusNotFound, casegraph.CodeNotFound, "nothing is served at this path")
		case http.StatusMethodNotAllowed:
			allow := got.header.Get("Allow")
			w.Header().Set("Allow", allow)
			writeReasonedError(w, http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED",
				fmt.Sprintf("%s is not allowed at this path; use %s", truncate(r.Method, 16), allow))
		default: // a redirect to the clean path: its status and headers, without the HTML
			for k, v := range got.header {
				w.Header()[k] = v
			}
			w.WriteHeader(got.status)
		}
	}))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, pattern := mux.Handler(r); pattern == "" {
			refuse.ServeHTTP(w, r)
			return
		}
		mux.ServeHTTP(w, r) // it sets the path's values; Handler does not
	})
}

// headerOnly keeps the status and headers a handler writes, and drops the
// body.
type headerOnly struct {
	header http.Header
	status int
}

func (h *headerOnly) Header() http.Header { return h.header }

func (h *headerOnly) WriteHeader(status int) {
	if h.status == 0 {
		h.status = status
	}
}

func (h *headerOnly) Write(b []byte) (int, error) {
	h.WriteHeader(http.StatusOK)
	return len(b), nil
}
