package graph

// Glue for subscriptions: what they ask of the watch hub (Watches), and
// its events relayed as GraphQL models.

import (
	"context"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/graph/model"
	"github.com/casegraph/casegraph/watch"
)

// Watches is what subscriptions ask of the server: its watch hub
// (*watch.Hub has it).
type Watches interface {
	Changes(ctx context.Context, datasets []string, after string) (<-chan watch.ChangeEvent, error)
	Path(ctx context.Context, q casegraph.PathRequest, read casegraph.PathRead, after string) (<-chan watch.PathEvent, error)
}

// errNoWatches answers a subscription on a schema without watches (a
// saved query's run, which takes queries only anyway).
var errNoWatches = casegraph.Errorf(casegraph.CodeBadUserInput, "subscriptions are not served here")

// relay passes a watch's events on as the schema's, until the watch ends
// or the subscriber leaves; gqlgen ends the subscription when the channel
// closes.
func relay[E, M any](ctx context.Context, in <-chan E, to func(E) *M) <-chan *M {
	out := make(chan *M)
	go func() {
		defer close(out)
		for e := range in {
			select {
			case out <- to(e):
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

func toChangeEvent(e watch.ChangeEvent) *model.ChangeEvent {
	out := &model.ChangeEvent{Cursor: e.Cursor}
	if e.Change != nil {
		out.Change = toChange(*e.Change)
	}
	return out
}

func toPathWatchEvent(e watch.PathEvent) *model.PathWatchEvent {
	return &model.PathWatchEvent{Kind: model.PathWatchKind(e.Kind), Cursor: e.Cursor, Found: e.Path, Sources: e.Sources}
}
