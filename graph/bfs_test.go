package graph_test

import (
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/casegraph/casegraph/dataset"
	"github.com/casegraph/casegraph/server/servertest"
)

// TestPathsOnAGeneratedGraph: on a generated graph of 5k entities and
// 25k relations, the length of shortestPath for 200 random pairs equals
// what a plain breadth-first search over the same data finds (or both find
// nothing within 8 hops).
func TestPathsOnAGeneratedGraph(t *testing.T) {
	t.Parallel()
	h := servertest.New(t, servertest.Options{})
	ds, batch := importGenerated(t, h, dataset.GenOptions{Entities: 5000, Relations: 25000, Seed: 11})

	adj := map[string][]string{}
	for _, r := range batch.Relations {
		adj[r.FromID] = append(adj[r.FromID], r.ToID)
		adj[r.ToID] = append(adj[r.ToID], r.FromID)
	}
	bfs := func(from, to string, limit int) int {
		dist := map[string]int{from: 0}
		frontier := []string{from}
		for d := 1; d <= limit && len(frontier) > 0; d++ {
			var next []string
			for _, u := range frontier {
				for _, v := range adj[u] {
					if _, ok := dist[v]; ok {
						continue
					}
					if v == to {
						return d
					}
					dist[v] = d
					next = append(next, v)
				}
			}
			frontier = next
		}
		return -1
	}

	rng := rand.New(rand.NewPCG(3, 4))
	const q = `query($a: ID!, $b: ID!, $f: PathFilter) { shortestPath(from: $a, to: $b, filter: $f) { length } }`
	filter := map[string]any{"datasets": []string{ds}, "maxDepth": 8}
	found := 0
	for range 200 {
		a := batch.Entities[rng.IntN(len(batch.Entities))].ID
		b := batch.Entities[rng.IntN(len(batch.Entities))].ID
		if a == b {
			continue
		}
		want := bfs(a, b, 8)
		res := h.MustPost(q, map[string]any{"a": a, "b": b, "f": filter})
		got := -1
		if p, ok := res.Data["shortestPath"].(map[string]any); ok {
			got = int(p["length"].(float64))
			found++
		}
		if got != want {
			t.Errorf("%s to %s: shortestPath %d, breadth-first search %d", a, b, got, want)
		}
	}
	if found < 100 {
		t.Errorf("only %d of 200 pairs connected: the generated graph is too sparse to test much", found)
	}

	// The time budget: a search that runs over it ends with TIMEOUT and
	// says how to narrow it, while the server goes on answering others.
	// The largest neighbourhood of the busiest entity takes some 300 ms
	// here; the budget is 20 ms.
	tight := servertest.New(t, servertest.Options{PathTimeout: 20 * time.Millisecond})
	hub := batch.Entities[0].ID
	const heavy = `query($id: ID!, $f: PathFilter) { neighborhood(id: $id, depth: 3, limit: 1000, filter: $f) { truncated } }`
	var wg sync.WaitGroup
	heavyResults := make([]servertest.Response, 4)
	for i := range heavyResults {
		wg.Add(1)
		go func() {
			defer wg.Done()
			heavyResults[i] = tight.Post(heavy, map[string]any{"id": hub, "f": map[string]any{"datasets": []string{ds}}})
		}()
	}
	for range 10 {
		res := tight.Post(`query($id: ID!) { entity(id: $id) { id } }`, map[string]any{"id": hub})
		if len(res.Errors) > 0 {
			t.Errorf("a cheap query during heavy searches: %s", truncate(res.Raw))
		}
	}
	wg.Wait()
	for _, res := range heavyResults {
		if res.Code() != "TIMEOUT" || !strings.Contains(res.Errors[0].Message, "narrow it") {
			// The server logs the cause of each error of these codes: say it.
			var causes []string
			for _, line := range strings.Split(tight.Logs.String(), "\n") {
				if strings.Contains(line, `"code":"`+res.Code()+`"`) {
					causes = append(causes, line)
				}
			}
			t.Errorf("a search over its budget: %s, want TIMEOUT with advice; the server logged:\n%s", truncate(res.Raw), strings.Join(causes, "\n"))
		}
	}
}
