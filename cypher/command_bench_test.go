package cypher_test

// Benchmarks of the command queries on a generated force.

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/server"
	"github.com/casegraph/casegraph/server/servertest"
)

// BenchmarkCommandQueries measures commandChain and whoWasInCommand on a
// generated force, through the whole service (HTTP, GraphQL, loaders),
// each with its units, commanders, superiors and the relations' evidence
// (sources), at random units (of every echelon) and dates, and at random
// incidents: p50 and p95 of each. The force must be imported:
//
//	casegraph gen --force-units 10000 --force-posts 50000 --dataset bench-force-10k | casegraph import -
//	CASEGRAPH_BENCH_FORCE=bench-force-10k go test ./cypher -run '^$' -bench CommandQueries -benchtime 400x
func BenchmarkCommandQueries(b *testing.B) {
	ds := os.Getenv("CASEGRAPH_BENCH_FORCE")
	if ds == "" {
		b.Skip("set CASEGRAPH_BENCH_FORCE to an imported force (see the comment)")
	}
	h := servertest.New(b, servertest.Options{})
	units, incidents := forceIDs(b, h, ds, "Organization"), forceIDs(b, h, ds, "Event")
	workloads := commandWorkloads(rand.New(rand.NewPCG(1, 2)), units, incidents)
	for _, w := range workloads {
		b.Run(w.name, func(b *testing.B) {
			for range 20 { // warm the statement cache and the page cache
				h.MustPost(w.query, w.vars())
			}
			took := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for range b.N {
				vars := w.vars()
				// Timed to the answer's last byte, as a load tool would (the
				// client's own decoding is not the service's time), then
				// checked for errors.
				start := time.Now()
				status, body := h.PostTimed(w.query, vars)
				took = append(took, time.Since(start))
				if status != http.StatusOK || bytes.Contains(body, []byte(`"errors"`)) {
					b.Fatalf("%s: %d %s", w.name, status, body)
				}
			}
			b.StopTimer()
			p50, p95 := percentiles(took)
			b.ReportMetric(ms(p50), "p50-ms")
			b.ReportMetric(ms(p95), "p95-ms")
		})
	}
}

// commandWorkload is a command query and its variables, drawn at random.
type commandWorkload struct {
	name, query string
	vars        func() map[string]any
}

// commandWorkloads are the benchmarks' queries: commandChain at random
// units (of every echelon) and days from 2005 to 2024, whoWasInCommand at
// random incidents.
func commandWorkloads(rng *rand.Rand, units, incidents []string) []commandWorkload {
	return []commandWorkload{
		{"commandChain", `query($id: ID!, $at: PartialDate!) { commandChain(unitId: $id, at: $at) { ` + chain + ` } }`,
			func() map[string]any {
				at := time.Date(2005+rng.IntN(20), time.Month(1+rng.IntN(12)), 1+rng.IntN(28), 0, 0, 0, 0, time.UTC)
				return map[string]any{"id": units[rng.IntN(len(units))], "at": at.Format("2006-01-02")}
			}},
		{"whoWasInCommand", whoWasInCommandQuery,
			func() map[string]any { return map[string]any{"id": incidents[rng.IntN(len(incidents))]} }},
	}
}

// The benchmarks' selections: every level's units, their commanders and
// superiors, each hop's relation with its quote and sources.
const (
	hop                  = `overlap entity { id name } relation { id role startDate endDate status confidence quote sources { id title } }`
	unit                 = `unit { id name } overlap commandersRecord superiorsRecord commanders { ` + hop + ` } superiors { ` + hop + ` }`
	chain                = `truncated unit { ` + unit + ` } levels { level units { ` + unit + ` } }`
	whoWasInCommandQuery = `query($id: ID!) { whoWasInCommand(incidentId: $id) { from to truncated
				people { person { id name } } units { unit { id name } ties { kind overlap place { id name } relation { id sources { id } } } chain { ` + chain + ` } } } }`
)

// namesOnlyQuery is whoWasInCommand asked for the names of the units tied
// and of every unit, commander and superior of their chains, no evidence.
const namesOnlyQuery = `query($id: ID!) { whoWasInCommand(incidentId: $id) { from to truncated people { person { id name } }
	units { unit { id name } ties { kind overlap } chain { truncated
		unit { unit { id name } commanders { overlap entity { id name } } superiors { overlap entity { id name } } }
		levels { level units { unit { id name } commanders { overlap entity { id name } } superiors { overlap entity { id name } } } } } } } }`

