package server_test

// Observability at the edge (no database): request ids, the access log of
// every route, errors counted by code, and the caches' hits.

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/casegraph/casegraph/server"
)

// TestRequestID: a well-formed X-Request-Id of the client's is the
// request's id, in the answer and the log; anything else is replaced by
// one of the server's.
func TestRequestID(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, sent string
		kept       bool
	}{
		{"none", "", false},
		{"well-formed", "client-42.retry_1", true},
		{"64 characters", strings.Repeat("a", 64), true},
		{"65 characters", strings.Repeat("a", 65), false},
		{"a space", "a b", false},
		{"markup", "<script>", false},
		{"a quote", `a"b`, false},
		{"not ASCII", "zürich", false},
	}
	h := newEdge(t, nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodGet, h.URL+"/healthz", nil)
			if err != nil {
				t.Fatal(err)
			}
			if tt.sent != "" {
				req.Header.Set("X-Request-Id", tt.sent)
			}
			got := h.Do(req).Header.Get("X-Request-Id")
			if tt.kept && got != tt.sent {
				t.Errorf("X-Request-Id = %q, want the client's %q", got, tt.sent)
			}
			if !tt.kept && (got == tt.sent || len(got) != 20) {
				t.Errorf("X-Request-Id = %q, want a new id of 20 characters (an xid)", got)
			}
			if line := logLine(t, h, got); line == nil {
				t.Errorf("no access-log line has req_id %q", got)
			}
		})
	}
}

// TestAccessLogEveryRoute: every route, the pages and unrouted paths
// included, logs one line with its status, body size, client address and
// user agent.
func TestAccessLogEveryRoute(t *testing.T) {
	t.Parallel()
	h := newEdge(t, nil)
	h.Refusing.Allow("Ping", "SchemaApplied")
	tests := []struct {
		method, path string
		route        string
		status       int
	}{
		{http.MethodGet, "/", "/", http.StatusOK},
		{http.MethodGet, "/graphiql", "/graphiql", http.StatusOK},
		{http.MethodGet, "/assets/no-such-file.js", "/assets", http.StatusNotFound},
		{http.MethodGet, "/healthz", "/healthz", http.StatusOK},
		{http.MethodGet, "/readyz", "/readyz", http.StatusServiceUnavailable},
		{http.MethodGet, "/metrics", "/metrics", http.StatusOK},
		{http.MethodGet, "/graphql?query=%7B__typename%7D", "/graphql", http.StatusOK},
		{http.MethodGet, "/nowhere", "unrouted", http.StatusNotFound},
		{http.MethodDelete, "/graphql", "unrouted", http.StatusMethodNotAllowed},
	}
	for i, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, h.URL+tt.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			id := "access-" + string(rune('a'+i))
			req.Header.Set("X-Request-Id", id)
			req.Header.Set("User-Agent", "observe-test/1.0")
			// The body as sent is the body as read: bytes counts what
			// the server wrote, compressed or not.
			req.Header.Set("Accept-Encoding", "identity")
			res := h.Do(req)
			line := logLine(t, h, id)
			if line == nil {
				t.Fatalf("no access-log line for %s %s", tt.method, tt.path)
			}
			got := map[string]any{"route": line["route"], "status": line["status"], "bytes": line["bytes"],
				"client": line["client"], "user_agent": line["user_agent"], "method": line["method"]}
			want := map[string]any{"route": tt.route, "status": float64(tt.status), "bytes": float64(len(res.Raw)),
				"client": "127.0.0.1", "user_agent": "observe-test/1.0", "method": tt.method}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("access log (-want +got):\n%s", diff)
			}
			if res.Status != tt.status {
				t.Errorf("status = %d, want %d", res.Status, tt.status)
			}
		})
	}
}

