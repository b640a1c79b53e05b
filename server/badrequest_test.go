package server_test

// The refusals of requests that are not GraphQL requests this server takes
// (badrequest.go): coded, HEAD, the router's own, capped errors, no
// suggestions, bad UTF-8, persisted queries.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rs/zerolog"

	"github.com/casegraph/casegraph/server"
	"github.com/casegraph/casegraph/server/servertest"
)

// TestClientMistakesAreCoded: every request that is not a GraphQL request
// this server takes gets BAD_USER_INPUT with a reason, and nothing is
// logged at error level (these were INTERNAL, or had no code at all).
func TestClientMistakesAreCoded(t *testing.T) {
	t.Parallel()
	h := newEdge(t, nil)
	const doc = `query T { __typename }`
	sum := sha256.Sum256([]byte(doc))
	hash := hex.EncodeToString(sum[:])
	get := func(params string) string { return "/graphql?query=" + url.QueryEscape(doc) + params }
	tests := []httpCase{
		{"a batch", "POST", "/graphql", "application/json", `[{"query": "{ __typename }"}]`, 400, "BAD_USER_INPUT", "BATCHING_NOT_SUPPORTED"},
		{"a number as the query", "POST", "/graphql", "application/json", `{"query": 123}`, 400, "BAD_USER_INPUT", "INVALID_REQUEST"},
		{"variables as a string", "POST", "/graphql", "application/json", `{"query": "{ __typename }", "variables": "{}"}`, 400, "BAD_USER_INPUT", "INVALID_REQUEST"},
		{"variables as a list", "POST", "/graphql", "application/json", `{"query": "{ __typename }", "variables": []}`, 400, "BAD_USER_INPUT", "INVALID_REQUEST"},
		// gqlgen decodes names without regard to case, and the last of
		// two equal names wins in a map but not in its decoder.
		{"the query under another case", "POST", "/graphql", "application/json", `{"Query": 123}`, 400, "BAD_USER_INPUT", "INVALID_REQUEST"},
		{"the query twice", "POST", "/graphql", "application/json", `{"query": 5, "query": "{ __typename }"}`, 400, "BAD_USER_INPUT", "INVALID_REQUEST"},
		{"an APQ hash of another document", "POST", "/graphql", "application/json",
			`{"query": "{ __typename }", "extensions": {"persistedQuery": {"version": 1, "sha256Hash": "` + hash + `"}}}`, 200, "BAD_USER_INPUT", "PERSISTED_QUERY_MISMATCH"},
		{"an APQ hash that is not a string", "POST", "/graphql", "application/json",
			`{"query": "{ __typename }", "extensions": {"persistedQuery": {"version": 1, "sha256Hash": 7}}}`, 200, "BAD_USER_INPUT", "INVALID_REQUEST"},
		{"APQ version 2", "POST", "/graphql", "application/json",
			`{"query": "` + doc + `", "extensions": {"persistedQuery": {"version": 2, "sha256Hash": "` + hash + `"}}}`, 200, "BAD_USER_INPUT", "PERSISTED_QUERY_VERSION_NOT_SUPPORTED"},
		{"an APQ hash the server does not know", "POST", "/graphql", "application/json",
			`{"extensions": {"persistedQuery": {"version": 1, "sha256Hash": "` + strings.Repeat("0", 64) + `"}}}`, 200, "BAD_USER_INPUT", "PERSISTED_QUERY_NOT_FOUND"},
		{"plain text", "POST", "/graphql", "text/plain", `{"query": "` + doc + `"}`, 415, "BAD_USER_INPUT", "UNSUPPORTED_MEDIA_TYPE"},
		{"no content type", "POST", "/graphql", "", `{"query": "` + doc + `"}`, 415, "BAD_USER_INPUT", "UNSUPPORTED_MEDIA_TYPE"},
		{"a form", "POST", "/graphql", "application/x-www-form-urlencoded", `query=` + url.QueryEscape(doc), 415, "BAD_USER_INPUT", "UNSUPPORTED_MEDIA_TYPE"},
		{"GET with variables that are not JSON", "GET", get("&variables=nope"), "", "", 400, "BAD_USER_INPUT", "INVALID_REQUEST"},
		{"GET with variables as a list", "GET", get("&variables=%5B%5D"), "", "", 400, "BAD_USER_INPUT", "INVALID_REQUEST"},
		{"GET with extensions that are not JSON", "GET", get("&extensions=%7B"), "", "", 400, "BAD_USER_INPUT", "INVALID_REQUEST"},
		{"GET with a bad escape", "GET", get("&x=%zz"), "", "", 400, "BAD_USER_INPUT", "INVALID_REQUEST"},
		{"GET with an APQ hash of another document", "GET",
			"/graphql?query=" + url.QueryEscape(`{ __typename }`) + "&extensions=" +
				url.QueryEscape(`{"persistedQuery": {"version": 1, "sha256Hash": "`+hash+`"}}`), "", "", 200, "BAD_USER_INPUT", "PERSISTED_QUERY_MISMATCH"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := tt.check(t, h)
			if strings.Contains(res.Raw, "__typename") {
				t.Errorf("the answer quotes the request: %s", res.Raw)
			}
		})
	}
	if logs := h.Logs.String(); strings.Contains(logs, `"level":"error"`) {
		t.Errorf("client mistakes were logged as errors:\n%s", logs)
	}
	if calls := h.Refusing.Calls(); len(calls) > 0 {
		t.Errorf("refused requests reached the store: %v", calls)
	}
}

