package graph_test

// commonNeighbors: the entities related to both ends, and its scope.

import (
	"slices"
	"strings"
	"testing"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/google/go-cmp/cmp"
)

const commonQuery = `query($ids: [ID!]!, $f: PathFilter, $limit: Int) { commonNeighbors(ids: $ids, filter: $f, limit: $limit) {
  entity { id name sources { id } } relations { id type from { id } to { id } sources { id } } } }`

// commonFixture: A and B share N (three relations), M (two), the protected
// W (two) and, in a second dataset, O (two); P is A's alone, and A and B
// are related to each other (which makes neither a common neighbour).
type commonFixture struct {
	fixture
	ds2 string
}

func newCommonFixture(t *testing.T) commonFixture {
	t.Helper()
	c := commonFixture{fixture: newFixture(t), ds2: cyphertest.Dataset(t)}
	f := c.fixture
	src2 := c.ds2 + ":article"
	f.h.MustPost(`mutation S($in: SourceInput!) { upsertSource(input: $in) { id } }`,
		map[string]any{"in": map[string]any{"id": src2, "title": "Another article", "dataset": c.ds2}})
	for _, in := range []map[string]any{
		{"id": f.id("a"), "kind": "PERSON", "name": "Person A"},
		{"id": f.id("b"), "kind": "PERSON", "name": "Person B"},
		{"id": f.id("n"), "kind": "ORGANIZATION", "name": "Org N"},
		{"id": f.id("m"), "kind": "EVENT", "name": "Event M"},
		{"id": f.id("p"), "kind": "ORGANIZATION", "name": "Org P"},
		{"id": f.id("w"), "kind": "PERSON", "name": "Secret Witness Qz9", "protected": true},
		{"id": c.ds2 + ":o", "kind": "ORGANIZATION", "name": "Org O", "dataset": c.ds2, "sourceIds": []string{src2}},
	} {
		if res := f.upsert(t, in); len(res.Errors) > 0 {
			t.Fatal(res.Raw)
		}
	}
	for _, in := range []map[string]any{
		{"id": "an", "type": "MEMBER_OF", "from": "a", "to": "n", "status": "CONFIRMED", "confidence": 0.9, "startDate": "2010", "endDate": "2012"},
		{"id": "bn", "type": "MEMBER_OF", "from": "b", "to": "n", "status": "CONFIRMED", "confidence": 0.5},
		{"id": "bn2", "type": "EMPLOYED_BY", "from": "b", "to": "n"},
		{"id": "am", "type": "PARTICIPATED_IN", "from": "a", "to": "m", "confidence": 0.8},
		{"id": "bm", "type": "PARTICIPATED_IN", "from": "b", "to": "m", "confidence": 0.8},
		{"id": "ap", "type": "MEMBER_OF", "from": "a", "to": "p"},
		{"id": "ab", "type": "WORKED_WITH", "from": "a", "to": "b"},
		{"id": "aw", "type": "RELATED_TO", "from": "a", "to": "w"},
		{"id": "wb", "type": "RELATED_TO", "from": "w", "to": "b"},
	} {
		for _, k := range []string{"id", "from", "to"} {
			in[k] = f.id(in[k].(string))
		}
		in["dataset"] = f.ds
		if res := f.link(t, in); len(res.Errors) > 0 {
			t.Fatal(res.Raw)
		}
	}
	for _, end := range []string{"a", "b"} {
		in := map[string]any{"id": c.ds2 + ":" + end + "o", "type": "MEMBER_OF", "from": f.id(end), "to": c.ds2 + ":o",
			"dataset": c.ds2, "sourceIds": []string{src2}}
		if res := f.link(t, in); len(res.Errors) > 0 {
			t.Fatal(res.Raw)
		}
	}
	return c
}

// neighbours reads an answer as "id:relations" in its order, ids without
// their dataset, a redacted one as "redacted".
func (c commonFixture) neighbours(t *testing.T, data map[string]any) []string {
	t.Helper()
	var out []string
	for _, x := range data["commonNeighbors"].([]any) {
		x := x.(map[string]any)
		id := x["entity"].(map[string]any)["id"].(string)
		switch {
		case strings.HasPrefix(id, "protected-"):
			id = "redacted"
		default:
			id = strings.TrimPrefix(strings.TrimPrefix(id, c.ds+":"), c.ds2+":")
		}
		out = append(out, id+":"+strings.Repeat("r", len(x["relations"].([]any))))
	}
	if !slices.IsSortedFunc(out, byJoins) {
		t.Errorf("not the most joined first: %v", out)
	}
	// Ties come in the order of their ids, which depends on the datasets'
	// random prefixes and opaque ids: compare them as sets.
	slices.SortFunc(out, func(x, y string) int {
		if c := byJoins(x, y); c != 0 {
			return c
		}
		return strings.Compare(x, y)
	})
	return out
}

