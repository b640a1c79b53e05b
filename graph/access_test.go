package graph_test

// Access over the API: write rights, read scope, the audit log, keys,
// saved queries' rights, and protection kept by upserts.

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server/servertest"
)

// TestWriteRights: every mutation checks, inside its transaction, that the
// caller may write what it touches: a reader gets FORBIDDEN, an editor of
// another dataset gets FORBIDDEN for a write into a dataset it may not
// write (before anything there is looked up), sees another dataset's
// entities as missing (NOT_FOUND) and its ids as taken (CONFLICT) for a
// write into its own, an anonymous caller gets 401; and a refused write
// changes nothing.
func TestWriteRights(t *testing.T) {
	t.Parallel()
	f := newFixture(t) // dataset A, written by the harness's admin
	h := f.h
	b := cyphertest.Dataset(t)
	h.MustPost(`mutation S($in: SourceInput!) { upsertSource(input: $in) { id } }`,
		map[string]any{"in": map[string]any{"id": b + ":src", "title": "B's source", "dataset": b}})
	h.MustPost(upsert, map[string]any{"in": map[string]any{"id": b + ":x", "kind": "PERSON", "name": "In B", "dataset": b, "sourceIds": []string{b + ":src"}}})
	rel := f.link(t, map[string]any{"id": f.id("r"), "type": "AUTHORED", "from": f.id("nice"), "to": f.id("report"), "dataset": f.ds})
	if len(rel.Errors) > 0 {
		t.Fatal(rel.Raw)
	}

	readerA := h.Key(casegraph.NewAPIKey{Name: "reader A", Role: casegraph.RoleReader, Datasets: []string{f.ds}})
	editorA := h.Key(casegraph.NewAPIKey{Name: "editor A", Role: casegraph.RoleEditor, Datasets: []string{f.ds}})
	editorB := h.Key(casegraph.NewAPIKey{Name: "editor B", Role: casegraph.RoleEditor, Datasets: []string{b}})

	entity := func(id, ds string) map[string]any {
		src := f.src
		if ds == b {
			src = b + ":src"
		}
		return map[string]any{"in": map[string]any{"id": id, "kind": "PERSON", "name": "Changed", "dataset": ds, "sourceIds": []string{src}}}
	}
	type op struct {
		name  string
		query string
		vars  map[string]any
	}
	ops := []op{
		{"create in A", upsert, entity(f.id("new"), f.ds)},
		{"update in A", upsert, entity(f.id("nice"), f.ds)},
		{"move A to B", upsert, entity(f.id("nice"), b)},
		{"delete in A", `mutation($id: ID!) { deleteEntity(id: $id) { id } }`, map[string]any{"id": f.id("geneva")}},
		{"link in A", link, map[string]any{"in": map[string]any{"id": f.id("r2"), "type": "REPRESENTS", "from": f.id("firm"), "to": f.id("qatar"), "dataset": f.ds, "sourceIds": []string{f.src}}}},
		{"unlink in A", `mutation($id: ID!) { unlink(id: $id) { id } }`, map[string]any{"id": f.id("r")}},
		{"merge in A", `mutation($into: ID!, $from: [ID!]!) { mergeEntities(into: $into, from: $from) { id } }`, map[string]any{"into": f.id("firm"), "from": []string{f.id("qatar")}}},
		{"source in A", `mutation S($in: SourceInput!) { upsertSource(input: $in) { id } }`, map[string]any{"in": map[string]any{"id": f.src, "title": "Retitled", "dataset": f.ds}}},
		{"save a query", `mutation { saveQuery(input: {name: "` + f.ds + `-q", title: "q", document: "{ __typename }"}) { name } }`, nil},
	}
	want := map[string][]string{ // principal: the code of each op, in order
		"anonymous":            {"UNAUTHENTICATED", "UNAUTHENTICATED", "UNAUTHENTICATED", "UNAUTHENTICATED", "UNAUTHENTICATED", "UNAUTHENTICATED", "UNAUTHENTICATED", "UNAUTHENTICATED", "UNAUTHENTICATED"},
		"reader A":             {"FORBIDDEN", "FORBIDDEN", "FORBIDDEN", "FORBIDDEN", "FORBIDDEN", "FORBIDDEN", "FORBIDDEN", "FORBIDDEN", "FORBIDDEN"},
		"editor B":             {"FORBIDDEN", "FORBIDDEN", "CONFLICT", "NOT_FOUND", "FORBIDDEN", "NOT_FOUND", "NOT_FOUND", "FORBIDDEN", ""},
		"editor A, moving out": {"", "", "FORBIDDEN"},
	}
	tokens := map[string]string{"anonymous": "", "reader A": readerA, "editor B": editorB, "editor A, moving out": editorA}
	before := cyphertest.Snapshot(t, h.Store, f.ds)
	for _, who := range []string{"anonymous", "reader A", "editor B", "editor A, moving out"} {
		for i, code := range want[who] {
			o := ops[i]
			if who == "editor A, moving out" && code == "" {
				continue // allowed; done below, after the snapshot check
			}
			t.Run(who+"/"+o.name, func(t *testing.T) {
				res := h.PostAs(tokens[who], o.query, o.vars)
				if got := res.Code(); got != code {
					t.Errorf("got %s (%s), want %s", got, res.Raw, code)
				}
			})
		}
	}
	if after := cyphertest.Snapshot(t, h.Store, f.ds); !slices.Equal(before, after) {
		t.Errorf("refused writes changed dataset A:\nbefore %v\nafter  %v", before, after)
	}
	if res := h.Get("/metrics"); !strings.Contains(res.Raw, "casegraph_forbidden_total 14") {
		t.Errorf("/metrics does not count the 14 refusals of rights (9 of reader A, 4 of editor B, 1 of editor A)")
	}
	h.PostAs(editorB, `mutation { deleteSavedQuery(name: "`+f.ds+`-q") { versions } }`, nil)

	// What an editor of A may do, it does.
	for _, o := range ops[:2] {
		if res := h.PostAs(editorA, o.query, o.vars); len(res.Errors) > 0 {
			t.Errorf("editor A, %s: %s", o.name, res.Raw)
		}
	}
	for _, o := range ops[3:8] {
		if res := h.PostAs(editorA, o.query, o.vars); len(res.Errors) > 0 {
			t.Errorf("editor A, %s: %s", o.name, res.Raw)
		}
	}
}