// httpCase is a request with a body and its Content-Type ("": none), and
// the status, extensions.code and extensions.reason of the first error it
// should get ("": none).
type httpCase struct {
	name        string
	method      string
	path        string
	contentType string
	body        string
	status      int
	code        string
	reason      string
}

// check sends the request and reports an answer other than the one wanted.
func (c httpCase) check(t *testing.T, h *harness) response {
	t.Helper()
	req, err := http.NewRequest(c.method, h.URL+c.path, strings.NewReader(c.body))
	if err != nil {
		t.Fatal(err)
	}
	if c.contentType != "" {
		req.Header.Set("Content-Type", c.contentType)
	}
	res := h.Do(req)
	if res.Status != c.status || res.Code() != c.code || res.Reason() != c.reason {
		t.Errorf("got %d %s, want %d with code %q and reason %q", res.Status, res.Raw, c.status, c.code, c.reason)
	}
	return res
}

// TestHead: HEAD /graphql is answered as GET would be, without the body
// (gqlgen's transports leave it to a 400 without a code), and a mutation
// is refused over HEAD as over GET.
func TestHead(t *testing.T) {
	t.Parallel()
	h := newEdge(t, nil)
	for _, tt := range []struct {
		query  string
		status int
		allow  string
	}{
		{`query T { __typename }`, 200, ""},
		{`mutation M { __typename }`, 405, "POST"},
		{`query T { nope }`, 200, ""}, // application/json: a validation failure is a 200
	} {
		res, err := h.Client().Head(h.URL + "/graphql?query=" + url.QueryEscape(tt.query))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		got := []string{strconv.Itoa(res.StatusCode), res.Header.Get("Allow")}
		if diff := cmp.Diff([]string{strconv.Itoa(tt.status), tt.allow}, got); diff != "" {
			t.Errorf("HEAD %s: status and Allow (-want +got):\n%s", tt.query, diff)
		}
	}
}

