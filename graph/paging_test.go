package graph_test

// Relay paging: backward pages on every connection, and cursors under
// writes.

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/server/servertest"
)

// pageWalk reads a whole connection a page of 3 at a time, forward (first,
// after, endCursor) or backward (last, before, startCursor), and returns
// the ids of its nodes in the list's order, checking that each page's
// pageInfo matches its edges. between, when not nil, runs after each page.
func pageWalk(t *testing.T, h *servertest.Harness, token, query, root string, vars map[string]any, backward bool, between func()) []string {
	t.Helper()
	var pages [][]string
	var cursor any
	for range 100 {
		v := map[string]any{"first": 3, "after": cursor}
		if backward {
			v = map[string]any{"last": 3, "before": cursor}
		}
		for k, x := range vars {
			v[k] = x
		}
		res := h.PostAs(token, query, v)
		if len(res.Errors) > 0 {
			t.Fatalf("%s: %s", root, truncate(res.Raw))
		}
		edges := field(res, append(strings.Split(root, "."), "edges")...).([]any)
		var ids []string
		for _, e := range edges {
			node := e.(map[string]any)["node"].(map[string]any)
			ids = append(ids, node["id"].(string))
		}
		info := field(res, append(strings.Split(root, "."), "pageInfo")...).(map[string]any)
		if len(edges) > 0 {
			if info["startCursor"] != edges[0].(map[string]any)["cursor"] || info["endCursor"] != edges[len(edges)-1].(map[string]any)["cursor"] {
				t.Fatalf("%s: pageInfo %v does not match its edges", root, info)
			}
		}
		more := info["hasNextPage"]
		if backward {
			more = info["hasPreviousPage"]
			if info["hasNextPage"] != false {
				t.Fatalf("%s: a backward page says hasNextPage", root)
			}
			pages = append([][]string{ids}, pages...)
			cursor = info["startCursor"]
		} else {
			pages = append(pages, ids)
			cursor = info["endCursor"]
		}
		if more != true {
			return slices.Concat(pages...)
		}
		if between != nil {
			between()
		}
	}
	t.Fatalf("%s: more than 100 pages", root)
	return nil
}

// TestBackwardPaging: on every connection that takes last and before,
// reading backward from the end gives the same list, in the same order,
// as reading forward, for each sort order.
func TestBackwardPaging(t *testing.T) {
	t.Parallel()
	f := newFixture(t) // 5 entities and a source in f.ds, 6 changes
	h := f.h
	for i := range 6 {
		f.upsert(t, map[string]any{"id": f.id(fmt.Sprintf("p%02d", i)), "kind": "PERSON", "name": fmt.Sprintf("Paged person %d", (i*7)%6)})
		h.MustPost(`mutation S($in: SourceInput!) { upsertSource(input: $in) { id } }`,
			map[string]any{"in": map[string]any{"id": f.id(fmt.Sprintf("s%02d", i)), "title": "t", "dataset": f.ds}})
		if res := f.link(t, map[string]any{"type": "WORKED_WITH", "from": f.id("nice"), "to": f.id(fmt.Sprintf("p%02d", i)),
			"id": f.id(fmt.Sprintf("r%02d", (i*5)%6))}); len(res.Errors) > 0 {
			t.Fatal(res.Raw)
		}
	}
	reader := h.Key(casegraph.NewAPIKey{Name: "reader", Role: casegraph.RoleReader, Datasets: []string{f.ds}})
	tag := "paged-" + f.ds[len(f.ds)-8:]
	for range 5 {
		h.MustPost(saveMutation, map[string]any{"in": map[string]any{"name": queryName(t, h, "paged"), "title": "t",
			"document": `query { relationTypes { type } }`, "tags": []string{tag}}})
	}
	const entities = `query($f: EntityFilter, $o: EntityOrder, $first: Int, $after: String, $last: Int, $before: String) {
		entities(filter: $f, orderBy: $o, first: $first, after: $after, last: $last, before: $before) {
		pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id name } } } }`
	const sources = `query($first: Int, $after: String, $last: Int, $before: String) {
		sources(first: $first, after: $after, last: $last, before: $before) {
		pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id } } } }`
	const saved = `query($tag: String, $first: Int, $after: String, $last: Int, $before: String) {
		savedQueries(tag: $tag, first: $first, after: $after, last: $last, before: $before) {
		pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id name } } } }`
	const changes = `query($f: ChangeFilter, $first: Int, $after: String, $last: Int, $before: String) {
		changes(filter: $f, first: $first, after: $after, last: $last, before: $before) {
		pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id } } } }`
	const search = `query($ds: [String!], $first: Int, $after: String, $last: Int, $before: String) {
		search(text: "paged person", datasets: $ds, first: $first, after: $after, last: $last, before: $before) {
		pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id name } } } }`
	const relations = `query($id: ID!, $first: Int, $after: String, $last: Int, $before: String) { entity(id: $id) {
		relations(first: $first, after: $after, last: $last, before: $before) {
		pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id } } } } }`
	inDataset := map[string]any{"datasets": []string{f.ds}}
	tests := []struct {
		name, token, query, root string
		vars                     map[string]any
		want                     int
	}{
		{"entities by id", h.Token, entities, "entities", map[string]any{"f": inDataset}, 11},
		{"entities by name, descending", h.Token, entities, "entities", map[string]any{"f": inDataset, "o": map[string]any{"field": "NAME", "direction": "DESC"}}, 11},
		{"entities by degree", h.Token, entities, "entities", map[string]any{"f": inDataset, "o": map[string]any{"field": "DEGREE"}}, 11},
		{"entities by update", h.Token, entities, "entities", map[string]any{"f": inDataset, "o": map[string]any{"field": "UPDATED_AT", "direction": "DESC"}}, 11},
		{"sources, a reader of the dataset", reader, sources, "sources", nil, 7},
		{"saved queries", h.Token, saved, "savedQueries", map[string]any{"tag": tag}, 5},
		{"changes", h.Token, changes, "changes", map[string]any{"f": map[string]any{"dataset": f.ds}}, 24},
		{"an entity's relations", h.Token, relations, "entity.relations", map[string]any{"id": f.id("nice")}, 6},
		{"search", h.Token, search, "search", map[string]any{"ds": []string{f.ds}}, 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			forward := pageWalk(t, h, tt.token, tt.query, tt.root, tt.vars, false, nil)
			backward := pageWalk(t, h, tt.token, tt.query, tt.root, tt.vars, true, nil)
			if len(forward) != tt.want {
				t.Errorf("forward: %d items, want %d: %v", len(forward), tt.want, forward)
			}
			if diff := cmp.Diff(forward, backward); diff != "" {
				t.Errorf("backward pages (-forward +backward):\n%s", diff)
			}
		})
	}

	// The same backward page through the loaders (relations under a
	// neighbourhood's nodes, which no root compiles) as through the
	// compiled read of entity(id).
	// (Two requests: the compiled read's pages would serve the other.)
	res := h.MustPost(`query($id: ID!) { entity(id: $id) { relations(last: 4) { pageInfo { hasPreviousPage } edges { node { id } } } } }`,
		map[string]any{"id": f.id("nice")})
	compiled := field(res, "entity", "relations")
	res = h.MustPost(`query($id: ID!, $ds: [String!]) { neighborhood(id: $id, filter: {datasets: $ds}) { nodes { id
		relations(last: 4) { pageInfo { hasPreviousPage } edges { node { id } } } } } }`, map[string]any{"id": f.id("nice"), "ds": []string{f.ds}})
	var loaded any
	for _, n := range field(res, "neighborhood", "nodes").([]any) {
		if n.(map[string]any)["id"] == f.id("nice") {
			loaded = n.(map[string]any)["relations"]
		}
	}
	if diff := cmp.Diff(compiled, loaded); diff != "" || len(compiled.(map[string]any)["edges"].([]any)) != 4 {
		t.Errorf("relations(last: 4) compiled and loaded (-compiled +loaded):\n%s%s", diff, res.Raw)
	}

	for name, vars := range map[string]map[string]any{
		"first and last":   {"first": 2, "last": 2},
		"after and before": {"last": 2, "after": "x"},
		"negative last":    {"last": -1},
		"last over 100":    {"last": 101},
		"a cursor of another list": {"last": 2, "before": func() any {
			res := h.MustPost(sources, map[string]any{"first": 1})
			return field(res, "sources", "pageInfo", "endCursor")
		}()},
	} {
		if res := h.Post(relations, map[string]any{"id": f.id("nice"), "first": vars["first"], "last": vars["last"],
			"after": vars["after"], "before": vars["before"]}); res.Code() != "BAD_USER_INPUT" {
			t.Errorf("relations, %s: %s, want BAD_USER_INPUT", name, truncate(res.Raw))
		}
		vars["f"] = inDataset
		if res := h.Post(entities, vars); res.Code() != "BAD_USER_INPUT" {
			t.Errorf("%s: %s, want BAD_USER_INPUT", name, truncate(res.Raw))
		}
	}
}

