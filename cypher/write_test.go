package cypher_test

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
)

// boltCommit is a Bolt COMMIT message as the driver sends it: a chunk of
// two bytes (PackStream's empty struct, signature 0x12), then the end of
// the message.
var boltCommit = []byte{0x00, 0x02, 0xb0, 0x12, 0x00, 0x00}

// commitCutter is a TCP proxy between a driver and Neo4j that, when armed,
// forwards the next COMMIT to Neo4j and then breaks the driver's side of
// the connection before Neo4j's answer comes back: the commit lands, and
// the driver cannot know it. Neo4j's side stays open, so Neo4j is never
// told to give up the transaction.
type commitCutter struct {
	addr   string
	armed  atomic.Bool
	cut    atomic.Int32
	mu     sync.Mutex
	closed []net.Conn
}

func newCommitCutter(t *testing.T, target string) *commitCutter {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := &commitCutter{addr: ln.Addr().String()}
	t.Cleanup(func() {
		ln.Close()
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, conn := range c.closed {
			conn.Close()
		}
	})
	go func() {
		for {
			client, err := ln.Accept()
			if err != nil {
				return
			}
			server, err := net.Dial("tcp", target)
			if err != nil {
				client.Close()
				continue
			}
			c.mu.Lock()
			c.closed = append(c.closed, client, server)
			c.mu.Unlock()
			go func() { _, _ = copyAll(client, server) }()
			go c.forward(client, server)
		}
	}()
	return c
}

// proxiedStore is a Store whose driver reaches Neo4j through a new
// commitCutter.
func proxiedStore(t *testing.T) (*commitCutter, *cypher.Store) {
	t.Helper()
	u, err := url.Parse(cyphertest.URI())
	if err != nil {
		t.Fatal(err)
	}
	proxy := newCommitCutter(t, u.Host)
	driver, err := neo4j.NewDriverWithContext("bolt://"+proxy.addr, cyphertest.Auth(), cypher.DriverConfig)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { driver.Close(casegraph.AsOperator(context.Background())) })
	s, err := cypher.NewStore(driver, cypher.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return proxy, s
}

func copyAll(dst, src net.Conn) (int64, error) {
	buf := make([]byte, 32<<10)
	var n int64
	for {
		r, err := src.Read(buf)
		if r > 0 {
			if _, werr := dst.Write(buf[:r]); werr != nil {
				return n, werr
			}
			n += int64(r)
		}
		if err != nil {
			return n, err
		}
	}
}

// forward copies the driver's bytes to Neo4j, looking for a COMMIT (also
// across reads) while armed.
func (c *commitCutter) forward(client, server net.Conn) {
	buf := make([]byte, 32<<10)
	var tail []byte
	for {
		n, err := client.Read(buf)
		if n > 0 {
			window := append(tail, buf[:n]...)
			if bytes.Contains(window, boltCommit) && c.armed.CompareAndSwap(true, false) {
				// The answer to this COMMIT is lost: the driver's side
				// closes before Neo4j is sent it, so the answer cannot
				// slip back first on a slow machine.
				c.cut.Add(1)
				client.Close()
				_, _ = server.Write(buf[:n])
				return
			}
			if _, werr := server.Write(buf[:n]); werr != nil {
				return
			}
			tail = append([]byte(nil), window[max(0, len(window)-len(boltCommit)+1):]...)
		}
		if err != nil {
			return
		}
	}
}

// TestLostCommitAnswer: a commit that lands on Neo4j but whose answer the
// driver never gets is OUTCOME_UNKNOWN without a key (and the write is
// indeed there: DATABASE_UNAVAILABLE would have been a lie); with a key,
// the store's retry reads the key and answers the first outcome, and the
// write is made once.
func TestLostCommitAnswer(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	ds := cyphertest.Dataset(t)
	direct := cyphertest.Store(t, cypher.Options{})
	src := casegraph.Source{ID: ds + "-src", Title: "A source", Dataset: ds}
	if _, err := direct.WriteBatch(ctx, []casegraph.Source{src}, nil, nil); err != nil {
		t.Fatal(err)
	}

	proxy, s := proxiedStore(t)
	entity := func(name string) casegraph.Entity {
		return casegraph.Entity{ID: ds + "-" + name, Kind: casegraph.KindPerson, Name: name, Dataset: ds, SourceIDs: []string{src.ID}}
	}
	changes := func(id string) int {
		t.Helper()
		list, _, err := direct.Changes(ctx, casegraph.ChangeFilter{EntityID: id}, casegraph.Page{First: 10})
		if err != nil {
			t.Fatal(err)
		}
		return len(list)
	}

	t.Run("without a key", func(t *testing.T) {
		e := entity("unkeyed")
		proxy.armed.Store(true)
		_, err := s.UpsertEntity(ctx, e, nil)
		if code := casegraph.ErrorCode(err); code != casegraph.CodeOutcomeUnknown || proxy.cut.Load() != 1 {
			t.Fatalf("answered %s (%v) after %d cut commits, want OUTCOME_UNKNOWN after 1", code, err, proxy.cut.Load())
		}
		// Neo4j applies the COMMIT it was sent; wait for it (within the
		// test's deadline), then check that it was applied once.
		for ctx.Err() == nil {
			if _, err := direct.Entity(ctx, e.ID); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		if n := changes(e.ID); n != 1 {
			t.Errorf("%d changes of %s, want 1", n, e.ID)
		}
	})

	t.Run("with a key", func(t *testing.T) {
		e := entity("keyed")
		keyed := casegraph.WithWriteKey(ctx, casegraph.WriteKey{Key: ds + "-lost", Hash: "h"})
		proxy.armed.Store(true)
		got, err := s.UpsertEntity(keyed, e, nil)
		if err != nil || got.ID != e.ID || proxy.cut.Load() != 2 {
			t.Fatalf("got %s, %v (%v) after %d cut commits; want %s, nil after 2", got.ID, err, errors.Unwrap(err), proxy.cut.Load(), e.ID)
		}
		if n := changes(e.ID); n != 1 {
			t.Errorf("%d changes of %s, want 1", n, e.ID)
		}
		// Asked again: the first outcome, from the store's own retry.
		again, err := s.UpsertEntity(keyed, e, nil)
		if err != nil || again.Version != got.Version || changes(e.ID) != 1 {
			t.Errorf("asked again: version %d, %v, %d changes; want version %d, nil, 1", again.Version, err, changes(e.ID), got.Version)
		}
	})
}
