package server

// The middleware routes are composed of: what later layers learn of a
// request, its id, its access log and metrics and deadline (observe),
// what is in flight (for the log of a shutdown that cuts some off), the
// body limit and the check of a request's shape, the writers of
// refusals, and what logs may hold of a request.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	casegraph "github.com/casegraph/casegraph"
	"github.com/rs/xid"
	"github.com/rs/zerolog"
	"go.opentelemetry.io/otel/trace"
)

// requestInfo is what later layers learn about a request and the access log
// and metrics report: the GraphQL operation name, and a status that
// overrides the one the GraphQL transport writes.
type requestInfo struct {
	method    string
	operation string
	// validated: the operation passed parsing, validation and every limit,
	// so its name may become a metrics label.
	validated bool
	status    int
	// Set by the error presenter, which gqlgen calls from the resolvers'
	// goroutines.
	forbidden atomic.Int64 // errors with the code FORBIDDEN in the answer
	busy      atomic.Bool  // an error with the code BUSY in the answer: 429
	// errors are the answer's errors by code (countedResponses, metrics.go).
	errors errorCounts
	// Set before the request is served and never changed, so that the
	// shutdown can read them: who it cuts off.
	id    string
	route string
	start time.Time
}

type infoKey struct{}

func infoFrom(ctx context.Context) *requestInfo {
	if info, ok := ctx.Value(infoKey{}).(*requestInfo); ok {
		return info
	}
	return &requestInfo{}
}

