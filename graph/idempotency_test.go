package graph_test

// Idempotency keys over the API: a retry answers the first outcome, a
// refused write is not remembered, a key reused otherwise is refused, and
// every mutation replays.

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server/servertest"
)

// keyed is a header set with an Idempotency-Key (and, when token is not
// empty, the caller's API key).
func keyed(key, token string) http.Header {
	h := http.Header{"Idempotency-Key": {key}}
	if token != "" {
		h.Set("Authorization", "Bearer "+token)
	}
	return h
}

// changesOf counts the audit records whose targets include id (read by
// the harness's admin).
func changesOf(t *testing.T, h *servertest.Harness, id string) int {
	t.Helper()
	res := h.MustPost(`query($f: ChangeFilter) { changes(filter: $f, first: 100) { edges { node { id } } } }`,
		map[string]any{"f": map[string]any{"entityId": id}})
	edges, _ := field(res, "changes", "edges").([]any)
	return len(edges)
}

// entitiesNamed counts the entities of the dataset with the name.
func entitiesNamed(t *testing.T, h *servertest.Harness, ds, name string) int {
	t.Helper()
	res := h.MustPost(`query($ds: [String!]) { entities(filter: {datasets: $ds}, first: 100) { edges { node { name } } } }`,
		map[string]any{"ds": []string{ds}})
	n := 0
	edges, _ := field(res, "entities", "edges").([]any)
	for _, e := range edges {
		if e.(map[string]any)["node"].(map[string]any)["name"] == name {
			n++
		}
	}
	return n
}

// TestRetryAnswersTheFirstOutcome: an upsert without an id, sent again with
// its Idempotency-Key, answers the entity the first one created (not a new
// id), and writes no second entity and no second change; the retry may
// inline what the first sent as variables.
func TestRetryAnswersTheFirstOutcome(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	in := map[string]any{"kind": "PERSON", "name": "Mark Stephens", "dataset": f.ds, "sourceIds": []string{f.src}}
	first := f.h.PostWith(keyed("retry-1", ""), upsert, map[string]any{"in": in})
	if len(first.Errors) > 0 {
		t.Fatal(first.Raw)
	}
	id, _ := field(first, "upsertEntity", "id").(string)

	again := f.h.PostWith(keyed("retry-1", ""), upsert, map[string]any{"in": in})
	if diff := cmp.Diff(first.Data, again.Data); diff != "" || len(again.Errors) > 0 {
		t.Errorf("the retry (-first +retry):\n%s%s", diff, again.Raw)
	}
	inlined := fmt.Sprintf(`mutation { upsertEntity(input: {kind: PERSON, name: "Mark Stephens", dataset: %q, sourceIds: [%q]}) { %s } }`,
		f.ds, f.src, entityFields)
	if res := f.h.PostWith(keyed("retry-1", ""), inlined, nil); cmp.Diff(first.Data, res.Data) != "" {
		t.Errorf("the retry with its arguments inline: %s, want the first outcome", res.Raw)
	}
	if got := entitiesNamed(t, f.h, f.ds, "Mark Stephens"); got != 1 {
		t.Errorf("%d entities named Mark Stephens, want 1", got)
	}
	if got := changesOf(t, f.h, id); got != 1 {
		t.Errorf("%d changes of %s, want 1", got, id)
	}

	// Without a key, the same request is a new write.
	if res := f.upsert(t, map[string]any{"kind": "PERSON", "name": "Mark Stephens"}); field(res, "upsertEntity", "id") == id {
		t.Errorf("an unkeyed upsert answered the keyed one's entity %s", id)
	}
}

// TestRefusedWriteIsNotRemembered: a refused write wrote nothing, so its
// key holds no outcome, and the corrected request under it is written.
func TestRefusedWriteIsNotRemembered(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	in := map[string]any{"id": f.id("stephens"), "kind": "PERSON", "name": "Mark Stephens", "dataset": f.ds, "sourceIds": []string{f.id("missing")}}
	if res := f.h.PostWith(keyed("refused-1", ""), upsert, map[string]any{"in": in}); res.Code() == "" {
		t.Fatalf("an upsert citing a missing source: %s, want a refusal", res.Raw)
	}
	in["sourceIds"] = []string{f.src}
	if res := f.h.PostWith(keyed("refused-1", ""), upsert, map[string]any{"in": in}); len(res.Errors) > 0 {
		t.Errorf("the corrected request under the same key: %s", res.Raw)
	}
	if got := changesOf(t, f.h, f.id("stephens")); got != 1 {
		t.Errorf("%d changes, want 1", got)
	}
}

