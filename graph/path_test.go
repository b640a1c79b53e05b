package graph_test

// Path searches over the API: shortest paths with their evidence, filters,
// k paths, edge cases, neighbourhoods and connections, and their sources
// read only when selected.

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server/servertest"
)

const pathQuery = `query Path($from: ID!, $to: ID!, $filter: PathFilter) {
  shortestPath(from: $from, to: $to, filter: $filter) {
    length
    nodes { id kind }
    steps { forward from { id } to { id } relation { id type startDate endDate confidence status from { id } to { id } sources { id title } } }
  }
}`

// seedPaths is a server over the seed, loaded into the test's own dataset.
type seedPaths struct {
	h  *servertest.Harness
	ds string
	id func(string) string
}

func newSeedPaths(t *testing.T) seedPaths {
	t.Helper()
	h := servertest.New(t, servertest.Options{})
	ds, id := cyphertest.LoadSeed(t, h.Store)
	return seedPaths{h: h, ds: ds, id: id}
}

// filter returns a PathFilter limited to the test's dataset, with extras.
func (s seedPaths) filter(extra map[string]any) map[string]any {
	f := map[string]any{"datasets": []string{s.ds}}
	for k, v := range extra {
		f[k] = v
	}
	return f
}

// shortest returns the seed ids along the shortest path, or nil.
func (s seedPaths) shortest(t *testing.T, from, to string, filter map[string]any) []string {
	t.Helper()
	res := s.h.MustPost(pathQuery, map[string]any{"from": s.id(from), "to": s.id(to), "filter": s.filter(filter)})
	p, _ := res.Data["shortestPath"].(map[string]any)
	if p == nil {
		return nil
	}
	return s.nodeIDs(p)
}

func (s seedPaths) nodeIDs(p map[string]any) []string {
	var ids []string
	for _, n := range p["nodes"].([]any) {
		ids = append(ids, strings.TrimPrefix(n.(map[string]any)["id"].(string), s.ds+":"))
	}
	return ids
}

func TestShortestPathWithEvidence(t *testing.T) {
	t.Parallel()
	s := newSeedPaths(t)
	before := s.h.Store.RoundTrips()
	res := s.h.MustPost(pathQuery, map[string]any{"from": s.id("geoffrey-nice"), "to": s.id("qatar-government"), "filter": s.filter(nil)})
	if trips := s.h.Store.RoundTrips() - before; trips != 1 {
		t.Errorf("%d round trips for a path with its entities, relations and sources, want 1", trips)
	}
	p := res.Data["shortestPath"].(map[string]any)
	got := s.nodeIDs(p)
	want := []string{"geoffrey-nice", "caesar-report", "carter-ruck", "qatar-government"}
	if !slices.Equal(got, want) {
		t.Fatalf("path %v, want %v", got, want)
	}
	if p["length"] != float64(3) {
		t.Errorf("length %v", p["length"])
	}
	for i, st := range p["steps"].([]any) {
		step := st.(map[string]any)
		rel := step["relation"].(map[string]any)
		if len(rel["sources"].([]any)) == 0 {
			t.Errorf("step %d (%s) has no source", i, rel["type"])
		}
		from, to := step["from"].(map[string]any)["id"], step["to"].(map[string]any)["id"]
		relFrom := rel["from"].(map[string]any)["id"]
		if step["forward"] != (relFrom == from) || from != s.id(got[i]) || to != s.id(got[i+1]) {
			t.Errorf("step %d: %v", i, step)
		}
	}
}

