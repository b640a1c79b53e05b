package graph_test

// The golden files (testdata/*.graphql against the seed, with their
// .golden.json), round trips that do not depend on load, entity pages, and
// the vocabulary.

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server"
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

// TestRoundTripsDoNotDependOnLoad proves the compiled reads: a nested
// query costs a fixed number of Cypher round trips, set by its root field
// (one for entity, one more for a list's nested reads), never by how many
// entities and relations it holds, how deep it goes, or how many other
// requests run at the same time; and under load it answers what it
// answers alone.
func TestRoundTripsDoNotDependOnLoad(t *testing.T) {
	t.Parallel()
	// A budget of minutes: each shape is the first of its text on a fresh
	// database, planned under the load of the other packages' tests (a
	// clean-clone run once took its two-level read past the 15 s default);
	// what is checked is how many round trips, not how fast.
	h := servertest.New(t, servertest.Options{Config: func(c *server.Config) { c.RequestTimeout = 3 * time.Minute }})
	ds := cyphertest.Dataset(t)
	src := ds + ":src"
	var b strings.Builder
	fmt.Fprintf(&b, `mutation { s: upsertSource(input: {id: %q, title: "t", dataset: %q}) { id }`, src, ds)
	// Each person cites a source of its own besides the shared one.
	for i := range 24 {
		fmt.Fprintf(&b, ` s%02d: upsertSource(input: {id: "%s%02d", title: "t%d", dataset: %q}) { id }`, i, src, i, i, ds)
	}
	h.MustPost(b.String()+" }", nil)
	for i := range 24 { // p20 to p23 stay without relations
		h.MustPost(upsert, map[string]any{"in": map[string]any{"id": fmt.Sprintf("%s:p%02d", ds, i), "kind": "PERSON",
			"name": fmt.Sprintf("Person %d", i), "dataset": ds, "sourceIds": []string{src, fmt.Sprintf("%s%02d", src, i)}}})
	}
	for i := range 20 {
		for _, j := range []int{(i + 1) % 20, (i + 7) % 20} {
			h.MustPost(link, map[string]any{"in": map[string]any{"type": "WORKED_WITH", "from": fmt.Sprintf("%s:p%02d", ds, i),
				"to": fmt.Sprintf("%s:p%02d", ds, j), "sourceIds": []string{src}, "id": fmt.Sprintf("%s:r%02d-%02d", ds, i, j)}})
		}
	}
	tests := []struct {
		name  string
		query string
		vars  map[string]any
		trips int64
	}{
		{"entity", `query($id: ID!) { entity(id: $id) { id name } }`, map[string]any{"id": ds + ":p00"}, 1},
		{"entity with relations and ends", `query($id: ID!) { entity(id: $id) { id sources { id }
			relations(first: 20) { totalCount edges { node { id type from { id name } to { id name } sources { id title } } } } } }`,
			map[string]any{"id": ds + ":p03"}, 1},
		{"two levels, aliases and fragments", `query($id: ID!) { entity(id: $id) { id
			out: relations(direction: OUTGOING, first: 5) { edges { node { to { name ... on Person {
				relations(first: 3) { pageInfo { hasNextPage endCursor } edges { node { from { id } to { id } } } } } } } } }
			in: relations(direction: INCOMING, first: 5) { edges { node { from { name } to { ...more } } } }
			all: relations { totalCount edges { cursor node { id from { name } } } } } }
			fragment more on Entity { relations(types: [WORKED_WITH], first: 2) { totalCount edges { node { id to { name } } } } }`,
			map[string]any{"id": ds + ":p05"}, 1},
		{"list of entities, depth 2", `query($ds: String!) { entities(filter: {datasets: [$ds]}, first: 10) { edges { node {
			id sources { id }
			relations(first: 10) { totalCount edges { node { id from { id name } to { id name
				relations(first: 10) { edges { node { id to { id name } } } } } sources { id title } } } } } } } }`,
			map[string]any{"ds": ds}, 2},
		{"ten aliased entities, depth 2", `query($a: ID!, $b: ID!) { ` + func() string {
			var b strings.Builder
			for i := range 10 {
				id := "$a"
				if i%2 == 1 {
					id = "$b"
				}
				fmt.Fprintf(&b, "e%d: entity(id: %s) { id name relations(direction: OUTGOING, first: 10) { edges { node { to { id name relations(direction: OUTGOING, first: 10) { edges { node { to { id name } } } } } } } } } ", i, id)
			}
			return b.String()
		}() + `nobody: entity(id: "nobody") { id } }`, map[string]any{"a": ds + ":p01", "b": ds + ":p02"}, 1},
		{"neighbors, depth 2", `query($id: ID!) { entity(id: $id) { id relations(first: 10) { edges { direction neighbor { id name
			relations(first: 10) { totalCount edges { direction neighbor { id name } } } } } } } }`, map[string]any{"id": ds + ":p04"}, 1},
		{"the same relations asked twice, by aliases", `query($id: ID!) { a: entity(id: $id) { x: relations(first: 5) { edges { neighbor { name } } }
			y: relations(first: 5) { edges { node { id to { name } } } } } b: entity(id: $id) { relations(first: 5) { edges { neighbor { id } } } } }`,
			map[string]any{"id": ds + ":p06"}, 1},
		// In the test's dataset: other tests write people meanwhile.
		{"search with relations", `query($ds: String!) { search(text: "person", datasets: [$ds], first: 10) { edges { node { id
			relations(first: 4) { edges { node { to { name } } } } } } } }`, map[string]any{"ds": ds}, 2},
		// Pairs without a path bring their entities and sources in the
		// connections' own read, not through the loaders.
		{"connections with unconnected pairs", `query($ids: [ID!]!) { connections(ids: $ids) { nodes { id }
			unconnectedPairs { a { id name sources { id title } } b { id name ... on Person { nationality } sources { id } } } } }`,
			map[string]any{"ids": []string{ds + ":p20", ds + ":p21", ds + ":p22", ds + ":p23", ds + ":p00", ds + ":p01"}}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := h.Store.RoundTrips()
			alone := h.MustPost(tt.query, tt.vars).Raw
			if got := h.Store.RoundTrips() - before; got != tt.trips {
				t.Errorf("alone: %d round trips, want %d", got, tt.trips)
			}
			const clients, each = 16, 4
			before = h.Store.RoundTrips()
			answers := make(chan string, clients*each)
			var wg sync.WaitGroup
			for range clients {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range each {
						answers <- h.Post(tt.query, tt.vars).Raw
					}
				}()
			}
			wg.Wait()
			close(answers)
			if got, want := h.Store.RoundTrips()-before, tt.trips*clients*each; got != want {
				t.Errorf("%d clients: %d round trips for %d requests, want %d (%d each)", clients, got, clients*each, want, tt.trips)
			}
			for a := range answers {
				if a != alone {
					t.Fatalf("under load the answer differs:\n got %s\nwant %s", a, alone)
				}
			}
		})
	}
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
