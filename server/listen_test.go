package server_test

// /metrics on a listener of its own (CASEGRAPH_METRICS_ADDR): routing, and
// both servers started and shut down together. No Neo4j.

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/server"
	"github.com/casegraph/casegraph/server/servertest"
)

func TestMetricsLeaveTheMainListener(t *testing.T) {
	t.Parallel()
	h := newEdge(t, func(c *server.Config) { c.MetricsAddr = "127.0.0.1:9090" })
	if res := h.Get("/metrics"); res.Status != http.StatusNotFound {
		t.Errorf("/metrics on the main listener with metrics-addr set: %d, want 404", res.Status)
	}
	if res := h.Get("/healthz"); res.Status != http.StatusOK {
		t.Errorf("/healthz: %d, want 200", res.Status)
	}
}

func listenLocal(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}

func getURL(t *testing.T, url string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, body := roundTrip(t, req)
	return res.StatusCode, body
}

func TestServeMetricsOnItsOwnListener(t *testing.T) {
	t.Parallel()
	cfg := server.DefaultConfig()
	cfg.MetricsAddr = "127.0.0.1:0" // any: Serve takes the listeners
	srv, err := server.New(cfg, zerolog.Nop(), servertest.NewRefusing(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	api, metrics := listenLocal(t), listenLocal(t)
	apiURL, metricsURL := "http://"+api.Addr().String(), "http://"+metrics.Addr().String()
	ctx, cancel := context.WithCancel(casegraph.AsOperator(context.Background()))
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, api, metrics) }()

	if code, _ := getURL(t, apiURL+"/healthz"); code != http.StatusOK {
		t.Errorf("API /healthz: %d, want 200", code)
	}
	if code, _ := getURL(t, apiURL+"/metrics"); code != http.StatusNotFound {
		t.Errorf("API /metrics: %d, want 404", code)
	}
	code, body := getURL(t, metricsURL+"/metrics")
	if code != http.StatusOK || !strings.Contains(body, `casegraph_http_requests_total{code="200",operation="",route="/healthz"} 1`) {
		t.Errorf("metrics listener /metrics: %d, want 200 counting the API's request:\n%s", code, body)
	}
	for _, path := range []string{"/graphql", "/healthz", "/"} {
		if code, _ := getURL(t, metricsURL+path); code != http.StatusNotFound {
			t.Errorf("metrics listener %s: %d, want 404", path, code)
		}
	}

	cancel()
	stopped(t, done, "after shutdown")
	for _, ln := range []net.Listener{api, metrics} {
		if c, err := net.Dial("tcp", ln.Addr().String()); err == nil {
			c.Close()
			t.Errorf("%s still accepts after shutdown", ln.Addr())
		}
	}
}

// TestServeWantsTheMetricsListener: a metrics listener goes with
// metrics-addr, and only with it, so /metrics is never served nowhere.
func TestServeWantsTheMetricsListener(t *testing.T) {
	t.Parallel()
	for name, metricsAddr := range map[string]string{"metrics-addr without its listener": "127.0.0.1:0", "a listener without metrics-addr": ""} {
		t.Run(name, func(t *testing.T) {
			cfg := server.DefaultConfig()
			cfg.MetricsAddr = metricsAddr
			srv, err := server.New(cfg, zerolog.Nop(), servertest.NewRefusing(t), nil)
			if err != nil {
				t.Fatal(err)
			}
			var metrics net.Listener
			if metricsAddr == "" {
				metrics = listenLocal(t)
			}
			if err := srv.Serve(context.Background(), listenLocal(t), metrics); err == nil || !strings.Contains(err.Error(), "metrics listener") {
				t.Errorf("Serve: %v, want a refusal", err)
			}
		})
	}
}