// TestFiltersApplyDuringTheSearch asks for paths under each filter
// between entities whose shortest paths all break it (every unfiltered
// shortest path is shorter than the filtered one, or passes through what
// the filter leaves out): a path must still be found, longer, and keep
// the filter at every step, which a filter applied to the shortest path
// after the search could not give.
func TestFiltersApplyDuringTheSearch(t *testing.T) {
	t.Parallel()
	s := newSeedPaths(t)
	steps := func(p map[string]any) []map[string]any {
		var out []map[string]any
		for _, st := range p["steps"].([]any) {
			out = append(out, st.(map[string]any))
		}
		return out
	}
	rel := func(st map[string]any) map[string]any { return st["relation"].(map[string]any) }
	str := func(v any) string { x, _ := v.(string); return x }
	tests := []struct {
		name     string
		from, to string
		filter   map[string]any
		keeps    func(nodes []string, kinds []string, steps []map[string]any) string // what breaks the filter, or ""
	}{
		{"excluding the law firm", "geoffrey-nice", "qatar-government", map[string]any{"excludeIds": []string{s.id("carter-ruck")}},
			func(nodes, _ []string, _ []map[string]any) string {
				if slices.Contains(nodes, "carter-ruck") {
					return "passes through carter-ruck"
				}
				return ""
			}},
		{"without COMMISSIONED", "geoffrey-nice", "qatar-government", map[string]any{"excludeRelationTypes": []string{"COMMISSIONED"}},
			func(_, _ []string, steps []map[string]any) string {
				for _, st := range steps {
					if rel(st)["type"] == "COMMISSIONED" {
						return "a COMMISSIONED step"
					}
				}
				return ""
			}},
		{"only some relation types", "geoffrey-nice", "qatar-government", map[string]any{"relationTypes": []string{"AUTHORED", "ACCUSED", "LEADS", "STATEMENT_ABOUT"}},
			func(_, _ []string, steps []map[string]any) string {
				for _, st := range steps {
					if !slices.Contains([]string{"AUTHORED", "ACCUSED", "LEADS", "STATEMENT_ABOUT"}, str(rel(st)["type"])) {
						return "a " + str(rel(st)["type"]) + " step"
					}
				}
				return ""
			}},
		{"intermediate kinds", "caesar", "qatar-government", map[string]any{"kinds": []string{"PERSON", "ORGANIZATION", "EVENT"}},
			func(nodes, kinds []string, _ []map[string]any) string {
				for i := 1; i < len(kinds)-1; i++ {
					if !slices.Contains([]string{"PERSON", "ORGANIZATION", "EVENT"}, kinds[i]) {
						return "passes through the " + kinds[i] + " " + nodes[i]
					}
				}
				return ""
			}},
		{"minimum confidence", "geoffrey-nice", "london", map[string]any{"minConfidence": 0.95},
			func(_, _ []string, steps []map[string]any) string {
				for _, st := range steps {
					if c, _ := rel(st)["confidence"].(float64); c < 0.95 {
						return fmt.Sprintf("a step of confidence %v", rel(st)["confidence"])
					}
				}
				return ""
			}},
		{"valid in 2010", "william-hague", "carter-ruck", map[string]any{"validAt": "2010"},
			func(_, _ []string, steps []map[string]any) string {
				for _, st := range steps {
					start, end := str(rel(st)["startDate"]), str(rel(st)["endDate"])
					if (start != "" && start[:4] > "2010") || (end != "" && end[:4] < "2010") {
						return fmt.Sprintf("a step of %s to %s", start, end)
					}
				}
				return ""
			}},
	}
	path := func(t *testing.T, from, to string, filter map[string]any) (nodes, kinds []string, st []map[string]any) {
		t.Helper()
		res := s.h.MustPost(pathQuery, map[string]any{"from": s.id(from), "to": s.id(to), "filter": s.filter(filter)})
		p, _ := res.Data["shortestPath"].(map[string]any)
		if p == nil {
			return nil, nil, nil
		}
		for _, n := range p["nodes"].([]any) {
			kinds = append(kinds, n.(map[string]any)["kind"].(string))
		}
		return s.nodeIDs(p), kinds, steps(p)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base, baseKinds, baseSteps := path(t, tt.from, tt.to, nil)
			if broken := tt.keeps(base, baseKinds, baseSteps); broken == "" {
				t.Fatalf("the shortest path %v keeps the filter already: pick a pair whose shortest paths break it", base)
			}
			got, kinds, st := path(t, tt.from, tt.to, tt.filter)
			if len(got) == 0 {
				t.Fatalf("no path under the filter (without it: %v)", base)
			}
			if broken := tt.keeps(got, kinds, st); broken != "" {
				t.Errorf("path %v %s", got, broken)
			}
			if len(got) <= len(base) {
				t.Errorf("path %v under the filter, no longer than %v without it", got, base)
			}
			if got[0] != tt.from || got[len(got)-1] != tt.to {
				t.Errorf("path %v does not go from %s to %s", got, tt.from, tt.to)
			}
		})
	}
	// Direction: no path of the seed from the author to Qatar's government
	// follows every arrow; one from Qatar's government to the killings
	// does, and each of its steps goes from one node to the next.
	if got, _, _ := path(t, "geoffrey-nice", "qatar-government", map[string]any{"direction": "OUTGOING"}); len(got) != 0 {
		t.Errorf("outgoing only: path %v, want none", got)
	}
	got, _, st := path(t, "qatar-government", "syria-detainee-killings", map[string]any{"direction": "OUTGOING"})
	if len(got) == 0 {
		t.Fatal("outgoing only: no path from qatar-government to syria-detainee-killings")
	}
	for i, step := range st {
		if from := strings.TrimPrefix(str(rel(step)["from"].(map[string]any)["id"]), s.ds+":"); from != got[i] || step["forward"] != true {
			t.Errorf("outgoing only: step %d of %v goes from %s (forward %v)", i, got, from, step["forward"])
		}
	}
	// The path around an excluded entity is found, not dropped: with the
	// law firm out, a longer path remains.
	if got, _, _ := path(t, "geoffrey-nice", "qatar-government", map[string]any{"excludeIds": []string{s.id("carter-ruck")}, "maxDepth": 6}); len(got) == 0 {
		t.Error("excluding the law firm left no path within 6 hops")
	}
}

