package cypher_test

// Planning time per statement family, on a fresh query cache, and whether
// a plan made by EXPLAIN serves the next real run of the same text (see
// bench/README.md, "Cold start"). Run with
//
//	go test ./cypher -run '^$' -bench Planning -benchtime 1x -v
//
// It clears Neo4j's query caches before every statement: run it alone.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
)

func clearCaches(b *testing.B, d neo4j.DriverWithContext) {
	b.Helper()
	if _, err := neo4j.ExecuteQuery(context.Background(), d, "CALL db.clearQueryCaches()", nil, neo4j.EagerResultTransformer); err != nil {
		b.Fatal(err)
	}
}

func timed(b *testing.B, d neo4j.DriverWithContext, text string, params map[string]any) time.Duration {
	b.Helper()
	start := time.Now()
	if _, err := neo4j.ExecuteQuery(context.Background(), d, text, params, neo4j.EagerResultTransformer,
		neo4j.ExecuteQueryWithReadersRouting()); err != nil {
		b.Fatalf("%.80s: %v", text, err)
	}
	return time.Since(start)
}

// compiledShapes are the texts the common requests render that are not
// named statements: the compiled read's shapes and the command
// statements' narrowed selections.
func compiledShapes(b *testing.B, s *cypher.Store) map[string]string {
	names := &casegraph.Properties{Entity: []string{"name"}, Relation: []string{}}
	ends := &casegraph.EntityRead{}
	page := func(first int, ends *casegraph.EntityRead) casegraph.RelationsRead {
		return casegraph.RelationsRead{Page: casegraph.Page{First: first}, Ends: ends}
	}
	reads := map[string]*casegraph.EntityRead{
		"ReadEntities/byId":       {Properties: names},
		"ReadEntities/relations":  {Properties: names, Relations: []casegraph.RelationsRead{page(20, ends)}},
		"ReadEntities/depth2":     {Properties: names, Relations: []casegraph.RelationsRead{page(10, &casegraph.EntityRead{Relations: []casegraph.RelationsRead{page(10, ends)}})}},
		"ReadEntities/everything": {Sources: true, Relations: []casegraph.RelationsRead{{Page: casegraph.Page{First: 20}, Total: true, Sources: true, Ends: ends}}},
	}
	out := map[string]string{}
	for name, read := range reads {
		for _, scoped := range []bool{false, true} {
			text, _, err := cypher.ReadText(s, read, scoped)
			if err != nil {
				b.Fatal(err)
			}
			out[fmt.Sprintf("%s/scoped=%t", name, scoped)] = text
		}
	}
	for _, stmt := range []string{"CommandChain", "WhoWasInCommand"} {
		_, text, err := cypher.CommandText(s, stmt, casegraph.DefaultCommandLevels, casegraph.CommandRead{Properties: names})
		if err != nil {
			b.Fatal(err)
		}
		out[stmt+"/names"] = text
	}
	return out
}