// TestShutdownDrains: on shutdown /readyz says 503 at once and for the
// drain delay, while requests are still served; then the server stops.
func TestShutdownDrains(t *testing.T) {
	t.Parallel()
	cfg := server.DefaultConfig()
	cfg.DrainDelay = 500 * time.Millisecond
	refusing := servertest.NewRefusing(t)
	refusing.Allow("Ping", "SchemaApplied")
	srv, err := server.New(cfg, zerolog.Nop(), refusing, nil)
	if err != nil {
		t.Fatal(err)
	}
	api := listenLocal(t)
	url := "http://" + api.Addr().String()
	ctx, cancel := context.WithCancel(casegraph.AsOperator(context.Background()))
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, api, nil) }()
	if code, _ := getURL(t, url+"/healthz"); code != http.StatusOK {
		t.Fatalf("/healthz before shutdown: %d", code)
	}
	cancel()
	time.Sleep(100 * time.Millisecond) // within the drain delay
	if code, body := getURL(t, url+"/readyz"); code != http.StatusServiceUnavailable || !strings.Contains(body, "shutting down") {
		t.Errorf("/readyz while draining: %d %s, want 503 shutting down", code, body)
	}
	if code, _ := getURL(t, url+"/healthz"); code != http.StatusOK {
		t.Errorf("/healthz while draining: %d, want 200 (requests are still served)", code)
	}
	stopped(t, done, "after the drain")
}

func TestShutdownOutlastsRequests(t *testing.T) {
	cfg := server.DefaultConfig()
	cfg.ShutdownTimeout = cfg.RequestTimeout
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "must be longer than request-timeout") {
		t.Errorf("a shutdown timeout no longer than the request timeout: %v, want refused", err)
	}
}

// blocking is a store whose entity list waits, whatever its context says,
// until released: a request that outlasts every timeout.
type blocking struct {
	server.Store
	entered, release chan struct{}
}

func (b blocking) Entities(context.Context, casegraph.EntitiesRequest) ([]casegraph.Entity, []string, bool, error) {
	close(b.entered)
	<-b.release
	return nil, nil, false, nil
}

// TestShutdownCutsOffWhatOutlastsIt: a request that outlasts the shutdown
// timeout is cut off and named in the log, and Serve returns nil (the
// process exits 0: it was asked to stop, and stopped).
func TestShutdownCutsOffWhatOutlastsIt(t *testing.T) {
	t.Parallel()
	cfg := server.DefaultConfig()
	cfg.RequestTimeout, cfg.ShutdownTimeout, cfg.DrainDelay = 50*time.Millisecond, 100*time.Millisecond, 0
	cfg.Anonymous = []string{casegraph.AllDatasets}
	store := blocking{Store: servertest.NewRefusing(t), entered: make(chan struct{}), release: make(chan struct{})}
	defer close(store.release)
	logs := &servertest.SyncBuffer{}
	srv, err := server.New(cfg, zerolog.New(logs), store, nil)
	if err != nil {
		t.Fatal(err)
	}
	api := listenLocal(t)
	ctx, cancel := context.WithCancel(casegraph.AsOperator(context.Background()))
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, api, nil) }()
	go func() {
		res, err := http.Post("http://"+api.Addr().String()+"/graphql", "application/json",
			strings.NewReader(`{"query": "{ entities { edges { cursor } } }"}`))
		if err == nil { // cut off: the connection closes without an answer
			res.Body.Close()
		}
	}()
	<-store.entered
	cancel()
	stopped(t, done, "after cutting off a request")
	var cut struct {
		Level, Message, Route, Method string
		ReqID                         string `json:"req_id"`
	}
	for line := range strings.SplitSeq(logs.String(), "\n") {
		if strings.Contains(line, "request cut off") {
			if err := json.Unmarshal([]byte(line), &cut); err != nil {
				t.Fatal(err)
			}
		}
	}
	if cut.Level != "warn" || cut.Route != "/graphql" || cut.Method != "POST" || cut.ReqID == "" {
		t.Errorf("the cut-off request's log line: %+v, want a warning naming it:\n%s", cut, logs.String())
	}
}

// stopped waits for Serve to return (done) and fails the test unless it
// returns nil; when is what happened before, for the message.
func stopped(t *testing.T, done <-chan error, when string) {
	t.Helper()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Serve %s: %v, want nil", when, err)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("Serve did not return %s", when)
	}
}
