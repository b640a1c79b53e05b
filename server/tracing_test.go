package server_test

// Tracing: spans recorded in memory (an SDK tracer provider with a span
// recorder, as `casegraph serve` builds one with an OTLP exporter).

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server"
)

const (
	clientTrace  = "4bf92f3577b34da6a3ce929d0e0e4736"
	clientParent = "00f067aa0ba902b7"
)

// recorder returns a tracer provider that keeps every ended span.
func recorder(t *testing.T) (*sdktrace.TracerProvider, *tracetest.SpanRecorder) {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	t.Cleanup(func() { _ = tp.Shutdown(t.Context()) })
	return tp, rec
}

// spanTree is a span as a test compares it: its name, its parent's name
// ("" for the root of the server's part), and its attributes; the trace
// id is checked once for all.
type spanTree struct {
	Name, Parent string
	Kind         trace.SpanKind
	Attributes   map[string]string
	Error        bool
}

func tree(spans []sdktrace.ReadOnlySpan) []spanTree {
	names := map[trace.SpanID]string{}
	for _, s := range spans {
		names[s.SpanContext().SpanID()] = s.Name()
	}
	var out []spanTree
	for _, s := range spans {
		attrs := map[string]string{}
		for _, a := range s.Attributes() {
			attrs[string(a.Key)] = a.Value.String()
		}
		out = append(out, spanTree{Name: s.Name(), Parent: names[s.Parent().SpanID()], Kind: s.SpanKind(),
			Attributes: attrs, Error: s.Status().Code.String() == "Error"})
	}
	return out
}

// leaks reports the spans whose name or attributes hold text.
func leaks(spans []sdktrace.ReadOnlySpan, text string) []string {
	var out []string
	for _, s := range spans {
		if strings.Contains(s.Name(), text) {
			out = append(out, s.Name())
		}
		for _, a := range s.Attributes() {
			if strings.Contains(a.Value.String(), text) {
				out = append(out, s.Name()+" "+string(a.Key))
			}
		}
	}
	return out
}

// TestTracingJoinsTheClientsTrace: a request with a traceparent has its
// server span in the client's trace, under the client's span; the
// operation's span is under it, and each resolver's under that, with the
// error's code; no span holds a variable's value.
func TestTracingJoinsTheClientsTrace(t *testing.T) {
	t.Parallel()
	tp, rec := recorder(t)
	h := newEdge(t, func(c *server.Config) { c.Tracer = tp })
	h.Refusing.Allow("ReadEntities")
	const secret = "secret-id-4711"
	res := h.PostWith(http.Header{
		"Traceparent":  {"00-" + clientTrace + "-" + clientParent + "-01"},
		"X-Request-Id": {"traced-1"},
	}, `query Find($id: ID!) { entity(id: $id) { id name } }`, map[string]any{"id": secret})
	if res.Code() != "DATABASE_UNAVAILABLE" {
		t.Fatalf("got %s, want the refusing store's DATABASE_UNAVAILABLE", res.Raw)
	}
	spans := rec.Ended()
	want := []spanTree{
		{Name: "Query.entity", Parent: "query Find", Kind: trace.SpanKindInternal,
			Attributes: map[string]string{"casegraph.error.code": "DATABASE_UNAVAILABLE"}, Error: true},
		{Name: "query Find", Parent: "POST /graphql", Kind: trace.SpanKindInternal,
			Attributes: map[string]string{"graphql.operation.type": "query", "graphql.operation.name": "Find",
				"casegraph.error.codes": `["DATABASE_UNAVAILABLE"]`}, Error: true},
		{Name: "POST /graphql", Parent: "", Kind: trace.SpanKindServer,
			Attributes: map[string]string{"http.request.method": "POST", "http.route": "/graphql", "casegraph.request_id": "traced-1",
				"http.response.status_code": "200", "graphql.operation.name": "Find"}},
	}
	if diff := cmp.Diff(want, tree(spans)); diff != "" {
		t.Errorf("spans (-want +got):\n%s", diff)
	}
	for _, s := range spans {
		if got := s.SpanContext().TraceID().String(); got != clientTrace {
			t.Errorf("span %s is in trace %s, want the client's %s", s.Name(), got, clientTrace)
		}
	}
	if root := spans[len(spans)-1]; root.Parent().SpanID().String() != clientParent || !root.Parent().IsRemote() {
		t.Errorf("the server span's parent is %s (remote %v), want the client's span %s", root.Parent().SpanID(), root.Parent().IsRemote(), clientParent)
	}
	if got := leaks(spans, secret); len(got) > 0 {
		t.Errorf("spans hold a variable's value: %v", got)
	}
	if line := logLine(t, h, "traced-1"); line == nil || line["trace_id"] != clientTrace {
		t.Errorf("access log %v: want trace_id %s", line, clientTrace)
	}
}

