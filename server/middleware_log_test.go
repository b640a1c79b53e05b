package server_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/casegraph/casegraph/server"
)

// TestLogsHoldNoBodies sends requests of 1 MB full of a marker that fail
// in every way a request can fail at the edge, and finds the marker
// nowhere in the log: a log line may say how big a client's text was and
// give its hash, never hold it.
func TestLogsHoldNoBodies(t *testing.T) {
	t.Parallel()
	h := newEdge(t, func(c *server.Config) { c.MaxBodyBytes = 4 << 20 })
	h.Refusing.Allow("SavedQuery")
	const marker = "Zq7marker"
	mb := strings.Repeat(marker, (1<<20)/len(marker))
	str := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	graphQL := func(query string, rest string) string { return `{"query": ` + str(query) + rest + `}` }
	header := strings.Repeat(marker, 8<<10/len(marker)) // under the server's 64 KB of headers
	tests := []struct {
		name, method, path, contentType, auth, body string
	}{
		{"not JSON", "POST", "/graphql", "application/json", "", `{"query": "` + mb},
		{"a batch", "POST", "/graphql", "application/json", "", `[` + graphQL(mb, "") + `]`},
		{"a number as the query", "POST", "/graphql", "application/json", "", `{"query": 1, "x": ` + str(mb) + `}`},
		{"the query twice", "POST", "/graphql", "application/json", "", `{"query": 1, "query": "{ __typename }", "x": ` + str(mb) + `}`},
		{"plain text", "POST", "/graphql", "text/plain", "", mb},
		{"over the size limit", "POST", "/graphql", "application/json", "", graphQL(mb+mb+mb+mb, "")},
		{"a syntax error", "POST", "/graphql", "application/json", "", graphQL("{ "+mb+" (", "")},
		{"an unknown field", "POST", "/graphql", "application/json", "", graphQL("{ "+mb+" }", "")},
		{"an operation named by the marker", "POST", "/graphql", "application/json", "", graphQL("query "+mb+" { __typename }", "")},
		{"an operation name that names nothing", "POST", "/graphql", "application/json", "", graphQL("{ __typename }", `, "operationName": `+str(mb))},
		{"variables of the wrong type", "POST", "/graphql", "application/json", "",
			graphQL(`query Q($id: ID!) { entity(id: $id) { id } }`, `, "variables": {"id": {"x": `+str(mb)+`}}`)},
		{"a variable of no enum value", "POST", "/graphql", "application/json", "",
			graphQL(`query Q($k: [EntityKind!]) { entities(filter: {kinds: $k}) { totalCount } }`, `, "variables": {"k": [`+str(mb)+`]}`)},
		{"an APQ hash of another document", "POST", "/graphql", "application/json", "",
			graphQL(mb, `, "extensions": {"persistedQuery": {"version": 1, "sha256Hash": "00"}}`)},
		{"a bad API key", "POST", "/graphql", "application/json", "Bearer cg_" + header, graphQL(mb, "")},
		{"a bad token", "POST", "/graphql", "application/json", "Bearer " + header, graphQL(mb, "")},
		{"a bad Authorization header", "POST", "/graphql", "application/json", header, graphQL(mb, "")},
		{"GET with a bad query", "GET", "/graphql?query=" + url.QueryEscape("{ "+header+" }"), "", "", ""},
		{"GET with bad variables", "GET", "/graphql?query=%7B__typename%7D&variables=" + url.QueryEscape(header), "", "", ""},
		{"a saved query's bad variables", "GET", "/queries/some-query?" + header + "=1", "", "", ""},
		{"a saved query's bad name", "GET", "/queries/" + header, "", "", ""},
		{"an unknown path", "GET", "/" + header, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, h.URL+tt.path, strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			if tt.contentType != "" {
				req.Header.Set("Content-Type", tt.contentType)
			}
			if tt.auth != "" {
				req.Header.Set("Authorization", tt.auth)
			}
			res := h.Do(req)
			if res.Status == http.StatusOK && len(res.Errors) == 0 && !strings.Contains(tt.name, "named by") {
				t.Errorf("the request did not fail: %s", res.Raw)
			}
			for _, e := range res.Errors {
				if e.Extensions["code"] == nil || e.Extensions["code"] == "INTERNAL" {
					t.Errorf("an error without a client's code: %s", truncateForTest(res.Raw))
				}
			}
		})
	}
	logs := h.Logs.String()
	t.Logf("%d requests of up to 4 MB: %d bytes of log", len(tests), len(logs))
	if strings.Contains(logs, marker) {
		i := strings.Index(logs, marker)
		start := strings.LastIndex(logs[:i], "\n") + 1
		t.Errorf("the log holds what a client sent, %d bytes in all; the first line with it:\n%s", len(logs), truncateForTest(logs[start:]))
	}
	if strings.Contains(logs, `"level":"error"`) {
		t.Errorf("client mistakes were logged as errors")
	}
}

func truncateForTest(s string) string {
	if len(s) > 500 {
		return s[:500] + "…"
	}
	return s
}
