package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// freeAddr is a loopback address no one listens on (a moment ago).
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// TestServeWithMetricsAddr: serve answers on both listeners, /metrics only
// on its own, and stops both when its context ends. It needs no Neo4j: the
// server runs (readyz 503) while it waits for one.
func TestServeWithMetricsAddr(t *testing.T) {
	addr, metricsAddr := freeAddr(t), freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		args := []string{"serve", "--addr", addr, "--metrics-addr", metricsAddr, "--neo4j-uri", "bolt://127.0.0.1:1", "--log-format", "json"}
		done <- run(ctx, args, func(string) string { return "" }, io.Discard, io.Discard)
	}()

	for url, want := range map[string]int{
		"http://" + addr + "/healthz":        http.StatusOK,
		"http://" + addr + "/metrics":        http.StatusNotFound,
		"http://" + metricsAddr + "/metrics": http.StatusOK,
	} {
		if got := statusWhenUp(t, url); got != want {
			t.Errorf("GET %s: %d, want %d", url, got, want)
		}
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop")
	}
	for _, a := range []string{addr, metricsAddr} {
		if c, err := net.Dial("tcp", a); err == nil {
			c.Close()
			t.Errorf("%s still accepts after serve returned", a)
		}
	}
}

// statusWhenUp GETs url, retrying while nothing listens yet.
func statusWhenUp(t *testing.T, url string) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		res, err := http.Get(url)
		if err == nil {
			res.Body.Close()
			return res.StatusCode
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET %s: %v", url, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