func TestKPaths(t *testing.T) {
	t.Parallel()
	s := newSeedPaths(t)
	res := s.h.MustPost(`query($from: ID!, $to: ID!, $f: PathFilter) { paths(from: $from, to: $to, k: 6, filter: $f) { length nodes { id } steps { relation { id } } } }`,
		map[string]any{"from": s.id("geoffrey-nice"), "to": s.id("qatar-government"), "f": s.filter(map[string]any{"maxDepth": 6})})
	paths := res.Data["paths"].([]any)
	if len(paths) < 3 {
		t.Fatalf("%d paths, want several", len(paths))
	}
	seen := map[string]bool{}
	last := 0
	for _, p := range paths {
		pm := p.(map[string]any)
		ids := s.nodeIDs(pm)
		n := int(pm["length"].(float64))
		if n < last {
			t.Errorf("paths not ordered by length: %d after %d", n, last)
		}
		last = n
		if ids[0] != "geoffrey-nice" || ids[len(ids)-1] != "qatar-government" || len(ids) != n+1 {
			t.Errorf("path %v of length %d", ids, n)
		}
		sorted := slices.Clone(ids)
		slices.Sort(sorted)
		if len(slices.Compact(sorted)) != len(ids) {
			t.Errorf("path %v is not simple", ids)
		}
		var rels []string
		for _, st := range pm["steps"].([]any) {
			rels = append(rels, st.(map[string]any)["relation"].(map[string]any)["id"].(string))
		}
		key := strings.Join(rels, ",")
		if seen[key] {
			t.Errorf("path %v twice", ids)
		}
		seen[key] = true
	}
}

