//go:build drills

package drills

import (
	"bytes"
	"io"
	"net"
	"testing"
	"time"
)

// TestDelayProxy: bytes pass both ways unchanged; with a delay each chunk
// is held at least that long each way, on a connection opened before the
// delay was set; Close ends open connections.
func TestDelayProxy(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { defer c.Close(); _, _ = io.Copy(c, c) }() // echo
		}
	}()
	p, err := NewDelayProxy(ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	echo := func(msg string) time.Duration {
		t.Helper()
		start := time.Now()
		if _, err := c.Write([]byte(msg)); err != nil {
			t.Fatal(err)
		}
		got := make([]byte, len(msg))
		if _, err := io.ReadFull(c, got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, []byte(msg)) {
			t.Fatalf("echo through the proxy: got %q, want %q", got, msg)
		}
		return time.Since(start)
	}
	echo("no delay")
	const delay = 100 * time.Millisecond
	p.SetDelay(delay)
	// A lower bound only: the proxy sleeps that long, whatever the load.
	if took := echo("held"); took < 2*delay {
		t.Errorf("echo with a delay of %s each way took %s, want at least %s", delay, took, 2*delay)
	}
	p.SetDelay(0)
	echo("no delay again")

	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if n, err := c.Read(make([]byte, 1)); err == nil {
		t.Errorf("read %d bytes from a connection of a closed proxy, want an error", n)
	}
}
