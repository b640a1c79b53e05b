package graph_test

import (
	"crypto/rand"
	"encoding/hex"
	"testing"

	"github.com/google/go-cmp/cmp"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/server/servertest"
)

// walk pages through a connection (first 2 at a time) and returns how
// many edges it went through and the totalCount of its first page.
func walk(t *testing.T, h *servertest.Harness, token, query, root string, vars map[string]any) (edges, total int) {
	t.Helper()
	total = -1
	after := any(nil)
	for range 100 {
		v := map[string]any{"after": after}
		for k, x := range vars {
			v[k] = x
		}
		res := h.PostAs(token, query, v)
		if len(res.Errors) > 0 {
			t.Fatalf("%s: %s", root, truncate(res.Raw))
		}
		if total < 0 {
			total = int(field(res, root, "totalCount").(float64))
		}
		edges += len(field(res, root, "edges").([]any))
		if field(res, root, "pageInfo", "hasNextPage") != true {
			return edges, total
		}
		after = field(res, root, "pageInfo", "endCursor")
	}
	t.Fatalf("%s: more than 100 pages", root)
	return 0, 0
}

// TestTotalCounts: the totalCount of savedQueries and changes is the
// number of edges their pages go through, for each caller: counted in the
// caller's scope, as the pages are read.
func TestTotalCounts(t *testing.T) {
	t.Parallel()
	f := newFixture(t) // 6 changes in f.ds by the harness's admin
	h := f.h
	editor := h.Key(casegraph.NewAPIKey{Name: "editor", Role: casegraph.RoleEditor, Datasets: []string{f.ds}})
	elsewhere := h.Key(casegraph.NewAPIKey{Name: "editor elsewhere", Role: casegraph.RoleEditor, Datasets: []string{"elsewhere"}})
	reader := h.Key(casegraph.NewAPIKey{Name: "reader", Role: casegraph.RoleReader, Datasets: []string{f.ds}})
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	tag := "count-" + hex.EncodeToString(b) // a tag of this test only
	for i, vis := range []string{"PUBLIC", "PUBLIC", "PRIVATE", "DATASETS"} {
		in := map[string]any{"name": queryName(t, h, "counted"), "title": "t", "document": `query { relationTypes { type } }`,
			"tags": []string{tag}, "visibility": vis}
		if vis == "DATASETS" {
			in["datasets"] = []string{f.ds}
		}
		if res := h.Post(saveMutation, map[string]any{"in": in}); len(res.Errors) > 0 {
			t.Fatalf("save %d: %s", i, res.Raw)
		}
	}
	const saved = `query($tag: String, $after: String) { savedQueries(tag: $tag, first: 2, after: $after) {
		totalCount pageInfo { hasNextPage endCursor } edges { node { name } } } }`
	const changes = `query($f: ChangeFilter, $after: String) { changes(filter: $f, first: 2, after: $after) {
		totalCount pageInfo { hasNextPage endCursor } edges { node { id } } } }`
	byDataset := map[string]any{"f": map[string]any{"dataset": f.ds}}
	tests := []struct {
		name, token, query, root string
		vars                     map[string]any
		want                     int
	}{
		{"saved queries, admin", h.Token, saved, "savedQueries", map[string]any{"tag": tag}, 4},
		{"saved queries, reader of the dataset", reader, saved, "savedQueries", map[string]any{"tag": tag}, 3},
		{"saved queries, editor elsewhere", elsewhere, saved, "savedQueries", map[string]any{"tag": tag}, 2},
		{"changes, admin", h.Token, changes, "changes", byDataset, 6},
		{"changes, editor of the dataset", editor, changes, "changes", byDataset, 6},
		{"changes, editor elsewhere", elsewhere, changes, "changes", byDataset, 0},
		{"changes of one entity", h.Token, changes, "changes", map[string]any{"f": map[string]any{"entityId": f.id("nice")}}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			edges, total := walk(t, h, tt.token, tt.query, tt.root, tt.vars)
			if diff := cmp.Diff([2]int{tt.want, tt.want}, [2]int{edges, total}); diff != "" {
				t.Errorf("[edges, totalCount] (-want +got):\n%s", diff)
			}
		})
	}
	if res := h.PostAs(reader, `{ changes { totalCount } }`, nil); res.Code() != "FORBIDDEN" {
		t.Errorf("a reader's count of changes: %s, want FORBIDDEN", truncate(res.Raw))
	}
}
