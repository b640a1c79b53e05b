package dataset

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
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

// TestFileChunks: a file's rows read again come in order, n at a time,
// each with its place, and an error of fn stops the reading (the part
// read ahead is dropped) and is returned.
func TestFileChunks(t *testing.T) {
	var buf bytes.Buffer
	enc := NewEncoder(&buf)
	if err := Generate(GenOptions{Entities: 12, Relations: 10, Seed: 3, Dataset: "chunks"}, enc.Encode); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "g.ndjson")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	b, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	err = b.relationChunks(3, func(start int, rows []casegraph.Relation) error {
		if start != len(ids) || len(rows) != min(3, b.RelationCount()-start) {
			t.Errorf("a part of %d from %d after %d rows", len(rows), start, len(ids))
		}
		for _, r := range rows {
			ids = append(ids, r.ID)
		}
		return nil
	})
	if err != nil || !slices.Equal(ids, b.file.relations) {
		t.Fatalf("read %v (%v), want %v", ids, err, b.file.relations)
	}
	boom := errors.New("boom")
	calls := 0
	err = b.entityChunks(2, func(int, []casegraph.Entity) error {
		calls++
		if calls == 2 {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) || calls != 2 {
		t.Errorf("err %v after %d calls, want boom after 2", err, calls)
	}
}
