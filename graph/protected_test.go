package graph_test

// Protected people: unseen without clearance wherever they could show
// (reads, the seed, writes, the audit log).

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server"
	"github.com/casegraph/casegraph/server/servertest"
	"github.com/google/go-cmp/cmp"
)

// protectedFixture is a dataset of its own around a protected witness
// whose name, alias, id, quote and role are found nowhere else:
// handler -MEMBER_OF-> agency <-EMPLOYED_BY- witness -PARTICIPATED_IN-> camp,
// and witness -HELD_POSITION-> agency with a post and a rank.
type protectedFixture struct {
	fixture
	witness string
	secrets []string // what a caller without clearance may never see
}

func newProtectedFixture(t *testing.T) protectedFixture {
	t.Helper()
	// Budgets of minutes, not the server's 10 s a path search and 15 s a
	// request: these tests ask every kind of query once, each the first of
	// its statement on a fresh database, whose planning under load (CI's,
	// beside the other packages) once ran a shortestPath past 10 s. They
	// are about what is shown, not how fast.
	f := newBareFixtureWith(t, servertest.Options{PathTimeout: 2 * time.Minute,
		Config: func(c *server.Config) { c.RequestTimeout = 3 * time.Minute }})
	p := protectedFixture{fixture: f, witness: f.id("qx7-witness-zulu")}
	p.secrets = []string{"qx7-witness-zulu", "Zephyrine Okonkwo-Vale", "Nightjar Qx7", "whispered-quote-qx7", "informant-role-qx7", "Witness biography qx7",
		// The identifying fields: none shows redacted, nor finds her in a search.
		"1971-02-03", "2019-11", "Birthplace-qx7", "FEMALE", "QX7PASS44", "Issuer-qx7", "Address-qx7",
		"handler-post-qx7", "field-rank-qx7"}
	for _, in := range []map[string]any{
		{"id": p.witness, "kind": "PERSON", "name": "Zephyrine Okonkwo-Vale", "aliases": []string{"Nightjar Qx7"},
			"description": "Witness biography qx7", "nationality": "SY", "protected": true,
			"birthDate": "1971-02-03", "deathDate": "2019-11", "birthPlace": "Birthplace-qx7", "gender": "FEMALE",
			"identifiers": []map[string]any{{"type": "PASSPORT", "value": "QX7PASS44", "issuer": "Issuer-qx7"}}, "address": "Address-qx7"},
		{"id": f.id("handler"), "kind": "PERSON", "name": "Handler"},
		{"id": f.id("agency"), "kind": "ORGANIZATION", "name": "Agency"},
		{"id": f.id("camp"), "kind": "EVENT", "name": "Camp", "startDate": "2012", "endDate": "2013"},
	} {
		if res := f.upsert(t, in); len(res.Errors) > 0 {
			t.Fatal(res.Raw)
		}
	}
	for _, in := range []map[string]any{
		{"id": f.id("r1"), "type": "MEMBER_OF", "from": f.id("handler"), "to": f.id("agency"), "dataset": f.ds},
		{"id": f.id("r2-qx7-witness-zulu"), "type": "EMPLOYED_BY", "from": p.witness, "to": f.id("agency"), "dataset": f.ds,
			"role": "informant-role-qx7", "quote": "whispered-quote-qx7", "startDate": "2011"},
		{"id": f.id("r3-qx7-witness-zulu"), "type": "PARTICIPATED_IN", "from": p.witness, "to": f.id("camp"), "dataset": f.ds,
			"role": "informant-role-qx7", "startDate": "2012"},
		{"id": f.id("r4-qx7-witness-zulu"), "type": "HELD_POSITION", "from": p.witness, "to": f.id("agency"), "dataset": f.ds,
			"post": "handler-post-qx7", "rank": "field-rank-qx7", "startDate": "2010"},
	} {
		if res := f.link(t, in); len(res.Errors) > 0 {
			t.Fatal(res.Raw)
		}
	}
	return p
}

const protectedEntityFields = `id name aliases description redacted protected
  ... on Person { nationality birthDate deathDate birthPlace gender identifiers { type value issuer } address }
  sources { id }`

const protectedRelationFields = `id type from { id name aliases } to { id name aliases } role quote startDate post rank`