func TestPathEdgeCases(t *testing.T) {
	t.Parallel()
	s := newSeedPaths(t)
	if got := s.shortest(t, "geoffrey-nice", "qatar-government", map[string]any{"maxDepth": 1}); got != nil {
		t.Errorf("within 1 hop: %v, want null", got)
	}
	res := s.h.MustPost(`query($a: ID!, $b: ID!, $f: PathFilter) { paths(from: $a, to: $b, filter: $f) { length } }`,
		map[string]any{"a": s.id("geoffrey-nice"), "b": s.id("qatar-government"), "f": s.filter(map[string]any{"maxDepth": 1})})
	if got := res.Data["paths"].([]any); len(got) != 0 {
		t.Errorf("paths within 1 hop: %v, want []", got)
	}
	// From an entity to itself, every search gives the path of no
	// relations (casegraph.PathRequest), answered by the store in its one
	// statement.
	same := s.h.MustPost(pathQuery, map[string]any{"from": s.id("caesar"), "to": s.id("caesar")})
	if p := same.Data["shortestPath"].(map[string]any); p["length"] != float64(0) || len(p["nodes"].([]any)) != 1 {
		t.Errorf("from equal to to: %v", p)
	}
	sameK := s.h.MustPost(`query($a: ID!) { paths(from: $a, to: $a, k: 5) { length nodes { id } steps { label } } }`, map[string]any{"a": s.id("caesar")})
	want := []any{map[string]any{"length": float64(0), "nodes": []any{map[string]any{"id": s.id("caesar")}}, "steps": []any{}}}
	if diff := cmp.Diff(want, sameK.Data["paths"]); diff != "" {
		t.Errorf("paths from equal to to (-want +got):\n%s", diff)
	}
	explained := s.h.MustPost(`query($a: ID!) { pathExplanation(from: $a, to: $a) { found length message } }`, map[string]any{"a": s.id("caesar")})
	if diff := cmp.Diff(map[string]any{"found": true, "length": float64(0), "message": "from and to are the same entity: a path of 0 relations"},
		explained.Data["pathExplanation"]); diff != "" {
		t.Errorf("pathExplanation from equal to to (-want +got):\n%s", diff)
	}

	bad := []struct {
		name, query string
		vars        map[string]any
		code        string
	}{
		{"unknown from", pathQuery, map[string]any{"from": s.id("ghost"), "to": s.id("caesar")}, "NOT_FOUND"},
		{"unknown to", pathQuery, map[string]any{"from": s.id("caesar"), "to": s.id("ghost")}, "NOT_FOUND"},
		{"unknown, same", pathQuery, map[string]any{"from": s.id("ghost"), "to": s.id("ghost")}, "NOT_FOUND"},
	}
	for _, tt := range bad { // refused arguments: TestPathArgumentsRefused
		t.Run(tt.name, func(t *testing.T) {
			res := s.h.Post(tt.query, tt.vars)
			if res.Code() != tt.code {
				t.Fatalf("got %s, want %s", truncate(res.Raw), tt.code)
			}
		})
	}
}

func TestNeighborhoodAndConnections(t *testing.T) {
	t.Parallel()
	s := newSeedPaths(t)
	q := `query($id: ID!, $depth: Int, $limit: Int, $f: PathFilter) { neighborhood(id: $id, depth: $depth, limit: $limit, filter: $f) {
		truncated nodes { id } relations { id type from { id } to { id } sources { id } } } }`
	one := s.h.MustPost(q, map[string]any{"id": s.id("caesar"), "depth": 1, "f": s.filter(nil)}).Data["neighborhood"].(map[string]any)
	if one["truncated"] != false || len(one["nodes"].([]any)) != 5 { // Caesar and his four neighbours
		t.Errorf("depth 1 around Caesar: %v", one)
	}
	cut := s.h.MustPost(q, map[string]any{"id": s.id("caesar"), "depth": 2, "limit": 3, "f": s.filter(nil)}).Data["neighborhood"].(map[string]any)
	if cut["truncated"] != true || len(cut["nodes"].([]any)) != 4 {
		t.Errorf("depth 2, limit 3: %v", cut)
	}
	// Every relation of a subgraph joins two of its nodes.
	nodes := map[any]bool{}
	for _, n := range cut["nodes"].([]any) {
		nodes[n.(map[string]any)["id"]] = true
	}
	for _, r := range cut["relations"].([]any) {
		rm := r.(map[string]any)
		if !nodes[rm["from"].(map[string]any)["id"]] || !nodes[rm["to"].(map[string]any)["id"]] {
			t.Errorf("relation %v leaves the subgraph", rm["id"])
		}
	}

	cq := `query($ids: [ID!]!, $f: PathFilter) { connections(ids: $ids, filter: $f) { nodes { id } relations { type } unconnectedPairs { a { id } b { id } } } }`
	res := s.h.MustPost(cq, map[string]any{"ids": []string{s.id("geoffrey-nice"), s.id("william-hague"), s.id("sierra-leone")}, "f": s.filter(map[string]any{"maxDepth": 2})})
	c := res.Data["connections"].(map[string]any)
	pairs := c["unconnectedPairs"].([]any)
	if len(pairs) != 2 {
		t.Errorf("unconnected pairs within 2 hops: %v, want Sierra Leone with each of the others", pairs)
	}
	if len(c["nodes"].([]any)) != 3 { // Nice, the report, Hague
		t.Errorf("connections nodes: %v", c["nodes"])
	}
	miss := s.h.Post(cq, map[string]any{"ids": []string{s.id("caesar"), s.id("ghost")}})
	if miss.Code() != "NOT_FOUND" {
		t.Errorf("connections with an unknown id: %s", truncate(miss.Raw))
	}
}

