//go:build drills

package drills

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// alias150 is the request of issue 13 that once starved every other
// client: 150 aliased shortestPath searches, maxDepth 5 to 8, each with
// its own filters, between entities of the seed.
func alias150() string {
	ids := []string{"desmond-de-silva", "david-crane", "geoffrey-nice", "bashar-al-assad", "william-hague",
		"syrian-government", "qatar-government", "carter-ruck", "the-guardian", "icty", "geneva-ii-conference",
		"caesar-report", "caesar-photographs", "syria", "london", "the-hague", "sierra-leone"}
	types := []string{"AUTHORED", "COMMISSIONED", "REPRESENTS", "MEMBER_OF", "PARTICIPATED_IN", "LOCATED_IN"}
	var b strings.Builder
	b.WriteString("query Alias150 {\n")
	for i := range 150 {
		from, to := ids[i%len(ids)], ids[(i*7+3)%len(ids)]
		if from == to {
			to = ids[(i+1)%len(ids)]
		}
		filter := fmt.Sprintf("maxDepth: %d", 5+i%4)
		switch i % 3 {
		case 0:
			filter += fmt.Sprintf(", relationTypes: [%s, %s]", types[i%len(types)], types[(i+2)%len(types)])
		case 1:
			filter += fmt.Sprintf(", minConfidence: 0.%d", 1+i%8)
		case 2:
			filter += fmt.Sprintf(", excludeIds: [%q]", ids[(i+5)%len(ids)])
		}
		fmt.Fprintf(&b, "  p%d: shortestPath(from: %q, to: %q, filter: {%s}) { length nodes { id name } }\n", i, from, to, filter)
	}
	b.WriteString("}\n")
	return b.String()
}

// drillAlias150: the request is refused before it reaches the database
// (no round trip counted in /metrics), with a code and a reason, however
// often it is sent, and /readyz stays 200 meanwhile.
func (e *env) drillAlias150(t *testing.T) {
	db := e.sharedDB(t)
	// A key looked up once stays trusted for the drill: its look-up would
	// count as a round trip.
	srv := e.serve(t, db.uri(), "CASEGRAPH_KEY_CACHE_TTL=10m")
	c := srv.client(e.adminToken, 60*time.Second)
	ctx := context.Background()
	// Warm: the key looked up, the readiness probe's first schema check
	// done (both are round trips).
	if _, err := waitFor(ctx, setupWait, 100*time.Millisecond, func() error {
		if o := c.Get(ctx, "/readyz"); o.Status != http.StatusOK {
			return fmt.Errorf("/readyz: %s", o)
		}
		if o := c.GraphQL(ctx, cheapQuery, nil, nil); !o.OK() {
			return fmt.Errorf("warm-up query: %s", o)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	doc := alias150()
	before, err := c.RoundTrips(ctx)
	if err != nil {
		t.Fatal(err)
	}

	stop := make(chan struct{})
	var ready Tally
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			ready.Add(c.Get(ctx, "/readyz"))
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	})
	// Sent 20 times, 4 at a time, over about a second or more.
	var refused Tally
	var mu sync.Mutex
	seen := map[string]int{} // code/reason -> count
	var senders sync.WaitGroup
	for range 4 {
		senders.Go(func() {
			for range 5 {
				o := c.GraphQL(ctx, doc, nil, nil)
				refused.Add(o)
				mu.Lock()
				seen[o.Label()+"/"+o.Reason]++
				mu.Unlock()
				if o.Label() != "BAD_USER_INPUT" || o.Reason == "" {
					t.Errorf("150-alias request: %s, want BAD_USER_INPUT with a reason", o)
				}
				time.Sleep(50 * time.Millisecond)
			}
		})
	}
	senders.Wait()
	time.Sleep(200 * time.Millisecond) // a few more polls after the last
	close(stop)
	wg.Wait()

	after, err := c.RoundTrips(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var moved []string
	for _, q := range slices.Sorted(maps.Keys(after)) {
		if d := after[q] - before[q]; d != 0 {
			moved = append(moved, fmt.Sprintf("%s+%g", q, d))
		}
	}
	if len(moved) > 0 {
		t.Errorf("the refused requests reached the database: round trips %s", strings.Join(moved, ", "))
	}
	if n := ready.Total() - ready.Count("OK"); n > 0 {
		t.Errorf("/readyz was not 200 on %d of %d polls meanwhile (%s)", n, ready.Total(), ready.Counts())
	}
	if ready.Count("OK") == 0 {
		t.Errorf("/readyz was never polled")
	}
	var outcomes []string
	for _, k := range slices.Sorted(maps.Keys(seen)) {
		outcomes = append(outcomes, fmt.Sprintf("%s=%d", strings.ToLower(strings.TrimSuffix(k, "/")), seen[k]))
	}
	t.Logf("drill: alias-150: body_bytes=%d requests=%d outcomes=%s round_trips=%d readyz_polls=%d readyz_not_200=%d %s",
		len(doc), refused.Total(), strings.Join(outcomes, ","), len(moved), ready.Total(), ready.Total()-ready.Count("OK"), refused.Latency().Fields("refusal"))
}
