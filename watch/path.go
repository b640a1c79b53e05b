package watch

// The path subscription: a watched shortest path, searched again when a
// change could move it, one search shared by the watches of the same
// search and scope.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	casegraph "github.com/casegraph/casegraph"
)

// PathKind says what happened to a watched path.
type PathKind string

// The kinds of a path event.
const (
	// PathCurrent is the first event: the shortest path now (or none).
	PathCurrent PathKind = "CURRENT"
	// PathAppeared: there was no path, and now there is one.
	PathAppeared PathKind = "APPEARED"
	// PathShorter: the shortest path has fewer steps than before.
	PathShorter PathKind = "SHORTER"
	// PathLonger: the shortest path was cut, and the next is longer.
	PathLonger PathKind = "LONGER"
	// PathChanged: another path of the same length replaced it.
	PathChanged PathKind = "CHANGED"
	// PathDisappeared: there was a path, and now there is none.
	PathDisappeared PathKind = "DISAPPEARED"
)

// PathKinds are the kinds of a path event, CURRENT first.
func PathKinds() []PathKind {
	return []PathKind{PathCurrent, PathAppeared, PathShorter, PathLonger, PathChanged, PathDisappeared}
}

// PathEvent is one message of a path watch: what happened, the shortest
// path now (nil when there is none) with the sources it cites, and the
// cursor of the last change it has seen.
type PathEvent struct {
	Kind    PathKind
	Path    *casegraph.Path
	Sources []casegraph.Source
	Cursor  string
}

// searchRetries is how many times in a row a watch's search may fail (the
// database busy or away) before the watch ends, which the client sees as
// the subscription completing (resubscribe with the last cursor); it waits
// 1, 2, 4, 8 and 16 s between tries, half a minute in all. Changes that
// come meanwhile are all answered by the next search.
const searchRetries = 5

// Path watches the shortest path of q (K is ignored) within the caller's
// rights: first the path now, then an event each time a change in the
// caller's scope (and in the filter's datasets) makes a path appear,
// disappear, or become shorter, longer or another. From an entity to
// itself the path is that entity alone (see casegraph.PathRequest), which
// disappears only with it. after ("" for now) is the cursor of the last
// change the client has seen. An end that is not there (or not readable)
// is NOT_FOUND at the start; once the watch runs, an end deleted means no
// path. Any reader may watch a path.
func (h *Hub) Path(ctx context.Context, q casegraph.PathRequest, read casegraph.PathRead, after string) (<-chan PathEvent, error) {
	q.K = 1
	if err := q.Normalize(); err != nil {
		return nil, err
	}
	cursor, err := ParseCursor(after)
	if err != nil {
		return nil, err
	}
	r, leave, err := h.open(ctx, cursor, nonEmpty(q.Filter.Datasets))
	if err != nil {
		return nil, err
	}
	key, err := searchKey(ctx, q, read)
	if err != nil {
		leave()
		return nil, err
	}
	// At the start an end that is not there is the client's mistake
	// (NOT_FOUND); later, it was deleted, and there is no path.
	current, err := h.search(ctx, q, read)
	if err != nil {
		leave()
		return nil, err
	}
	out := make(chan PathEvent)
	go func() {
		defer close(out)
		defer leave()
		if !send(ctx, out, PathEvent{Kind: PathCurrent, Path: current.path, Sources: current.sources, Cursor: Cursor(r.cursor)}) {
			return
		}
		for failures := 0; ; {
			found, err := r.next(ctx)
			if err != nil {
				h.ended(ctx, "path", err)
				return
			}
			if !touchesGraph(found) {
				continue
			}
			now, err := h.shared(ctx, key, r.cursor, q, read)
			for err != nil {
				if failures++; failures > searchRetries || ctx.Err() != nil {
					h.ended(ctx, "path", err)
					return
				}
				select {
				case <-ctx.Done():
					return
				case <-time.After(time.Second << (failures - 1)): // 1, 2, 4, 8, 16 s
				}
				now, err = h.shared(ctx, key, r.cursor, q, read)
			}
			failures = 0
			kind, changed := compare(current.path, now.path)
			current = now
			if changed && !send(ctx, out, PathEvent{Kind: kind, Path: now.path, Sources: now.sources, Cursor: Cursor(r.cursor)}) {
				return
			}
		}
	}()
	return out, nil
}