// TestTracingOff: with no tracer nothing is traced, and a client's
// traceparent still names its trace in the log; a malformed one is
// ignored.
func TestTracingOff(t *testing.T) {
	t.Parallel()
	h := newEdge(t, nil)
	tests := []struct {
		name, traceparent, want string
	}{
		{"well-formed", "00-" + clientTrace + "-" + clientParent + "-01", clientTrace},
		{"not sampled", "00-" + clientTrace + "-" + clientParent + "-00", clientTrace},
		{"malformed", "00-" + clientTrace + "-nothex0000000000-01", ""},
		{"zero trace", "00-" + strings.Repeat("0", 32) + "-" + clientParent + "-01", ""},
		{"none", "", ""},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := "untraced-" + string(rune('a'+i))
			header := http.Header{"X-Request-Id": {id}}
			if tt.traceparent != "" {
				header.Set("Traceparent", tt.traceparent)
			}
			h.PostWith(header, `{ __typename }`, nil)
			line := logLine(t, h, id)
			if line == nil {
				t.Fatal("no access-log line")
			}
			got, _ := line["trace_id"].(string)
			if got != tt.want {
				t.Errorf("trace_id = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestTracingNeo4jStatements: against Neo4j, each statement the request
// sends is a client span named after the statement, under the resolver
// that ran it, in the request's trace, holding neither the statement's
// text nor its parameters; and /metrics shows the admission pools.
func TestTracingNeo4jStatements(t *testing.T) {
	t.Parallel()
	tp, rec := recorder(t)
	h := newHarness(t, options{Tracer: tp, Admission: cypher.Admission{Statements: 5, Heavy: 2, Wait: time.Second}})
	_, id := seedOne(t, h.Store)
	before := h.Store.RoundTrips()
	res := h.PostWith(http.Header{"X-Request-Id": {"traced-db"}},
		`query One($id: ID!) { entity(id: $id) { id name sources { title } } }`, map[string]any{"id": id})
	if len(res.Errors) > 0 || res.Data["entity"] == nil {
		t.Fatalf("got %s", res.Raw)
	}
	sent := h.Store.RoundTrips() - before

	spans := rec.Ended()
	var request trace.TraceID
	names := map[trace.SpanID]string{}
	for _, s := range spans {
		names[s.SpanContext().SpanID()] = s.Name()
		for _, a := range s.Attributes() {
			if a.Key == "casegraph.request_id" && a.Value.AsString() == "traced-db" {
				request = s.SpanContext().TraceID()
			}
		}
	}
	var statements []string
	for _, s := range spans {
		if s.SpanContext().TraceID() != request || s.SpanKind() != trace.SpanKindClient {
			continue
		}
		statements = append(statements, s.Name())
		attrs := map[string]string{}
		for _, a := range s.Attributes() {
			attrs[string(a.Key)] = a.Value.String()
		}
		want := map[string]string{"db.system.name": "neo4j", "db.namespace": "neo4j", "db.operation.name": s.Name()}
		if diff := cmp.Diff(want, attrs); diff != "" {
			t.Errorf("statement %s: attributes (-want +got):\n%s", s.Name(), diff)
		}
		if parent := names[s.Parent().SpanID()]; !strings.Contains(parent, ".") {
			t.Errorf("statement %s is under %q, want a resolver's span (Type.field)", s.Name(), parent)
		}
	}
	t.Logf("statements: %v", statements)
	if int64(len(statements)) != sent || sent == 0 {
		t.Errorf("statement spans %v: %d, want one for each of the %d round trips", statements, len(statements), sent)
	}
	if got := leaks(spans, id); len(got) > 0 {
		t.Errorf("spans hold a parameter's value: %v", got)
	}
	for _, s := range spans {
		if strings.Contains(s.Name(), "MATCH") {
			t.Errorf("a span is named with Cypher: %s", s.Name())
		}
	}

	got := map[string]float64{}
	for _, family := range []string{"casegraph_neo4j_pool_in_use", "casegraph_neo4j_pool_idle"} {
		for _, s := range scrape(t, h)[family] {
			got[family+" "+s.labels["pool"]] = s.value
		}
	}
	want := map[string]float64{
		"casegraph_neo4j_pool_in_use statements": 0, "casegraph_neo4j_pool_in_use heavy": 0,
		"casegraph_neo4j_pool_idle statements": 5, "casegraph_neo4j_pool_idle heavy": 2,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pool metrics between requests (-want +got):\n%s", diff)
	}
}

// TestTracingSubscription: a subscription's operation span lasts as long
// as its stream (it ends after the last event, not at the first), and the
// watches' own reads of the change feed, outside any request, make no
// traces of their own.
func TestTracingSubscription(t *testing.T) {
	t.Parallel()
	tp, rec := recorder(t)
	h := newHarness(t, options{Tracer: tp})
	ds := cyphertest.Dataset(t)
	w := newGraphWriter(t, h)
	w.sourceOf(ds)
	body, err := json.Marshal(map[string]any{"query": `subscription Follow($ds: [String!]) { changes(datasets: $ds) { cursor } }`, "variables": map[string]any{"ds": []string{ds}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.URL+"/graphql", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Authorization", "Bearer "+h.Token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	events := bufio.NewScanner(res.Body)
	next := func() {
		t.Helper()
		for events.Scan() {
			if strings.HasPrefix(events.Text(), "data: ") {
				return
			}
		}
		t.Fatal("the stream ended")
	}
	next() // the watch is live
	w.entity(ds, "Traced")
	next()
	second := time.Now()
	cancel()
	res.Body.Close()

	var op sdktrace.ReadOnlySpan
	for deadline := time.Now().Add(10 * time.Second); op == nil && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for _, s := range rec.Ended() {
			if s.Name() == "subscription Follow" {
				op = s
			}
		}
	}
	if op == nil {
		t.Fatal("the subscription's span never ended")
	}
	if !op.EndTime().After(second) {
		t.Errorf("the subscription's span ended at %s, before its second event (%s)", op.EndTime(), second)
	}
	for _, s := range rec.Ended() {
		if s.SpanKind() == trace.SpanKindClient && !s.Parent().IsValid() {
			t.Errorf("statement %s is a trace of its own, outside any request", s.Name())
		}
	}
}
