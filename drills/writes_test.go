//go:build drills

package drills

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// upsertSource writes the source a dataset's entities cite.
func upsertSource(ctx context.Context, c *Client, id, ds string) Outcome {
	return c.GraphQL(ctx, `mutation($in: SourceInput!) { upsertSource(input: $in) { id } }`,
		map[string]any{"in": map[string]any{"id": id, "title": "Drill source " + id, "dataset": ds}}, nil)
}

// entityInput is a person of dataset ds citing src; without an id when id
// is empty (the server makes one up).
func entityInput(ds, src, id, name string) map[string]any {
	in := map[string]any{"kind": "PERSON", "name": name, "dataset": ds, "sourceIds": []string{src}}
	if id != "" {
		in["id"] = id
	}
	return in
}

// upsertEntity sends upsertEntity, with an Idempotency-Key when key is set.
func upsertEntity(ctx context.Context, c *Client, in map[string]any, key string) Outcome {
	var header map[string]string
	if key != "" {
		header = map[string]string{"Idempotency-Key": key}
	}
	return c.GraphQL(ctx, `mutation($in: EntityInput!) { upsertEntity(input: $in) { id name } }`, map[string]any{"in": in}, header)
}

// stored is one entity as listed.
type stored struct{ ID, Name string }

// entitiesOf lists every entity of a dataset, page by page.
func entitiesOf(t *testing.T, ctx context.Context, c *Client, ds string) []stored {
	t.Helper()
	var out []stored
	var after string
	for {
		o := untilOK(t, "listing dataset "+ds, func() Outcome {
			return c.GraphQL(ctx, `query($ds: String!, $after: String) {
				entities(filter: {datasets: [$ds]}, first: 100, after: $after) {
					edges { node { id name } } pageInfo { hasNextPage endCursor } } }`,
				map[string]any{"ds": ds, "after": nullable(after)}, nil)
		})
		var page struct {
			Entities struct {
				Edges []struct {
					Node stored `json:"node"`
				} `json:"edges"`
				PageInfo struct {
					HasNextPage bool   `json:"hasNextPage"`
					EndCursor   string `json:"endCursor"`
				} `json:"pageInfo"`
			} `json:"entities"`
		}
		if err := json.Unmarshal(o.Data, &page); err != nil {
			t.Fatalf("listing dataset %s: %v", ds, err)
		}
		for _, edge := range page.Entities.Edges {
			out = append(out, edge.Node)
		}
		if !page.Entities.PageInfo.HasNextPage {
			return out
		}
		after = page.Entities.PageInfo.EndCursor
	}
}

// nullable is s, or JSON null when empty.
func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// upserted is the id an upsertEntity answer gives.
func upserted(o Outcome) (string, error) {
	var d struct {
		UpsertEntity struct{ ID string } `json:"upsertEntity"`
	}
	if err := json.Unmarshal(o.Data, &d); err != nil || d.UpsertEntity.ID == "" {
		return "", fmt.Errorf("no id in %s (%v)", clip(o.Data), err)
	}
	return d.UpsertEntity.ID, nil
}

// write is one logical write of a drill and every attempt at it.
type write struct {
	key      string // its Idempotency-Key; the entity's name holds it too
	id       string // the id sent, or "" for one the server makes up
	attempts []string
	ackedID  string    // the id of the success, when one came
	failed   string    // a refusal no retry can change
	began    time.Time // its first attempt's start
	ackedAt  time.Time // when the success came
}

func (w *write) name() string { return "Kill drill " + w.key }

// settle sends the write (a person of dataset ds citing src) until it
// settles, as the README's rules say a client does: every answer that
// retryable allows is sent again with the same key, after its Retry-After;
// it gives up at deadline or when ctx ends. It reports whether an attempt
// was acknowledged.
func (w *write) settle(ctx context.Context, c *Client, ds, src string, deadline time.Time, attempts *Tally) bool {
	w.began = time.Now()
	for ctx.Err() == nil && time.Now().Before(deadline) {
		o := upsertEntity(ctx, c, entityInput(ds, src, w.id, w.name()), w.key)
		attempts.Add(o)
		w.attempts = append(w.attempts, o.Label())
		if o.OK() {
			id, err := upserted(o)
			if err != nil {
				w.failed = err.Error()
			}
			w.ackedID, w.ackedAt = id, time.Now()
			return true
		}
		if !retryable(o) {
			w.failed = o.String()
			return false
		}
		time.Sleep(retryAfter(o, 250*time.Millisecond))
	}
	return false
}

// writers are a drill's writers: each sends one write after another
// (every other one with an id of its own, the others without), each
// settled before the next, until stop closes, ctx ends or the deadline
// passes.
type writers struct {
	mu       sync.Mutex
	writes   []*write
	attempts Tally // every attempt of every write
	wg       sync.WaitGroup
}

