package graph_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server/servertest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestGolden runs each testdata/*.graphql against the seed (loaded into the
// test's own dataset) and compares the response with its .golden.json. In a
// query, @@ stands for the dataset's id prefix and $dataset (when declared)
// is the dataset; the prefix is taken out of responses, so the files read
// like the seed.
// Refresh them with: go test ./graph -run TestGolden -update
func TestGolden(t *testing.T) {
	t.Parallel()
	h := servertest.New(t, servertest.Options{})
	ds, _ := cyphertest.LoadSeed(t, h.Store)
	files, err := filepath.Glob("testdata/*.graphql")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden queries: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".graphql"), func(t *testing.T) {
			query, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			text := strings.ReplaceAll(string(query), "@@", ds+":")
			var vars map[string]any
			if strings.Contains(text, "$dataset") {
				vars = map[string]any{"dataset": ds}
			}
			res := h.Post(text, vars)
			var pretty any
			if err := json.Unmarshal([]byte(res.Raw), &pretty); err != nil {
				t.Fatal(err)
			}
			got, _ := json.MarshalIndent(pretty, "", "  ")
			got = []byte(strings.ReplaceAll(string(got), ds+":", ""))
			got = []byte(strings.ReplaceAll(string(got), ds, "DATASET"))
			golden := strings.TrimSuffix(file, ".graphql") + ".golden.json"
			if *update {
				if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if diff := cmp.Diff(strings.TrimSpace(string(want)), strings.TrimSpace(string(got))); diff != "" {
				t.Errorf("%s (-want +got):\n%s", golden, diff)
			}
		})
	}
}

// TestBatching proves the loaders: 20 entities, their relations, each
// relation's two ends and sources, and each entity's sources cost a number
// of round trips set by the depth of the query, not by the 20 entities or
// their relations.
func TestBatching(t *testing.T) {
	t.Parallel()
	h := servertest.New(t, servertest.Options{})
	ds := cyphertest.Dataset(t)
	src := ds + ":src"
	var b strings.Builder
	fmt.Fprintf(&b, `mutation { s: upsertSource(input: {id: %q, title: "t", dataset: %q}) { id } }`, src, ds)
	h.MustPost(b.String(), nil)
	for i := range 20 {
		h.MustPost(upsert, map[string]any{"in": map[string]any{"id": fmt.Sprintf("%s:p%02d", ds, i), "kind": "PERSON",
			"name": fmt.Sprintf("Person %d", i), "dataset": ds, "sourceIds": []string{src}}})
	}
	for i := range 20 {
		for _, j := range []int{(i + 1) % 20, (i + 7) % 20} {
			h.MustPost(link, map[string]any{"in": map[string]any{"type": "WORKED_WITH", "from": fmt.Sprintf("%s:p%02d", ds, i),
				"to": fmt.Sprintf("%s:p%02d", ds, j), "sourceIds": []string{src}, "id": fmt.Sprintf("%s:r%02d-%02d", ds, i, j)}})
		}
	}
	const q = `query Batch($ds: String!) { entities(filter: {datasets: [$ds]}, first: 20) { edges { node {
		id sources { id }
		relations(first: 10) { totalCount edges { node { id from { id name } to { id name } sources { id title } } } }
	} } } }`
	before := h.Store.RoundTrips()
	res := h.MustPost(q, map[string]any{"ds": ds})
	trips := h.Store.RoundTrips() - before

	edges := field(res, "entities", "edges").([]any)
	if len(edges) != 20 {
		t.Fatalf("%d entities, want 20", len(edges))
	}
	rels := 0
	for _, e := range edges {
		rels += len(e.(map[string]any)["node"].(map[string]any)["relations"].(map[string]any)["edges"].([]any))
	}
	if rels != 80 {
		t.Errorf("%d relations over the 20 entities, want 80 (each relation seen from both ends)", rels)
	}
	// Levels: the entity list (1), entity sources and relation pages (2),
	// relation ends and relation sources (2). A loader may split a level
	// when resolvers straddle its batching window, so allow one level more.
	if trips > 6 {
		t.Errorf("%d Cypher round trips for 20 entities and 80 relations, want at most 6", trips)
	}
	t.Logf("%d round trips for 20 entities, 80 relation edges, their ends and sources", trips)
}

func TestEntitiesPages(t *testing.T) {
	t.Parallel()
	h := servertest.New(t, servertest.Options{})
	ds, _ := cyphertest.LoadSeed(t, h.Store)
	const q = `query Page($ds: String!, $after: String, $kinds: [EntityKind!]) {
		entities(filter: {datasets: [$ds], kinds: $kinds}, first: 7, after: $after) {
			totalCount pageInfo { hasNextPage endCursor } edges { node { id } } } }`
	var ids []string
	var after any
	for page := 0; ; page++ {
		res := h.MustPost(q, map[string]any{"ds": ds, "after": after})
		for _, e := range field(res, "entities", "edges").([]any) {
			ids = append(ids, e.(map[string]any)["node"].(map[string]any)["id"].(string))
		}
		if page == 0 {
			// Someone writes while the client pages: entities before and
			// after the cursor. The pages go on where they were.
			src := ds + ":caesar-report-article"
			for _, id := range []string{ds + ":0-early", ds + ":zzz-late"} {
				h.MustPost(upsert, map[string]any{"in": map[string]any{"id": id, "kind": "PLACE", "name": id, "dataset": ds, "sourceIds": []string{src}}})
			}
		}
		if field(res, "entities", "pageInfo", "hasNextPage") != true {
			break
		}
		after = field(res, "entities", "pageInfo", "endCursor")
	}
	if len(ids) != 31 { // 30 seed entities, and the late one; not the early one
		t.Errorf("paged %d entities, want 31: %v", len(ids), ids)
	}
	seen := map[string]bool{}
	for i, id := range ids {
		if seen[id] || (i > 0 && id <= ids[i-1]) {
			t.Errorf("id %s out of order or twice", id)
		}
		seen[id] = true
	}

	first := h.MustPost(q, map[string]any{"ds": ds})
	cursor := field(first, "entities", "pageInfo", "endCursor").(string)
	for name, vars := range map[string]map[string]any{
		"tampered":           {"ds": ds, "after": cursor[:len(cursor)-3] + "AAA"},
		"garbage":            {"ds": ds, "after": "not-a-cursor"},
		"from another query": {"ds": ds, "after": cursor, "kinds": []string{"PERSON"}},
	} {
		if res := h.Post(q, vars); res.Code() != "BAD_USER_INPUT" {
			t.Errorf("%s cursor: %s, want BAD_USER_INPUT", name, truncate(res.Raw))
		}
	}
	for _, n := range []int{0, -1, 1000000000} {
		res := h.Post(`query($ds: String!, $n: Int) { entities(filter: {datasets: [$ds]}, first: $n) { totalCount } }`, map[string]any{"ds": ds, "n": n})
		if res.Code() != "BAD_USER_INPUT" {
			t.Errorf("first %d: %s, want BAD_USER_INPUT", n, truncate(res.Raw))
		}
	}
}

func TestRelationTypesDescribeTheVocabulary(t *testing.T) {
	t.Parallel()
	h := servertest.New(t, servertest.Options{})
	res := h.MustPost(`{ relationTypes { type label inverseLabel fromKinds toKinds directed } }`, nil)
	got := field(res, "relationTypes").([]any)
	if len(got) != len(casegraph.Vocabulary()) {
		t.Fatalf("%d relation types, want %d", len(got), len(casegraph.Vocabulary()))
	}
	for i, s := range casegraph.Vocabulary() {
		g := got[i].(map[string]any)
		if g["type"] != string(s.Type) || g["label"] != s.Label || g["directed"] != s.Directed {
			t.Errorf("relationTypes[%d] = %v, want %s", i, g, s.Type)
		}
	}
}
