package graph_test

// The access matrix's cells: a cell's request sent as its caller, its
// outcome read from the answer, and what of the fixture's secrets the
// answer leaks (TestGeneratedAccessMatrix, accessmatrix_test.go).

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/casegraph/casegraph/server/servertest"
)

// sendCell sends a cell's request as its caller and returns the status
// and the body (for a subscription, the events that arrived within a
// short wait).
func sendCell(t *testing.T, h *servertest.Harness, c matrixCaller, r matrixRequest) (int, string) {
	t.Helper()
	method, path, body := r.method, r.path, []byte(r.body)
	header := http.Header{}
	if r.query != "" {
		method, path = http.MethodPost, "/graphql"
		var err error
		if body, err = json.Marshal(map[string]any{"query": r.query, "variables": r.vars}); err != nil {
			t.Fatal(err)
		}
		header.Set("Content-Type", "application/json")
	}
	if strings.HasPrefix(r.query, "subscription") {
		header.Set("Accept", "text/event-stream")
	}
	if method == http.MethodOptions {
		header.Set("Origin", "https://elsewhere.example")
		header.Set("Access-Control-Request-Method", "POST")
	}
	auth := " " // sent but empty: the harness's client adds no key
	if c.token != "" {
		auth = "Bearer " + c.token
	}
	header.Set("Authorization", auth)
	req, err := http.NewRequestWithContext(t.Context(), method, h.URL+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header
	client := &http.Client{Timeout: 30 * time.Second}
	res, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	if res.Header.Get("Content-Type") != "text/event-stream" {
		var b bytes.Buffer
		if _, err := b.ReadFrom(res.Body); err != nil {
			t.Fatal(err)
		}
		return res.StatusCode, b.String()
	}
	// Events: every subscription of the matrix answers at once with a
	// first event (a path now, the feed's replay, or an error), which may
	// wait for a statement's first planning under load: up to the
	// client's 30 s for it; then what arrives within a second and a half
	// of the last.
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	quiet := func(seen int) time.Duration {
		if seen == 0 {
			return 30 * time.Second
		}
		return 1500 * time.Millisecond
	}
	var events []string
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				return res.StatusCode, "[" + strings.Join(events, ",") + "]"
			}
			if data, ok := strings.CutPrefix(l, "data: "); ok {
				events = append(events, data)
			}
		case <-time.After(quiet(len(events))):
			return res.StatusCode, "[" + strings.Join(events, ",") + "]"
		}
	}
}

// cellOutcome names what an answer was: "401", "404", an error code, "ok"
// (it shows the marker, when one is given) or "hidden".
func cellOutcome(status int, body, shows string) string {
	switch status {
	case http.StatusUnauthorized:
		return "401"
	case http.StatusNotFound:
		if !strings.Contains(body, `"code"`) {
			return "404"
		}
	}
	if code := firstCode(body); code != "" {
		return code
	}
	if status >= 400 {
		return fmt.Sprint(status)
	}
	if shows == "" || strings.Contains(body, shows) {
		return "ok"
	}
	return "hidden"
}

var codeRE = regexp.MustCompile(`"code":\s*"([A-Z_]+)"`)

// firstCode is the first error code in a body (a JSON answer, or the
// events of a stream).
func firstCode(body string) string {
	if m := codeRE.FindStringSubmatch(body); m != nil {
		return m[1]
	}
	return ""
}

var base64RE = regexp.MustCompile(`[A-Za-z0-9+/_-]{12,}={0,2}`)

// leaks returns the markers found in body, or in what decodes from base64
// within it, after taking out the values the request itself sent.
func leaks(body string, r matrixRequest, markers []string) []string {
	var sent []string
	var collect func(v any)
	collect = func(v any) {
		switch x := v.(type) {
		case string:
			sent = append(sent, x)
		case []string:
			sent = append(sent, x...)
		case []any:
			for _, e := range x {
				collect(e)
			}
		case map[string]any:
			for _, e := range x {
				collect(e)
			}
		}
	}
	collect(r.vars)
	if r.path != "" {
		if u, err := url.Parse(r.path); err == nil {
			sent = append(sent, strings.Split(strings.Trim(u.Path, "/"), "/")...)
			for _, vs := range u.Query() {
				sent = append(sent, vs...)
			}
		}
	}
	if r.body != "" {
		sent = append(sent, r.body)
	}
	// Longest first, so an id is taken out before a part of it.
	sort.Slice(sent, func(i, j int) bool { return len(sent[i]) > len(sent[j]) })
	text := body
	for _, m := range base64RE.FindAllString(body, -1) {
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
			if b, err := enc.DecodeString(m); err == nil {
				text += "\n" + string(b)
				break
			}
		}
	}
	for _, s := range sent {
		if len(s) > 3 {
			text = strings.ReplaceAll(text, s, "")
		}
	}
	var found []string
	for _, m := range markers {
		if strings.Contains(text, m) {
			found = append(found, m)
		}
	}
	return found
}