// startWriters starts n writers of persons of dataset ds citing src, keyed
// by run; acked is called after each acknowledged write.
func startWriters(ctx context.Context, n int, c *Client, ds, src string, run int64, deadline time.Time, stop <-chan struct{}, acked func()) *writers {
	ws := &writers{}
	for w := range n {
		ws.wg.Go(func() {
			for j := 0; time.Now().Before(deadline); j++ {
				select {
				case <-stop:
					return
				case <-ctx.Done():
					return
				default:
				}
				wr := &write{key: fmt.Sprintf("k%d-w%d-%d", run, w, j)}
				if j%2 == 0 {
					wr.id = fmt.Sprintf("%s:w%d-%d", ds, w, j)
				}
				ws.mu.Lock()
				ws.writes = append(ws.writes, wr)
				ws.mu.Unlock()
				if wr.settle(ctx, c, ds, src, deadline, &ws.attempts) {
					acked()
				}
			}
		})
	}
	return ws
}

// wait waits for the writers to stop and returns their writes.
func (ws *writers) wait() []*write {
	ws.wg.Wait()
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return ws.writes
}

// retryable says whether a write's answer leaves it to be tried again with
// its key (README, "Retrying writes"): not executed (DATABASE_UNAVAILABLE,
// BUSY, TIMEOUT), maybe executed (OUTCOME_UNKNOWN, or no answer at all),
// or a server failure. (A request whose key's first attempt still runs
// waits for it and answers its outcome.)
func retryable(o Outcome) bool {
	switch o.Label() {
	case "DATABASE_UNAVAILABLE", "BUSY", "TIMEOUT", "OUTCOME_UNKNOWN", "NETWORK":
		return true
	}
	return o.Status >= 500
}

// writeCounts is what became of a drill's writes.
type writeCounts struct {
	acked, lost, dups, unsettled, failed, retried, unknownSettled int
}

// checkWrites compares a drill's writes with what its dataset holds
// (stored): every write acknowledged, none lost, one entity per key, the
// acknowledged id the stored one, no entity no write made. Each refusal
// is a test error (at most five of a kind, then how many more).
func checkWrites(t *testing.T, writes []*write, stored []stored, settleBound time.Duration) writeCounts {
	t.Helper()
	byName := map[string][]string{}
	for _, s := range stored {
		byName[s.Name] = append(byName[s.Name], s.ID)
	}
	var n writeCounts
	shown := map[string]int{}
	errorf := func(kind, format string, args ...any) {
		if shown[kind]++; shown[kind] <= 5 {
			t.Errorf(format, args...)
		}
	}
	for _, wr := range writes {
		ids := byName[wr.name()]
		delete(byName, wr.name())
		if len(wr.attempts) > 1 {
			n.retried++
		}
		if slices.Contains(wr.attempts, "OUTCOME_UNKNOWN") && wr.ackedID != "" {
			n.unknownSettled++
		}
		switch {
		case wr.failed != "":
			n.failed++
			errorf("refused", "write %s: refused for good: %s (attempts %s)", wr.key, wr.failed, summarise(wr.attempts))
		case wr.ackedID == "":
			n.unsettled++
			errorf("unsettled", "write %s: not settled within %s of the drill's start (attempts %s)", wr.key, settleBound, summarise(wr.attempts))
		default:
			n.acked++
		}
		switch {
		case wr.ackedID != "" && len(ids) == 0:
			n.lost++
			errorf("lost", "write %s: acknowledged (id %s) but not in the database (attempts %s)", wr.key, wr.ackedID, summarise(wr.attempts))
		case len(ids) > 1:
			n.dups++
			errorf("duplicate", "write %s: %d entities for one key: %v (attempts %s)", wr.key, len(ids), ids, summarise(wr.attempts))
		case wr.ackedID != "" && ids[0] != wr.ackedID:
			errorf("moved", "write %s: acknowledged as %s, stored as %s (attempts %s)", wr.key, wr.ackedID, ids[0], summarise(wr.attempts))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(byName)) {
		errorf("stray", "entity %q %v: written by no write of this drill", name, byName[name])
	}
	for _, kind := range slices.Sorted(maps.Keys(shown)) {
		if k := shown[kind]; k > 5 {
			t.Errorf("... and %d more writes %s", k-5, kind)
		}
	}
	return n
}

// summarise counts a write's attempts by outcome, in the order they
// first came: "DATABASE_UNAVAILABLE x12, OK".
func summarise(attempts []string) string {
	var order []string
	n := map[string]int{}
	for _, a := range attempts {
		if n[a] == 0 {
			order = append(order, a)
		}
		n[a]++
	}
	parts := make([]string, len(order))
	for i, a := range order {
		parts[i] = a
		if n[a] > 1 {
			parts[i] = fmt.Sprintf("%s x%d", a, n[a])
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