// BenchmarkSplitWhoWasInCommand splits whoWasInCommand's time at 60
// random incidents of the force (after 20 to warm up) into Neo4j's (plan,
// run and stream: the result summary's), the statement's call from Go
// (with the driver's decoding), the store's (with the assembly) and the
// whole request's (HTTP, GraphQL), the p50 of each, and the answer's size.
func BenchmarkSplitWhoWasInCommand(b *testing.B) {
	ds := os.Getenv("CASEGRAPH_BENCH_FORCE")
	if ds == "" {
		b.Skip("set CASEGRAPH_BENCH_FORCE to an imported force (see BenchmarkCommandQueries)")
	}
	// The first request plans the statement, which takes longer than a
	// request's time on a loaded machine.
	h := servertest.New(b, servertest.Options{Config: func(c *server.Config) { c.RequestTimeout = 5 * time.Minute }})
	incidents := forceIDs(b, h, ds, "Event")
	read := casegraph.CommandRead{WithSources: true}
	for b.Loop() {
		rng := rand.New(rand.NewPCG(5, 6))
		var server, statement, store, request []time.Duration
		var bytes, units, tied int
		for i := range 80 {
			id := incidents[rng.IntN(len(incidents))]
			q := casegraph.NewWhoWasInCommandRequest(id)
			ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 5*time.Minute)
			inNeo4j, wall, err := h.Store.TimeWhoWasInCommand(ctx, q, read)
			if err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			answer, _, err := h.Store.WhoWasInCommand(ctx, q, read)
			inStore := time.Since(start)
			cancel()
			if err != nil {
				b.Fatal(err)
			}
			start = time.Now()
			resp := h.Post(whoWasInCommandQuery, map[string]any{"id": id})
			inRequest := time.Since(start)
			if i < 20 {
				continue
			}
			if len(resp.Errors) > 0 {
				b.Fatalf("%s: %s", id, resp.Raw)
			}
			server, statement, store, request = append(server, inNeo4j), append(statement, wall), append(store, inStore), append(request, inRequest)
			bytes += len(resp.Raw)
			tied += len(answer.Units)
			for _, u := range answer.Units {
				for _, l := range u.Chain.Levels {
					units += len(l)
				}
			}
		}
		for _, m := range []struct {
			name string
			took []time.Duration
		}{{"neo4j", server}, {"statement", statement}, {"store", store}, {"request", request}} {
			p50, _ := percentiles(m.took)
			b.ReportMetric(ms(p50), m.name+"-p50-ms")
		}
		b.ReportMetric(float64(bytes)/60/1024, "answer-KiB")
		b.ReportMetric(float64(tied)/60, "tied-units")
		b.ReportMetric(float64(units)/60, "chain-units")
	}
}

// forceIDs are the ids of a kind in the force's dataset.
func forceIDs(b *testing.B, h *servertest.Harness, ds, kind string) []string {
	b.Helper()
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), time.Minute)
	defer cancel()
	res, err := neo4j.ExecuteQuery(ctx, h.Store.Driver(),
		`MATCH (e:Entity {dataset: $ds}) WHERE $kind IN labels(e) RETURN collect(e.id) AS ids`,
		map[string]any{"ds": ds, "kind": kind}, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase("neo4j"))
	if err != nil {
		b.Fatal(err)
	}
	raw, _ := res.Records[0].Get("ids")
	var ids []string
	for _, v := range raw.([]any) {
		ids = append(ids, v.(string))
	}
	if len(ids) == 0 {
		b.Fatalf("dataset %s has no %s: import the force first", ds, kind)
	}
	return ids
}

