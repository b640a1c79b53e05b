//go:build drills

package drills

import (
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// DelayProxy is a TCP proxy that holds every chunk it forwards, either
// way, for a delay that can change while connections are open: a slow
// network or a stalled database, between the service and Neo4j.
type DelayProxy struct {
	ln     net.Listener
	target string
	delay  atomic.Int64 // nanoseconds

	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	closed bool
	wg     sync.WaitGroup
}

// NewDelayProxy listens on a free loopback port and forwards each
// connection to target.
func NewDelayProxy(target string) (*DelayProxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &DelayProxy{ln: ln, target: target, conns: map[net.Conn]struct{}{}}
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

// Addr is the address clients dial.
func (p *DelayProxy) Addr() string { return p.ln.Addr().String() }

// SetDelay sets how long each chunk is held from now on, on open
// connections too.
func (p *DelayProxy) SetDelay(d time.Duration) { p.delay.Store(int64(d)) }

// Close stops accepting, closes every connection and waits for its
// goroutines.
func (p *DelayProxy) Close() error {
	p.mu.Lock()
	p.closed = true
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	err := p.ln.Close()
	p.wg.Wait()
	return err
}

func (p *DelayProxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return // closed
		}
		p.wg.Add(1)
		go p.serve(c)
	}
}

// track remembers an open connection so Close can end it; false when the
// proxy is closing.
func (p *DelayProxy) track(cs ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	for _, c := range cs {
		p.conns[c] = struct{}{}
	}
	return true
}

func (p *DelayProxy) untrack(cs ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range cs {
		delete(p.conns, c)
		c.Close()
	}
}

func (p *DelayProxy) serve(client net.Conn) {
	defer p.wg.Done()
	server, err := net.Dial("tcp", p.target)
	if err != nil {
		client.Close()
		return
	}
	if !p.track(client, server) {
		client.Close()
		server.Close()
		return
	}
	done := make(chan struct{}, 2)
	go func() { p.copy(server, client); done <- struct{}{} }()
	go func() { p.copy(client, server); done <- struct{}{} }()
	// When either side ends, both do: untrack closes them, which ends the
	// other copy.
	<-done
	p.untrack(client, server)
	<-done
}

// copy forwards chunks from src to dst, holding each for the delay of the
// moment it arrived.
func (p *DelayProxy) copy(dst, src net.Conn) {
	buf := make([]byte, 32*1024)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if d := time.Duration(p.delay.Load()); d > 0 {
				time.Sleep(d)
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			// EOF or a closed connection: serve closes both sides (Bolt
			// never half-closes).
			return
		}
	}
}