// TestKeyReuseIsRefused: the same key with other arguments or another
// mutation (under any alias: the key is bound to the request's operation)
// is CONFLICT IDEMPOTENCY_KEY_REUSED and writes nothing; another caller's
// same key is its own.
func TestKeyReuseIsRefused(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	h := f.h
	in := map[string]any{"id": f.id("stephens"), "kind": "PERSON", "name": "Mark Stephens", "dataset": f.ds, "sourceIds": []string{f.src}}
	if res := h.PostWith(keyed("reuse-1", ""), upsert, map[string]any{"in": in}); len(res.Errors) > 0 {
		t.Fatal(res.Raw)
	}
	before := changesOf(t, h, f.id("stephens"))

	renamed := map[string]any{"id": f.id("stephens"), "kind": "PERSON", "name": "Mark Stephens CBE", "dataset": f.ds, "sourceIds": []string{f.src}}
	editor := h.Key(casegraph.NewAPIKey{Name: "editor", Role: casegraph.RoleEditor, Datasets: []string{f.ds}})
	for _, tc := range []struct {
		name       string
		header     http.Header
		query      string
		vars       map[string]any
		wantCode   string
		wantReason string
	}{
		{"other arguments", keyed("reuse-1", ""), upsert, map[string]any{"in": renamed}, "CONFLICT", casegraph.ReasonIdempotencyKeyReused},
		{"another mutation", keyed("reuse-1", ""), `mutation($id: ID!) { upsertEntity: deleteEntity(id: $id) { id } }`,
			map[string]any{"id": f.id("stephens")}, "CONFLICT", casegraph.ReasonIdempotencyKeyReused},
		// The key is the request's, not only its field's: another
		// mutation is refused whatever its alias.
		{"another mutation under its own name", keyed("reuse-1", ""), `mutation($id: ID!) { deleteEntity(id: $id) { id } }`,
			map[string]any{"id": f.id("stephens")}, "CONFLICT", casegraph.ReasonIdempotencyKeyReused},
		{"the same mutation under another alias", keyed("reuse-1", ""), `mutation($in: EntityInput!) { again: upsertEntity(input: $in) { id } }`,
			map[string]any{"in": renamed}, "CONFLICT", casegraph.ReasonIdempotencyKeyReused},
		{"the first mutation and another", keyed("reuse-1", ""), `mutation($in: EntityInput!, $id: ID!) { upsertEntity(input: $in) { id } deleteEntity(id: $id) { id } }`,
			map[string]any{"in": in, "id": f.id("stephens")}, "CONFLICT", casegraph.ReasonIdempotencyKeyReused},
		{"another caller", keyed("reuse-1", editor), upsert, map[string]any{"in": renamed}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := h.PostWith(tc.header, tc.query, tc.vars)
			if res.Code() != tc.wantCode || res.Reason() != tc.wantReason {
				t.Errorf("code %q reason %q, want %q %q: %s", res.Code(), res.Reason(), tc.wantCode, tc.wantReason, res.Raw)
			}
		})
	}
	// The refusals wrote nothing; the other caller's write is one change.
	if got := changesOf(t, h, f.id("stephens")); got != before+1 {
		t.Errorf("%d changes, want %d (the first write and the other caller's)", got, before+1)
	}
}

// TestConcurrentRetriesWriteOnce: 8 requests at once with one key and one
// upsert without an id make one entity and one change, and all 8 answer it.
func TestConcurrentRetriesWriteOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	in := map[string]any{"kind": "ORGANIZATION", "name": "Carter-Ruck and Partners", "dataset": f.ds, "sourceIds": []string{f.src}}
	const clients = 8
	ids := make([]any, clients)
	var wg sync.WaitGroup
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := f.h.PostWith(keyed("concurrent-1", ""), upsert, map[string]any{"in": in})
			if len(res.Errors) > 0 {
				t.Errorf("client %d: %s", i, res.Raw)
			}
			ids[i] = field(res, "upsertEntity", "id")
		}()
	}
	wg.Wait()
	for i := range ids {
		if ids[i] != ids[0] {
			t.Errorf("client %d got %v, client 0 %v", i, ids[i], ids[0])
		}
	}
	if got := entitiesNamed(t, f.h, f.ds, "Carter-Ruck and Partners"); got != 1 {
		t.Errorf("%d entities, want 1", got)
	}
	if id, _ := ids[0].(string); changesOf(t, f.h, id) != 1 {
		t.Errorf("%d changes of %s, want 1", changesOf(t, f.h, id), id)
	}
}

