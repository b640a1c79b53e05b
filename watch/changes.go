package watch

// The changes subscription: changes as they commit, in the caller's scope
// and the datasets asked for, resumed after a cursor.

import (
	"context"

	casegraph "github.com/casegraph/casegraph"
)

// ChangeEvent is one message of a changes subscription: a change as it
// committed, and the cursor to resume after it. The first message has no
// change: it says that the watch is live, and from where.
type ChangeEvent struct {
	Cursor string
	Change *casegraph.Change
}

// Changes streams the changes of the datasets (none: every one the caller
// may read) as they commit, after the cursor after ("": from now), until
// ctx ends. Like the audit log it is for editors and admins (FORBIDDEN for
// readers, who may watch paths); a dataset the caller may not read is
// NOT_FOUND. The channel closes when the watch ends.
func (h *Hub) Changes(ctx context.Context, datasets []string, after string) (<-chan ChangeEvent, error) {
	datasets = nonEmpty(datasets)
	cursor, err := ParseCursor(after)
	if err != nil {
		return nil, err
	}
	if err := validDatasets(datasets); err != nil {
		return nil, err
	}
	if err := casegraph.RequireEditor(ctx); err != nil {
		return nil, casegraph.Errorf(casegraph.CodeForbidden, "only editors and admins may follow the audit log's changes; readers may watch a path (watchPath)")
	}
	for _, ds := range datasets {
		if !casegraph.CanReadIn(ctx, ds) {
			return nil, casegraph.Errorf(casegraph.CodeNotFound, "no dataset %q", ds)
		}
	}
	r, leave, err := h.open(ctx, cursor, datasets)
	if err != nil {
		return nil, err
	}
	out := make(chan ChangeEvent)
	go func() {
		defer close(out)
		defer leave()
		if !send(ctx, out, ChangeEvent{Cursor: Cursor(r.cursor)}) {
			return
		}
		for {
			found, err := r.next(ctx)
			if err != nil {
				h.ended(ctx, "changes", err)
				return
			}
			for i := range found {
				if !send(ctx, out, ChangeEvent{Cursor: Cursor(found[i].Seq), Change: &found[i]}) {
					return
				}
			}
		}
	}()
	return out, nil
}

// open joins the caller's group and returns a reader from cursor (-1:
// the group's head, now).
func (h *Hub) open(ctx context.Context, cursor int64, datasets []string) (*reader, func(), error) {
	g, leave, err := h.join(ctx)
	if err != nil {
		return nil, nil, err
	}
	head, err := g.begin(ctx, h.opts.Timeout)
	if err != nil {
		leave()
		return nil, nil, err
	}
	if cursor < 0 {
		cursor = head
	}
	return &reader{g: g, feed: h.feed, timeout: h.opts.Timeout, cursor: cursor, datasets: datasets}, leave, nil
}

// validDatasets refuses too many datasets, and a malformed name.
func validDatasets(datasets []string) error {
	if len(datasets) > casegraph.MaxFilterValues {
		return casegraph.Errorf(casegraph.CodeBadUserInput, "datasets: at most %d, not %d", casegraph.MaxFilterValues, len(datasets))
	}
	for _, ds := range datasets {
		if err := casegraph.ValidateID("datasets", ds); err != nil {
			return err
		}
	}
	return nil
}

// ended logs why a watch stopped, unless its subscriber left.
func (h *Hub) ended(ctx context.Context, what string, err error) {
	if ctx.Err() == nil {
		h.log.Warn().Err(err).Str("watch", what).Msg("watch: ended on an error")
	}
}

// send hands an event to the subscriber, or says that it left.
func send[E any](ctx context.Context, out chan<- E, e E) bool {
	select {
	case out <- e:
		return true
	case <-ctx.Done():
		return false
	}
}