// TestErrorMetrics: every kind of error answered is counted once in
// casegraph_errors_total by route and code, a GraphQL error with HTTP 200
// as much as a refusal.
func TestErrorMetrics(t *testing.T) {
	t.Parallel()
	post := func(body, contentType string) func(*harness) *http.Request {
		return func(h *harness) *http.Request {
			req, _ := http.NewRequest(http.MethodPost, h.URL+"/graphql", strings.NewReader(body))
			req.Header.Set("Content-Type", contentType)
			return req
		}
	}
	get := func(path string) func(*harness) *http.Request {
		return func(h *harness) *http.Request {
			req, _ := http.NewRequest(http.MethodGet, h.URL+path, nil)
			return req
		}
	}
	tests := []struct {
		name      string
		configure func(*server.Config)
		allow     []string // store methods the request may reach
		before    int      // requests sent first (to spend a rate)
		req       func(*harness) *http.Request
		want      map[string]float64
	}{
		{"parse error", nil, nil, 0, post(`{"query": "{ entity("}`, "application/json"),
			map[string]float64{"/graphql BAD_USER_INPUT": 1}},
		{"validation error", nil, nil, 0, post(`{"query": "{ nope }"}`, "application/json"),
			map[string]float64{"/graphql BAD_USER_INPUT": 1}},
		{"two validation errors", nil, nil, 0, post(`{"query": "{ nope nor }"}`, "application/json"),
			map[string]float64{"/graphql BAD_USER_INPUT": 2}},
		{"mutation over GET", nil, nil, 0, get(`/graphql?query=mutation%7BdeleteEntity(id:%22x%22)%7D`),
			map[string]float64{"/graphql BAD_USER_INPUT": 1}},
		{"introspection off", func(c *server.Config) { c.Introspection = false }, nil, 0,
			post(`{"query": "{ __schema { queryType { name } } }"}`, "application/json"),
			map[string]float64{"/graphql FORBIDDEN": 1}},
		{"database down", nil, []string{"ReadEntities"}, 0, post(`{"query": "{ entity(id: \"x\") { id } }"}`, "application/json"),
			map[string]float64{"/graphql DATABASE_UNAVAILABLE": 1}},
		{"not JSON", nil, nil, 0, post(`{`, "application/json"),
			map[string]float64{"/graphql BAD_USER_INPUT": 1}},
		{"unsupported media type", nil, nil, 0, post(`{}`, "text/plain"),
			map[string]float64{"/graphql BAD_USER_INPUT": 1}},
		{"body too large", func(c *server.Config) { c.MaxBodyBytes = 1024 }, nil, 0,
			post(`{"query": "{ __typename }", "variables": {"x": "`+strings.Repeat("x", 2000)+`"}}`, "application/json"),
			map[string]float64{"/graphql BAD_USER_INPUT": 1}},
		{"bad credentials", nil, nil, 0, func(h *harness) *http.Request {
			req := post(`{"query": "{ __typename }"}`, "application/json")(h)
			req.Header.Set("Authorization", "Bearer not-a-key")
			return req
		}, map[string]float64{"/graphql UNAUTHENTICATED": 1}},
		{"over the rate", func(c *server.Config) { c.RateLimit, c.RateBurst = 0.001, 1 }, nil, 1,
			post(`{"query": "{ __typename }"}`, "application/json"),
			map[string]float64{"/graphql BUSY": 1}},
		{"saved query, bad format", nil, nil, 0, get("/queries/some-query?format=xml"),
			map[string]float64{"/queries BAD_USER_INPUT": 1}},
		{"unrouted", nil, nil, 0, get("/nowhere"),
			map[string]float64{"unrouted NOT_FOUND": 1}},
		{"method not allowed", nil, nil, 0, func(h *harness) *http.Request {
			req, _ := http.NewRequest(http.MethodPut, h.URL+"/graphql", nil)
			return req
		}, map[string]float64{"unrouted BAD_USER_INPUT": 1}},
		{"asset not found", nil, nil, 0, get("/assets/nothing.js"),
			map[string]float64{"/assets NOT_FOUND": 1}},
		{"no error", nil, nil, 0, post(`{"query": "{ __typename }"}`, "application/json"),
			map[string]float64{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newEdge(t, tt.configure)
			h.Refusing.Allow(tt.allow...)
			for range tt.before {
				h.Do(tt.req(h))
			}
			before := errorCounts(t, h)
			h.Do(tt.req(h))
			after := errorCounts(t, h)
			got := map[string]float64{}
			for k, v := range after {
				if d := v - before[k]; d != 0 {
					got[k] = d
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("casegraph_errors_total changes (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCacheMetrics: the document cache and the APQ cache count their
// hits and misses.
func TestCacheMetrics(t *testing.T) {
	t.Parallel()
	h := newEdge(t, nil)
	doc := "{ __typename }"
	sum := sha256.Sum256([]byte(doc))
	hash := hex.EncodeToString(sum[:])
	apq := func(withDoc bool) {
		body := map[string]any{"extensions": map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": hash}}}
		if withDoc {
			body["query"] = doc
		}
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		h.PostRaw(b)
	}
	apq(false) // not known: a miss, and PERSISTED_QUERY_NOT_FOUND
	apq(true)  // registers it, and parses it: a miss of the document cache
	apq(false) // a hit of both
	h.Post(doc, nil)
	got := map[string]float64{}
	for _, m := range scrape(t, h)["casegraph_query_cache_total"] {
		got[m.labels["cache"]+" "+m.labels["result"]] = m.value
	}
	want := map[string]float64{"apq hit": 1, "apq miss": 1, "documents hit": 2, "documents miss": 1}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("casegraph_query_cache_total (-want +got):\n%s", diff)
	}
}

// logLine returns the access-log line of the request with the id.
//
// The access log's line is written once the handler has returned, which
// can be after the client has read the whole response: on a loaded
// machine the test looked before it was there (TestAccessLogEveryRoute
// failed so once). It looks again for up to 5 s.
func logLine(t *testing.T, h *harness, id string) map[string]any {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		sc := bufio.NewScanner(strings.NewReader(h.Logs.String()))
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var line map[string]any
			if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
				continue
			}
			if line["req_id"] == id && line["message"] == "request" {
				return line
			}
		}
		if time.Now().After(deadline) {
			return nil
		}
	}
}

type sample struct {
	labels map[string]string
	value  float64
}

// scrape reads /metrics, by family.
func scrape(t *testing.T, h *harness) map[string][]sample {
	t.Helper()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(strings.NewReader(h.Get("/metrics").Raw))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]sample{}
	for name, f := range families {
		for _, m := range f.GetMetric() {
			s := sample{labels: map[string]string{}}
			for _, l := range m.GetLabel() {
				s.labels[l.GetName()] = l.GetValue()
			}
			switch {
			case m.Counter != nil:
				s.value = m.GetCounter().GetValue()
			case m.Gauge != nil:
				s.value = m.GetGauge().GetValue()
			case m.Histogram != nil:
				s.value = float64(m.GetHistogram().GetSampleCount())
			}
			out[name] = append(out[name], s)
		}
	}
	return out
}

// errorCounts is casegraph_errors_total by "route code".
func errorCounts(t *testing.T, h *harness) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	for _, s := range scrape(t, h)["casegraph_errors_total"] {
		out[s.labels["route"]+" "+s.labels["code"]] = s.value
	}
	return out
}