// otherDataset writes a dataset B of its own, with a source and an
// organization named name (a name of the test's own: a search must not
// find another test's), and returns B, the source's id and the
// organization's.
func otherDataset(t *testing.T, h *servertest.Harness, name string) (b, src, broker string) {
	t.Helper()
	b = cyphertest.Dataset(t)
	src, broker = b+":src", b+":broker"
	h.MustPost(`mutation S($in: SourceInput!) { upsertSource(input: $in) { id } }`,
		map[string]any{"in": map[string]any{"id": src, "title": "B's source", "dataset": b}})
	h.MustPost(upsert, map[string]any{"in": map[string]any{"id": broker, "kind": "ORGANIZATION", "name": name, "dataset": b, "sourceIds": []string{src}}})
	return b, src, broker
}

// TestReadScope: a reader of one dataset reads the graph as if the others
// did not exist: entities, relations and their totals, search, lists (and
// their filters: a relation of B is no relation for hasRelation), and
// paths (which find the way around what it may not read).
func TestReadScope(t *testing.T) {
	t.Parallel()
	f := newFixture(t) // dataset A
	h := f.h
	b, bsrc, broker := otherDataset(t, h, "Hidden Broker Quillfeather")
	for _, l := range []map[string]any{
		{"id": f.id("a1"), "type": "MEMBER_OF", "from": f.id("nice"), "to": f.id("firm"), "dataset": f.ds},
		{"id": f.id("a2"), "type": "REPRESENTS", "from": f.id("firm"), "to": f.id("qatar"), "dataset": f.ds},
		{"id": f.id("b1"), "type": "MEMBER_OF", "from": f.id("nice"), "to": f.id("qatar"), "dataset": b, "sourceIds": []string{bsrc}},
		{"id": f.id("b2"), "type": "MEMBER_OF", "from": f.id("nice"), "to": broker, "dataset": b, "sourceIds": []string{bsrc}},
	} {
		if res := f.link(t, l); len(res.Errors) > 0 {
			t.Fatal(res.Raw)
		}
	}
	readerA := h.Key(casegraph.NewAPIKey{Name: "reader A", Role: casegraph.RoleReader, Datasets: []string{f.ds}})
	nobody := h.Key(casegraph.NewAPIKey{Name: "reader of nothing here", Role: casegraph.RoleReader, Datasets: []string{"elsewhere"}})

	tests := []struct {
		name, query   string
		vars          map[string]any
		admin, reader string // the JSON each sees (the data)
	}{
		{"an entity of B", `query($id: ID!) { entity(id: $id) { id } }`, map[string]any{"id": broker},
			`{"entity":{"id":"` + broker + `"}}`, `{"entity":null}`},
		{"relations and their total", `query($id: ID!) { entity(id: $id) { relations(first: 10) { totalCount edges { node { id } } } } }`, map[string]any{"id": f.id("nice")},
			`{"entity":{"relations":{"edges":[{"node":{"id":"relation~` + f.id("a1") + `"}},{"node":{"id":"relation~` + f.id("b1") + `"}},{"node":{"id":"relation~` + f.id("b2") + `"}}],"totalCount":3}}}`,
			`{"entity":{"relations":{"edges":[{"node":{"id":"relation~` + f.id("a1") + `"}}],"totalCount":1}}}`},
		{"a relation of B by its end", `query($id: ID!) { entity(id: $id) { relations(first: 10, types: [MEMBER_OF], direction: INCOMING) { totalCount } } }`, map[string]any{"id": f.id("qatar")},
			`{"entity":{"relations":{"totalCount":1}}}`, `{"entity":{"relations":{"totalCount":0}}}`},
		{"search", `{ search(text: "Quillfeather") { edges { node { id } } } }`, nil,
			`{"search":{"edges":[{"node":{"id":"` + broker + `"}}]}}`, `{"search":{"edges":[]}}`},
		{"a relation only through B", `query($ds: [String!]) { entities(filter: {datasets: $ds, hasRelation: [MEMBER_OF]}) { totalCount } }`, map[string]any{"ds": []string{f.ds}},
			`{"entities":{"totalCount":3}}`, `{"entities":{"totalCount":2}}`},
		{"list B", `query($ds: [String!]) { entities(filter: {datasets: $ds}) { edges { node { id } } } }`, map[string]any{"ds": []string{b}},
			`{"entities":{"edges":[{"node":{"id":"` + broker + `"}}]}}`, `{"entities":{"edges":[]}}`},
		{"the shortest path avoids B", `query($a: ID!, $b: ID!) { shortestPath(from: $a, to: $b) { length nodes { id } } }`, map[string]any{"a": f.id("nice"), "b": f.id("qatar")},
			`{"shortestPath":{"length":1,"nodes":[{"id":"` + f.id("nice") + `"},{"id":"` + f.id("qatar") + `"}]}}`,
			`{"shortestPath":{"length":2,"nodes":[{"id":"` + f.id("nice") + `"},{"id":"` + f.id("firm") + `"},{"id":"` + f.id("qatar") + `"}]}}`},
		{"no path to what it cannot read", `query($a: ID!, $b: ID!) { shortestPath(from: $a, to: $b) { length } }`, map[string]any{"a": f.id("nice"), "b": broker},
			`{"shortestPath":{"length":1}}`, `{"shortestPath":null}`},
		{"the neighbourhood", `query($id: ID!) { neighborhood(id: $id) { nodes { id } } }`, map[string]any{"id": f.id("nice")},
			// (in id order: the neighbourhood's order is not part of its answer)
			nodesJSON("neighborhood", f.id("nice"), f.id("firm"), f.id("qatar"), broker), nodesJSON("neighborhood", f.id("nice"), f.id("firm"))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, who := range []struct{ name, token, want string }{{"admin", h.Token, tt.admin}, {"reader A", readerA, tt.reader}} {
				res := h.PostAs(who.token, tt.query, tt.vars)
				if got := compactData(t, res); got != who.want {
					t.Errorf("%s sees %s\nwant %s\n(%s)", who.name, got, who.want, res.Raw)
				}
			}
		})
	}
	if res := h.PostAs(nobody, `query($id: ID!) { entity(id: $id) { id } }`, map[string]any{"id": f.id("nice")}); compactData(t, res) != `{"entity":null}` {
		t.Errorf("a reader of another dataset sees A: %s", res.Raw)
	}
}