// byJoins orders "id:rr" by the number of relations, the most first.
func byJoins(x, y string) int {
	return strings.Count(y[strings.Index(y, ":"):], "r") - strings.Count(x[strings.Index(x, ":"):], "r")
}

// TestCommonNeighbors: the entities related to both A and B, with the
// relations that join them, the most joined first, narrowed by every
// filter that applies to one hop, in one round trip with their sources.
func TestCommonNeighbors(t *testing.T) {
	t.Parallel()
	c := newCommonFixture(t)
	ids := []string{c.id("a"), c.id("b")}
	before := c.h.Store.RoundTrips()
	res := c.h.MustPost(commonQuery, map[string]any{"ids": ids})
	if trips := c.h.Store.RoundTrips() - before; trips != 1 {
		t.Errorf("%d round trips for common neighbours with their relations and sources, want 1", trips)
	}
	first := res.Data["commonNeighbors"].([]any)[0].(map[string]any)
	for _, r := range first["relations"].([]any) {
		r := r.(map[string]any)
		ends := []string{r["from"].(map[string]any)["id"].(string), r["to"].(map[string]any)["id"].(string)}
		if !slices.Contains(ends, c.id("n")) || (!slices.Contains(ends, c.id("a")) && !slices.Contains(ends, c.id("b"))) {
			t.Errorf("relation %v of N joins %v", r["id"], ends)
		}
		if got := r["sources"].([]any); len(got) != 1 {
			t.Errorf("relation %v: sources %v", r["id"], got)
		}
	}
	both := []string{c.ds, c.ds2}
	for _, tc := range []struct {
		name   string
		filter map[string]any
		limit  any
		want   []string
	}{
		{"all", map[string]any{"datasets": both}, nil, []string{"n:rrr", "m:rr", "o:rr", "w:rr"}},
		{"limit", map[string]any{"datasets": both}, 1, []string{"n:rrr"}},
		{"relationTypes", map[string]any{"relationTypes": []string{"MEMBER_OF", "EMPLOYED_BY"}, "datasets": []string{c.ds}}, nil, []string{"n:rrr"}},
		{"kinds", map[string]any{"kinds": []string{"EVENT"}}, nil, []string{"m:rr"}},
		{"datasets", map[string]any{"datasets": []string{c.ds}}, nil, []string{"n:rrr", "m:rr", "w:rr"}},
		{"minConfidence", map[string]any{"minConfidence": 0.6}, nil, []string{"m:rr"}},
		{"validAt", map[string]any{"validAt": "2015", "datasets": []string{c.ds}}, nil, []string{"m:rr", "w:rr"}},
		{"statuses", map[string]any{"statuses": []string{"CONFIRMED"}}, nil, []string{"n:rr"}},
		{"excludeIds", map[string]any{"excludeIds": []string{c.id("n")}, "datasets": []string{c.ds}}, nil, []string{"m:rr", "w:rr"}},
		{"maxDegree", map[string]any{"maxDegree": 2, "datasets": []string{c.ds}}, nil, []string{"m:rr", "w:rr"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := c.neighbours(t, c.h.MustPost(commonQuery, map[string]any{"ids": ids, "f": tc.filter, "limit": tc.limit}).Data)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("common neighbours (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCommonNeighborsScope: a reader of one dataset sees only the common
// neighbours and relations of that dataset, the protected person among
// them redacted; an id it may not read, like an unknown one, is NOT_FOUND.
// (Bad arguments: TestPathArgumentsRefused.)
func TestCommonNeighborsScope(t *testing.T) {
	t.Parallel()
	c := newCommonFixture(t)
	reader := c.h.Key(casegraph.NewAPIKey{Name: "reader", Role: casegraph.RoleReader, Datasets: []string{c.ds}})
	res := c.h.PostAs(reader, commonQuery, map[string]any{"ids": []string{c.id("a"), c.id("b")}})
	if len(res.Errors) > 0 {
		t.Fatal(res.Raw)
	}
	got := c.neighbours(t, res.Data)
	if diff := cmp.Diff([]string{"n:rrr", "m:rr", "redacted:rr"}, got); diff != "" {
		t.Errorf("the reader's common neighbours (-want +got):\n%s", diff)
	}
	for _, secret := range []string{"Secret Witness Qz9", c.id("w"), c.id("aw"), c.id("wb"), c.ds2} {
		if strings.Contains(res.Raw, secret) {
			t.Errorf("the reader sees %q: %s", secret, res.Raw)
		}
	}
	for _, other := range []string{c.ds2 + ":o", c.id("nobody")} {
		res = c.h.PostAs(reader, commonQuery, map[string]any{"ids": []string{c.id("a"), other}})
		if code := res.Code(); code != "NOT_FOUND" {
			t.Errorf("%s: %q, want NOT_FOUND: %s", other, code, res.Raw)
		}
	}
}
