package cypher

import (
	"context"
	"maps"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	casegraph "github.com/casegraph/casegraph"
)

// waitCounter is an Observer that counts the waits for a slot, by pool.
type waitCounter struct {
	mu    sync.Mutex
	waits map[string]int
}

func (w *waitCounter) ObserveStatement(string, time.Duration, error) {}
func (w *waitCounter) ObserveWait(pool string, _ time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.waits[pool]++
}

func (w *waitCounter) counts() map[string]int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return maps.Clone(w.waits)
}

// TestPoolUsage: Pools tells the slots in use and free of each bounded
// pool, and a statement that had to wait for a slot is told to the
// observer, admitted or refused; one that found a slot free is not.
func TestPoolUsage(t *testing.T) {
	obs := &waitCounter{waits: map[string]int{}}
	s, err := NewStore(nil, Options{Admission: Admission{Statements: 2, Heavy: 1, Wait: 10 * time.Second}, Observer: obs})
	if err != nil {
		t.Fatal(err)
	}
	ctx := casegraph.AsOperator(context.Background())
	if diff := cmp.Diff([]PoolUsage{{"statements", 0, 2}, {"heavy", 0, 1}}, s.Pools()); diff != "" {
		t.Errorf("idle pools (-want +got):\n%s", diff)
	}
	first, err := s.admit(ctx, light)
	if err != nil {
		t.Fatal(err)
	}
	second, err := s.admit(ctx, light)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]PoolUsage{{"statements", 2, 0}, {"heavy", 0, 1}}, s.Pools()); diff != "" {
		t.Errorf("a full pool (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]int{}, obs.counts()); diff != "" {
		t.Errorf("waits with slots free (-want +got):\n%s", diff)
	}

	first()
	second()
	if diff := cmp.Diff([]PoolUsage{{"statements", 0, 2}, {"heavy", 0, 1}}, s.Pools()); diff != "" {
		t.Errorf("pools after release (-want +got):\n%s", diff)
	}

	// A full pool: a statement waits, and is refused after the wait,
	// which is told (whether a statement that finds a slot freed while
	// it waits is told depends on when it started waiting: not tested).
	busy, err := NewStore(nil, Options{Admission: Admission{Heavy: 1, Wait: time.Millisecond}, Observer: obs})
	if err != nil {
		t.Fatal(err)
	}
	release, err := busy.admit(ctx, heavy)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	before := obs.counts()["heavy"]
	if _, err := busy.admit(ctx, heavy); casegraph.ErrorCode(err) != casegraph.CodeBusy {
		t.Fatalf("over the heavy pool: got %v, want BUSY", err)
	}
	if got := obs.counts()["heavy"] - before; got != 1 {
		t.Errorf("a refused statement's wait: told %d times, want 1", got)
	}
	if diff := cmp.Diff([]PoolUsage{{"heavy", 1, 0}}, busy.Pools()); diff != "" {
		t.Errorf("a store with the heavy pool only (-want +got):\n%s", diff)
	}
}
