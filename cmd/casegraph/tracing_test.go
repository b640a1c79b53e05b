package main

import (
	"context"
	"flag"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTracingSettings: the OTLP endpoint comes from the flag, then
// CASEGRAPH_OTLP_ENDPOINT, then OpenTelemetry's own variables; tracing is
// off unless one is set, and OTEL_SDK_DISABLED turns it off.
func TestTracingSettings(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		args    []string
		want    tracingConfig
		invalid bool
	}{
		{"off by default", nil, nil, tracingConfig{Sample: 1, Service: "casegraph"}, false},
		{"the traces endpoint as it is", map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://c:4318/custom"}, nil,
			tracingConfig{Endpoint: "http://c:4318/custom", Sample: 1, Service: "casegraph"}, false},
		{"the base endpoint with its path", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318/"}, nil,
			tracingConfig{Endpoint: "http://c:4318/v1/traces", Sample: 1, Service: "casegraph"}, false},
		{"the traces endpoint before the base one", map[string]string{
			"OTEL_EXPORTER_OTLP_ENDPOINT": "http://base:4318", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://traces:4318/v1/traces"}, nil,
			tracingConfig{Endpoint: "http://traces:4318/v1/traces", Sample: 1, Service: "casegraph"}, false},
		{"ours before OpenTelemetry's", map[string]string{
			"OTEL_EXPORTER_OTLP_ENDPOINT": "http://base:4318", "CASEGRAPH_OTLP_ENDPOINT": "https://ours/v1/traces", "OTEL_SERVICE_NAME": "cg-eu"}, nil,
			tracingConfig{Endpoint: "https://ours/v1/traces", Sample: 1, Service: "cg-eu"}, false},
		{"the flag before all", map[string]string{"CASEGRAPH_OTLP_ENDPOINT": "http://env/v1/traces"},
			[]string{"--otlp-endpoint", "http://flag/v1/traces", "--trace-sample", "0.25"},
			tracingConfig{Endpoint: "http://flag/v1/traces", Sample: 0.25, Service: "casegraph"}, false},
		{"disabled", map[string]string{"CASEGRAPH_OTLP_ENDPOINT": "http://env/v1/traces", "OTEL_SDK_DISABLED": "true"}, nil,
			tracingConfig{Endpoint: "http://env/v1/traces", Sample: 1, Service: "casegraph", Disabled: true}, false},
		{"disabled, the flag too", map[string]string{"OTEL_SDK_DISABLED": "true"}, []string{"--otlp-endpoint", "http://flag/v1/traces"},
			tracingConfig{Endpoint: "http://flag/v1/traces", Sample: 1, Service: "casegraph", Disabled: true}, false},
		{"not a URL", map[string]string{"CASEGRAPH_OTLP_ENDPOINT": "collector:4318"}, nil,
			tracingConfig{Endpoint: "collector:4318", Sample: 1, Service: "casegraph"}, true},
		{"sample over 1", nil, []string{"--trace-sample", "1.5"}, tracingConfig{Sample: 1.5, Service: "casegraph"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := defaultServeConfig()
			fs := flag.NewFlagSet("serve", flag.ContinueOnError)
			if err := cfg.bind(fs, func(k string) string { return tt.env[k] }); err != nil {
				t.Fatal(err)
			}
			if err := fs.Parse(tt.args); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, cfg.Tracing); diff != "" {
				t.Errorf("tracing (-want +got):\n%s", diff)
			}
			if err := cfg.validate(); (err != nil) != tt.invalid {
				t.Errorf("validate: %v, want an error: %v", err, tt.invalid)
			}
		})
	}
}

// TestTracerProvider: no endpoint, no provider (nothing is traced); an
// endpoint, a provider whose spans reach it over OTLP/HTTP, flushed on
// stop.
func TestTracerProvider(t *testing.T) {
	if tp, _, err := newTracerProvider(context.Background(), tracingConfig{Endpoint: "http://127.0.0.1:1/v1/traces", Sample: 1, Disabled: true}); err != nil || tp != nil {
		t.Errorf("disabled: %v, %v; want no provider", tp, err)
	}
	tp, stop, err := newTracerProvider(context.Background(), tracingConfig{Sample: 1, Service: "casegraph"})
	if err != nil || tp != nil {
		t.Errorf("no endpoint: provider %v, error %v; want none", tp, err)
	}
	stop()

	var mu sync.Mutex
	var got []string
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, r.Method+" "+r.URL.Path+" "+r.Header.Get("Content-Type"))
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	defer collector.Close()
	tp, stop, err = newTracerProvider(context.Background(), tracingConfig{Endpoint: collector.URL + "/v1/traces", Sample: 1, Service: "casegraph"})
	if err != nil || tp == nil {
		t.Fatalf("an endpoint: provider %v, error %v; want one", tp, err)
	}
	_, span := tp.Tracer("test").Start(context.Background(), "one")
	span.End()
	stop()
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff([]string{"POST /v1/traces application/x-protobuf"}, got); diff != "" {
		t.Errorf("requests to the collector (-want +got):\n%s", diff)
	}
}
