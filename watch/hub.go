// Package watch tells subscribers when the graph changes: the change feed
// (the audit records, numbered in the order they committed) fanned out to
// subscriptions, each within its caller's rights, and path watches that
// search again when a change in their scope commits.
//
// One Hub serves a process. It learns of a change at once from this
// process's store (Notify, after every commit) and, for writes of other
// replicas and of the command line, by reading the feed's head every
// Options.Poll. Subscriptions whose callers have the same scope share one
// group, which reads the feed once per change for all of them; a
// subscription that fell behind the group's recent changes (one that
// resumed from an old cursor, or a slow reader) reads the feed itself
// until it has caught up. Every read carries a caller's principal, so the
// statement applies the scope (cypher's ChangeFeed), never a filter here.
package watch

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"golang.org/x/sync/singleflight"

	casegraph "github.com/casegraph/casegraph"
)

// Feed is what watches read of the database; *cypher.Store has it.
type Feed interface {
	ChangeFeed(ctx context.Context, after int64, datasets []string, limit int) ([]casegraph.Change, error)
	ChangeHead(ctx context.Context) (int64, error)
	Paths(ctx context.Context, q casegraph.PathRequest, read casegraph.PathRead) ([]casegraph.Path, []casegraph.Source, error)
}

// Options bound and pace a Hub.
type Options struct {
	// Poll is how often the feed's head is read, for changes written by
	// other processes (this one's are heard at once). Default 500ms.
	Poll time.Duration
	// PerCaller bounds the watches one principal holds at once (default
	// 20); Total bounds the process's (default 1000).
	PerCaller, Total int
	// Timeout bounds each statement a watch runs (default 10s).
	Timeout time.Duration
}

// Defaults of Options.
const (
	DefaultPoll      = 500 * time.Millisecond
	DefaultPerCaller = 20
	DefaultTotal     = 1000
	DefaultTimeout   = 10 * time.Second
)

// ringSize and ringBytes bound the recent changes a group keeps for its
// subscribers: one further behind reads the feed itself.
const (
	ringSize  = 1024
	ringBytes = 8 << 20
)

// size is about what a change holds in memory.
func size(c casegraph.Change) int {
	n := len(c.ID) + len(c.Principal) + len(c.Operation) + len(c.Dataset) + 64
	for _, t := range c.Targets {
		n += len(t)
	}
	for _, f := range c.Fields {
		n += len(f.Field) + len(f.Old) + len(f.New)
	}
	return n
}

// feedPage is how many changes one read of the feed returns.
const feedPage = 500

// ReasonTooManyWatches is the reason of the BUSY refusal of a watch over
// the caller's or the process's cap.
const ReasonTooManyWatches = "TOO_MANY_WATCHES"

// Hub fans the change feed out to subscriptions.
type Hub struct {
	feed   Feed
	opts   Options
	log    zerolog.Logger
	notify chan struct{}

	mu      sync.Mutex
	groups  map[string]*group // by scope
	holders map[string]int    // watches held, by principal id
	total   int
	base    context.Context

	// Path watches of one search in one scope share its answers.
	searches singleflight.Group
	searched map[string]searched // guarded by mu
}

// New returns a Hub over feed; Run makes it follow the feed.
func New(feed Feed, opts Options, log zerolog.Logger) *Hub {
	if opts.Poll <= 0 {
		opts.Poll = DefaultPoll
	}
	if opts.PerCaller <= 0 {
		opts.PerCaller = DefaultPerCaller
	}
	if opts.Total <= 0 {
		opts.Total = DefaultTotal
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	return &Hub{feed: feed, opts: opts, log: log, notify: make(chan struct{}, 1),
		groups: map[string]*group{}, holders: map[string]int{}, base: casegraph.AsOperator(context.Background()), searched: map[string]searched{}}
}

// Notify says that a write of this process committed: the hub reads the
// feed now rather than at its next poll. It never blocks.
func (h *Hub) Notify() {
	select {
	case h.notify <- struct{}{}:
	default:
	}
}

// Run follows the feed until ctx ends: after each Notify and every Poll it
// reads the head and, when it moved, each group reads its new changes.
// When ctx ends, every subscription ends.
func (h *Hub) Run(ctx context.Context) {
	ctx = casegraph.AsOperator(ctx) // the feed is read as the service; each group as its callers
	h.mu.Lock()
	h.base = ctx
	h.mu.Unlock()
	tick := time.NewTicker(h.opts.Poll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-h.notify:
		case <-tick.C:
		}
		h.pull(ctx)
	}
}