// BenchmarkProfileWhoWasInCommand times the store's WhoWasInCommand (no
// HTTP, no GraphQL) at 60 random incidents of the force, reports its p50
// and p95, and prints the PROFILE of the slowest: where the statement's
// time goes (run once: -benchtime 1x; the force as for
// BenchmarkCommandQueries).
func BenchmarkProfileWhoWasInCommand(b *testing.B) {
	ds := os.Getenv("CASEGRAPH_BENCH_FORCE")
	if ds == "" {
		b.Skip("set CASEGRAPH_BENCH_FORCE to an imported force (see BenchmarkCommandQueries)")
	}
	h := servertest.New(b, servertest.Options{})
	incidents := forceIDs(b, h, ds, "Event")
	rng := rand.New(rand.NewPCG(3, 4))
	read := casegraph.CommandRead{WithSources: true}
	for b.Loop() {
		var slowest time.Duration
		var worst casegraph.WhoWasInCommandRequest
		took := make([]time.Duration, 0, 60)
		for i := range 80 {
			q := casegraph.NewWhoWasInCommandRequest(incidents[rng.IntN(len(incidents))])
			ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 30*time.Second)
			start := time.Now()
			_, _, err := h.Store.WhoWasInCommand(ctx, q, read)
			t := time.Since(start)
			cancel()
			if err != nil {
				b.Fatal(err)
			}
			if i < 20 { // warm-up
				continue
			}
			took = append(took, t)
			if t > slowest {
				slowest, worst = t, q
			}
		}
		p50, p95 := percentiles(took)
		b.ReportMetric(ms(p50), "p50-ms")
		b.ReportMetric(ms(p95), "p95-ms")
		prof, err := h.Store.ProfileWhoWasInCommand(casegraph.AsOperator(context.Background()), worst, read)
		if err != nil {
			b.Fatal(err)
		}
		out := fmt.Sprintf("slowest of 60 incidents: %s (%s)\n%s", slowest, worst.IncidentID, prof)
		if file := os.Getenv("CASEGRAPH_BENCH_PROFILE"); file != "" { // b.Log cuts a long plan
			if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
				b.Fatal(err)
			}
			continue
		}
		b.Log(out)
	}
}

// BenchmarkCommandSelection measures what reading only the selected
// properties brings to the command queries through the whole service, on
// the force (as for BenchmarkCommandQueries), with BenchmarkCommandQueries'
// selections and whoWasInCommand asked for names only: each request is asked twice, in turn first, once as before
// (every entity and relation property read: the store sees no
// properties) and once as the selection asks, so that both meet the same
// load; p50 and p95 of each after 20 warm-up requests, and the ratios.
func BenchmarkCommandSelection(b *testing.B) {
	ds := os.Getenv("CASEGRAPH_BENCH_FORCE")
	if ds == "" {
		b.Skip("set CASEGRAPH_BENCH_FORCE to an imported force (see BenchmarkCommandQueries)")
	}
	var everything atomic.Bool
	h := servertest.New(b, servertest.Options{
		Config: func(c *server.Config) { c.RequestTimeout = 5 * time.Minute }, // the first plans take long
		Store:  func(s server.Store) server.Store { return everyProperty{Store: s, on: &everything} },
	})
	units, incidents := forceIDs(b, h, ds, "Organization"), forceIDs(b, h, ds, "Event")
	rng := rand.New(rand.NewPCG(7, 8))
	workloads := append(commandWorkloads(rng, units, incidents),
		// A client that asks for names only (no evidence).
		commandWorkload{"whoWasInCommand-names", namesOnlyQuery,
			func() map[string]any { return map[string]any{"id": incidents[rng.IntN(len(incidents))]} }})
	for _, w := range workloads {
		b.Run(w.name, func(b *testing.B) {
			var before, after []time.Duration
			for i := range 20 + b.N {
				vars := w.vars()
				for j := range 2 {
					full := (i+j)%2 == 0 // in turn first
					everything.Store(full)
					start := time.Now()
					h.MustPost(w.query, vars)
					took := time.Since(start)
					switch {
					case i < 20:
					case full:
						before = append(before, took)
					default:
						after = append(after, took)
					}
				}
			}
			b50, b95 := percentiles(before)
			a50, a95 := percentiles(after)
			b.ReportMetric(ms(b50), "before-p50-ms")
			b.ReportMetric(ms(b95), "before-p95-ms")
			b.ReportMetric(ms(a50), "after-p50-ms")
			b.ReportMetric(ms(a95), "after-p95-ms")
			b.ReportMetric(float64(a50)/float64(b50), "p50-ratio")
			b.ReportMetric(float64(a95)/float64(b95), "p95-ratio")
		})
	}
}

// everyProperty is the store as it was before the command queries read
// only the selected properties, while on says so.
type everyProperty struct {
	server.Store
	on *atomic.Bool
}

func (s everyProperty) CommandChain(ctx context.Context, q casegraph.CommandChainRequest, read casegraph.CommandRead) (casegraph.CommandChain, []casegraph.Source, error) {
	if s.on.Load() {
		read.Properties = nil
	}
	return s.Store.CommandChain(ctx, q, read)
}

func (s everyProperty) WhoWasInCommand(ctx context.Context, q casegraph.WhoWasInCommandRequest, read casegraph.CommandRead) (casegraph.IncidentCommand, []casegraph.Source, error) {
	if s.on.Load() {
		read.Properties = nil
	}
	return s.Store.WhoWasInCommand(ctx, q, read)
}
