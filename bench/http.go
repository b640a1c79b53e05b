package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// graphQLClient posts GraphQL requests to one server.
type graphQLClient struct {
	name    string
	url     string
	http    *http.Client
	timeout time.Duration
}

func newGraphQLClient(name, url string, timeout time.Duration) *graphQLClient {
	transport := &http.Transport{
		// Every worker keeps its connection: the servers see keep-alive
		// clients, not a connection a request.
		MaxIdleConns:        1024,
		MaxIdleConnsPerHost: 1024,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
	}
	return &graphQLClient{name: name, url: url, http: &http.Client{Transport: transport}, timeout: timeout}
}

// graphQLRequest is the body of a POST /graphql.
type graphQLRequest struct {
	Query     string         `json:"query"`
	Variables map[string]any `json:"variables,omitempty"`
}

func (r graphQLRequest) body() ([]byte, error) {
	return json.Marshal(r)
}

// post sends a prepared body and returns the response body. A status other
// than 200 or a response with GraphQL errors is an error. The check for
// errors looks for the "errors" key without decoding the whole response,
// so the load generator spends little of the machine on the answers; none
// of the selected fields is named errors, and a string value in JSON cannot
// hold an unescaped quote, so the key can only be the top-level one.
func (c *graphQLClient) post(ctx context.Context, body []byte) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	out, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	if res.StatusCode != http.StatusOK {
		return out, fmt.Errorf("%s: HTTP %d: %s", c.name, res.StatusCode, clip(out))
	}
	if bytes.Contains(out, []byte(`"errors":`)) {
		return out, fmt.Errorf("%s: %s", c.name, clip(out))
	}
	return out, nil
}

// data posts a request and returns its data, decoded.
func (c *graphQLClient) data(ctx context.Context, body []byte) (json.RawMessage, error) {
	out, err := c.post(ctx, body)
	if err != nil {
		return nil, err
	}
	var res struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		return nil, fmt.Errorf("%s: %w", c.name, err)
	}
	return res.Data, nil
}

// waitReady waits until the server answers a trivial query.
func (c *graphQLClient) waitReady(ctx context.Context, wait time.Duration) error {
	body, _ := graphQLRequest{Query: "{ __typename }"}.body()
	deadline := time.Now().Add(wait)
	for {
		_, err := c.post(ctx, body)
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s at %s does not answer: %w", c.name, c.url, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}

func clip(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}

// metricsClient reads Casegraph's Prometheus endpoint.
type metricsClient struct {
	url  string
	http *http.Client
}

// roundTripsMetric counts every statement Casegraph sends to Neo4j, by
// statement name.
const roundTripsMetric = "casegraph_cypher_queries_total"

// roundTrips returns the sum of casegraph_cypher_queries_total over its
// labels.
func (m *metricsClient) roundTrips(ctx context.Context) (float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, m.url, nil)
	if err != nil {
		return 0, err
	}
	res, err := m.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("GET %s: HTTP %d", m.url, res.StatusCode)
	}
	return sumCounter(res.Body, roundTripsMetric)
}

// sumCounter sums the samples of one metric in Prometheus' text format.
func sumCounter(r io.Reader, name string) (float64, error) {
	var sum float64
	seen := false
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, name) {
			continue
		}
		rest := line[len(name):]
		if rest == "" || (rest[0] != '{' && rest[0] != ' ') {
			continue // another metric with this prefix
		}
		fields := strings.Fields(rest[strings.LastIndexByte(rest, '}')+1:])
		if len(fields) == 0 {
			continue
		}
		v, err := strconv.ParseFloat(fields[0], 64)
		if err != nil {
			return 0, fmt.Errorf("%s: %q: %w", name, line, err)
		}
		sum += v
		seen = true
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	if !seen {
		// A counter with labels has no sample until its first round trip.
		return 0, nil
	}
	return sum, nil
}
