package graph_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNeighborhoodDistances: on a chain a-b-c-d with a shortcut a-c, every
// node of a neighbourhood carries its hops from the centre along the
// shortest path that passes the filter, in the order of nodes.
func TestNeighborhoodDistances(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, id := range []string{"a", "b", "c", "d"} {
		f.upsert(t, map[string]any{"id": f.id(id), "kind": "PERSON", "name": "Chain " + id})
	}
	for _, r := range [][3]string{{"a", "b", "RELATED_TO"}, {"b", "c", "RELATED_TO"}, {"c", "d", "RELATED_TO"}, {"a", "c", "WORKED_WITH"}} {
		if res := f.link(t, map[string]any{"id": f.id(r[0] + r[1]), "type": r[2], "from": f.id(r[0]), "to": f.id(r[1]), "dataset": f.ds}); len(res.Errors) > 0 {
			t.Fatal(res.Raw)
		}
	}
	q := `query($id: ID!, $f: PathFilter) { neighborhood(id: $id, depth: 3, filter: $f) { nodes { id } distances { id hops } } }`
	for _, tc := range []struct {
		name   string
		filter map[string]any
		want   map[string]int
	}{
		{"the shortcut", map[string]any{"datasets": []string{f.ds}}, map[string]int{"a": 0, "b": 1, "c": 1, "d": 2}},
		{"without the shortcut", map[string]any{"datasets": []string{f.ds}, "excludeRelationTypes": []string{"WORKED_WITH"}},
			map[string]int{"a": 0, "b": 1, "c": 2, "d": 3}},
		{"one hop", map[string]any{"datasets": []string{f.ds}, "relationTypes": []string{"RELATED_TO"}, "excludeIds": []string{f.id("c")}},
			map[string]int{"a": 0, "b": 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := f.h.MustPost(q, map[string]any{"id": f.id("a"), "f": tc.filter}).Data["neighborhood"].(map[string]any)
			nodes, distances := g["nodes"].([]any), g["distances"].([]any)
			if len(nodes) != len(distances) {
				t.Fatalf("%d nodes, %d distances", len(nodes), len(distances))
			}
			got := map[string]int{}
			for i, d := range distances {
				d := d.(map[string]any)
				if id := nodes[i].(map[string]any)["id"]; d["id"] != id {
					t.Errorf("distance %d is of %v, node %d is %v", i, d["id"], i, id)
				}
				got[strings.TrimPrefix(d["id"].(string), f.ds+":")] = int(d["hops"].(float64))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("hops (-want +got):\n%s", diff)
			}
		})
	}
}
