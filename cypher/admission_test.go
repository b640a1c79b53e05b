package cypher

// Admission control without a database: the pools, the per-request bound,
// the validation of the settings.

import (
	"context"
	"sync"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
)

// busyCounter is an Observer that counts BUSY refusals by pool.
type busyCounter struct {
	mu   sync.Mutex
	busy map[string]int
}

func (b *busyCounter) ObserveStatement(string, time.Duration, error) {}
func (b *busyCounter) ObserveBusy(pool string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.busy[pool]++
}

// admissionStore is a Store with the given admission and no driver: admit
// never reaches the database.
func admissionStore(t *testing.T, a Admission) (*Store, *busyCounter) {
	t.Helper()
	obs := &busyCounter{busy: map[string]int{}}
	s, err := NewStore(nil, Options{Admission: a, Observer: obs})
	if err != nil {
		t.Fatal(err)
	}
	return s, obs
}

func TestAdmissionPools(t *testing.T) {
	s, obs := admissionStore(t, Admission{Statements: 2, Heavy: 1, Wait: 20 * time.Millisecond})
	ctx := casegraph.AsOperator(context.Background())

	releaseHeavy, err := s.admit(ctx, heavy)
	if err != nil {
		t.Fatal(err)
	}
	// The heavy pool is full: a second search is refused with BUSY after
	// the wait, while cheap statements still get both their slots.
	if _, err := s.admit(ctx, heavy); casegraph.ErrorCode(err) != casegraph.CodeBusy {
		t.Fatalf("a heavy statement over the pool: got %v, want BUSY", err)
	}
	var releases []func()
	for range 2 {
		release, err := s.admit(ctx, light)
		if err != nil {
			t.Fatalf("a cheap statement while the heavy pool is full: %v", err)
		}
		releases = append(releases, release)
	}
	if _, err := s.admit(ctx, light); casegraph.ErrorCode(err) != casegraph.CodeBusy {
		t.Fatalf("a cheap statement over the pool: got %v, want BUSY", err)
	}
	if got, want := obs.busy, map[string]int{"heavy": 1, "statements": 1}; got["heavy"] != want["heavy"] || got["statements"] != want["statements"] {
		t.Errorf("busy refusals observed: got %v, want %v", got, want)
	}
	if l, h := len(s.light), len(s.heavy); l != 2 || h != 1 {
		t.Errorf("slots taken: got %d, %d; want 2, 1", l, h)
	}

	// A slot given back is taken by the next statement that waits for it.
	done := make(chan error)
	go func() {
		release, err := s.admit(ctx, heavy)
		if err == nil {
			release()
		}
		done <- err
	}()
	releaseHeavy()
	if err := <-done; err != nil {
		t.Errorf("a heavy statement after a slot freed up: %v", err)
	}
	for _, release := range releases {
		release()
	}
	if l, h := len(s.light), len(s.heavy); l != 0 || h != 0 {
		t.Errorf("slots taken after every release: got %d, %d; want 0, 0", l, h)
	}
}

func TestAdmissionPerRequest(t *testing.T) {
	s, _ := admissionStore(t, Admission{PerRequest: 2})
	ctx := s.WithRequestSlots(casegraph.AsOperator(context.Background()))

	first, err := s.admit(ctx, light)
	if err != nil {
		t.Fatal(err)
	}
	second, err := s.admit(ctx, heavy)
	if err != nil {
		t.Fatal(err)
	}
	// The request's third statement waits for one of its own to finish,
	// however long that takes, and never gets BUSY for it.
	third := make(chan error, 1)
	go func() {
		release, err := s.admit(ctx, light)
		if err == nil {
			release()
		}
		third <- err
	}()
	select {
	case err := <-third:
		t.Fatalf("a request's third statement ran beside its two others (err %v)", err)
	case <-time.After(50 * time.Millisecond):
	}
	// Another request is not held up by this one.
	other, err := s.admit(s.WithRequestSlots(casegraph.AsOperator(context.Background())), light)
	if err != nil {
		t.Fatalf("another request: %v", err)
	}
	other()
	first()
	if err := <-third; err != nil {
		t.Fatalf("the third statement once a slot freed up: %v", err)
	}
	second()

	// Waiting for the request's own slot ends with the request.
	short, cancel := context.WithTimeout(s.WithRequestSlots(casegraph.AsOperator(context.Background())), 20*time.Millisecond)
	defer cancel()
	for range 2 {
		if _, err := s.admit(short, light); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.admit(short, light); casegraph.ErrorCode(err) != casegraph.CodeTimeout {
		t.Errorf("waiting past the request's deadline: got %v, want TIMEOUT", err)
	}
}

func TestAdmissionValidate(t *testing.T) {
	tests := []struct {
		name string
		a    Admission
		ok   bool
	}{
		{"default", DefaultAdmission(), true},
		{"none", Admission{}, true},
		{"negative", Admission{Heavy: -1}, false},
		{"beyond the driver's pool", Admission{Statements: 95, Heavy: 10}, false},
		{"wait too long", Admission{Wait: time.Minute}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.a.Validate(); (err == nil) != tt.ok {
				t.Errorf("Validate() = %v, want ok %v", err, tt.ok)
			}
		})
	}
}