// BenchmarkPlanning reports, per statement family (a statement and its
// variants), the time EXPLAIN takes on a cleared query cache: planning.
func BenchmarkPlanning(b *testing.B) {
	s := cyphertest.Store(b, cypher.Options{})
	d := s.Driver()
	texts := map[string]string{}
	byFamily := map[string][]string{}
	for _, name := range cypher.StatementNames(s) {
		key, _, _ := strings.Cut(name, "/")
		byFamily[key] = append(byFamily[key], name)
	}
	// Up to four variants of each family, spread over its sorted names:
	// the path and per-type families have dozens, planned alike.
	for _, names := range byFamily {
		step := max(1, len(names)/4)
		for i := 0; i < len(names) && i/step < 4; i += step {
			texts[names[i]] = s.Statement(names[i])
		}
	}
	for name, text := range compiledShapes(b, s) {
		texts[name] = text
	}
	type family struct {
		n          int
		total, max time.Duration
		slowest    string
	}
	families := map[string]*family{}
	scope := cypher.ScopeParams(casegraph.FullScope, nil)
	for name, text := range texts {
		clearCaches(b, d)
		took := timed(b, d, "EXPLAIN "+text, scope)
		key, _, _ := strings.Cut(name, "/")
		if strings.HasPrefix(name, "ReadEntities/") || strings.HasSuffix(name, "/names") {
			key = name
		}
		f := families[key]
		if f == nil {
			f = &family{}
			families[key] = f
		}
		f.n++
		f.total += took
		if took > f.max {
			f.max, f.slowest = took, name
		}
	}
	keys := make([]string, 0, len(families))
	for k := range families {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var all time.Duration
	b.Logf("| family | texts planned (of its variants) | mean ms | max ms | slowest |")
	for _, k := range keys {
		f := families[k]
		all += f.total
		b.Logf("| %s | %d (%d) | %.0f | %.0f | %s |", k, f.n, max(f.n, len(byFamily[k])), float64(f.total.Milliseconds())/float64(f.n), float64(f.max.Milliseconds()), f.slowest)
	}
	b.Logf("%d texts, %s planning in all", len(texts), all.Round(time.Millisecond))
}

// BenchmarkExplainReuse measures whether a plan made by EXPLAIN serves the
// next real run of the same text: the first real run after clearing the
// caches, after EXPLAIN without the statement's own parameters, after
// EXPLAIN with them, and a second real run.
func BenchmarkExplainReuse(b *testing.B) {
	s := cyphertest.Store(b, cypher.Options{})
	d := s.Driver()
	read := &casegraph.EntityRead{Relations: []casegraph.RelationsRead{{Page: casegraph.Page{First: 10},
		Ends: &casegraph.EntityRead{Relations: []casegraph.RelationsRead{{Page: casegraph.Page{First: 10}, Ends: &casegraph.EntityRead{}}}}}}}
	text, params, err := cypher.ReadText(s, read, false)
	if err != nil {
		b.Fatal(err)
	}
	params = cypher.ScopeParams(casegraph.FullScope, params)
	params["ids"] = []string{"warm-reuse-nothing"}
	scope := cypher.ScopeParams(casegraph.FullScope, nil)
	cases := []struct {
		name   string
		before func()
	}{
		{"cleared", func() {}},
		{"after EXPLAIN, scope only", func() { timed(b, d, "EXPLAIN "+text, scope) }},
		{"after EXPLAIN, same parameters", func() { timed(b, d, "EXPLAIN "+text, params) }},
		{"after a real run", func() { timed(b, d, text, params) }},
	}
	for round := 0; round < 3; round++ {
		for _, c := range cases {
			clearCaches(b, d)
			c.before()
			b.Logf("round %d, %s: first real run %s", round, c.name, timed(b, d, text, params).Round(time.Millisecond))
		}
	}
}

// BenchmarkReadTexts counts the texts the compiled read renders for the
// common shapes (an entity, its relations with their ends, depth two,
// everything), each with the property sets clients select (bench/'s
// names, the explorer's, every property), for a caller who may read
// every dataset and one who may not: how many plans Neo4j makes for them.
func BenchmarkReadTexts(b *testing.B) {
	s := cyphertest.Store(b, cypher.Options{})
	ends := &casegraph.EntityRead{}
	page := func(first int, ends *casegraph.EntityRead) casegraph.RelationsRead {
		return casegraph.RelationsRead{Page: casegraph.Page{First: first}, Ends: ends}
	}
	shapes := map[string]casegraph.EntityRead{
		"byId":       {},
		"relations":  {Relations: []casegraph.RelationsRead{page(20, ends)}},
		"depth2":     {Relations: []casegraph.RelationsRead{page(10, &casegraph.EntityRead{Relations: []casegraph.RelationsRead{page(10, ends)}})}},
		"everything": {Sources: true, Relations: []casegraph.RelationsRead{{Page: casegraph.Page{First: 20}, Total: true, Sources: true, Ends: ends}}},
	}
	props := []*casegraph.Properties{
		nil,
		{Entity: []string{"name"}, Relation: []string{}},
		{Entity: []string{"name", "aliases"}, Relation: []string{}},
		{Entity: []string{"name", "dataset", "protected", "description", "aliases", "coordinates"}, Relation: []string{"role", "startDate", "endDate", "status", "confidence", "dataset", "sourceIds", "citationGrades"}},
		{Entity: []string{"name", "description", "updatedAt"}, Relation: []string{"role", "status"}},
	}
	texts := map[string]bool{}
	n := 0
	for _, shape := range shapes {
		for _, p := range props {
			for _, scoped := range []bool{false, true} {
				read := shape
				read.Properties = p
				text, _, err := cypher.ReadText(s, &read, scoped)
				if err != nil {
					b.Fatal(err)
				}
				texts[text] = true
				n++
			}
		}
	}
	b.Logf("ReadEntities: %d distinct texts for %d reads (%d shapes x %d property sets x 2 scopes)", len(texts), n, len(shapes), len(props))
}
