//go:build drills

package drills

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// subscriber follows the changes of one dataset through a balancer, as
// a client that keeps its last cursor does: when its stream breaks, it
// waits resumeBackoff (as a client backs off; writes go on meanwhile),
// and for as long as unwritten says no write was acknowledged since it
// broke (at most maxAway), and subscribes again with after: that cursor,
// until a replica takes it.
type subscriber struct {
	c             *Client
	ds            string
	firstServedBy string // the replica of the first stream
	// unwritten says whether no write was acknowledged since a time: the
	// subscriber stays away until one was, so that its resume has a
	// change to catch up on (nil: resumeBackoff alone). Writes can stall
	// for many seconds after a replica dies (its transactions hold their
	// locks until Neo4j sees the connection gone): a fixed back-off then
	// resumed with nothing written meanwhile, and tested nothing.
	unwritten func(since time.Time) bool

	mu       sync.Mutex
	sub      *Subscription
	cursor   string
	log      subscriberLog
	stopping atomic.Bool
	done     chan struct{}
}

// subscriberLog is what a subscriber heard and did.
type subscriberLog struct {
	changes []ChangeEvent // every event with a change, as they came
	resumes []resume
}

// resumeBackoff is how long a subscriber waits before it subscribes
// again, and maxAway the longest it waits for a write to be acknowledged
// while it is away.
const (
	resumeBackoff = 1500 * time.Millisecond
	maxAway       = 60 * time.Second
)

// resume is one stream broken and subscribed to again.
type resume struct {
	broke    string    // why the stream ended
	brokeAt  time.Time // when it did
	at       time.Time // when the new stream answered
	servedBy string    // the replica of the new stream
	tries    int       // subscriptions sent until one was taken
}

// startSubscriber subscribes to the changes of ds (from now), waits for
// the first event, and follows the stream in the background; unwritten
// as the subscriber's.
func startSubscriber(t *testing.T, ctx context.Context, c *Client, ds string, unwritten func(since time.Time) bool) *subscriber {
	t.Helper()
	sb := &subscriber{c: c, ds: ds, unwritten: unwritten, done: make(chan struct{})}
	if _, err := waitFor(ctx, setupWait, 200*time.Millisecond, func() error {
		s, err := c.SubscribeChanges(ctx, []string{ds}, "")
		if err != nil {
			return err
		}
		first, err := s.Next()
		if err != nil || first.Change != nil || first.Cursor == "" {
			s.Close()
			return fmt.Errorf("first event %+v: %v", first, err)
		}
		sb.sub, sb.cursor, sb.firstServedBy = s, first.Cursor, s.ServedBy
		return nil
	}); err != nil {
		t.Fatalf("changes subscription: %v", err)
	}
	go sb.follow(ctx)
	return sb
}

