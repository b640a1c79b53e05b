package cypher

// Admission control: the two pools of statement slots (heavy searches and
// the rest), the bound on one request's statements at once, and BUSY for a
// statement that waits too long for a slot.

import (
	"context"
	"fmt"
	"time"

	casegraph "github.com/casegraph/casegraph"
)

// Admission bounds what the database is asked to do at once, so that no
// request, and no burst of expensive ones, can take every connection of the
// driver's pool and make everyone else wait into DATABASE_UNAVAILABLE.
//
// Statements go through one of two pools: heavy ones (path searches,
// neighbourhoods, connections, full-text search: their cost grows with the
// graph, not with the answer) and the rest (reads by id, compiled reads,
// writes). A statement that finds its pool full waits at most Wait for a
// slot, then fails with BUSY: not executed, safe to retry. Heavy searches
// therefore never starve cheap reads, which keep a pool of their own.
//
// Within one request, at most PerRequest statements run at once; the rest
// of that request's statements queue behind them until its deadline (a
// request with 150 aliases runs them a few at a time, and only that request
// waits).
type Admission struct {
	// Statements is how many statements other than heavy ones may run at
	// once; 0 means no bound.
	Statements int
	// Heavy is how many heavy statements may run at once; 0 means no bound.
	Heavy int
	// PerRequest is how many statements one request may have running at
	// once; 0 means no bound.
	PerRequest int
	// Wait is how long a statement waits for a slot in its pool before it
	// fails with BUSY.
	Wait time.Duration
}

// DefaultAdmission is what `casegraph serve` uses unless told otherwise.
// Both pools together stay below the driver's pool (DriverConfig: 100
// connections), so a statement that is admitted gets a connection without
// waiting for one, and the readiness probe, the CLI and imports still find
// connections free.
func DefaultAdmission() Admission {
	return Admission{Statements: 64, Heavy: 8, PerRequest: 4, Wait: time.Second}
}

// Validate checks values that make no sense.
func (a Admission) Validate() error {
	switch {
	case a.Statements < 0 || a.Heavy < 0 || a.PerRequest < 0:
		return fmt.Errorf("admission limits must not be negative")
	case a.Statements+a.Heavy > maxConnectionPool:
		return fmt.Errorf("statements (%d) and heavy statements (%d) at once must together stay within the driver's pool of %d connections", a.Statements, a.Heavy, maxConnectionPool)
	case a.Wait < 0 || a.Wait > 10*time.Second:
		return fmt.Errorf("admission wait must be between 0 and 10s")
	}
	return nil
}

// pool is a counting semaphore; nil admits everything.
type pool chan struct{}

func newPool(n int) pool {
	if n <= 0 {
		return nil
	}
	return make(pool, n)
}

// weight says which pool a statement draws from.
type weight int

const (
	light weight = iota
	heavy
)

func (w weight) String() string {
	if w == heavy {
		return "heavy"
	}
	return "statements"
}

// BusyObserver is told when a statement is refused for want of a slot. The
// server's metrics implement it; an Observer that does not is not told.
type BusyObserver interface {
	ObserveBusy(pool string)
}

// admit waits for a slot of the request's own and one of the statement's
// pool, and returns the function that gives both back. It fails with BUSY
// when the pool stays full for the admission wait, and with TIMEOUT when
// the request's deadline comes first.
func (s *Store) admit(ctx context.Context, w weight) (release func(), err error) {
	mine := requestSlotsFrom(ctx)
	if mine != nil {
		select {
		case mine <- struct{}{}:
		case <-ctx.Done():
			return nil, mapError(ctx, "admission", ctx.Err())
		}
	}
	p := s.light
	if w == heavy {
		p = s.heavy
	}
	if p != nil {
		waited, err := p.acquire(ctx, s.admission.Wait)
		if o, ok := s.observer.(WaitObserver); ok && waited > 0 {
			o.ObserveWait(w.String(), waited)
		}
		if err != nil {
			if mine != nil {
				<-mine
			}
			if casegraph.ErrorCode(err) == casegraph.CodeBusy {
				if o, ok := s.observer.(BusyObserver); ok {
					o.ObserveBusy(w.String())
				}
			}
			return nil, err
		}
	}
	return func() {
		if p != nil {
			<-p
		}
		if mine != nil {
			<-mine
		}
	}, nil
}

// acquire takes a slot, waiting at most wait for one; waited is how long
// it waited (0 when a slot was free at once).
func (p pool) acquire(ctx context.Context, wait time.Duration) (waited time.Duration, err error) {
	select {
	case p <- struct{}{}:
		return 0, nil
	default:
	}
	start := time.Now()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case p <- struct{}{}:
		return time.Since(start), nil
	case <-timer.C:
		return time.Since(start), errBusy
	case <-ctx.Done():
		return time.Since(start), mapError(ctx, "admission", ctx.Err())
	}
}

// WaitObserver is told how long a statement waited for a slot of its pool,
// when it had to wait (admitted or not). The server's metrics implement
// it.
type WaitObserver interface {
	ObserveWait(pool string, took time.Duration)
}

// PoolUsage is one admission pool at a moment: its slots in use and free.
// Every admitted statement holds one connection of the driver's pool,
// which is larger than both pools together (Admission.Validate), so these
// are the store's connections in use; the driver itself reports nothing
// of its pool.
type PoolUsage struct {
	Pool  string // statements or heavy
	InUse int
	Idle  int
}

// Pools returns the usage of the admission pools that have a bound.
func (s *Store) Pools() []PoolUsage {
	var out []PoolUsage
	for _, w := range []weight{light, heavy} {
		p := s.light
		if w == heavy {
			p = s.heavy
		}
		if p == nil {
			continue
		}
		n := len(p)
		out = append(out, PoolUsage{Pool: w.String(), InUse: n, Idle: cap(p) - n})
	}
	return out
}

var errBusy = casegraph.Errorf(casegraph.CodeBusy,
	"the server is busy: too many database queries at once; retry in a moment")

type requestSlotsKey struct{}

// WithRequestSlots gives the request of ctx its own bound of statements at
// once (Admission.PerRequest). The request-scoped middleware calls it once
// per request, and everything the request runs, a saved query's run
// included, shares the bound; a ctx without it is bound only by the pools.
func (s *Store) WithRequestSlots(ctx context.Context) context.Context {
	if s.admission.PerRequest <= 0 {
		return ctx
	}
	return context.WithValue(ctx, requestSlotsKey{}, make(chan struct{}, s.admission.PerRequest))
}

func requestSlotsFrom(ctx context.Context) chan struct{} {
	c, _ := ctx.Value(requestSlotsKey{}).(chan struct{})
	return c
}
