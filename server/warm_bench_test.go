package server_test

// The first request of each kind on a fresh server, without a warm-up and
// after one, against the same request warm (bench/README.md, "Cold
// start"). Run alone, as it clears Neo4j's query caches:
//
//	go test ./server -run '^$' -bench FirstRequest -benchtime 1x -v

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server"
	"github.com/casegraph/casegraph/server/servertest"
)

func BenchmarkFirstRequest(b *testing.B) {
	store := cyphertest.Store(b, cypher.Options{})
	_, seed := cyphertest.LoadSeed(b, store)
	_, force := cyphertest.LoadForce(b, store)
	ds, _ := strings.CutSuffix(seed("x"), ":x")
	vars := map[string]map[string]any{
		"shortestPath":           {"id": seed("desmond-de-silva"), "to": seed("david-crane")},
		"search":                 {"text": "Crane"},
		"explorer: first screen": {"hubs": 12, "text": "Silva"},
		"explorer: search":       {"text": "report"},
		"explorer: expand":       {"id": seed("carter-ruck"), "limit": 100},
		"explorer: paths":        {"id": seed("desmond-de-silva"), "to": seed("qatar-government"), "k": 3},
		"explorer: connections":  {"ids": []string{seed("desmond-de-silva"), seed("david-crane"), seed("qatar-government")}},
		"datasetTimeline":        {"datasets": []string{ds}},
		"commandChain":           {"id": force("rur-41-bn"), "at": "2012"},
		"whoWasInCommand":        {"id": force("rur-shelling-kesselbrin")},
	}
	names, queries := server.WarmRequests()
	for _, warm := range []time.Duration{0, 2 * time.Minute} {
		ctx := casegraph.AsOperator(context.Background())
		if _, err := neo4j.ExecuteQuery(ctx, cyphertest.Driver(b), "CALL db.clearQueryCaches()", nil, neo4j.EagerResultTransformer); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		h := servertest.New(b, servertest.Options{Config: func(c *server.Config) { c.WarmUp = warm }})
		for h.Get("/readyz").Status != http.StatusOK {
			time.Sleep(50 * time.Millisecond)
		}
		b.Logf("warm-up %s: ready after %s", warm, time.Since(start).Round(time.Millisecond))
		for i, name := range names {
			v, ok := vars[name]
			if !ok {
				v = map[string]any{"id": seed("desmond-de-silva")}
			}
			took := func() time.Duration {
				start := time.Now()
				if res := h.Post(queries[i], v); res.Status != http.StatusOK || len(res.Errors) > 0 {
					b.Fatalf("%s: %d %s", name, res.Status, res.Raw)
				}
				return time.Since(start)
			}
			first := took()
			var again []time.Duration
			for range 5 {
				again = append(again, took())
			}
			slices.Sort(again)
			median := again[len(again)/2]
			b.Logf("| %s | %s | %.1f | %.1f | %.1f |", name, map[bool]string{false: "no", true: "yes"}[warm > 0],
				ms(first), ms(median), float64(first)/float64(median))
		}
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