// TestEveryMutationReplays: each mutation, sent twice with one key, answers
// the same the second time and leaves one change record; a request of two
// mutation fields makes each once, by its alias.
func TestEveryMutationReplays(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	h := f.h
	f.link(t, map[string]any{"id": f.id("r-to-delete"), "type": "COMMISSIONED", "from": f.id("qatar"), "to": f.id("report")})
	f.link(t, map[string]any{"id": f.id("r-to-unlink"), "type": "COMMISSIONED", "from": f.id("firm"), "to": f.id("report")})
	f.upsert(t, map[string]any{"id": f.id("gone"), "kind": "PLACE", "name": "Gone"})
	f.upsert(t, map[string]any{"id": f.id("dup"), "kind": "PLACE", "name": "Genève"})
	query := "idem-" + f.ds[len(f.ds)-8:]
	for _, tc := range []struct {
		name, query string
		vars        map[string]any
		target      string // whose changes to count
	}{
		{"link without an id", `mutation($in: LinkInput!) { link(input: $in) { id type from { id } to { id } } }`,
			map[string]any{"in": map[string]any{"type": "AUTHORED", "from": f.id("nice"), "to": f.id("report"), "sourceIds": []string{f.src}}}, f.id("nice")},
		{"unlink", `mutation($id: ID!) { unlink(id: $id) { id type } }`, map[string]any{"id": f.id("r-to-unlink")}, f.id("r-to-unlink")},
		{"delete an entity", `mutation($id: ID!) { deleteEntity(id: $id) { id deletedRelations } }`, map[string]any{"id": f.id("qatar")}, f.id("qatar")},
		{"merge", `mutation($into: ID!, $from: [ID!]!) { mergeEntities(into: $into, from: $from) { id aliases } }`,
			map[string]any{"into": f.id("geneva"), "from": []string{f.id("dup")}}, f.id("dup")},
		{"upsert a source", `mutation($in: SourceInput!) { upsertSource(input: $in) { id title } }`,
			map[string]any{"in": map[string]any{"id": f.id("src2"), "title": "Another", "dataset": f.ds}}, f.id("src2")},
		{"save a query", `mutation($in: SaveQueryInput!) { saveQuery(input: $in) { name version } }`,
			map[string]any{"in": map[string]any{"name": query, "title": "Types", "document": "query { relationTypes { type } }"}}, query},
		{"delete a saved query", `mutation($n: String!) { deleteSavedQuery(name: $n) { name versions } }`, map[string]any{"n": query}, query},
		{"two fields", `mutation($in: EntityInput!, $id: ID!) { a: upsertEntity(input: $in) { id } b: deleteEntity(id: $id) { id } }`,
			map[string]any{"in": map[string]any{"kind": "PLACE", "name": "The Hague", "dataset": f.ds, "sourceIds": []string{f.src}}, "id": f.id("gone")}, f.id("gone")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			key := "every-" + strings.ReplaceAll(tc.name, " ", "-")
			first := h.PostWith(keyed(key, ""), tc.query, tc.vars)
			if len(first.Errors) > 0 {
				t.Fatal(first.Raw)
			}
			before := changesOf(t, h, tc.target)
			again := h.PostWith(keyed(key, ""), tc.query, tc.vars)
			if diff := cmp.Diff(first.Data, again.Data); diff != "" || len(again.Errors) > 0 {
				t.Errorf("the retry (-first +retry):\n%s%s", diff, again.Raw)
			}
			if after := changesOf(t, h, tc.target); after != before {
				t.Errorf("the retry wrote %d changes, want none", after-before)
			}
		})
	}
	if got := entitiesNamed(t, h, f.ds, "The Hague"); got != 1 {
		t.Errorf("%d entities named The Hague, want 1", got)
	}
}

// TestCreateAPIKeyRetry: a retried createApiKey that committed cannot show
// its token again (it is stored as a hash): CONFLICT TOKEN_SHOWN_ONCE,
// and no second key.
func TestCreateAPIKeyRetry(t *testing.T) {
	t.Parallel()
	h := servertest.New(t, servertest.Options{})
	name := cyphertest.Dataset(t) // unique
	const create = `mutation($in: ApiKeyInput!) { createApiKey(input: $in) { token key { id } } }`
	vars := map[string]any{"in": map[string]any{"name": name, "role": "READER", "datasets": []string{name}}}
	first := h.PostWith(keyed("key-1", ""), create, vars)
	if len(first.Errors) > 0 {
		t.Fatal(first.Raw)
	}
	again := h.PostWith(keyed("key-1", ""), create, vars)
	if again.Code() != "CONFLICT" || again.Reason() != casegraph.ReasonTokenShownOnce {
		t.Errorf("the retry: %s, want CONFLICT %s", again.Raw, casegraph.ReasonTokenShownOnce)
	}
	res := h.MustPost(`{ apiKeys { name } }`, nil)
	n := 0
	for _, k := range field(res, "apiKeys").([]any) {
		if k.(map[string]any)["name"] == name {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d keys named %s, want 1", n, name)
	}
}