// TestProtectedPeople: for every query kind, over POST /graphql, the saved
// query runner and GET /queries/{name} (JSON and CSV), a caller without
// clearance never sees a protected person's name, aliases, description,
// id, or the quote, role, post and rank of its relations (nor in a cursor), while a
// cleared reader and an admin see them.
func TestProtectedPeople(t *testing.T) {
	t.Parallel()
	f := newProtectedFixture(t)
	h := f.h
	saved := f.ds + "-around"
	h.MustPost(`mutation($in: SaveQueryInput!) { saveQuery(input: $in) { name } }`, map[string]any{"in": map[string]any{
		"name": saved, "title": "around", "visibility": "PUBLIC",
		"document": `query($id: ID!) { neighborhood(id: $id, depth: 2) { nodes { id name aliases } relations { id from { id name } to { id name } role quote } } }`}})

	reader := h.Key(casegraph.NewAPIKey{Name: "reader", Role: casegraph.RoleReader, Datasets: []string{f.ds}})
	cleared := h.Key(casegraph.NewAPIKey{Name: "cleared reader", Role: casegraph.RoleReader, Datasets: []string{f.ds}, Cleared: true})

	// The witness as each caller names it: the reader learns its opaque id
	// from the agency's relations.
	res := h.PostAs(reader, `query($id: ID!) { entity(id: $id) { relations(types: [EMPLOYED_BY]) { edges { node { from { id } } } } } }`,
		map[string]any{"id": f.id("agency")})
	opaque := regexp.MustCompile(`protected-[0-9a-f]{16}`).FindString(res.Raw)
	if opaque == "" {
		t.Fatalf("the reader sees no opaque id: %s", res.Raw)
	}

	// The reader pages the agency's relations by what it sees: the
	// redacted one's opaque id, then the next.
	page := `query($id: ID!, $after: String) { entity(id: $id) { relations(first: 1, after: $after) { edges { node { id } } pageInfo { endCursor hasNextPage } } } }`
	var ids []string
	var after any
	for range 3 {
		res := h.PostAs(reader, page, map[string]any{"id": f.id("agency"), "after": after})
		rels := res.Data["entity"].(map[string]any)["relations"].(map[string]any)
		for _, e := range rels["edges"].([]any) {
			ids = append(ids, e.(map[string]any)["node"].(map[string]any)["id"].(string))
		}
		info := rels["pageInfo"].(map[string]any)
		if info["hasNextPage"] != true {
			break
		}
		after = info["endCursor"]
	}
	if len(ids) != 3 || !strings.HasPrefix(ids[0], "relation~protected-") || !strings.HasPrefix(ids[1], "relation~protected-") ||
		ids[2] != "relation~"+f.id("r1") {
		t.Errorf("the reader's pages of the agency's relations: %v, want two opaque ids, then %s", ids, f.id("r1"))
	}

	type query struct {
		kind, doc string
		vars      func(witness string) map[string]any
	}
	byID := func(id string) func(string) map[string]any {
		return func(string) map[string]any { return map[string]any{"id": id} }
	}
	queries := []query{
		{"entity", `query($id: ID!) { entity(id: $id) { ` + protectedEntityFields + ` relations { edges { cursor node { ` + protectedRelationFields + ` } } pageInfo { endCursor } } } }`,
			func(w string) map[string]any { return map[string]any{"id": w} }},
		{"entity by real id", `query($id: ID!) { entity(id: $id) { id name } }`, byID(f.witness)},
		{"entities", `query($ds: String!) { entities(filter: {datasets: [$ds]}, first: 50) { totalCount edges { cursor node { ` + protectedEntityFields + ` } } } }`,
			func(string) map[string]any { return map[string]any{"ds": f.ds} }},
		{"entities by name", `query($ds: String!) { entities(filter: {datasets: [$ds], nameContains: "Zephyrine"}) { totalCount edges { node { id name } } } }`,
			func(string) map[string]any { return map[string]any{"ds": f.ds} }},
		{"search by name", `query($ds: String!) { search(text: "Zephyrine", datasets: [$ds]) { edges { cursor node { id name aliases } } } }`,
			func(string) map[string]any { return map[string]any{"ds": f.ds} }},
		{"search by alias", `query($ds: String!) { search(text: "Nightjar", datasets: [$ds]) { edges { cursor node { id name aliases } } } }`,
			func(string) map[string]any { return map[string]any{"ds": f.ds} }},
		{"search by identifier", `query($ds: String!) { search(text: "QX7PASS44", datasets: [$ds]) { edges { cursor matchedField node { ` + protectedEntityFields + ` } } } }`,
			func(string) map[string]any { return map[string]any{"ds": f.ds} }},
		{"suggest", `query($ds: String!) { suggest(prefix: "Zephyr", datasets: [$ds]) { text entity { id name } } }`,
			func(string) map[string]any { return map[string]any{"ds": f.ds} }},
		{"relations", `query($id: ID!) { entity(id: $id) { relations(first: 2) { edges { cursor node { ` + protectedRelationFields + ` } } pageInfo { endCursor } } } }`,
			byID(f.id("agency"))},
		{"relation by real id", `query($id: ID!) { relation(id: $id) { id } }`, byID(f.id("r2-qx7-witness-zulu"))},
		{"timeline", `query($id: ID!) { timeline(id: $id) { start relation { ` + protectedRelationFields + ` } event { id name } } }`,
			func(w string) map[string]any { return map[string]any{"id": w} }},
		{"timeline of the agency", `query($id: ID!) { timeline(id: $id) { start relation { ` + protectedRelationFields + ` } } }`, byID(f.id("agency"))},
		{"shortestPath", `query($a: ID!, $b: ID!) { shortestPath(from: $a, to: $b) { nodes { ` + protectedEntityFields + ` } steps { relation { ` + protectedRelationFields + ` } from { id name } to { id name } } } }`,
			func(string) map[string]any { return map[string]any{"a": f.id("handler"), "b": f.id("camp")} }},
		{"paths", `query($a: ID!, $b: ID!) { paths(from: $a, to: $b, k: 3) { nodes { id name aliases } steps { relation { ` + protectedRelationFields + ` } } } }`,
			func(string) map[string]any { return map[string]any{"a": f.id("handler"), "b": f.id("camp")} }},
		{"neighborhood", `query($id: ID!) { neighborhood(id: $id, depth: 2) { nodes { ` + protectedEntityFields + ` } relations { ` + protectedRelationFields + ` } } }`,
			byID(f.id("agency"))},
		{"connections", `query($a: ID!, $b: ID!) { connections(ids: [$a, $b]) { nodes { id name aliases } relations { ` + protectedRelationFields + ` } } }`,
			func(string) map[string]any { return map[string]any{"a": f.id("handler"), "b": f.id("camp")} }},
		{"runSavedQuery", `query($name: String!, $vars: JSON) { runSavedQuery(name: $name, variables: $vars) { data } }`,
			func(string) map[string]any {
				return map[string]any{"name": saved, "vars": map[string]any{"id": f.id("agency")}}
			}},
	}
	principals := []struct {
		name, token string
		cleared     bool
		witness     string
	}{
		{"reader", reader, false, opaque},
		{"cleared reader", cleared, true, f.witness},
		{"admin", h.Token, true, f.witness},
	}
	for _, p := range principals {
		bodies := map[string]string{}
		for _, q := range queries {
			res := h.PostAs(p.token, q.doc, q.vars(p.witness))
			if len(res.Errors) > 0 {
				t.Errorf("%s, %s: %s", p.name, q.kind, res.Raw)
			}
			bodies[q.kind] = res.Raw
		}
		for _, format := range []string{"json", "csv"} {
			req, err := http.NewRequest(http.MethodGet, h.URL+"/queries/"+url.PathEscape(saved)+"?format="+format+"&id="+url.QueryEscape(f.id("agency")), nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Authorization", "Bearer "+p.token)
			res := h.Do(req)
			if res.Status != http.StatusOK {
				t.Errorf("%s, GET /queries as %s: %d %s", p.name, format, res.Status, res.Raw)
			}
			bodies["GET /queries "+format] = res.Raw
		}
		for kind, body := range bodies {
			body += decodedCursors(body)
			if !p.cleared {
				for _, s := range f.secrets {
					if strings.Contains(body, s) {
						t.Errorf("%s, %s: the response shows %q:\n%s", p.name, kind, s, body)
					}
				}
				continue
			}
			// A cleared caller sees the witness wherever it is found.
			if kind == "relation by real id" || kind == "timeline of the agency" || kind == "entities by name" {
				continue
			}
			if !strings.Contains(body, "qx7-witness-zulu") {
				t.Errorf("%s, %s: the witness is missing:\n%s", p.name, kind, body)
			}
		}
		if !p.cleared {
			for _, kind := range []string{"entity", "shortestPath", "neighborhood", "paths", "GET /queries json", "GET /queries csv"} {
				if !strings.Contains(bodies[kind], "Protected person") || !strings.Contains(bodies[kind], opaque) {
					t.Errorf("%s, %s: no redacted witness:\n%s", p.name, kind, bodies[kind])
				}
			}
			for _, kind := range []string{"entity by real id", "relation by real id"} {
				if strings.Contains(bodies[kind], `"id"`) {
					t.Errorf("%s, %s: found by its real id:\n%s", p.name, kind, bodies[kind])
				}
			}
		}
	}
}

// decodedCursors decodes every base64 string of a body that may be a
// cursor, so that what a cursor carries is checked too.
func decodedCursors(body string) string {
	var b strings.Builder
	for _, s := range regexp.MustCompile(`[A-Za-z0-9_-]{16,}`).FindAllString(body, -1) {
		if d, err := base64.RawURLEncoding.DecodeString(s); err == nil {
			b.WriteString(" " + string(d))
		}
	}
	return b.String()
}

// TestProtectedSeed: the seed's defector, Caesar, is protected: a reader
// without clearance never sees his id or aliases, a cleared one does.
func TestProtectedSeed(t *testing.T) {
	t.Parallel()
	h, _, id, reader, cleared := seedReaders(t)
	doc := `query($id: ID!, $caesar: ID!) {
  caesar: entity(id: $caesar) { id name }
  neighborhood(id: $id, depth: 2) { nodes { id name aliases description } relations { id role quote from { id } to { id } } }
}`
	vars := map[string]any{"id": id("syrian-military-police"), "caesar": id("caesar")}
	secrets := []string{`"` + id("caesar") + `"`, "Caesar (defector)", "قيصر", "rel-009-caesar"}
	body := h.PostAs(reader, doc, vars).Raw
	for _, s := range secrets {
		if strings.Contains(body, s) {
			t.Errorf("the reader sees %q:\n%s", s, body)
		}
	}
	if !strings.Contains(body, `"caesar":null`) || !strings.Contains(body, "Protected person") {
		t.Errorf("the reader should find no Caesar by id and see him redacted:\n%s", body)
	}
	body = h.PostAs(cleared, doc, vars).Raw
	for _, s := range secrets {
		if !strings.Contains(body, s) {
			t.Errorf("the cleared reader does not see %q:\n%s", s, body)
		}
	}
}

// TestProtectedWrites: a protected entity does not exist for an editor
// without clearance (NOT_FOUND, or its id taken), who may not protect an
// entity either (FORBIDDEN), and a refused write changes nothing; a
// cleared editor writes it.
func TestProtectedWrites(t *testing.T) {
	t.Parallel()
	f := newProtectedFixture(t)
	h := f.h
	editor := h.Key(casegraph.NewAPIKey{Name: "editor", Role: casegraph.RoleEditor, Datasets: []string{f.ds}})
	cleared := h.Key(casegraph.NewAPIKey{Name: "cleared editor", Role: casegraph.RoleEditor, Datasets: []string{f.ds}, Cleared: true})
	in := func(id string, protected bool) map[string]any {
		return map[string]any{"in": map[string]any{"id": id, "kind": "PERSON", "name": "Changed", "dataset": f.ds,
			"sourceIds": []string{f.src}, "protected": protected}}
	}
	ops := []struct {
		name, query string
		vars        map[string]any
		code        string // for the editor without clearance
	}{
		{"update the witness", upsert, in(f.witness, true), "CONFLICT"},
		{"unprotect the witness", upsert, in(f.witness, false), "CONFLICT"},
		{"protect another", upsert, in(f.id("handler"), true), "FORBIDDEN"},
		{"create protected", upsert, in(f.id("new"), true), "FORBIDDEN"},
		{"link to the witness", link, map[string]any{"in": map[string]any{"id": f.id("r9"), "type": "MEMBER_OF", "from": f.witness,
			"to": f.id("agency"), "dataset": f.ds, "sourceIds": []string{f.src}}}, "NOT_FOUND"},
		{"unlink from the witness", `mutation($id: ID!) { unlink(id: $id) { id } }`, map[string]any{"id": f.id("r2-qx7-witness-zulu")}, "NOT_FOUND"},
		{"merge the witness", `mutation($into: ID!, $from: [ID!]!) { mergeEntities(into: $into, from: $from) { id } }`,
			map[string]any{"into": f.id("handler"), "from": []string{f.witness}}, "NOT_FOUND"},
		{"delete the witness", `mutation($id: ID!) { deleteEntity(id: $id) { id } }`, map[string]any{"id": f.witness}, "NOT_FOUND"},
	}
	before := cyphertest.Snapshot(t, h.Store, f.ds)
	for _, op := range ops {
		res := h.PostAs(editor, op.query, op.vars)
		if len(res.Errors) != 1 || res.Errors[0].Extensions["code"] != op.code {
			t.Errorf("editor, %s: want %s, got %s", op.name, op.code, res.Raw)
		}
		for _, s := range []string{"Zephyrine", "Nightjar"} {
			if strings.Contains(res.Raw, s) {
				t.Errorf("editor, %s: the answer shows %q: %s", op.name, s, res.Raw)
			}
		}
	}
	if diff := cmp.Diff(before, cyphertest.Snapshot(t, h.Store, f.ds)); diff != "" {
		t.Errorf("refused writes changed the dataset (-before +after):\n%s", diff)
	}
	// The cleared editor updates the witness (still protected) and protects
	// the handler; the witness keeps its opaque id.
	reader := h.Key(casegraph.NewAPIKey{Name: "reader", Role: casegraph.RoleReader, Datasets: []string{f.ds}})
	seen := func() string {
		return h.PostAs(reader, `query($id: ID!) { neighborhood(id: $id) { nodes { id name redacted } } }`, map[string]any{"id": f.id("agency")}).Raw
	}
	opaque := regexp.MustCompile(`protected-[0-9a-f]{16}`)
	was := opaque.FindString(seen())
	for _, op := range ops[:3] {
		if res := h.PostAs(cleared, op.query, op.vars); len(res.Errors) > 0 && op.name != "unprotect the witness" {
			t.Errorf("cleared editor, %s: %s", op.name, res.Raw)
		}
	}
	// After "unprotect", the witness is protected again by "update".
	h.MustPost(upsert, in(f.witness, true))
	now := seen()
	if !strings.Contains(now, was) {
		t.Errorf("the witness's opaque id %s changed: %s", was, now)
	}
	if strings.Contains(now, f.id("handler")) || len(opaque.FindAllString(now, -1)) != 2 {
		t.Errorf("the protected handler should show redacted: %s", now)
	}
}

// TestProtectedChanges: the audit log shows a protected entity's changes
// only to callers with clearance.
func TestProtectedChanges(t *testing.T) {
	t.Parallel()
	f := newProtectedFixture(t)
	editor := f.h.Key(casegraph.NewAPIKey{Name: "editor", Role: casegraph.RoleEditor, Datasets: []string{f.ds}})
	cleared := f.h.Key(casegraph.NewAPIKey{Name: "cleared editor", Role: casegraph.RoleEditor, Datasets: []string{f.ds}, Cleared: true})
	doc := `query($ds: String!) { changes(filter: {dataset: $ds}, first: 100) { edges { node { targets fields { field old new } } } } }`
	vars := map[string]any{"ds": f.ds}
	body := f.h.PostAs(editor, doc, vars).Raw
	for _, s := range f.secrets {
		if strings.Contains(body, s) {
			t.Errorf("the editor without clearance sees %q in the audit log:\n%s", s, body)
		}
	}
	if body := f.h.PostAs(cleared, doc, vars).Raw; !strings.Contains(body, "Zephyrine Okonkwo-Vale") {
		t.Errorf("the cleared editor does not see the witness's changes:\n%s", body)
	}
}
