package graph

// The searches behind pathExplanation: why a shortest-path search found
// nothing.

import (
	"context"

	casegraph "github.com/casegraph/casegraph"
)

// explainPaths runs the searches that explain a shortest-path search: the
// search itself; when it finds nothing, the same beyond maxDepth, then once
// without each condition of the filter. A search that runs out of time
// ends the explanation as incomplete; other errors are returned. From an
// entity to itself the search finds the path of no relations (the store
// answers it, see casegraph.PathRequest), which explains itself.
func explainPaths(ctx context.Context, store PathStore, q casegraph.PathRequest) (casegraph.PathExplanation, error) {
	e := casegraph.PathExplanation{MaxDepth: q.Filter.MaxDepth, Complete: true}
	length := func(f casegraph.PathFilter) (int, bool, error) {
		try := q
		try.Filter = f
		found, _, err := store.Paths(ctx, try, casegraph.PathRead{})
		if err != nil || len(found) == 0 {
			return 0, false, err
		}
		return found[0].Len(), true, nil
	}
	n, ok, err := length(q.Filter)
	if err != nil || ok {
		e.Found, e.Length = ok, n
		return e, err
	}
	var tries []casegraph.PathFilter
	if q.Filter.MaxDepth < casegraph.MaxMaxDepth {
		deeper := q.Filter
		deeper.MaxDepth = casegraph.MaxMaxDepth
		tries = append(tries, deeper)
	}
	relaxed := q.Filter.Relaxations()
	for _, r := range relaxed {
		tries = append(tries, r.Filter)
	}
	offset := len(tries) - len(relaxed)
	for i, f := range tries {
		n, ok, err := length(f)
		if casegraph.ErrorCode(err) == casegraph.CodeTimeout {
			e.Complete = false
			break
		}
		if err != nil {
			return e, err
		}
		switch {
		case !ok:
		case i < offset:
			e.Beyond = n
		default:
			e.Blocking = append(e.Blocking, relaxed[i-offset].Field)
		}
	}
	return e, nil
}
