package server_test

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// wsClient drives graphql-ws, the reference client of the
// graphql-transport-ws protocol (the npm package pinned in
// web/package.json), from a test: testdata/graphql-ws-client.mjs runs the
// commands it is sent and prints every event, which wsClient files by
// subscription or client id.
type wsClient struct {
	t     *testing.T
	stdin io.WriteCloser

	mu     sync.Mutex
	events map[string][]wsEvent
	more   chan struct{} // closed and replaced at each event
}

// wsEvent is one line the client printed.
type wsEvent struct {
	ID      string `json:"id"`
	Client  string `json:"client"`
	Type    string `json:"type"`
	Code    int    `json:"code"`
	Reason  string `json:"reason"`
	Payload struct {
		Data   map[string]json.RawMessage `json:"data"`
		Errors []wsError                  `json:"errors"`
	} `json:"payload"`
	Errors []wsError `json:"errors"`
}

type wsError struct {
	Message    string         `json:"message"`
	Extensions map[string]any `json:"extensions"`
}

// newWSClient starts the client against a server's /graphql.
func newWSClient(t *testing.T, serverURL string) *wsClient {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not installed: the watch tests run graphql-ws, the reference client (see README: prerequisites)")
	}
	modules, err := filepath.Abs(filepath.Join("..", "web", "node_modules"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(modules, "graphql-ws", "package.json")); err != nil {
		t.Fatalf("graphql-ws is missing from %s: run make web-deps", modules)
	}
	cmd := exec.Command(node, filepath.Join("testdata", "graphql-ws-client.mjs"), modules, "ws"+strings.TrimPrefix(serverURL, "http")+"/graphql")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &wsClient{t: t, stdin: stdin, events: map[string][]wsEvent{}, more: make(chan struct{})}
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 4<<20)
		for sc.Scan() {
			var e wsEvent
			if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
				t.Errorf("graphql-ws client printed %q: %v", sc.Text(), err)
				continue
			}
			key := e.ID
			if key == "" {
				key = e.Client
			}
			c.mu.Lock()
			c.events[key] = append(c.events[key], e)
			close(c.more)
			c.more = make(chan struct{})
			c.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		stdin.Close()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
		}
		if err := cmd.Wait(); err != nil && !t.Failed() {
			t.Errorf("graphql-ws client: %v\n%s", err, stderr.String())
		}
	})
	return c
}

func (c *wsClient) send(cmd map[string]any) {
	c.t.Helper()
	b, err := json.Marshal(cmd)
	if err != nil {
		c.t.Fatal(err)
	}
	if _, err := c.stdin.Write(append(b, '\n')); err != nil {
		c.t.Fatal(err)
	}
}

// connect opens a connection named client with token ("": none) and waits
// until it is acknowledged or closed, which it returns.
func (c *wsClient) connect(client, token string) wsEvent {
	c.t.Helper()
	c.send(map[string]any{"op": "connect", "client": client, "token": token})
	return c.next(client)
}

func (c *wsClient) subscribe(client, id, query string, vars map[string]any) {
	c.t.Helper()
	c.send(map[string]any{"op": "subscribe", "client": client, "id": id, "query": query, "variables": vars})
}

func (c *wsClient) unsubscribe(id string) { c.send(map[string]any{"op": "unsubscribe", "id": id}) }

func (c *wsClient) close(client string) { c.send(map[string]any{"op": "close", "client": client}) }

// wsWait bounds how long a test waits for an event: a failure, never a
// measure (the benchmarks measure).
const wsWait = 30 * time.Second

// next returns the next event of key (a subscription or a client), in
// order, waiting for it; none within wsWait fails the test.
func (c *wsClient) next(key string) wsEvent {
	c.t.Helper()
	deadline := time.After(wsWait)
	for {
		c.mu.Lock()
		if q := c.events[key]; len(q) > 0 {
			e := q[0]
			c.events[key] = q[1:]
			c.mu.Unlock()
			return e
		}
		more := c.more
		c.mu.Unlock()
		select {
		case <-more:
		case <-deadline:
			c.t.Fatalf("no event for %s within %s", key, wsWait)
		}
	}
}

// none says that key has no event waiting.
func (c *wsClient) none(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.events[key]) == 0
}

// field decodes the event's data field into v, failing on errors.
func (e wsEvent) field(t *testing.T, name string, v any) {
	t.Helper()
	if e.Type != "next" || len(e.Payload.Errors) > 0 {
		t.Fatalf("want data, got %+v", e)
	}
	if err := json.Unmarshal(e.Payload.Data[name], v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// code is the event's first error's extensions.code ("" without errors).
func (e wsEvent) code() string {
	errs := e.Errors
	if len(errs) == 0 {
		errs = e.Payload.Errors
	}
	if len(errs) == 0 {
		return ""
	}
	code, _ := errs[0].Extensions["code"].(string)
	return code
}