func (sb *subscriber) follow(ctx context.Context) {
	defer close(sb.done)
	for {
		sb.mu.Lock()
		s := sb.sub
		sb.mu.Unlock()
		ev, err := s.Next()
		if err == nil {
			sb.mu.Lock()
			if ev.Change != nil {
				sb.log.changes = append(sb.log.changes, ev)
			}
			sb.cursor = ev.Cursor
			sb.mu.Unlock()
			continue
		}
		s.Close()
		if sb.stopping.Load() || ctx.Err() != nil {
			return
		}
		r := resume{broke: err.Error(), brokeAt: time.Now()}
		time.Sleep(resumeBackoff)
		for sb.unwritten != nil && sb.unwritten(r.brokeAt) && time.Since(r.brokeAt) < maxAway && ctx.Err() == nil {
			time.Sleep(50 * time.Millisecond)
		}
		for {
			if sb.stopping.Load() || ctx.Err() != nil {
				return
			}
			r.tries++
			sb.mu.Lock()
			after := sb.cursor
			sb.mu.Unlock()
			next, err := sb.c.SubscribeChanges(ctx, []string{sb.ds}, after)
			if err == nil {
				r.at, r.servedBy = time.Now(), next.ServedBy
				sb.mu.Lock()
				sb.sub = next
				sb.log.resumes = append(sb.log.resumes, r)
				sb.mu.Unlock()
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
}

// heardOf is how many of the ids the subscriber has heard of.
func (sb *subscriber) heardOf(ids map[string]bool) int {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	seen := map[string]bool{}
	for _, ev := range sb.log.changes {
		if len(ev.Change.Targets) > 0 && ids[ev.Change.Targets[0]] {
			seen[ev.Change.Targets[0]] = true
		}
	}
	return len(seen)
}

// stop ends the subscription and returns what it heard.
func (sb *subscriber) stop() subscriberLog {
	sb.stopping.Store(true)
	sb.mu.Lock()
	sb.sub.Close()
	sb.mu.Unlock()
	<-sb.done
	sb.mu.Lock()
	defer sb.mu.Unlock()
	return sb.log
}

// checkResume: the stream broke when its replica (victim) was killed and
// every new one is on another; the subscriber heard of each acknowledged
// write (an upsertEntity of the dataset, its id first of the targets)
// once, of nothing else, in cursor order.
func checkResume(t *testing.T, log subscriberLog, acked map[string]bool, victim string) {
	t.Helper()
	if len(log.resumes) == 0 {
		t.Errorf("the subscription's stream did not break when its replica %s was killed", victim)
	}
	for _, r := range log.resumes {
		if r.servedBy == victim || r.servedBy == "" {
			t.Errorf("resumed on %q, not on another replica than %s", r.servedBy, victim)
		}
	}
	seen := map[string]int{}
	last := int64(-1)
	var stray []string
	for _, ev := range log.changes {
		cur, err := strconv.ParseInt(ev.Cursor, 10, 64)
		switch {
		case err != nil:
			t.Errorf("event cursor %q is not the feed's number", ev.Cursor)
		case cur <= last:
			t.Errorf("event cursor %d after %d: out of order or repeated", cur, last)
		default:
			last = cur
		}
		id := ""
		if len(ev.Change.Targets) > 0 {
			id = ev.Change.Targets[0]
		}
		if ev.Change.Operation != "upsertEntity" || !acked[id] {
			stray = append(stray, fmt.Sprintf("%s %v", ev.Change.Operation, ev.Change.Targets))
			continue
		}
		seen[id]++
	}
	var missed, dups int
	for id := range acked {
		switch n := seen[id]; {
		case n == 0:
			missed++
			if missed <= 5 {
				t.Errorf("the subscriber missed the change of %s", id)
			}
		case n > 1:
			dups++
			if dups <= 5 {
				t.Errorf("the subscriber heard of %s %d times", id, n)
			}
		}
	}
	if missed > 5 || dups > 5 {
		t.Errorf("in all %d changes missed, %d heard more than once", missed, dups)
	}
	if len(stray) > 0 {
		t.Errorf("%d changes no acknowledged write made: %s", len(stray), strings.Join(stray[:min(5, len(stray))], "; "))
	}
}

// resumedOn lists the replicas the subscription resumed on.
func (l subscriberLog) resumedOn() string {
	var on []string
	for _, r := range l.resumes {
		on = append(on, r.servedBy)
	}
	if len(on) == 0 {
		return "none"
	}
	return strings.Join(on, ",")
}

// resumedAfter is how long after from the first resumed stream answered,
// in seconds.
func (l subscriberLog) resumedAfter(from time.Time) string {
	if len(l.resumes) == 0 {
		return "never"
	}
	return fmt.Sprintf("%.2f", l.resumes[0].at.Sub(from).Seconds())
}

// brokeAfter is how long after from the first stream broke, in seconds.
func (l subscriberLog) brokeAfter(from time.Time) string {
	if len(l.resumes) == 0 {
		return "never"
	}
	return fmt.Sprintf("%.2f", l.resumes[0].brokeAt.Sub(from).Seconds())
}