// TestPathSourcesOnlyWhenSelected: a path search reads the sources of its
// entities and relations in the same statement when the query selects
// sources anywhere under it (fragments included), and reads none when it
// does not; either way the request is one round trip.
func TestPathSourcesOnlyWhenSelected(t *testing.T) {
	t.Parallel()
	s := newSeedPaths(t)
	vars := map[string]any{"a": s.id("geoffrey-nice"), "b": s.id("qatar-government"), "f": s.filter(nil)}
	tests := []struct {
		name, query string
		sources     bool
	}{
		{"path without sources", `query($a: ID!, $b: ID!, $f: PathFilter) { shortestPath(from: $a, to: $b, filter: $f) { length nodes { id } steps { relation { id } } } }`, false},
		{"path with relation sources", `query($a: ID!, $b: ID!, $f: PathFilter) { shortestPath(from: $a, to: $b, filter: $f) { steps { relation { sources { id } } } } }`, true},
		{"sources in a fragment", `query($a: ID!, $b: ID!, $f: PathFilter) { paths(from: $a, to: $b, k: 2, filter: $f) { nodes { ...E } } }
			fragment E on Entity { id sources { title } }`, true},
		{"sources skipped", `query($a: ID!, $b: ID!, $f: PathFilter) { paths(from: $a, to: $b, filter: $f) { nodes { id sources @skip(if: true) { id } } } }`, false},
		{"neighborhood without sources", `query($a: ID!, $f: PathFilter) { neighborhood(id: $a, filter: $f) { nodes { id } relations { id } } }`, false},
		{"neighborhood with sources", `query($a: ID!, $f: PathFilter) { neighborhood(id: $a, filter: $f) { nodes { sources { id } } } }`, true},
		{"connections without sources", `query($a: ID!, $b: ID!, $f: PathFilter) { connections(ids: [$a, $b], filter: $f) { nodes { id } } }`, false},
		{"connections with sources", `query($a: ID!, $b: ID!, $f: PathFilter) { connections(ids: [$a, $b], filter: $f) { relations { sources { id } } } }`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, trips := pathStatements(t, s.h), s.h.Store.RoundTrips()
			s.h.MustPost(tt.query, vars)
			if trips := s.h.Store.RoundTrips() - trips; trips != 1 {
				t.Errorf("%d round trips, want 1", trips)
			}
			after := pathStatements(t, s.h)
			with, without := after[true]-before[true], after[false]-before[false]
			if tt.sources && (with != 1 || without != 0) || !tt.sources && (with != 0 || without != 1) {
				t.Errorf("%v statements with sources and %v without, want the one %s", with, without, map[bool]string{true: "with", false: "without"}[tt.sources])
			}
		})
	}
}

