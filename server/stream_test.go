package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	coderws "github.com/coder/websocket"

	"github.com/casegraph/casegraph/server"
)

// TestStreamRefusals: what a stream refuses never reaches the store: a
// subscription outside a stream, a reader following the audit log, bad
// arguments, and a WebSocket opened by a page of another origin. A query
// or mutation in a stream is answered there.
func TestStreamRefusals(t *testing.T) {
	t.Parallel()
	h := newEdge(t, nil)
	sse := func(query string, vars map[string]any) string {
		t.Helper()
		body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
		if err != nil {
			t.Fatal(err)
		}
		req, err := http.NewRequest(http.MethodPost, h.URL+"/graphql", strings.NewReader(string(body)))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "text/event-stream")
		res := h.Do(req)
		if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
			t.Fatalf("Content-Type %q: %s", ct, res.Raw)
		}
		return res.Raw
	}
	tests := []struct {
		name, query string
		vars        map[string]any
		sse         bool
		want        string // in the answer
	}{
		{name: "a subscription over POST", query: `subscription { changes { cursor } }`, want: `"SUBSCRIPTION_NEEDS_STREAM"`},
		{name: "a query over SSE", query: `{ __typename }`, sse: true, want: `data: {"data":{"__typename":"Query"}}`},
		{name: "a mutation over SSE", query: `mutation { __typename }`, sse: true, want: `data: {"data":{"__typename":"Mutation"}}`},
		{name: "a reader's changes", query: `subscription { changes { cursor } }`, sse: true, want: `"FORBIDDEN"`},
		{name: "a bad cursor", query: `subscription { watchPath(from: "a", to: "b", after: "-1") { kind } }`, sse: true, want: `"BAD_USER_INPUT"`},
		{name: "too many datasets", query: `subscription($ds: [String!]) { changes(datasets: $ds) { cursor } }`, vars: map[string]any{"ds": manyDatasets(51)}, sse: true, want: `"BAD_USER_INPUT"`},
		{name: "a bad filter", query: `subscription { watchPath(from: "a", to: "b", filter: {maxDepth: 99}) { kind } }`, sse: true, want: `"BAD_USER_INPUT"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got string
			if tc.sse {
				got = sse(tc.query, tc.vars)
			} else {
				got = h.Post(tc.query, tc.vars).Raw
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("got %s, want %s in it", got, tc.want)
			}
		})
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	wsURL := "ws" + strings.TrimPrefix(h.URL, "http") + "/graphql"
	_, res, err := coderws.Dial(ctx, wsURL, &coderws.DialOptions{
		Subprotocols: []string{"graphql-transport-ws"},
		HTTPHeader:   http.Header{"Origin": {"https://elsewhere.example"}},
	})
	if err == nil || res == nil || res.StatusCode != http.StatusForbidden {
		t.Errorf("a WebSocket from another origin: want 403, got %v %v", res, err)
	}
	conn, _, err := coderws.Dial(ctx, wsURL, &coderws.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
	if err != nil {
		t.Fatalf("a WebSocket from the same origin: %v", err)
	}
	conn.Close(coderws.StatusNormalClosure, "")

	// A WebSocket's operations spend the caller's rate as requests do.
	limited := newEdge(t, func(c *server.Config) { c.RateLimit, c.RateBurst = 0.01, 2 })
	c := newWSClient(t, limited.URL)
	if e := c.connect("anonymous", ""); e.Type != "connected" {
		t.Fatalf("connection: %+v", e)
	}
	for i, want := range []string{"BAD_USER_INPUT", "BAD_USER_INPUT", "BUSY"} {
		id := fmt.Sprint(i)
		c.subscribe("anonymous", id, `subscription { watchPath(from: "a", to: "b", filter: {maxDepth: 99}) { kind } }`, nil)
		if got := c.next(id).code(); got != want {
			t.Errorf("operation %d: %s, want %s", i, got, want)
		}
	}
	for _, h := range []*harness{h, limited} {
		if calls := h.Refusing.Calls(); len(calls) > 0 {
			t.Errorf("the store was called: %v", calls)
		}
	}
}

func manyDatasets(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprint("d", i)
	}
	return out
}
