//go:build drills

package drills

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// Client speaks to one running Casegraph as a caller: with an API key, or
// anonymously when Token is empty.
type Client struct {
	Base  string // http://host:port
	Token string
	HTTP  *http.Client
}

// NewClient returns a client of the server at base whose requests take at
// most timeout (a guard: drills measure the server's own deadlines).
func NewClient(base, token string, timeout time.Duration) *Client {
	transport := &http.Transport{MaxIdleConns: 256, MaxIdleConnsPerHost: 256, IdleConnTimeout: 30 * time.Second}
	return &Client{Base: base, Token: token, HTTP: &http.Client{Transport: transport, Timeout: timeout}}
}

// WithToken is the same server as another caller.
func (c *Client) WithToken(token string) *Client {
	return &Client{Base: c.Base, Token: token, HTTP: c.HTTP}
}

// Outcome is what one request got.
type Outcome struct {
	Status     int
	Code       string // extensions.code of the first error; "" without errors
	Reason     string // extensions.reason of the first error
	Message    string // message of the first error
	RetryAfter string // the Retry-After header
	ServedBy   string // the X-Served-By header: the replica a load balancer chose
	Data       json.RawMessage
	Took       time.Duration
	Err        error // the request got no HTTP answer
}

// Label names the outcome for counting: OK, an error code, HTTP_nnn for an
// answer without a code, or NETWORK when no answer came.
func (o Outcome) Label() string {
	switch {
	case o.Err != nil:
		return "NETWORK"
	case o.Code != "":
		return o.Code
	case o.Status == http.StatusTooManyRequests:
		return "BUSY"
	case o.Status != http.StatusOK:
		return fmt.Sprintf("HTTP_%d", o.Status)
	}
	return "OK"
}

// OK says the request succeeded.
func (o Outcome) OK() bool { return o.Label() == "OK" }

// String describes the outcome for a failure message.
func (o Outcome) String() string {
	if o.Err != nil {
		return fmt.Sprintf("no answer after %s: %v", o.Took.Round(time.Millisecond), o.Err)
	}
	s := fmt.Sprintf("HTTP %d %s after %s", o.Status, o.Label(), o.Took.Round(time.Millisecond))
	if o.Reason != "" {
		s += " reason " + o.Reason
	}
	if o.Message != "" {
		s += fmt.Sprintf(" (%q)", o.Message)
	}
	return s
}

type gqlError struct {
	Message    string `json:"message"`
	Extensions struct {
		Code   string `json:"code"`
		Reason string `json:"reason"`
	} `json:"extensions"`
}

// GraphQL posts a request (headers such as Idempotency-Key beside it) and
// reads the answer's data and first error.
func (c *Client) GraphQL(ctx context.Context, document string, vars map[string]any, header map[string]string) Outcome {
	body, err := json.Marshal(map[string]any{"query": document, "variables": vars})
	if err != nil {
		return Outcome{Err: err}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.Base+"/graphql", bytes.NewReader(body))
	if err != nil {
		return Outcome{Err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	start := time.Now()
	res, err := c.HTTP.Do(req)
	if err != nil {
		return Outcome{Err: err, Took: time.Since(start)}
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	o := Outcome{Status: res.StatusCode, RetryAfter: res.Header.Get("Retry-After"), ServedBy: res.Header.Get("X-Served-By"), Took: time.Since(start)}
	if err != nil {
		o.Err = err
		return o
	}
	var doc struct {
		Data   json.RawMessage `json:"data"`
		Errors []gqlError      `json:"errors"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		o.Message = clip(raw)
		return o
	}
	o.Data = doc.Data
	if len(doc.Errors) > 0 {
		e := doc.Errors[0]
		o.Code, o.Reason, o.Message = e.Extensions.Code, e.Extensions.Reason, e.Message
		if o.Code == "" {
			o.Code = "NO_CODE"
		}
	}
	return o
}

// Get fetches a path (/healthz, /readyz) and returns its status and time.
func (c *Client) Get(ctx context.Context, path string) Outcome {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.Base+path, nil)
	if err != nil {
		return Outcome{Err: err}
	}
	start := time.Now()
	res, err := c.HTTP.Do(req)
	if err != nil {
		return Outcome{Err: err, Took: time.Since(start)}
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	o := Outcome{Status: res.StatusCode, Took: time.Since(start), RetryAfter: res.Header.Get("Retry-After"), ServedBy: res.Header.Get("X-Served-By")}
	if res.StatusCode != http.StatusOK {
		o.Message = clip(raw)
	}
	return o
}

// RoundTrips reads casegraph_cypher_queries_total from /metrics: every
// statement sent to Neo4j, by statement name.
func (c *Client) RoundTrips(ctx context.Context) (map[string]float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.Base+"/metrics", nil)
	if err != nil {
		return nil, err
	}
	res, err := c.HTTP.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET /metrics: HTTP %d", res.StatusCode)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(res.Body)
	if err != nil {
		return nil, fmt.Errorf("GET /metrics: %w", err)
	}
	out := map[string]float64{}
	fam, ok := families["casegraph_cypher_queries_total"]
	if !ok {
		return out, nil // no round trip yet: a labelled counter has no sample
	}
	for _, m := range fam.GetMetric() {
		out[labelValue(m, "query")] += m.GetCounter().GetValue()
	}
	return out, nil
}

func labelValue(m *dto.Metric, name string) string {
	for _, l := range m.GetLabel() {
		if l.GetName() == name {
			return l.GetValue()
		}
	}
	return ""
}

// waitFor calls check every interval until it returns nil or wait has
// passed, and returns how long it took, or check's last error.
func waitFor(ctx context.Context, wait, interval time.Duration, check func() error) (time.Duration, error) {
	start := time.Now()
	for {
		err := check()
		if err == nil {
			return time.Since(start), nil
		}
		if time.Since(start) > wait {
			return time.Since(start), fmt.Errorf("not after %s: %w", wait, err)
		}
		select {
		case <-ctx.Done():
			return time.Since(start), errors.Join(ctx.Err(), err)
		case <-time.After(interval):
		}
	}
}

func clip(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}
