package cypher_test

// Benchmarks of a page of a hub's relations (issue 28 item 2): one entity
// with 50,000 relations, a few of them to protected people, in a dataset
// of the benchmark's own.

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/dataset"
)

// hubRelations is the hub's degree; hubProtected how many of its people
// are protected (each with hubPerPerson relations to it).
const (
	hubRelations = 50000
	hubPerPerson = 2
	hubProtected = 5
)

// hubBatch is a hub organization with hubRelations relations from
// people, hubProtected of them protected, and the ids of its relations
// with no protected end, sorted (the cursors of the benchmarks).
func hubBatch(ds string) (dataset.Batch, string, []string) {
	src := casegraph.Source{ID: ds + ":src", Title: "Hub register", Dataset: ds}
	hub := casegraph.Entity{ID: ds + ":hub", Kind: casegraph.KindOrganization, Name: "Hub Ministry", Dataset: ds, SourceIDs: []string{src.ID}}
	b := dataset.Batch{Sources: []casegraph.Source{src}, Entities: []casegraph.Entity{hub}}
	var open []string
	for i := range hubRelations / hubPerPerson {
		p := casegraph.Entity{ID: fmt.Sprintf("%s:p%05d", ds, i), Kind: casegraph.KindPerson, Name: fmt.Sprintf("Member %d", i),
			Dataset: ds, SourceIDs: []string{src.ID}}
		// Spread over the id order: near the start, the middle and the end.
		p.Protected = i%(hubRelations/hubPerPerson/hubProtected) == 3
		b.Entities = append(b.Entities, p)
		for j, t := range []casegraph.RelationType{"MEMBER_OF", "EMPLOYED_BY"}[:hubPerPerson] {
			r := casegraph.Relation{ID: fmt.Sprintf("%s:r%05d-%d", ds, i, j), Type: t, FromID: p.ID, ToID: hub.ID,
				Status: casegraph.StatusReported, Dataset: ds, SourceIDs: []string{src.ID}}
			b.Relations = append(b.Relations, r)
			if !p.Protected {
				open = append(open, r.ID)
			}
		}
	}
	slices.Sort(open)
	line := 0
	for _, lines := range []*[]int{&b.SourceLines, &b.EntityLines, &b.RelationLines} {
		n := map[*[]int]int{&b.SourceLines: len(b.Sources), &b.EntityLines: len(b.Entities), &b.RelationLines: len(b.Relations)}[lines]
		for range n {
			line++
			*lines = append(*lines, line)
		}
	}
	return b, hub.ID, open
}

// importHub imports hubBatch into a dataset of the benchmark's own.
func importHub(b *testing.B, s *cypher.Store) (string, []string) {
	b.Helper()
	ds := cyphertest.Dataset(b)
	batch, hub, open := hubBatch(ds)
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 10*time.Minute)
	defer cancel()
	if _, err := dataset.Import(ctx, batch, s, dataset.Options{}); err != nil {
		b.Fatal(err)
	}
	return hub, open
}

// hubCallers are the two callers of the benchmarks: readers of every
// dataset, without and with clearance.
func hubCallers() map[string]context.Context {
	reader := func(cleared bool) context.Context {
		return casegraph.WithPrincipal(context.Background(), casegraph.Principal{ID: "hub-reader", Role: casegraph.RoleReader,
			Datasets: []string{casegraph.AllDatasets}, Cleared: cleared})
	}
	return map[string]context.Context{"uncleared": reader(false), "cleared": reader(true)}
}