// TestRouteErrors: what the router refuses itself is JSON with a code, and
// a 405 says in Allow which methods the path takes.
func TestRouteErrors(t *testing.T) {
	t.Parallel()
	h := newEdge(t, nil)
	metrics, err := server.New(server.DefaultConfig(), zerolog.Nop(), servertest.NewRefusing(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	metricsOnly := httptest.NewServer(metrics.MetricsHandler())
	t.Cleanup(metricsOnly.Close)
	tests := []struct {
		name, url, method string
		status            int
		code, allow       string
	}{
		{"an unknown path", h.URL + "/nope", "GET", 404, "NOT_FOUND", ""},
		{"PUT /graphql", h.URL + "/graphql", "PUT", 405, "BAD_USER_INPUT", "GET, HEAD, POST"},
		{"OPTIONS /graphql without CORS origins", h.URL + "/graphql", "OPTIONS", 405, "BAD_USER_INPUT", "GET, HEAD, POST"},
		{"DELETE /healthz", h.URL + "/healthz", "DELETE", 405, "BAD_USER_INPUT", "GET, HEAD"},
		{"PATCH /queries/{name}", h.URL + "/queries/some-query", "PATCH", 405, "BAD_USER_INPUT", "GET, HEAD, POST"},
		{"the metrics listener's unknown path", metricsOnly.URL + "/graphql", "GET", 404, "NOT_FOUND", ""},
		{"POST to the metrics listener", metricsOnly.URL + "/metrics", "POST", 405, "BAD_USER_INPUT", "GET, HEAD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, tt.url, nil)
			if err != nil {
				t.Fatal(err)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			var body struct {
				Errors []struct {
					Message    string            `json:"message"`
					Extensions map[string]string `json:"extensions"`
				} `json:"errors"`
			}
			if err := json.NewDecoder(res.Body).Decode(&body); err != nil || len(body.Errors) != 1 {
				t.Fatalf("%d: the body is not one JSON error (%v)", res.StatusCode, err)
			}
			got := []string{strconv.Itoa(res.StatusCode), body.Errors[0].Extensions["code"], res.Header.Get("Allow"), res.Header.Get("Content-Type")}
			want := []string{strconv.Itoa(tt.status), tt.code, tt.allow, "application/json"}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("status, code, Allow, Content-Type (-want +got):\n%s", diff)
			}
			if tt.status == 405 && body.Errors[0].Extensions["reason"] != "METHOD_NOT_ALLOWED" {
				t.Errorf("reason %q, want METHOD_NOT_ALLOWED", body.Errors[0].Extensions["reason"])
			}
		})
	}
}

// TestErrorsAreCapped: a response lists 20 errors at most, and one more
// that says how many were left out.
func TestErrorsAreCapped(t *testing.T) {
	t.Parallel()
	h := newEdge(t, nil)
	tests := []struct {
		name    string
		query   string
		errors  int
		omitted float64 // 0: none
	}{
		{"400 repeated directives", "{ __typename " + strings.Repeat("@skip(if: false) ", 400) + "}", 21, 379},
		{"21 repeated directives: 20 errors", "{ __typename " + strings.Repeat("@skip(if: false) ", 21) + "}", 20, 0},
		{"22 repeated directives: 21 errors", "{ __typename " + strings.Repeat("@skip(if: false) ", 22) + "}", 21, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := h.Post(tt.query, nil)
			if len(res.Errors) != tt.errors {
				t.Fatalf("%d errors, want %d", len(res.Errors), tt.errors)
			}
			last := res.Errors[len(res.Errors)-1]
			omitted, _ := last.Extensions["omitted"].(float64)
			if omitted != tt.omitted {
				t.Errorf("the last error %+v, want %v omitted", last, tt.omitted)
			}
			if tt.omitted > 0 && (last.Extensions["reason"] != "TOO_MANY_ERRORS" || last.Extensions["code"] != "BAD_USER_INPUT" ||
				last.Message != strconv.Itoa(int(tt.omitted))+" more errors not shown") {
				t.Errorf("the last error %+v, want BAD_USER_INPUT TOO_MANY_ERRORS", last)
			}
			t.Logf("%d bytes", len(res.Raw))
		})
	}
}

// TestNoSuggestions: no error says "Did you mean", which would tell anyone
// the schema's names with introspection off: over /graphql and in a
// document checked to be saved.
func TestNoSuggestions(t *testing.T) {
	t.Parallel()
	h := newEdge(t, nil)
	runner := server.NewRunner(server.DefaultConfig(), servertest.NewRefusing(t))
	tests := []struct {
		name  string
		query string
		vars  map[string]any
	}{
		{"a field", `query Q { entiti(id: "x") { id } }`, nil},
		{"a field of an interface", `query Q { entity(id: "x") { nationalty } }`, nil},
		{"an argument", `query Q { entity(idd: "x", id: "x") { id } }`, nil},
		{"an enum value", `query Q { entities(filter: {kinds: [PERSN]}) { totalCount } }`, nil},
		{"an enum value in variables", `query Q($k: [EntityKind!]) { entities(filter: {kinds: $k}) { totalCount } }`, map[string]any{"k": []string{"PERSN"}}},
		{"an input field", `query Q { entities(filter: {kind: [PERSON]}) { totalCount } }`, nil},
		{"a type in a fragment", `query Q { entity(id: "x") { ...F } } fragment F on Persn { id }`, nil},
		{"a type in an inline fragment", `query Q { entity(id: "x") { ... on Persn { id } } }`, nil},
		{"a variable's type", `query Q($k: EntityKnd) { entities(filter: {kinds: [$k]}) { totalCount } }`, nil},
		{"a selection on a leaf", `query Q { entity(id: "x") { id { x } } }`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := h.Post(tt.query, tt.vars)
			if len(res.Errors) == 0 {
				t.Fatalf("no error: %s", res.Raw)
			}
			if strings.Contains(res.Raw, "Did you mean") {
				t.Errorf("over /graphql: %s", res.Raw)
			}
			if tt.vars != nil {
				return // a saved document's variables come with its run
			}
			err := runner.Check(t.Context(), tt.query, nil)
			if err == nil || strings.Contains(err.Error(), "Did you mean") {
				t.Errorf("saving: %v", err)
			}
		})
	}
}