// pathStatements counts the path statements the server has run, from its
// metrics: those that read sources and those that do not.
func pathStatements(t *testing.T, h *servertest.Harness) map[bool]float64 {
	t.Helper()
	res := h.Get("/metrics")
	out := map[bool]float64{}
	for _, line := range strings.Split(res.Raw, "\n") {
		rest, ok := strings.CutPrefix(line, `casegraph_cypher_queries_total{query="`)
		if !ok {
			continue
		}
		name, count, _ := strings.Cut(rest, `"} `)
		if !strings.HasPrefix(name, "Paths/") && !strings.HasPrefix(name, "Neighborhood/") && !strings.HasPrefix(name, "Connections/") {
			continue
		}
		var n float64
		if _, err := fmt.Sscan(count, &n); err != nil {
			t.Fatalf("metrics line %q: %v", line, err)
		}
		out[!strings.HasSuffix(name, "/nosources")] += n
	}
	return out
}

// TestShortestPathFromEitherEnd: the search starts from the end with
// fewer relations (Paths.cypher.tmpl), and reads the path backwards when
// that is the to end; the answer is the same path from from to to
// whichever end it started from, each step joining the nodes on either
// side of it, forward along its relation for OUTGOING. The ends of each
// pair have different degrees, so that one order starts from from and the
// other from to (OUTGOING: a pair whose from end has more relations, and
// one whose from end has fewer).
func TestShortestPathFromEitherEnd(t *testing.T) {
	t.Parallel()
	s := newSeedPaths(t)
	degree := func(id string) float64 {
		res := s.h.MustPost(`query($id: ID!) { entity(id: $id) { relations(first: 1) { totalCount } } }`, map[string]any{"id": s.id(id)})
		return res.Data["entity"].(map[string]any)["relations"].(map[string]any)["totalCount"].(float64)
	}
	tests := []struct {
		direction, from, to string
		length              int
	}{
		{"ANY", "qatar-government", "geoffrey-nice", 3},
		{"ANY", "geoffrey-nice", "qatar-government", 3},
		{"OUTGOING", "desmond-de-silva", "geneva", 3},
		{"OUTGOING", "desmond-de-silva", "syrian-government", 2},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("%s %s to %s", tt.direction, tt.from, tt.to)
		if degree(tt.from) == degree(tt.to) {
			t.Fatalf("%s: the ends have the same degree: the test needs ends of different degrees", name)
		}
		res := s.h.MustPost(pathQuery, map[string]any{"from": s.id(tt.from), "to": s.id(tt.to), "filter": s.filter(map[string]any{"direction": tt.direction, "maxDepth": 6})})
		p, _ := res.Data["shortestPath"].(map[string]any)
		if p == nil {
			t.Errorf("%s: no path", name)
			continue
		}
		ids := s.nodeIDs(p)
		if ids[0] != tt.from || ids[len(ids)-1] != tt.to || int(p["length"].(float64)) != tt.length {
			t.Errorf("%s: path %v of length %v, want one of length %d from %s to %s", name, ids, p["length"], tt.length, tt.from, tt.to)
		}
		for i, st := range p["steps"].([]any) {
			step := st.(map[string]any)
			rel := step["relation"].(map[string]any)
			from, to := step["from"].(map[string]any)["id"], step["to"].(map[string]any)["id"]
			relFrom, relTo := rel["from"].(map[string]any)["id"], rel["to"].(map[string]any)["id"]
			joins := (step["forward"] == true && relFrom == from && relTo == to) || (step["forward"] == false && relFrom == to && relTo == from)
			if from != s.id(ids[i]) || to != s.id(ids[i+1]) || !joins {
				t.Errorf("%s: step %d %v does not join %s and %s", name, i, step, ids[i], ids[i+1])
			}
			if tt.direction == "OUTGOING" && step["forward"] != true {
				t.Errorf("%s: step %d goes against its relation", name, i)
			}
		}
	}
}