// found is one search's answer.
type found struct {
	path    *casegraph.Path
	sources []casegraph.Source
}

// shared is search once the watch runs (an end not there is no path),
// shared by the watches of one search (key) in one scope: they all wake
// at the same change (cursor), and one search answers them all. An answer
// found at a later cursor answers too: it has seen every change up to it.
func (h *Hub) shared(ctx context.Context, key string, cursor int64, q casegraph.PathRequest, read casegraph.PathRead) (found, error) {
	h.mu.Lock()
	last, ok := h.searched[key]
	h.mu.Unlock()
	if ok && last.cursor >= cursor {
		return last.found, nil
	}
	v, err, _ := h.searches.Do(fmt.Sprintf("%d %s", cursor, key), func() (any, error) {
		f, err := h.search(context.WithoutCancel(ctx), q, read)
		if casegraph.ErrorCode(err) == casegraph.CodeNotFound {
			f, err = found{}, nil
		}
		if err != nil {
			return nil, err
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		if len(h.searched) >= maxSearched {
			clear(h.searched)
		}
		if prev, ok := h.searched[key]; !ok || prev.cursor < cursor {
			h.searched[key] = searched{cursor: cursor, found: f}
		}
		return f, nil
	})
	if err != nil {
		return found{}, err
	}
	return v.(found), nil
}

// searched is the last answer of a shared search, and the cursor it saw.
type searched struct {
	cursor int64
	found  found
}

// maxSearched bounds the answers kept for shared searches.
const maxSearched = 10000

// searchKey names a search in the caller's scope: watches with the same
// key get the same answers.
func searchKey(ctx context.Context, q casegraph.PathRequest, read casegraph.PathRead) (string, error) {
	b, err := json.Marshal(struct {
		Q casegraph.PathRequest
		O casegraph.PathRead
	}{q, read})
	if err != nil {
		return "", casegraph.Errorf(casegraph.CodeInternal, "watch: %v", err)
	}
	return casegraph.ScopeFrom(ctx).Key() + " " + string(b), nil
}

// search finds the shortest path now.
func (h *Hub) search(ctx context.Context, q casegraph.PathRequest, read casegraph.PathRead) (found, error) {
	qctx, cancel := context.WithTimeout(ctx, h.opts.Timeout)
	defer cancel()
	paths, sources, err := h.feed.Paths(qctx, q, read)
	switch {
	case err != nil:
		return found{}, err
	case len(paths) == 0:
		return found{}, nil
	}
	return found{path: &paths[0], sources: sources}, nil
}

// compare says what happened between two answers, and whether anything did.
func compare(was, is *casegraph.Path) (PathKind, bool) {
	switch {
	case was == nil && is == nil:
		return "", false
	case was == nil:
		return PathAppeared, true
	case is == nil:
		return PathDisappeared, true
	case is.Len() < was.Len():
		return PathShorter, true
	case is.Len() > was.Len():
		return PathLonger, true
	case signature(*was) != signature(*is):
		return PathChanged, true
	}
	return "", false
}

// signature names a path by its steps: the same relations through the same
// entities.
func signature(p casegraph.Path) string {
	var b strings.Builder
	for i, n := range p.Nodes {
		b.WriteString(n.ID)
		if i < len(p.Relations) {
			b.WriteString(" -" + p.Relations[i].ID + "- ")
		}
	}
	return b.String()
}

// touchesGraph says whether any of the changes is to the graph (saved
// queries and keys belong to no dataset and move no path).
func touchesGraph(changes []casegraph.Change) bool {
	for _, c := range changes {
		if c.Dataset != "" {
			return true
		}
	}
	return false
}

// nonEmpty is nil for an empty list: no filter.
func nonEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}