// statusWriter records the status and the size of the body, and lets a
// layer below replace the status.
type statusWriter struct {
	http.ResponseWriter
	info   *requestInfo
	status int
	bytes  int64
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status != 0 {
		return
	}
	if w.info.status != 0 {
		code = w.info.status
	}
	if w.info.busy.Load() {
		code = http.StatusTooManyRequests
	}
	if code == http.StatusMethodNotAllowed && w.Header().Get("Allow") == "" {
		w.Header().Set("Allow", "POST") // a mutation over GET: the only other method
	}
	if code == http.StatusTooManyRequests && w.Header().Get("Retry-After") == "" {
		// BUSY: nothing ran; a second is long enough for a slot or a
		// token to free up, and short enough not to lose the user.
		w.Header().Set("Retry-After", "1")
	}
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// observe wraps every route: the request id (the client's when it is
// well-formed) in the response, the log lines and the context's logger;
// the client's trace (W3C traceparent) and, when tracing is on, the
// request's span; one access-log line and metrics per request; and a
// deadline for the whole request.
func (s *Server) observe(route string, next http.Handler) http.Handler {
	return s.observeWithin(route, s.cfg.RequestTimeout, next)
}

// observeWithin is observe with timeout as the request's deadline.
func (s *Server) observeWithin(route string, timeout time.Duration, next http.Handler) http.Handler {
	tracer := s.cfg.tracer()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		route := route
		if isStream(r) {
			// A stream lasts minutes: its own route, so that it does not
			// stand among the requests' latencies.
			route += "/stream"
		}
		start := time.Now()
		id := requestID(r)
		w.Header().Set(requestIDHeader, id)
		info := &requestInfo{method: r.Method, route: route, start: start, id: id}
		s.inflight.add(info)
		defer s.inflight.remove(info)
		sw := &statusWriter{ResponseWriter: w, info: info}

		ctx := remoteParent(r.Context(), r.Header)
		ctx, span := startRequestSpan(ctx, tracer, r, route, id)
		logCtx := s.log.With().Str("req_id", id)
		if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
			// The client's trace, or the server's own when tracing is on:
			// the log lines of a request can be found from its trace.
			logCtx = logCtx.Str("trace_id", sc.TraceID().String())
		}
		ctx = logCtx.Logger().WithContext(ctx)
		// The context's logger, which later layers add to (the principal).
		log := zerolog.Ctx(ctx)
		var cancel context.CancelFunc
		if isStream(r) {
			// A stream lasts until either side ends it or the server
			// stops; each statement it runs has its own deadline. The
			// server's read and write timeouts would cut it.
			ctx, cancel = context.WithCancel(ctx)
			defer context.AfterFunc(s.stopping, cancel)()
			s.watchCredentials(ctx, r.Header.Get("Authorization"), cancel)
			rc := http.NewResponseController(w)
			_ = rc.SetReadDeadline(time.Time{}) // unsupported (a test recorder): nothing to lift
			_ = rc.SetWriteDeadline(time.Time{})
		} else {
			ctx, cancel = context.WithTimeout(ctx, timeout)
			if timeout > s.cfg.RequestTimeout {
				// The server's timeouts are a GraphQL request's: an upload or a
				// download of a file gets as long as its deadline.
				rc := http.NewResponseController(w)
				_ = rc.SetReadDeadline(time.Now().Add(timeout))
				_ = rc.SetWriteDeadline(time.Now().Add(timeout + 5*time.Second))
			}
		}
		defer cancel()
		ctx = context.WithValue(ctx, infoKey{}, info)

		// account ends the request's span, metrics and access-log line;
		// aborted says the response was broken off (a failed export).
		account := func(aborted bool) {
			took := time.Since(start)
			status := sw.status
			if status == 0 {
				status = http.StatusOK
			}
			counted := status
			if aborted {
				counted = http.StatusInternalServerError // whatever status went out first, it failed
			}
			endRequestSpan(span, info, counted)
			s.metrics.observeRequest(route, info.operation, info.validated, counted, took)
			s.metrics.forbidden.Add(float64(info.forbidden.Load()))
			info.errors.each(func(code string, n int) { s.metrics.observeErrors(route, code, n) })
			e := log.Info().Str("method", truncate(r.Method, 16)).Str("route", route).Int("status", status).
				Int64("bytes", sw.bytes).Dur("duration", took).Str("client", clientAddr(r))
			if aborted {
				e = e.Bool("aborted", true)
			}
			e = logText(e, "user_agent", r.UserAgent())
			logName(logPath(e, "path", r.URL.Path), "operation", info.operation).Msg("request")
		}
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					account(true)
					panic(p)
				}
				logPanic(log.Error(), p, debug.Stack()).Msg("panic serving request")
				if sw.status == 0 {
					writeError(sw, http.StatusInternalServerError, casegraph.CodeInternal, "internal error")
				}
			}
			account(false)
		}()
		next.ServeHTTP(sw, r.WithContext(ctx))
	})
}

// limitBody reads a GraphQL POST body up to the limit: beyond it the answer
// is 413; a body not declared JSON is refused with 415, and one that is not
// JSON with 400, without echoing it (the gqlgen transport would quote the
// body back).
func (s *Server) limitBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		if !acceptsJSON(w, r) {
			return
		}
		limit := s.cfg.MaxBodyBytes
		if r.ContentLength > limit {
			writeError(w, http.StatusRequestEntityTooLarge, casegraph.CodeBadUserInput,
				"request body is larger than the limit of %d bytes", limit)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
		var tooBig *http.MaxBytesError // the route's bound (limitedBody)
		if err != nil && !errors.As(err, &tooBig) {
			writeError(w, http.StatusBadRequest, casegraph.CodeBadUserInput, "could not read the request body")
			return
		}
		if tooBig != nil || int64(len(body)) > limit {
			writeError(w, http.StatusRequestEntityTooLarge, casegraph.CodeBadUserInput,
				"request body is larger than the limit of %d bytes", limit)
			return
		}
		if refuseBadText(w, "the body", body) {
			return
		}
		if reason, msg := requestShape(body); reason == "INVALID_JSON" {
			writeError(w, http.StatusBadRequest, casegraph.CodeBadUserInput, "%s", msg)
			return
		} else if reason != "" {
			writeReasonedError(w, http.StatusBadRequest, reason, msg)
			return
		}
		r, ok := withDocumentID(w, r, body)
		if !ok {
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		next.ServeHTTP(w, r)
	})
}