// TestCursorsUnderWrites: while another client inserts entities before
// and after the cursor, every page read backward (and forward) from a
// cursor holds the entities that were there all along exactly once, in
// order: keyset cursors start at an item, not at an offset.
func TestCursorsUnderWrites(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	h := f.h
	var want []string
	for i := range 12 {
		id := f.id(fmt.Sprintf("w%03d", i*10))
		f.upsert(t, map[string]any{"id": id, "kind": "PERSON", "name": "Written"})
		want = append(want, id)
	}
	const entities = `query($f: EntityFilter, $first: Int, $after: String, $last: Int, $before: String) {
		entities(filter: $f, first: $first, after: $after, last: $last, before: $before) {
		pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id } } } }`
	vars := map[string]any{"f": map[string]any{"datasets": []string{f.ds}, "nameContains": "Written"}}
	// Another goroutine writes between every two pages: an entity before
	// them all, one after them all, and one between two of the first ones
	// (before or after the cursor, as the walk goes).
	write, written := make(chan int), make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(written)
		for i := range write {
			for _, id := range []string{fmt.Sprintf("a%03d", i), fmt.Sprintf("z%03d", i), fmt.Sprintf("w%03d-%d", (i*37)%120, i)} {
				if res := f.upsert(t, map[string]any{"id": f.id(id), "kind": "PERSON", "name": "Written"}); len(res.Errors) > 0 {
					t.Errorf("concurrent write: %s", res.Raw)
				}
			}
			written <- struct{}{}
		}
	}()
	n := 0
	between := func() {
		write <- n
		n++
		<-written
	}
	for _, backward := range []bool{true, false, true} {
		got := pageWalk(t, h, h.Token, entities, "entities", vars, backward, between)
		var old []string
		for i, id := range got {
			if i > 0 && got[i-1] >= id {
				t.Errorf("backward %v: %s after %s (pages out of order or twice)", backward, id, got[i-1])
			}
			if slices.Contains(want, id) {
				old = append(old, id)
			}
		}
		if diff := cmp.Diff(want, old); diff != "" {
			t.Errorf("backward %v: the first entities (-want +got):\n%s", backward, diff)
		}
	}
	close(write)
	wg.Wait()
	if n < 8 {
		t.Errorf("only %d rounds of writes between pages", n)
	}
}
