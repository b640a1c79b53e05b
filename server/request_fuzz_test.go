package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql"
)

// FuzzGraphQLBody: any POST body is passed on to the GraphQL transport
// unchanged, and then the transport decodes it (so it never answers with
// its own uncoded error, which quotes the body back), or is refused with
// 400 or 413 and a JSON error with BAD_USER_INPUT that does not quote it: a
// body over the limit with 413, a body that is not JSON with 400, a JSON
// list (a batch) with the reason BATCHING_NOT_SUPPORTED.
func FuzzGraphQLBody(f *testing.F) {
	const limit = 1024
	for _, seed := range []string{
		`{"query": "{ entity(id: \"caesar\") { name } }"}`,
		`{"query": "query Q($id: ID!) { entity(id: $id) { name } }", "variables": {"id": "x"}, "operationName": "Q"}`,
		`{"query": null, "extensions": {"persistedQuery": {"version": 1, "sha256Hash": "abc"}}}`,
		`[{"query": "{ a }"}]`, ` [1, 2]`, `[]`, `{"query": 123}`, `{"variables": "x"}`, `{"variables": []}`,
		`{"extensions": 1}`, `{"operationName": {}}`, `{"Query": 1}`, `{"VARIABLES": "x"}`, `{"extenſions": 1}`, `{"varıables": 1}`,
		`{"query": "{ a }", "variables": "x", "variables": {}}`, `{"query": "{ a }"} trailing`, `{"query": "{ a }"}{}`,
		`null`, `true`, `"query"`, `1e999`, ``, ` `, `{`, `{"query": "` + "\xff" + `"}`, `{"query": "\ud800"}`,
		`{"query": "` + strings.Repeat("x", limit) + `"}`, strings.Repeat("[", 1000),
	} {
		f.Add([]byte(seed))
	}
	s := &Server{cfg: Config{MaxBodyBytes: limit}}
	f.Fuzz(func(t *testing.T, body []byte) {
		var passed []byte
		h := s.limitBody(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			passed, _ = io.ReadAll(r.Body)
			if passed == nil {
				passed = []byte{}
			}
		}))
		req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)

		valid := json.Valid(body)
		batch := valid && bytes.HasPrefix(bytes.TrimLeft(body, " \t\r\n"), []byte("["))
		if passed != nil {
			if !bytes.Equal(passed, body) {
				t.Fatalf("passed on %q, not the body %q", passed, body)
			}
			if len(body) > limit || !valid || batch {
				t.Fatalf("passed on %q (%d bytes, valid JSON %v, a list %v)", body, len(body), valid, batch)
			}
			var params graphql.RawParams
			dec := json.NewDecoder(bytes.NewReader(body))
			dec.UseNumber()
			if err := dec.Decode(&params); err != nil {
				t.Fatalf("passed on %q, which the GraphQL transport cannot decode: %v", body, err)
			}
			return
		}
		var res struct {
			Errors []struct {
				Message    string
				Extensions struct{ Code, Reason string }
			}
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil || len(res.Errors) != 1 || res.Errors[0].Message == "" ||
			res.Errors[0].Extensions.Code != "BAD_USER_INPUT" || rec.Header().Get("Content-Type") != "application/json" {
			t.Fatalf("refused %q with %d %q, want one JSON error with BAD_USER_INPUT", body, rec.Code, rec.Body)
		}
		if len(body) > 40 && bytes.Contains(rec.Body.Bytes(), body) {
			t.Errorf("the refusal quotes the body: %s", rec.Body)
		}
		want, reason := http.StatusBadRequest, ""
		switch {
		case len(body) > limit:
			want = http.StatusRequestEntityTooLarge
		case batch:
			reason = "BATCHING_NOT_SUPPORTED"
		}
		if rec.Code != want || reason != "" && res.Errors[0].Extensions.Reason != reason {
			t.Errorf("refused %q with %d %s, want %d %s", body, rec.Code, rec.Body, want, reason)
		}
	})
}