// requestShape checks, in one pass over the body, that it is JSON with the
// shape of a GraphQL request: an object (a list is a batch, which this
// server does not take),
// with a string query, an object (or null) of variables and of extensions,
// and a string (or null) operation name. It returns the refusal's reason
// and message, or "" when the shape is right; the transport reports what
// is missing.
//
// The fields are found as the transport finds them, by decoding into a
// struct with its field names: keys match in any case ("Query"), and every
// occurrence of a repeated key counts. A body the transport cannot decode
// would get its error, which has no code and quotes the body back.
func requestShape(body []byte) (reason, msg string) {
	var shape struct {
		Query         jsonKinds `json:"query"`
		OperationName jsonKinds `json:"operationName"`
		Variables     jsonKinds `json:"variables"`
		Extensions    jsonKinds `json:"extensions"`
	}
	if err := json.Unmarshal(body, &shape); err != nil {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) {
			return "INVALID_JSON", "request body is not valid JSON"
		}
		if bytes.HasPrefix(bytes.TrimSpace(body), []byte("[")) {
			return "BATCHING_NOT_SUPPORTED", "send one request a time: a JSON list (a batch) is not supported"
		}
		return "INVALID_REQUEST", "the body must be a JSON object: {\"query\": ..., \"variables\": {...}}"
	}
	for _, f := range []struct {
		name  string
		kinds jsonKinds
		want  byte
	}{
		{"query", shape.Query, '"'}, {"operationName", shape.OperationName, '"'},
		{"variables", shape.Variables, '{'}, {"extensions", shape.Extensions, '{'},
	} {
		for _, k := range f.kinds {
			if k != f.want && k != 'n' {
				what := map[byte]string{'"': "a string", '{': "a JSON object"}[f.want]
				return "INVALID_REQUEST", fmt.Sprintf("%s must be %s (or null)", f.name, what)
			}
		}
	}
	return "", ""
}

// jsonKinds records the kind of each value decoded into it, by its first
// byte ('n' for null), every occurrence of a repeated key included.
type jsonKinds []byte

// UnmarshalJSON appends the value's kind.
func (k *jsonKinds) UnmarshalJSON(b []byte) error {
	t := bytes.TrimSpace(b)
	switch {
	case len(t) == 0:
	case bytes.Equal(t, []byte("null")):
		*k = append(*k, 'n')
	default:
		*k = append(*k, t[0])
	}
	return nil
}

// writeReasonedError writes a BAD_USER_INPUT error with a reason, as the
// GraphQL handler's refusals have.
func writeReasonedError(w http.ResponseWriter, status int, reason, msg string) {
	writeReasonedErrorCode(w, status, casegraph.CodeBadUserInput, reason, msg)
}

// writeReasonedErrorCode writes an error with a code, and a reason unless
// reason is "".
func writeReasonedErrorCode(w http.ResponseWriter, status int, code casegraph.Code, reason, msg string) {
	if info := writerInfo(w); info != nil {
		info.errors.add(string(code), 1)
	}
	ext := map[string]any{"code": code}
	if reason != "" {
		ext["reason"] = reason
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"errors": []map[string]any{{"message": msg, "extensions": ext}},
	})
}

// writeError writes a GraphQL-shaped error response with a code.
func writeError(w http.ResponseWriter, status int, code casegraph.Code, format string, args ...any) {
	writeReasonedErrorCode(w, status, code, "", fmt.Sprintf(format, args...))
}

// The requests being served, for the log of a shutdown that cuts some off.

// inflight are the requests being served: a shutdown that cannot wait for
// them all says in the log which ones it cut off.
type inflight struct {
	mu   sync.Mutex
	reqs map[*requestInfo]struct{}
}

