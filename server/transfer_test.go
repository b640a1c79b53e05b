package server_test

// Transfers: one export at a time per caller, and a slow reader cut off.

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/server"
	"github.com/casegraph/casegraph/server/servertest"
)

// tokens is a token verifier that knows a few callers, so that edge tests
// tell callers apart without a database of keys.
type tokens map[string]casegraph.Principal

func (t tokens) Verify(_ context.Context, token string) (casegraph.Principal, error) {
	if p, ok := t[token]; ok {
		return p, nil
	}
	return casegraph.Principal{}, casegraph.Errorf(casegraph.CodeUnauthenticated, "unknown token")
}

// transferCallers are two readers of every dataset, a and b.
var transferCallers = tokens{
	"token-a": {ID: "test:a", Name: "a", Role: casegraph.RoleReader, Datasets: []string{casegraph.AllDatasets}},
	"token-b": {ID: "test:b", Name: "b", Role: casegraph.RoleReader, Datasets: []string{casegraph.AllDatasets}},
}

// scriptedExports is a store whose exports are what a test needs of the
// HTTP side, whatever the data: dataset "held" sends nothing until
// release is closed (started says it began), "endless" streams entities
// until its reader fails, any other sends one entity. Every dataset
// exists. What is under test is how the server moves the bytes and holds
// its slots; a real export that fills a loopback connection's buffers
// would need a dataset of millions of lines.
type scriptedExports struct {
	server.Store
	started chan string
	release chan struct{}
}

func (s scriptedExports) MissingDatasets(context.Context, []string) ([]string, error) {
	return nil, nil
}

func (s scriptedExports) Export(ctx context.Context, datasets []string, out casegraph.ExportSink) error {
	ds := datasets[0]
	entity := func(i int) error {
		return out.Entity(casegraph.Entity{ID: fmt.Sprintf("%s-%08d", ds, i), Kind: casegraph.KindPlace,
			Name: fmt.Sprint("Place ", i, strings.Repeat(" and more", 20)), Dataset: ds, SourceIDs: []string{"s"}})
	}
	switch ds {
	case "held":
		s.started <- casegraph.Actor(ctx)
		select {
		case <-s.release:
		case <-ctx.Done():
		}
		return entity(0)
	case "endless":
		for i := 0; ; i++ {
			if err := entity(i); err != nil {
				return err
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
		}
	}
	return entity(0)
}

func newTransferEdge(t *testing.T, configure func(*server.Config)) (*harness, scriptedExports) {
	t.Helper()
	store := scriptedExports{started: make(chan string, 4), release: make(chan struct{})}
	h := servertest.Edge(t, servertest.Options{
		Config: func(c *server.Config) {
			c.Anonymous, c.Tokens = nil, transferCallers
			if configure != nil {
				configure(c)
			}
		},
		Store: func(s server.Store) server.Store { store.Store = s; return store },
	})
	return h, store
}

// TestExportsPerCaller: one caller runs one export at a time; a second is
// BUSY (429, TOO_MANY_TRANSFERS) at once, while another caller still gets
// a slot. Before the bound, one caller's two slow exports held both slots.
func TestExportsPerCaller(t *testing.T) {
	t.Parallel()
	h, store := newTransferEdge(t, func(c *server.Config) { c.MaxTransfers = 2 })
	released := false
	release := func() {
		if !released {
			released = true
			close(store.release)
		}
	}
	t.Cleanup(release) // before the server's: it waits for the held exports
	statuses := make(chan int, 2)
	export := func(token string) { statuses <- h.GetAs(token, "/datasets/held/export").Status }
	go export("token-a")
	if who := <-store.started; who != "test:a" {
		t.Fatalf("the held export is %s's", who)
	}
	// Refused at once, or it would hold a slot until released.
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.URL+"/datasets/held/export", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer token-a")
	res := h.Do(req)
	if res.Status != http.StatusTooManyRequests || res.Reason() != server.ReasonTooManyTransfers || !strings.Contains(res.Raw, "one caller") {
		t.Errorf("a's second export while its first runs: %d %s, want 429 %s", res.Status, res.Raw, server.ReasonTooManyTransfers)
	}
	go export("token-b")
	select {
	case who := <-store.started:
		if who != "test:b" {
			t.Errorf("the second held export is %s's", who)
		}
	case <-time.After(10 * time.Second):
		t.Error("b's export did not start while a's runs: a holds more than one slot")
	}
	release()
	for range 2 {
		if status := <-statuses; status != http.StatusOK {
			t.Errorf("a held export, released: %d", status)
		}
	}
}

// TestSlowExportReaderIsCutOff: a reader that stops taking bytes is cut
// off after TransferStall, and its slot goes to the next caller; before,
// it held the slot (and the export's read transaction) for the whole
// TransferTimeout, ten minutes by default.
func TestSlowExportReaderIsCutOff(t *testing.T) {
	t.Parallel()
	const stall = 300 * time.Millisecond
	h, _ := newTransferEdge(t, func(c *server.Config) { c.MaxTransfers, c.TransferStall = 1, stall })
	// A client that reads the status and then nothing, on a connection
	// with a small receive buffer, so that the server's writes block soon.
	dialer := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) { _ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
	}}
	conn, err := dialer.DialContext(t.Context(), "tcp", strings.TrimPrefix(h.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET /datasets/endless/export HTTP/1.1\r\nHost: casegraph\r\nAuthorization: Bearer token-a\r\n\r\n")
	status, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil || !strings.Contains(status, " 200 ") {
		t.Fatalf("the slow reader's export: %q, %v", status, err)
	}
	start := time.Now()
	var res response
	for deadline := start.Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if res = h.GetAs("token-b", "/datasets/small/export"); res.Status != http.StatusTooManyRequests {
			break
		}
	}
	if res.Status != http.StatusOK {
		t.Fatalf("another caller's export while the slow reader stalls: %d %s, want 200 once it is cut off", res.Status, res.Raw)
	}
	t.Logf("the slot was free %s after the slow reader's export started (stall %s)", time.Since(start).Round(10*time.Millisecond), stall)
	want := `casegraph_errors_total{code="TIMEOUT",route="/datasets/export"} 1`
	var metrics string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if metrics = h.Get("/metrics").Raw; strings.Contains(metrics, want) {
			return
		}
	}
	t.Errorf("/metrics does not count the cut-off export as a TIMEOUT; want %q:\n%s", want, grepLines(metrics, "/datasets/export"))
}