// BenchmarkHubPages measures a page of 10 of the hub's relations through
// the compiled read (ReadEntities, as entity { relations(first: 10,
// after) } asks for it) at the start, in the middle (by cursor) and at
// the end, for an uncleared and a cleared caller, interleaved request by
// request so that the six share the machine's noise: p50 and p95 of each.
//
//	go test ./cypher -run '^$' -bench HubPages -benchtime 100x
func BenchmarkHubPages(b *testing.B) {
	s := cyphertest.Store(b, cypher.Options{})
	hub, open := importHub(b, s)
	cursors := []struct{ name, after string }{
		{"start", ""}, {"middle", open[len(open)/2]}, {"end", open[len(open)-6]},
	}
	callers := hubCallers()
	type cell struct{ caller, at string }
	took := map[cell][]time.Duration{}
	read := func(ctx context.Context, after string) casegraph.ReadResult {
		ctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		res, err := s.ReadEntities(ctx, []string{hub}, &casegraph.EntityRead{Relations: []casegraph.RelationsRead{
			{Filter: casegraph.RelationFilter{Direction: casegraph.DirectionBoth}, Page: casegraph.Page{First: 10, After: after}},
		}})
		if err != nil {
			b.Fatal(err)
		}
		return res
	}
	// Planned once before the clock runs.
	for _, ctx := range callers {
		read(ctx, "")
	}
	for b.Loop() {
		for name, ctx := range callers {
			for _, c := range cursors {
				start := time.Now()
				res := read(ctx, c.after)
				took[cell{name, c.name}] = append(took[cell{name, c.name}], time.Since(start))
				if len(res.Pages) != 1 || len(res.Pages[0].Result.Relations) == 0 {
					b.Fatalf("%s %s: no page", name, c.name)
				}
			}
		}
	}
	for name := range callers {
		for _, c := range cursors {
			p50, p95 := percentiles(took[cell{name, c.name}])
			b.ReportMetric(ms(p50), name+"-"+c.name+"-p50-ms")
			b.ReportMetric(ms(p95), name+"-"+c.name+"-p95-ms")
		}
	}
}

// BenchmarkHubThreshold measures, for entities of a few degrees, a page
// of 20 relations with the entity at their other end (as W2 asks for
// it) read both ways the compiled read can: from the :RelationId
// registry (a store whose HubDegree is 1) and by the expansion (one whose
// HubDegree is past every degree), request by request in turn, for an
// uncleared caller: p50 of each, and their ratio. The degree where the
// ratio crosses 1 is where DefaultHubDegree belongs.
//
//	go test ./cypher -run '^$' -bench HubThreshold -benchtime 60x
func BenchmarkHubThreshold(b *testing.B) {
	registry := cyphertest.Store(b, cypher.Options{HubDegree: 1})
	expansion := cyphertest.Store(b, cypher.Options{HubDegree: 1 << 30})
	degrees := []int{10, 50, 100, 250, 500, 1000, 2500}
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 10*time.Minute)
	defer cancel()
	hubs := make([]string, len(degrees))
	for i, n := range degrees {
		batch, hub := smallHub(cyphertest.Dataset(b), n)
		if _, err := dataset.Import(ctx, batch, registry, dataset.Options{}); err != nil {
			b.Fatal(err)
		}
		hubs[i] = hub
	}
	caller := hubCallers()["uncleared"]
	read := &casegraph.EntityRead{Relations: []casegraph.RelationsRead{{
		Filter: casegraph.RelationFilter{Direction: casegraph.DirectionBoth}, Page: casegraph.Page{First: 20},
		Ends: &casegraph.EntityRead{},
	}}}
	page := func(s *cypher.Store, hub string) int {
		ctx, cancel := context.WithTimeout(caller, time.Minute)
		defer cancel()
		res, err := s.ReadEntities(ctx, []string{hub}, read)
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Pages) != 1 {
			b.Fatalf("%s: %d pages", hub, len(res.Pages))
		}
		return len(res.Pages[0].Result.Relations)
	}
	stores := []struct {
		name string
		s    *cypher.Store
	}{{"registry", registry}, {"expansion", expansion}}
	// Planned once, and the two ways give as many relations.
	for _, hub := range hubs {
		if a, b2 := page(registry, hub), page(expansion, hub); a != b2 || a == 0 {
			b.Fatalf("%s: %d relations from the registry, %d by the expansion", hub, a, b2)
		}
	}
	took := map[string][]time.Duration{}
	for b.Loop() {
		for i, hub := range hubs {
			for _, st := range stores {
				start := time.Now()
				page(st.s, hub)
				key := fmt.Sprintf("%s-%d", st.name, degrees[i])
				took[key] = append(took[key], time.Since(start))
			}
		}
	}
	for _, n := range degrees {
		reg, _ := percentiles(took[fmt.Sprintf("registry-%d", n)])
		exp, _ := percentiles(took[fmt.Sprintf("expansion-%d", n)])
		b.ReportMetric(ms(reg), fmt.Sprintf("registry-%d-p50-ms", n))
		b.ReportMetric(ms(exp), fmt.Sprintf("expansion-%d-p50-ms", n))
		b.ReportMetric(float64(reg)/float64(exp), fmt.Sprintf("ratio-%d", n))
	}
}