// TestInvalidUTF8IsRefused: bytes that are not UTF-8 are refused with
// their position wherever text comes in, instead of being decoded to
// U+FFFD and stored.
func TestInvalidUTF8IsRefused(t *testing.T) {
	t.Parallel()
	h := newEdge(t, nil)
	body := `{"query": "mutation { upsertSource(input: {title: \"Caf` + "\xe9" + `\", dataset: \"d\"}) { id } }"}`
	vars := `{"name": "Caf` + "\xc3" + `"}`
	lone := `{"query": "{ __typename }", "variables": {"a": "x\ud800"}}`
	surrogateDoc := `{"query": "mutation { upsertSource(input: {title: \"p\\ud800q\", dataset: \"d\"}) { id } }"}`
	low := `{"query": "{ __typename }", "variables": {"a": "\udc00\ud83d\ude00"}}`
	tests := []struct {
		name        string
		method      string
		path        string
		contentType string
		body        string
		at          string
	}{
		{"a POST body", "POST", "/graphql", "application/json", body, "at byte " + strconv.Itoa(strings.Index(body, "\xe9"))},
		{"a GET query", "GET", "/graphql?query=" + url.QueryEscape("{ entity(id: \"a\xffb\") { id } }"), "", "", "at byte 15"},
		{"GET variables", "GET", "/graphql?query=%7B__typename%7D&variables=" + url.QueryEscape(vars), "", "", "at byte 13"},
		{"a saved query's parameter", "GET", "/queries/some-query?name=ab%FF", "", "", "at byte 2"},
		{"a parameter's name", "GET", "/queries/some-query?%FF=1", "", "", "at byte 0"},
		{"a saved query's name", "GET", "/queries/some%C3", "", "", "at byte 13"},
		{"a saved query's POST body", "POST", "/queries/some-query", "application/json", vars, "at byte 13"},
		{"a lone surrogate in a POST body", "POST", "/graphql", "application/json", lone, "at byte " + strconv.Itoa(strings.Index(lone, `\ud800`))},
		{"a lone low surrogate", "POST", "/graphql", "application/json", low, "at byte " + strconv.Itoa(strings.Index(low, `\udc00`))},
		{"a surrogate escape in the document", "POST", "/graphql", "application/json", surrogateDoc, "at byte 41"},
		{"a surrogate in GET variables", "GET", "/graphql?query=%7B__typename%7D&variables=" + url.QueryEscape(`{"a": "\uDBFF"}`), "", "", "at byte 7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := httpCase{tt.name, tt.method, tt.path, tt.contentType, tt.body, 400, "BAD_USER_INPUT", "INVALID_UTF8"}.check(t, h)
			if len(res.Errors) > 0 && !strings.HasSuffix(res.Errors[0].Message, tt.at) {
				t.Errorf("message %q, want it to end %q", res.Errors[0].Message, tt.at)
			}
		})
	}
	for _, body := range []string{`"\ud83d\ude00"`, `"\\ud800"`, `"\u00e9"`, `"\\\ud83d\udE00 \\"`} {
		vars := `{"query": "{ __typename }", "extensions": {"a": ` + body + `}}`
		if res := h.PostRaw([]byte(vars)); len(res.Errors) > 0 {
			t.Errorf("%s: %s, want it taken (a pair, an escaped backslash, a character)", body, res.Raw)
		}
	}
	if calls := h.Refusing.Calls(); len(calls) > 0 {
		t.Errorf("refused requests reached the store: %v", calls)
	}
}

// TestPersistedQueriesStillWork: a document sent with its hash is kept, and
// then the hash alone runs it.
func TestPersistedQueriesStillWork(t *testing.T) {
	t.Parallel()
	h := newEdge(t, nil)
	const doc = `query P { __typename }`
	sum := sha256.Sum256([]byte(doc))
	ext := `"extensions": {"persistedQuery": {"version": 1, "sha256Hash": "` + hex.EncodeToString(sum[:]) + `"}}`
	for _, body := range []string{`{"query": "` + doc + `", ` + ext + `}`, `{` + ext + `}`} { // in this order
		if res := h.PostRaw([]byte(body)); res.Status != http.StatusOK || res.Data["__typename"] != "Query" {
			t.Errorf("%s: %d %s, want the document run", body, res.Status, res.Raw)
		}
	}
}
