package main

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// tracingConfig says where traces go: tracing is off unless an OTLP
// endpoint is set, by the flag or by OpenTelemetry's own variables.
type tracingConfig struct {
	// Endpoint is the OTLP/HTTP traces URL (http://collector:4318/v1/traces).
	Endpoint string
	// Sample is the share of new traces recorded (0..1); a request that
	// joins a client's trace follows the client's choice.
	Sample float64
	// Service names the service in the traces (OTEL_SERVICE_NAME).
	Service string
	// Disabled (OTEL_SDK_DISABLED=true) turns tracing off whatever the
	// endpoint, the flag's included.
	Disabled bool
}

func defaultTracing() tracingConfig { return tracingConfig{Sample: 1, Service: "casegraph"} }

// bind registers the tracing settings on fs. With no endpoint set, it
// takes OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as it is, or
// OTEL_EXPORTER_OTLP_ENDPOINT with /v1/traces appended, as OpenTelemetry's
// SDKs do; OTEL_SDK_DISABLED=true turns tracing off whatever is set.
func (c *tracingConfig) bind(b *binder) {
	if v := b.getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"); v != "" {
		c.Endpoint = v
	} else if v := b.getenv("OTEL_EXPORTER_OTLP_ENDPOINT"); v != "" {
		c.Endpoint = strings.TrimSuffix(v, "/") + "/v1/traces"
	}
	if v := b.getenv("OTEL_SERVICE_NAME"); v != "" {
		c.Service = v
	}
	b.str(&c.Endpoint, "otlp-endpoint", "CASEGRAPH_OTLP_ENDPOINT", "send traces over OTLP/HTTP to this URL (http://collector:4318/v1/traces); empty: no tracing (default: from $OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or $OTEL_EXPORTER_OTLP_ENDPOINT)")
	b.float(&c.Sample, "trace-sample", "CASEGRAPH_TRACE_SAMPLE", "share of new traces recorded, 0 to 1 (a client's traceparent decides for its own)")
	c.Disabled = strings.EqualFold(b.getenv("OTEL_SDK_DISABLED"), "true")
}

// validate checks the tracing settings.
func (c tracingConfig) validate() error {
	if c.Sample < 0 || c.Sample > 1 {
		return fmt.Errorf("trace-sample must be between 0 and 1")
	}
	if c.Endpoint == "" || c.Disabled {
		return nil
	}
	u, err := url.Parse(c.Endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("otlp-endpoint %q: want an http or https URL, such as http://collector:4318/v1/traces", c.Endpoint)
	}
	return nil
}

// newTracerProvider returns the provider of the server's and the store's
// spans, exporting in batches over OTLP/HTTP, and the function that flushes
// and stops it; nil when tracing is off, so that nothing is traced. The
// exporter reads OpenTelemetry's other variables itself (headers, TLS,
// compression, timeout).
func newTracerProvider(ctx context.Context, c tracingConfig) (*sdktrace.TracerProvider, func(), error) {
	if c.Endpoint == "" || c.Disabled {
		return nil, func() {}, nil
	}
	exporter, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(c.Endpoint))
	if err != nil {
		return nil, nil, fmt.Errorf("tracing: %w", err)
	}
	tp := sdktrace.NewTracerProvider(
		sdktrace.WithBatcher(exporter),
		sdktrace.WithResource(resource.NewSchemaless(attribute.String("service.name", c.Service))),
		sdktrace.WithSampler(sdktrace.ParentBased(sdktrace.TraceIDRatioBased(c.Sample))),
	)
	return tp, func() {
		// Spans still buffered go out; a collector that does not answer
		// costs the shutdown at most this.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = tp.Shutdown(ctx)
	}, nil
}

// redactedURL is u without a password, for the log.
func redactedURL(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return p.Redacted()
}
