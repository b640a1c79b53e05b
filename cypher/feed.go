package cypher

import (
	"context"
	"sync"

	casegraph "github.com/casegraph/casegraph"
)

// The change feed: the audit records in the order they committed, for
// watchers (package watch). Each change takes the next number of one
// counter in its own transaction (RecordChange), so a watcher that has
// read every change up to a number misses none below it, whichever
// replica or command wrote it.

// Statements of this file (queries/NAME.cypher).
const (
	stmtChangeFeed statement = "ChangeFeed"
	stmtChangeHead statement = "ChangeHead"
)

// MaxFeedPage bounds the changes one ChangeFeed call returns.
const MaxFeedPage = 1000

// ChangeFeed returns up to limit changes numbered after after, in the
// order they committed, within the caller's scope (its readable datasets,
// and protected entities only with clearance) and datasets (nil: all).
// Who may follow the feed is the watcher's decision: the statement
// applies the scope, not the role.
func (s *Store) ChangeFeed(ctx context.Context, after int64, datasets []string, limit int) ([]casegraph.Change, error) {
	limit = min(max(limit, 1), MaxFeedPage)
	var ds any
	if datasets != nil {
		ds = datasets
	}
	res, err := s.read(ctx, stmtChangeFeed, map[string]any{"after": after, "datasets": ds, "limit": limit})
	if err != nil {
		return nil, err
	}
	out := make([]casegraph.Change, 0, len(res.Records))
	for _, rec := range res.Records {
		c, err := changeFrom(rec)
		if err != nil {
			return nil, internalError(string(stmtChangeFeed), err)
		}
		out = append(out, c)
	}
	return out, nil
}

// ChangeHead returns the number of the last committed change (0 before
// the first): a watcher starts after it.
func (s *Store) ChangeHead(ctx context.Context) (int64, error) {
	res, err := s.read(ctx, stmtChangeHead, nil)
	if err != nil {
		return 0, err
	}
	if len(res.Records) != 1 {
		return 0, internalError(string(stmtChangeHead), errNoRow)
	}
	n, err := getInt(res.Records[0], "seq")
	if err != nil {
		return 0, internalError(string(stmtChangeHead), err)
	}
	return n, nil
}

// OnCommit adds a function called after every write transaction of this
// Store commits, and returns a function that removes it: the watchers of
// this process hear of a change at once, rather than at their next poll.
// fn must not block.
func (s *Store) OnCommit(fn func()) (remove func()) {
	s.hooks.Lock()
	defer s.hooks.Unlock()
	id := s.hooks.next
	s.hooks.next++
	if s.hooks.fns == nil {
		s.hooks.fns = map[int]func(){}
	}
	s.hooks.fns[id] = fn
	return func() {
		s.hooks.Lock()
		defer s.hooks.Unlock()
		delete(s.hooks.fns, id)
	}
}

// commitHooks are the functions OnCommit added.
type commitHooks struct {
	sync.Mutex
	next int
	fns  map[int]func()
}

// committed calls the OnCommit functions.
func (s *Store) committed() {
	s.hooks.Lock()
	defer s.hooks.Unlock()
	for _, fn := range s.hooks.fns {
		fn()
	}
}