// BenchmarkHubPageDenseEnds measures the page a registry read finds
// hardest: a hub of 600 relations (past DefaultHubDegree) whose first
// page's 20 other ends each have 2,000 relations of the same type and
// direction (each member is itself a member of 2,000 others), where
// finding each row's relationship between its two ends could walk the
// smaller of the two ends' relations of that type: p50 and p95 of the
// first page of 20, with its ends, from the registry and by the
// expansion, request by request in turn.
//
//	go test ./cypher -run '^$' -bench HubPageDenseEnds -benchtime 40x
func BenchmarkHubPageDenseEnds(b *testing.B) {
	registry := cyphertest.Store(b, cypher.Options{})
	expansion := cyphertest.Store(b, cypher.Options{HubDegree: 1 << 30})
	ds := cyphertest.Dataset(b)
	batch, hub := smallHub(ds, 600)
	for i := range 20 {
		// p00..p19 come first in the hub's page order (r00..r19).
		from := fmt.Sprintf("%s:p%02d", ds, i)
		batch.Entities[1+i].Protected = false
		for j := range 2000 {
			org := casegraph.Entity{ID: fmt.Sprintf("%s:o%02d-%04d", ds, i, j), Kind: casegraph.KindOrganization, Name: "Other", Dataset: ds, SourceIDs: []string{ds + ":src"}}
			batch.Entities, batch.EntityLines = append(batch.Entities, org), append(batch.EntityLines, len(batch.EntityLines)+10000)
			r := member(ds, 100000+i*2000+j, from, org.ID)
			batch.Relations, batch.RelationLines = append(batch.Relations, r), append(batch.RelationLines, len(batch.RelationLines)+100000)
		}
	}
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 10*time.Minute)
	defer cancel()
	if _, err := dataset.Import(ctx, batch, registry, dataset.Options{}); err != nil {
		b.Fatal(err)
	}
	caller := hubCallers()["uncleared"]
	read := &casegraph.EntityRead{Relations: []casegraph.RelationsRead{{
		Filter: casegraph.RelationFilter{Direction: casegraph.DirectionBoth}, Page: casegraph.Page{First: 20},
		Ends: &casegraph.EntityRead{},
	}}}
	page := func(s *cypher.Store) []string {
		ctx, cancel := context.WithTimeout(caller, time.Minute)
		defer cancel()
		res, err := s.ReadEntities(ctx, []string{hub}, read)
		if err != nil {
			b.Fatal(err)
		}
		return ids(res.Pages[0].Result.Relations)
	}
	if a, e := page(registry), page(expansion); !slices.Equal(a, e) || len(a) != 20 {
		b.Fatalf("the registry's page %v, the expansion's %v", a, e)
	}
	took := map[string][]time.Duration{}
	for b.Loop() {
		for name, s := range map[string]*cypher.Store{"registry": registry, "expansion": expansion} {
			start := time.Now()
			page(s)
			took[name] = append(took[name], time.Since(start))
		}
	}
	for _, name := range []string{"registry", "expansion"} {
		p50, p95 := percentiles(took[name])
		b.ReportMetric(ms(p50), name+"-p50-ms")
		b.ReportMetric(ms(p95), name+"-p95-ms")
	}
}