func newInflight() *inflight {
	return &inflight{reqs: map[*requestInfo]struct{}{}}
}

func (f *inflight) add(info *requestInfo) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reqs[info] = struct{}{}
}

func (f *inflight) remove(info *requestInfo) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.reqs, info)
}

// logCutOff logs, at warn, each request still in flight (request id,
// method, route and age), and returns how many there were.
func (f *inflight) logCutOff(log zerolog.Logger) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	for info := range f.reqs {
		log.Warn().Str("req_id", info.id).Str("method", truncate(info.method, 16)).Str("route", info.route).
			Dur("age", time.Since(info.start)).Msg("shutdown: request cut off")
	}
	return len(f.reqs)
}

// Logs never hold what a client sent (a body, a query document, variables,
// a token): a request of 1 MB that fails must not add 1 MB to the log, nor
// put a caller's data or credentials there. Text that may hold some of it
// (an error's message, a panic's value) is logged cut to maxLoggedText,
// with its size and a short hash when cut, so that two log lines about
// the same text can still be matched.

// maxLoggedText bounds text from a client in a log line or an answer.
const maxLoggedText = 200

// truncate cuts s to at most n bytes, at a rune boundary, marking the cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// shortHash is the first 12 hex digits of text's SHA-256.
func shortHash(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:6])
}

// logText adds text under key, cut to maxLoggedText; a cut text comes
// with its size (key_bytes) and short hash (key_sha256).
func logText(e *zerolog.Event, key, text string) *zerolog.Event {
	if len(text) <= maxLoggedText {
		return e.Str(key, text)
	}
	return logDigest(e.Str(key, truncate(text, maxLoggedText)), key, text)
}

// logErr is zerolog's Err with the message cut as logText cuts it.
func logErr(e *zerolog.Event, err error) *zerolog.Event {
	if err == nil {
		return e
	}
	return logText(e, zerolog.ErrorFieldName, err.Error())
}

// logPanic adds a recovered panic's value, cut, and the stack.
func logPanic(e *zerolog.Event, p any, stack []byte) *zerolog.Event {
	return logText(e, "panic", fmt.Sprint(p)).Bytes("stack", stack)
}

// logName adds a client's name for something (an operation's) when it is
// a GraphQL name of at most 64 characters, and otherwise only its size and
// short hash: a name may be a megabyte long.
func logName(e *zerolog.Event, key, name string) *zerolog.Event {
	if name == "" || graphQLName.MatchString(name) {
		return e.Str(key, name)
	}
	return logDigest(e, key, name)
}

// logPath adds a request's path when it is short enough to be one of the
// routes', and otherwise only its size and short hash.
func logPath(e *zerolog.Event, key, path string) *zerolog.Event {
	if len(path) <= maxLoggedText {
		return e.Str(key, path)
	}
	return logDigest(e, key, path)
}

func logDigest(e *zerolog.Event, key, text string) *zerolog.Event {
	return e.Int(key+"_bytes", len(text)).Str(key+"_sha256", shortHash(text))
}

// Request ids: the X-Request-Id a client sends, when it is well formed, or
// a new one.

// requestIDHeader carries a request's id, both ways: a client (or a proxy
// before it) may name its request, and every answer names the id its log
// lines carry.
const requestIDHeader = "X-Request-Id"

// maxRequestID is the longest request id taken from a client.
const maxRequestID = 64

// requestID returns the client's X-Request-Id when it is well-formed (1 to
// 64 letters, digits, '.', '_' or '-': safe in a log line, a header and a
// metric exemplar), and otherwise a new one (an xid: 20 characters,
// sortable by time).
func requestID(r *http.Request) string {
	if id := r.Header.Get(requestIDHeader); wellFormedID(id) {
		return id
	}
	return xid.New().String()
}

func wellFormedID(id string) bool {
	if len(id) == 0 || len(id) > maxRequestID {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}