// pull reads the head and brings every group up to it; without groups
// (no one watches) it reads nothing.
func (h *Hub) pull(ctx context.Context) {
	h.mu.Lock()
	idle := len(h.groups) == 0
	h.mu.Unlock()
	if idle {
		return
	}
	qctx, cancel := context.WithTimeout(ctx, h.opts.Timeout)
	head, err := h.feed.ChangeHead(qctx)
	cancel()
	if err != nil {
		h.log.Warn().Err(err).Msg("watch: could not read the change feed's head")
		return
	}
	h.mu.Lock()
	groups := make([]*group, 0, len(h.groups))
	for _, g := range h.groups {
		groups = append(groups, g)
	}
	h.mu.Unlock()
	var wg sync.WaitGroup
	for _, g := range groups {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := g.pull(ctx, head, h.opts.Timeout); err != nil && ctx.Err() == nil {
				h.log.Warn().Err(err).Msg("watch: could not read the change feed")
			}
		}()
	}
	wg.Wait()
}

// join counts a new watch of the caller in ctx against the caps and
// returns its group, with a function that lets both go; the caller's
// scope picks the group.
func (h *Hub) join(ctx context.Context) (*group, func(), error) {
	p, _ := casegraph.PrincipalFrom(ctx)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.holders[p.ID] >= h.opts.PerCaller {
		return nil, nil, casegraph.Errorf(casegraph.CodeBusy,
			"you hold %d watches, the most one caller may; end one first", h.opts.PerCaller).WithReason(ReasonTooManyWatches)
	}
	if h.total >= h.opts.Total {
		return nil, nil, casegraph.Errorf(casegraph.CodeBusy,
			"this server holds %d watches, the most it may; retry later", h.opts.Total).WithReason(ReasonTooManyWatches)
	}
	key := casegraph.ScopeFrom(ctx).Key()
	g, ok := h.groups[key]
	if !ok {
		// The group reads the feed on behalf of everyone of its scope,
		// with the principal of its first member and the hub's lifetime.
		g = &group{ctx: casegraph.WithPrincipal(h.base, p), feed: h.feed, head: -1, wake: make(chan struct{})}
		h.groups[key] = g
	}
	g.members++
	h.holders[p.ID]++
	h.total++
	var once sync.Once
	leave := func() {
		once.Do(func() {
			h.mu.Lock()
			defer h.mu.Unlock()
			if g.members--; g.members == 0 {
				delete(h.groups, key)
			}
			if h.holders[p.ID]--; h.holders[p.ID] == 0 {
				delete(h.holders, p.ID)
			}
			h.total--
		})
	}
	return g, leave, nil
}

// Watches returns how many watches the hub holds.
func (h *Hub) Watches() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.total
}

// group is the subscriptions of one scope: it keeps the recent changes of
// that scope, read once for all of them.
type group struct {
	ctx     context.Context // the hub's, with the first member's principal
	feed    Feed
	pulling sync.Mutex // one read of the feed at a time
	members int        // guarded by the Hub's mu

	mu sync.Mutex
	// recent holds every change of the scope numbered in (start, head],
	// in order; head is -1 until the group first reads the head.
	recent      []casegraph.Change
	bytes       int // size of recent
	start, head int64
	wake        chan struct{} // closed when head moves
}

// pull reads the group's changes up to at least head (the feed's, read
// before): after it, every change of the scope numbered up to head is in
// recent (or was dropped from its start).
func (g *group) pull(ctx context.Context, head int64, timeout time.Duration) error {
	g.pulling.Lock()
	defer g.pulling.Unlock()
	g.mu.Lock()
	from := g.head
	g.mu.Unlock()
	if from < 0 || from >= head {
		return nil
	}
	for {
		qctx, cancel := context.WithTimeout(g.ctx, timeout)
		stop := context.AfterFunc(ctx, cancel)
		found, err := g.feed.ChangeFeed(qctx, from, nil, feedPage)
		stop()
		cancel()
		if err != nil {
			return err
		}
		if len(found) > 0 {
			from = found[len(found)-1].Seq
		}
		if len(found) < feedPage {
			g.advance(found, max(from, head))
			return nil
		}
		g.advance(found, from)
	}
}