// nodesJSON is the data of a field whose nodes are the ids, in id order.
func nodesJSON(field string, ids ...string) string {
	slices.Sort(ids)
	nodes := make([]map[string]string, len(ids))
	for i, id := range ids {
		nodes[i] = map[string]string{"id": id}
	}
	b, _ := json.Marshal(map[string]any{field: map[string]any{"nodes": nodes}})
	return string(b)
}

// compactData is a response's data as compact JSON with sorted keys (and a
// neighbourhood's nodes in id order).
func compactData(t *testing.T, res servertest.Response) string {
	t.Helper()
	if n, ok := res.Data["neighborhood"].(map[string]any); ok {
		if nodes, ok := n["nodes"].([]any); ok {
			slices.SortFunc(nodes, func(a, b any) int {
				return strings.Compare(a.(map[string]any)["id"].(string), b.(map[string]any)["id"].(string))
			})
		}
	}
	b, err := json.Marshal(res.Data)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestAuditLog: every successful mutation leaves one change record, with
// who made it and the fields it changed; a refused one leaves none; two
// editors writing at once leave two; editors read their datasets' records,
// readers none.
func TestAuditLog(t *testing.T) {
	t.Parallel()
	f := newFixture(t) // 1 source and 5 entities written by the harness's admin
	h := f.h
	editor := h.Key(casegraph.NewAPIKey{Name: "editor A", Role: casegraph.RoleEditor, Datasets: []string{f.ds}})
	other := h.Key(casegraph.NewAPIKey{Name: "editor B", Role: casegraph.RoleEditor, Datasets: []string{"elsewhere"}})
	reader := h.Key(casegraph.NewAPIKey{Name: "reader A", Role: casegraph.RoleReader, Datasets: []string{f.ds}})
	const changes = `query($f: ChangeFilter) { changes(filter: $f, first: 50) { edges { node { principal operation targets dataset fields { field old new } } } } }`
	count := func(token string, filter map[string]any) (int, servertest.Response) {
		res := h.PostAs(token, changes, map[string]any{"f": filter})
		edges, _ := field(res, "changes", "edges").([]any)
		return len(edges), res
	}
	if n, res := count(h.Token, map[string]any{"dataset": f.ds}); n != 6 {
		t.Fatalf("the fixture's 6 writes left %d records: %s", n, res.Raw)
	}

	// An edit by the editor: one record naming it and the field it changed.
	if res := h.PostAs(editor, upsert, map[string]any{"in": map[string]any{"id": f.id("nice"), "kind": "PERSON", "name": "Geoffrey Nice KC", "dataset": f.ds, "sourceIds": []string{f.src}}}); len(res.Errors) > 0 {
		t.Fatal(res.Raw)
	}
	res := h.PostAs(editor, changes, map[string]any{"f": map[string]any{"entityId": f.id("nice")}})
	edges, _ := field(res, "changes", "edges").([]any)
	if len(edges) != 2 {
		t.Fatalf("nice has %d records, want 2 (created, renamed): %s", len(edges), res.Raw)
	}
	newest := edges[0].(map[string]any)["node"].(map[string]any)
	if newest["operation"] != "upsertEntity" || !strings.HasPrefix(newest["principal"].(string), "key:") {
		t.Errorf("the newest record: %v", newest)
	}
	fields, _ := json.Marshal(newest["fields"])
	if want := `[{"field":"name","new":"\"Geoffrey Nice KC\"","old":"\"Sir Geoffrey Nice\""}]`; string(fields) != want {
		t.Errorf("fields %s, want %s", fields, want)
	}

	// Refused writes leave nothing.
	before, _ := count(h.Token, map[string]any{"dataset": f.ds})
	h.PostAs(reader, `mutation($id: ID!) { deleteEntity(id: $id) { id } }`, map[string]any{"id": f.id("geneva")})
	h.PostAs(other, `mutation($id: ID!) { deleteEntity(id: $id) { id } }`, map[string]any{"id": f.id("geneva")})
	if after, _ := count(h.Token, map[string]any{"dataset": f.ds}); after != before {
		t.Errorf("refused writes left %d records", after-before)
	}

	// Two editors at once: two records.
	done := make(chan servertest.Response, 2)
	for _, tok := range []string{editor, h.Token} {
		go func() {
			done <- h.PostAs(tok, upsert, map[string]any{"in": map[string]any{"id": f.id("geneva"), "kind": "PLACE", "name": "Genève " + tok[:8], "dataset": f.ds, "sourceIds": []string{f.src}}})
		}()
	}
	for range 2 {
		if res := <-done; len(res.Errors) > 0 {
			t.Errorf("a concurrent write: %s", res.Raw)
		}
	}
	if n, res := count(h.Token, map[string]any{"entityId": f.id("geneva")}); n != 3 {
		t.Errorf("geneva has %d records, want 3 (created, two concurrent edits): %s", n, res.Raw)
	}

	// Who may read the log.
	if n, _ := count(other, map[string]any{"dataset": f.ds}); n != 0 {
		t.Errorf("an editor of another dataset reads %d of A's records", n)
	}
	if _, res := count(reader, nil); res.Code() != "FORBIDDEN" {
		t.Errorf("a reader reads the log: %s", res.Raw)
	}
}

// TestKeyMutations: admins make, list and revoke keys through the API; the
// token is shown once and works; nobody else may touch keys.
func TestKeyMutations(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	h := f.h
	res := h.MustPost(`mutation($in: ApiKeyInput!) { createApiKey(input: $in) { token key { id name role datasets cleared createdBy revokedAt } } }`,
		map[string]any{"in": map[string]any{"name": "reader via API " + f.ds, "role": "READER", "datasets": []string{f.ds}}})
	token, _ := field(res, "createApiKey", "token").(string)
	id, _ := field(res, "createApiKey", "key", "id").(string)
	if by, _ := field(res, "createApiKey", "key", "createdBy").(string); !strings.HasPrefix(token, "cgk_"+id+"_") || !strings.HasPrefix(by, "key:") {
		t.Fatalf("createApiKey: %s", res.Raw)
	}
	if res := h.PostAs(token, `query($id: ID!) { entity(id: $id) { name } }`, map[string]any{"id": f.id("nice")}); field(res, "entity", "name") != "Sir Geoffrey Nice" {
		t.Errorf("the new key does not read its dataset: %s", res.Raw)
	}
	listed := h.MustPost(`{ apiKeys { id name } }`, nil)
	if !strings.Contains(listed.Raw, id) || strings.Contains(listed.Raw, token) {
		t.Errorf("apiKeys does not list the key, or shows its token: %s", listed.Raw)
	}
	editor := h.Key(casegraph.NewAPIKey{Name: "editor", Role: casegraph.RoleEditor, Datasets: []string{"*"}})
	for _, q := range []string{
		`mutation { createApiKey(input: {name: "mine", role: ADMIN}) { token } }`,
		`{ apiKeys { id } }`,
		`mutation { revokeApiKey(id: "` + id + `") { id } }`,
	} {
		if res := h.PostAs(editor, q, nil); res.Code() != "FORBIDDEN" {
			t.Errorf("an editor: %s: %s, want FORBIDDEN", q, res.Raw)
		}
	}
	// A key revoked before its first use never works (a used one stops
	// within --key-cache-ttl).
	res = h.MustPost(`mutation { createApiKey(input: {name: "short-lived", role: READER, datasets: ["`+f.ds+`"]}) { token key { id } } }`, nil)
	short, _ := field(res, "createApiKey", "token").(string)
	shortID, _ := field(res, "createApiKey", "key", "id").(string)
	if res := h.MustPost(`mutation($id: ID!) { revokeApiKey(id: $id) { revokedAt } }`, map[string]any{"id": shortID}); field(res, "revokeApiKey", "revokedAt") == nil {
		t.Errorf("revokeApiKey: %s", res.Raw)
	}
	if res := h.PostAs(short, `{ __typename }`, nil); res.Status != 401 {
		t.Errorf("a revoked key: %d %s, want 401", res.Status, res.Raw)
	}
	if res := h.Post(`mutation { revokeApiKey(id: "0000000000000000") { id } }`, nil); res.Code() != "NOT_FOUND" {
		t.Errorf("revoking no key: %s", res.Raw)
	}
}

// TestSavedQueryRights: a saved query has an owner and a visibility; only
// its owner or an admin changes or deletes it; one the caller may not see
// is not there; and a run has the rights of whoever runs it.
func TestSavedQueryRights(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	h := f.h
	editorA := h.Key(casegraph.NewAPIKey{Name: "editor A", Role: casegraph.RoleEditor, Datasets: []string{f.ds}})
	readerA := h.Key(casegraph.NewAPIKey{Name: "reader A", Role: casegraph.RoleReader, Datasets: []string{f.ds}})
	editorB := h.Key(casegraph.NewAPIKey{Name: "editor B", Role: casegraph.RoleEditor, Datasets: []string{"elsewhere"}})
	const save = `mutation($in: SaveQueryInput!) { saveQuery(input: $in) { name version owner visibility datasets } }`
	doc := `query($id: ID!) { entity(id: $id) { name } }`
	saveAs := func(token, name, visibility string, datasets []string) servertest.Response {
		in := map[string]any{"name": name, "title": "Name of", "document": doc, "defaultVariables": map[string]any{"id": f.id("nice")}}
		if visibility != "" {
			in["visibility"] = visibility
		}
		if datasets != nil {
			in["datasets"] = datasets
		}
		return h.PostAs(token, save, map[string]any{"in": in})
	}
	private, public, shared := f.ds+"-private", f.ds+"-public", f.ds+"-shared"
	t.Cleanup(func() {
		for _, n := range []string{private, public, shared} {
			h.Post(`mutation($n: String!) { deleteSavedQuery(name: $n) { versions } }`, map[string]any{"n": n})
		}
	})
	if res := saveAs(editorA, private, "", nil); field(res, "saveQuery", "visibility") != "PRIVATE" || !strings.HasPrefix(field(res, "saveQuery", "owner").(string), "key:") {
		t.Fatalf("a query saved without a visibility: %s", res.Raw)
	}
	if res := saveAs(editorA, public, "PUBLIC", nil); len(res.Errors) > 0 {
		t.Fatal(res.Raw)
	}
	if res := saveAs(editorA, shared, "DATASETS", []string{f.ds}); len(res.Errors) > 0 {
		t.Fatal(res.Raw)
	}
	const read = `query($n: String!) { savedQuery(name: $n) { name } }`
	for _, tt := range []struct {
		who, token, name, code string
	}{
		{"editor B", editorB, private, "NOT_FOUND"},
		{"editor B", editorB, public, ""},
		{"editor B", editorB, shared, "NOT_FOUND"},
		{"reader A", readerA, private, "NOT_FOUND"},
		{"reader A", readerA, shared, ""},
		{"admin", h.Token, private, ""},
	} {
		if res := h.PostAs(tt.token, read, map[string]any{"n": tt.name}); res.Code() != tt.code {
			t.Errorf("%s reads %s: %s, want %q", tt.who, tt.name, res.Raw, tt.code)
		}
	}
	// Changing and deleting: the owner and admins only.
	if res := saveAs(editorB, private, "PUBLIC", nil); res.Code() != "CONFLICT" {
		t.Errorf("editor B saves over a private query it cannot see: %s, want CONFLICT", res.Raw)
	}
	if res := saveAs(editorB, public, "PUBLIC", nil); res.Code() != "FORBIDDEN" {
		t.Errorf("editor B saves a new version of another's public query: %s, want FORBIDDEN", res.Raw)
	}
	if res := h.PostAs(editorB, `mutation($n: String!) { deleteSavedQuery(name: $n) { versions } }`, map[string]any{"n": public}); res.Code() != "FORBIDDEN" {
		t.Errorf("editor B deletes another's public query: %s, want FORBIDDEN", res.Raw)
	}
	if res := h.PostAs(editorB, `mutation($n: String!) { deleteSavedQuery(name: $n) { versions } }`, map[string]any{"n": private}); res.Code() != "NOT_FOUND" {
		t.Errorf("editor B deletes a private query it cannot see: %s, want NOT_FOUND", res.Raw)
	}
	// A run has the runner's rights: editor B cannot read dataset A, even
	// through A's editor's public query.
	const run = `query($n: String!) { runSavedQuery(name: $n) { data } }`
	if res := h.PostAs(editorB, run, map[string]any{"n": public}); !strings.Contains(res.Raw, `\"entity\":null`) && !strings.Contains(res.Raw, `"entity":null`) {
		t.Errorf("editor B runs the public query: %s, want entity null", res.Raw)
	}
	if res := h.PostAs(editorA, run, map[string]any{"n": public}); !strings.Contains(res.Raw, "Sir Geoffrey Nice") {
		t.Errorf("editor A runs it: %s", res.Raw)
	}
}

// TestUpsertKeepsProtection: an upsert that leaves protected out keeps the
// stored choice; only an explicit false lifts it.
func TestUpsertKeepsProtection(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	const q = `mutation Upsert($in: EntityInput!) { upsertEntity(input: $in) { protected version } }`
	in := func(extra map[string]any) map[string]any {
		m := map[string]any{"id": f.id("witness"), "kind": "PERSON", "name": "A witness", "dataset": f.ds, "sourceIds": []string{f.src}}
		for k, v := range extra {
			m[k] = v
		}
		return map[string]any{"in": m}
	}
	for i, step := range []struct {
		extra map[string]any
		want  bool
	}{
		{map[string]any{"protected": true}, true},
		{map[string]any{"description": "Renamed, protection left out"}, true},
		{map[string]any{"protected": false}, false},
	} {
		res := f.h.MustPost(q, in(step.extra))
		if got := field(res, "upsertEntity", "protected"); got != step.want {
			t.Errorf("step %d: protected = %v, want %v (%s)", i+1, got, step.want, res.Raw)
		}
	}
}

// TestAuditLogAcrossDatasets: the audit log names nothing of a dataset its
// reader may not read. A link between A's entity and B's records both ends
// (and the role and quote) whichever dataset the relation belongs to: such
// a record is left out for an editor of A alone, or of B alone, in the
// page, in its total and when asked for by the other end's id; an admin
// reads both.
func TestAuditLogAcrossDatasets(t *testing.T) {
	t.Parallel()
	f := newFixture(t) // dataset A
	h := f.h
	b, bsrc, broker := otherDataset(t, h, "Hidden Broker Wrenfield")
	for _, l := range []map[string]any{
		{"id": f.id("to-b"), "type": "MEMBER_OF", "from": f.id("nice"), "to": broker, "dataset": f.ds, "role": "role-to-b-qz9", "quote": "quote-to-b-qz9"},
		{"id": b + ":to-a", "type": "REPRESENTS", "from": broker, "to": f.id("qatar"), "dataset": b, "sourceIds": []string{bsrc}, "role": "role-to-a-qz9", "quote": "quote-to-a-qz9"},
	} {
		if res := f.link(t, l); len(res.Errors) > 0 {
			t.Fatal(res.Raw)
		}
	}
	editorA := h.Key(casegraph.NewAPIKey{Name: "editor A", Role: casegraph.RoleEditor, Datasets: []string{f.ds}})
	editorB := h.Key(casegraph.NewAPIKey{Name: "editor B", Role: casegraph.RoleEditor, Datasets: []string{b}})
	const changes = `query($f: ChangeFilter) { changes(filter: $f, first: 100) { totalCount edges { node { operation targets dataset fields { field old new } } } } }`
	links := func(token string, filter map[string]any) (int, int, string) {
		t.Helper()
		res := h.PostAs(token, changes, map[string]any{"f": filter})
		if len(res.Errors) > 0 {
			t.Fatal(res.Raw)
		}
		n := 0
		for _, e := range field(res, "changes", "edges").([]any) {
			if e.(map[string]any)["node"].(map[string]any)["operation"] == "link" {
				n++
			}
		}
		total, _ := field(res, "changes", "totalCount").(float64)
		return n, int(total), res.Raw
	}
	if n, _, raw := links(h.Token, nil); n < 2 {
		t.Fatalf("the admin reads %d link records, want both:\n%s", n, raw)
	}
	for _, tt := range []struct {
		who, token, own string
		secrets         []string // of the dataset the editor may not read
	}{
		{"editor A", editorA, f.ds, []string{broker, "Wrenfield", "to-b-qz9", "to-a-qz9"}},
		{"editor B", editorB, b, []string{f.id("nice"), f.id("qatar"), "to-b-qz9", "to-a-qz9"}},
	} {
		t.Run(tt.who, func(t *testing.T) {
			for _, filter := range []map[string]any{nil, {"dataset": tt.own}, {"entityId": broker}, {"entityId": f.id("qatar")}} {
				n, total, raw := links(tt.token, filter)
				var leaked []string
				for _, s := range tt.secrets {
					if strings.Contains(raw, s) {
						leaked = append(leaked, s)
					}
				}
				if n > 0 || len(leaked) > 0 {
					t.Errorf("filter %v: %d link records naming %q:\n%s", filter, n, leaked, raw)
				}
				var all struct {
					Data struct{ Changes struct{ Edges []any } }
				}
				if err := json.Unmarshal([]byte(raw), &all); err != nil {
					t.Fatal(err)
				}
				if total != len(all.Data.Changes.Edges) {
					t.Errorf("filter %v: totalCount %d, but %d records on the only page", filter, total, len(all.Data.Changes.Edges))
				}
			}
		})
	}
}
