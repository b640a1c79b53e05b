package dataset

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	casegraph "github.com/casegraph/casegraph"
)

func TestInParallel(t *testing.T) {
	t.Run("every call once", func(t *testing.T) {
		for _, workers := range []int{1, 2, 5, 40} {
			var mu sync.Mutex
			seen := map[int]int{}
			var running, most atomic.Int32
			err := inParallel(casegraph.AsOperator(context.Background()), workers, 30, func(ctx context.Context, k int) error {
				n := running.Add(1)
				defer running.Add(-1)
				for {
					m := most.Load()
					if n <= m || most.CompareAndSwap(m, n) {
						break
					}
				}
				mu.Lock()
				seen[k]++
				mu.Unlock()
				return nil
			})
			if err != nil {
				t.Fatalf("workers %d: %v", workers, err)
			}
			for k := range 30 {
				if seen[k] != 1 {
					t.Errorf("workers %d: call %d made %d times, want 1", workers, k, seen[k])
				}
			}
			if got := int(most.Load()); got > workers {
				t.Errorf("workers %d: %d calls ran at once", workers, got)
			}
		}
	})
	t.Run("an error stops the rest and cancels those running", func(t *testing.T) {
		// Call 1 fails only once call 0 is running (on the other worker:
		// the first is busy until it is cancelled), so that the error has
		// a call to cancel whichever worker took which call first; the
		// code promises no order of its own.
		boom := errors.New("boom")
		var calls atomic.Int32
		started := make(chan struct{})
		err := inParallel(casegraph.AsOperator(context.Background()), 2, 1000, func(ctx context.Context, k int) error {
			calls.Add(1)
			if k == 0 {
				close(started)
				<-ctx.Done() // held until the other call's error cancels it
				return ctx.Err()
			}
			<-started
			return boom
		})
		if !errors.Is(err, boom) {
			t.Errorf("err = %v, want boom", err)
		}
		if n := calls.Load(); n != 2 {
			t.Errorf("%d calls made, want 2 (none after the error)", n)
		}
	})
	t.Run("a cancelled context", func(t *testing.T) {
		ctx, cancel := context.WithCancel(casegraph.AsOperator(context.Background()))
		cancel()
		err := inParallel(ctx, 2, 10, func(ctx context.Context, k int) error { return ctx.Err() })
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	})
	t.Run("nothing to do", func(t *testing.T) {
		if err := inParallel(casegraph.AsOperator(context.Background()), 2, 0, func(context.Context, int) error { return errors.New("called") }); err != nil {
			t.Error(err)
		}
	})
}