// advance appends changes read from the feed and moves the head.
func (g *group) advance(found []casegraph.Change, head int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.recent = append(g.recent, found...)
	for _, c := range found {
		g.bytes += size(c)
	}
	// Drop the oldest beyond ringSize changes or ringBytes (a change's
	// fields hold whole values: a description of a megabyte, say).
	drop := 0
	for drop < len(g.recent) && (len(g.recent)-drop > ringSize || g.bytes > ringBytes) {
		g.bytes -= size(g.recent[drop])
		drop++
	}
	if drop > 0 {
		g.start = g.recent[drop-1].Seq
		g.recent = slices.Delete(g.recent, 0, drop)
	}
	if head > g.head {
		g.head = head
		close(g.wake)
		g.wake = make(chan struct{})
	}
}

// begin gives the group its head when it has none: the feed's, read now.
func (g *group) begin(ctx context.Context, timeout time.Duration) (int64, error) {
	g.pulling.Lock()
	defer g.pulling.Unlock()
	g.mu.Lock()
	head := g.head
	g.mu.Unlock()
	if head >= 0 {
		return head, nil
	}
	qctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	head, err := g.feed.ChangeHead(qctx)
	if err != nil {
		return 0, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.head, g.start = head, head
	return head, nil
}

// since returns the group's changes after cursor, and a channel closed
// when there are more; held is false when the group no longer holds the
// changes right after cursor (they were dropped), so the caller must read
// the feed itself.
func (g *group) since(cursor int64) (found []casegraph.Change, more <-chan struct{}, held bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if cursor < g.start {
		return nil, nil, false
	}
	i, _ := slices.BinarySearchFunc(g.recent, cursor, func(c casegraph.Change, seq int64) int {
		switch {
		case c.Seq <= seq:
			return -1
		default:
			return 1
		}
	})
	return slices.Clone(g.recent[i:]), g.wake, true
}

// reader follows the feed for one subscription from a cursor: the group's
// recent changes while it keeps up, the feed itself when behind.
type reader struct {
	g        *group
	feed     Feed
	timeout  time.Duration
	cursor   int64
	datasets []string // nil: all of the scope
}

// next returns the changes after the reader's cursor, waiting for some,
// and moves the cursor past them; it reads the feed with ctx's principal
// when the group no longer holds them.
func (r *reader) next(ctx context.Context) ([]casegraph.Change, error) {
	for {
		found, more, held := r.g.since(r.cursor)
		if !held {
			// The group's start now: every change up to it had committed
			// before the read below began.
			r.g.mu.Lock()
			start := r.g.start
			r.g.mu.Unlock()
			qctx, cancel := context.WithTimeout(ctx, r.timeout)
			var err error
			found, err = r.feed.ChangeFeed(qctx, r.cursor, r.datasets, feedPage)
			cancel()
			if err != nil {
				return nil, err
			}
			if len(found) == 0 {
				// Nothing of ours after the cursor up to start at least:
				// what the group holds from there on will do.
				r.cursor = max(r.cursor, start)
				continue
			}
		}
		if len(found) > 0 {
			r.cursor = found[len(found)-1].Seq
			found = slices.DeleteFunc(found, func(c casegraph.Change) bool {
				return r.datasets != nil && !slices.Contains(r.datasets, c.Dataset)
			})
			if len(found) > 0 {
				return found, nil
			}
			continue
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-more:
		}
	}
}

// Cursor is a position in the change feed as clients hold it: the number
// of the last change they have, in decimal.
func Cursor(seq int64) string { return strconv.FormatInt(seq, 10) }

// ParseCursor reads a cursor a client sent back ("" for none: -1).
func ParseCursor(s string) (int64, error) {
	if s == "" {
		return -1, nil
	}
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || n < 0 {
		return 0, casegraph.Errorf(casegraph.CodeBadUserInput, "after: %q is not a cursor of the change feed (send back one this server gave)", s)
	}
	return n, nil
}
