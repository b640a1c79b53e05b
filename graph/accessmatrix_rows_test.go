package graph_test

// The access matrix's rows: the outcome each kind of caller must get, and
// the cells of every root field of the schema and every route of the
// server (TestGeneratedAccessMatrix, accessmatrix_test.go).

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher/cyphertest"
)

// Outcome rules.
func readsA(c matrixCaller) string {
	if c.readA {
		return "ok"
	}
	return "hidden"
}

func findsA(c matrixCaller) string {
	if c.readA {
		return "ok"
	}
	return "NOT_FOUND"
}

func everyone(matrixCaller) string { return "ok" }

// writesA: readers are refused before anything is looked up; a writer of
// other datasets finds nothing of A's (or may not write into A).
func writesA(c matrixCaller) string {
	switch {
	case c.writeA:
		return "ok"
	case c.writer():
		return "FORBIDDEN|NOT_FOUND"
	}
	return "FORBIDDEN"
}

func editorsOfA(c matrixCaller) string {
	switch {
	case c.writeA:
		return "ok"
	case c.writer():
		return "NOT_FOUND|FORBIDDEN"
	}
	return "FORBIDDEN"
}

func admins(c matrixCaller) string {
	if c.admin {
		return "ok"
	}
	return "FORBIDDEN"
}

// viewerOf is what viewer must answer caller c, as JSON.
func viewerOf(c matrixCaller, f matrixFixture) string {
	role, reads, writes := "READER", []string{}, []string{}
	switch {
	case c.admin || (c.readA && c.readB):
		reads = []string{casegraph.AllDatasets}
	case c.readA:
		reads = []string{f.a}
	case c.readB:
		reads = []string{f.b}
	}
	if c.admin {
		role = "ADMIN"
	} else if c.writer() {
		role = "EDITOR"
	}
	if c.writer() {
		writes = reads
	}
	out, _ := json.Marshal(map[string]any{"viewer": map[string]any{
		"role": role, "datasets": reads, "cleared": c.cleared, "anonymous": c.token == "", "writableDatasets": writes}})
	return string(out)
}

func gql(query string, vars map[string]any) func(*testing.T, matrixCaller, int) matrixRequest {
	return func(*testing.T, matrixCaller, int) matrixRequest { return matrixRequest{query: query, vars: vars} }
}

// matrixFields are the cells of the schema's root fields, by
// "Type.field".
func matrixFields(t *testing.T, f matrixFixture) map[string]matrixOp {
	h := f.h
	op := casegraph.AsOperator(t.Context())
	exists := func(id string) bool {
		found, err := h.Store.EntitiesByID(op, []string{id})
		if err != nil {
			t.Fatal(err)
		}
		return found[id].ID == id
	}
	// victim makes an entity of A for cell i to write to.
	victim := func(name string, i int) string {
		id := fmt.Sprintf("%s:victim-%s-%d", f.a, name, i)
		h.MustPost(upsert, map[string]any{"in": map[string]any{"id": id, "kind": "PERSON", "name": "Victim " + name, "dataset": f.a, "sourceIds": []string{f.srcA}}})
		return id
	}
	victims := map[int]string{} // the datasets of deleteDataset's cells
	victimID := func(name string, i int) string { return fmt.Sprintf("%s:victim-%s-%d", f.a, name, i) }
	ends := `id name aliases description ... on Entity { dataset }`
	rel := `id type role quote from { ` + ends + ` } to { ` + ends + ` }`
	around := `nodes { ` + ends + ` } relations { ` + rel + ` }`
	path := `length nodes { ` + ends + ` } steps { relation { ` + rel + ` } }`
	filterAll := map[string]any{"from": f.nice, "to": f.report}
	return map[string]matrixOp{
		"Query.entity":          {send: gql(`query($id: ID!) { entity(id: $id) { `+ends+` createdAt updatedAt relations(first: 10) { totalCount edges { cursor node { `+rel+` } } } } }`, map[string]any{"id": f.nice}), want: readsA, shows: "Nyx Alphanice"},
		"Query.entities":        {send: gql(`query($ds: [String!]) { entities(filter: {datasets: $ds}, first: 50) { totalCount edges { cursor node { `+ends+` } } } }`, map[string]any{"ds": []string{f.a}}), want: readsA, shows: "Nyx Alphanice"},
		"Query.search":          {send: gql(`{ search(text: "alphanice bravorg alphawitness bravowitness", first: 20) { edges { cursor node { `+ends+` } } } }`, nil), want: readsA, shows: "Nyx Alphanice"},
		"Query.suggest":         {send: gql(`{ suggest(prefix: "Nyx", first: 10) { text entity { name } } a: suggest(prefix: "Ysolde") { text entity { name } } b: suggest(prefix: "The Brav") { text entity { name } } }`, nil), want: readsA, shows: "Nyx Alphanice"},
		"Query.node":            {send: gql(`query($id: ID!) { node(id: $id) { id ... on Entity { name } } }`, map[string]any{"id": f.nice}), want: readsA, shows: "Nyx Alphanice"},
		"Query.nodes":           {send: gql(`query($ids: [ID!]!) { nodes(ids: $ids) { id ... on Entity { name } } }`, map[string]any{"ids": []string{f.nice, f.org, f.protA, f.protB}}), want: readsA, shows: "Nyx Alphanice"},
		"Query.relation":        {send: gql(`query($id: ID!) { relation(id: $id) { `+rel+` } }`, map[string]any{"id": f.authored}), want: readsA, shows: "alphaquote"},
		"Query.relationTypes":   {send: gql(`{ relationTypes { type label } }`, nil), want: everyone, shows: "AUTHORED"},
		"Query.timeline":        {send: gql(`query($id: ID!) { timeline(id: $id) { start end relation { `+rel+` } } }`, map[string]any{"id": f.nice}), want: findsA},
		"Query.datasetTimeline": {send: gql(`query($ds: [String!]!) { datasetTimeline(datasets: $ds, from: "2000", to: "2030") { __typename } }`, map[string]any{"ds": []string{f.a}}), want: func(matrixCaller) string { return "ok|NOT_FOUND" }},
		"Query.commandChain": {send: gql(`query($id: ID!) { commandChain(unitId: $id, at: "2014") { unit { unit { `+ends+` } commanders { entity { `+ends+` } relation { `+rel+` } } superiors { entity { `+ends+` } relation { `+rel+` } } } levels { units { unit { `+ends+` } } } } }`, map[string]any{"id": f.org}), want: func(c matrixCaller) string {
			if c.readB {
				return "ok"
			}
			return "NOT_FOUND"
		}, shows: "Bravorg"},
		// The fixture has no incident: A's document is not one, which only
		// a reader of A may learn.
		"Query.whoWasInCommand": {send: gql(`query($id: ID!) { whoWasInCommand(incidentId: $id) { incident { `+ends+` } units { unit { `+ends+` } } people { person { `+ends+` } } } }`, map[string]any{"id": f.report}), want: func(c matrixCaller) string {
			if c.readA {
				return "BAD_USER_INPUT"
			}
			return "NOT_FOUND"
		}},
		"Query.shortestPath":    {send: gql(`query($from: ID!, $to: ID!) { shortestPath(from: $from, to: $to) { `+path+` } }`, filterAll), want: findsA, shows: "alphaquote"},
		"Query.paths":           {send: gql(`query($from: ID!, $to: ID!) { paths(from: $from, to: $to, k: 3) { `+path+` } }`, filterAll), want: findsA, shows: "alphaquote"},
		"Query.pathExplanation": {send: gql(`query($from: ID!, $to: ID!) { pathExplanation(from: $from, to: $to) { __typename } }`, filterAll), want: findsA},
		"Query.neighborhood":    {send: gql(`query($id: ID!) { neighborhood(id: $id, depth: 2) { `+around+` } }`, map[string]any{"id": f.report}), want: findsA, shows: "Nyx Alphanice"},
		// u: the same pair unconnected (no MEMBER_OF path joins them), so
		// that its entities come from the statement's pair ends, not a path.
		"Query.connections": {send: gql(`query($ids: [ID!]!) { connections(ids: $ids) { `+around+` }
			u: connections(ids: $ids, filter: {relationTypes: [MEMBER_OF]}) { nodes { id } unconnectedPairs { a { `+ends+` } b { `+ends+` } } } }`,
			map[string]any{"ids": []string{f.nice, f.report}}), want: findsA, shows: "Nyx Alphanice"},
		"Query.commonNeighbors": {send: gql(`query($ids: [ID!]!) { commonNeighbors(ids: $ids) { entity { `+ends+` } relations { `+rel+` } } }`, map[string]any{"ids": []string{f.nice, f.report}}), want: findsA},
		"Query.source":          {send: gql(`query($id: ID!) { source(id: $id) { id title dataset } }`, map[string]any{"id": f.srcA}), want: readsA, shows: "Source of"},
		// Other tests' sources may come first: what it shows is checked by
		// Query.source, what it must not show here.
		"Query.sources":  {send: gql(`{ sources(first: 100) { edges { cursor node { id title dataset } } } }`, nil), want: everyone},
		"Query.datasets": {send: gql(`{ datasets { name entities relations sources } }`, nil), want: readsA, shows: f.a},
		// Names alone are read by another statement (DatasetNames).
		"Query.datasets (names only)": {send: gql(`{ datasets { name } }`, nil), want: readsA, shows: f.a},
		"Query.savedQuery":            {send: gql(`query($n: String!) { savedQuery(name: $n) { name document defaultVariables } }`, map[string]any{"n": f.savedA}), want: findsA, shows: f.savedA},
		// By the fixture's own tag: the shared database holds more saved
		// queries than a page.
		"Query.savedQueries":       {send: gql(`query($t: String!) { savedQueries(tag: $t, first: 100) { edges { cursor node { name defaultVariables } } } }`, map[string]any{"t": f.savedA}), want: readsA, shows: f.savedA},
		"Query.savedQueryVersions": {send: gql(`query($n: String!) { savedQueryVersions(name: $n) { name version defaultVariables } }`, map[string]any{"n": f.savedA}), want: findsA, shows: f.savedA},
		"Query.runSavedQuery":      {send: gql(`query($n: String!) { runSavedQuery(name: $n) { data } }`, map[string]any{"n": f.savedA}), want: findsA, shows: "Nyx Alphanice"},
		"Query.changes": {send: gql(`query($ds: String) { changes(filter: {dataset: $ds}, first: 100) { totalCount edges { cursor node { operation targets dataset fields { field old new } } } } }`, map[string]any{"ds": f.a}), want: func(c matrixCaller) string {
			if c.writer() && c.readA {
				return "ok"
			}
			if c.writer() {
				return "hidden"
			}
			return "FORBIDDEN"
		}, shows: f.srcA}, // the first change: the matrix's own writes follow
		"Query.duplicateCandidates": {send: gql(`query($ds: String!) { duplicateCandidates(dataset: $ds, first: 20) { edges { node { __typename } } } }`, map[string]any{"ds": f.a}), want: findsA},
		// The caller itself, as its credentials make it, and nothing of
		// anyone else: each caller must read its own role, datasets,
		// clearance and what it may write.
		"Query.viewer": {send: gql(`{ viewer { anonymous cleared datasets role writableDatasets } }`, nil), want: everyone, showsFor: func(c matrixCaller) string {
			return viewerOf(c, f)
		}},
		"Query.apiKeys":  {send: gql(`{ apiKeys { name datasets } }`, nil), want: admins, shows: "matrix reader A"},
		"Query.__schema": {send: gql(`{ __schema { queryType { name } } }`, nil), want: everyone},
		"Query.__type":   {send: gql(`{ __type(name: "Entity") { name } }`, nil), want: everyone},

		"Mutation.upsertEntity": {send: gql(upsert, map[string]any{"in": map[string]any{"id": f.nice, "kind": "PERSON", "name": "Nyx Alphanice", "dataset": f.a, "sourceIds": []string{f.srcA}}}), want: writesA, write: true},
		"Mutation.link":         {send: gql(link, map[string]any{"in": map[string]any{"id": f.authored, "type": "AUTHORED", "from": f.nice, "to": f.report, "dataset": f.a, "sourceIds": []string{f.srcA}, "role": "alpharole", "quote": "alphaquote", "startDate": "2014-01"}}), want: writesA, write: true},
		"Mutation.upsertSource": {send: gql(`mutation S($in: SourceInput!) { upsertSource(input: $in) { id } }`, map[string]any{"in": map[string]any{"id": f.srcA, "title": "Source of " + f.a, "dataset": f.a}}), want: writesA, write: true},
		"Mutation.deleteEntity": {send: func(t *testing.T, c matrixCaller, i int) matrixRequest {
			return matrixRequest{query: `mutation($id: ID!) { deleteEntity(id: $id) { __typename } }`, vars: map[string]any{"id": victim("delete", i)}}
		}, want: editorsOfA, write: true, kept: func(t *testing.T, i int) bool { return exists(victimID("delete", i)) }},
		"Mutation.mergeEntities": {send: func(t *testing.T, c matrixCaller, i int) matrixRequest {
			return matrixRequest{query: `mutation($into: ID!, $from: [ID!]!) { mergeEntities(into: $into, from: $from) { id } }`, vars: map[string]any{"into": victim("into", i), "from": []string{victim("merged", i)}}}
		}, want: editorsOfA, write: true, kept: func(t *testing.T, i int) bool { return exists(victimID("merged", i)) }},
		"Mutation.unlink": {send: func(t *testing.T, c matrixCaller, i int) matrixRequest {
			id := fmt.Sprintf("%s:victim-link-%d", f.a, i)
			h.MustPost(link, map[string]any{"in": map[string]any{"id": id, "type": "AUTHORED", "from": victim("author", i), "to": f.report, "dataset": f.a, "sourceIds": []string{f.srcA}}})
			return matrixRequest{query: `mutation($id: ID!) { unlink(id: $id) { id } }`, vars: map[string]any{"id": id}}
		}, want: editorsOfA, write: true},
		"Mutation.deleteSource": {send: func(t *testing.T, c matrixCaller, i int) matrixRequest {
			id := fmt.Sprintf("%s:victim-src-%d", f.a, i)
			h.MustPost(`mutation S($in: SourceInput!) { upsertSource(input: $in) { id } }`, map[string]any{"in": map[string]any{"id": id, "title": "Victim", "dataset": f.a}})
			return matrixRequest{query: `mutation($id: ID!) { deleteSource(id: $id) { id } }`, vars: map[string]any{"id": id}}
		}, want: editorsOfA, write: true},
		"Mutation.dismissDuplicate": {send: func(t *testing.T, c matrixCaller, i int) matrixRequest {
			return matrixRequest{query: `mutation($a: ID!, $b: ID!) { dismissDuplicate(a: $a, b: $b) { __typename } }`, vars: map[string]any{"a": victim("twin1", i), "b": victim("twin2", i)}}
		}, want: editorsOfA, write: true},
		"Mutation.undismissDuplicate": {send: gql(`mutation($a: ID!, $b: ID!) { undismissDuplicate(a: $a, b: $b) }`, map[string]any{"a": f.nice, "b": f.report}), want: editorsOfA, write: true},
		"Mutation.saveQuery": {send: func(t *testing.T, c matrixCaller, i int) matrixRequest {
			return matrixRequest{query: `mutation($in: SaveQueryInput!) { saveQuery(input: $in) { name } }`, vars: map[string]any{"in": map[string]any{"name": fmt.Sprintf("%s-mine-%d", f.a, i), "title": "Mine", "document": "{ __typename }", "visibility": "DATASETS", "datasets": []string{f.a}}}}
		}, want: writesA, write: true},
		"Mutation.deleteSavedQuery": {send: func(t *testing.T, c matrixCaller, i int) matrixRequest {
			name := fmt.Sprintf("%s-victim-%d", f.a, i)
			h.MustPost(`mutation($in: SaveQueryInput!) { saveQuery(input: $in) { name } }`, map[string]any{"in": map[string]any{"name": name, "title": "Victim", "document": "{ __typename }", "visibility": "DATASETS", "datasets": []string{f.a}}})
			return matrixRequest{query: `mutation($n: String!) { deleteSavedQuery(name: $n) { __typename } }`, vars: map[string]any{"n": name}}
		}, want: func(c matrixCaller) string {
			switch {
			case c.admin:
				return "ok"
			case c.writer():
				return "FORBIDDEN|NOT_FOUND" // not its query
			}
			return "FORBIDDEN"
		}, write: true},
		"Mutation.deleteDataset": {send: func(t *testing.T, c matrixCaller, i int) matrixRequest {
			// A dataset of the cell's own: deleting A would end the matrix.
			ds := cyphertest.Dataset(t)
			victims[i] = ds
			h.MustPost(`mutation S($in: SourceInput!) { upsertSource(input: $in) { id } }`, map[string]any{"in": map[string]any{"id": ds + ":src", "title": "Victim", "dataset": ds}})
			return matrixRequest{query: `mutation($n: String!) { deleteDataset(name: $n) { __typename } }`, vars: map[string]any{"n": ds}}
		}, want: admins, write: true, kept: func(t *testing.T, i int) bool {
			found, err := h.Store.Datasets(op, victims[i])
			if err != nil {
				t.Fatal(err)
			}
			return len(found) == 1
		}},
		"Mutation.createApiKey": {send: func(t *testing.T, c matrixCaller, i int) matrixRequest {
			return matrixRequest{query: `mutation($in: ApiKeyInput!) { createApiKey(input: $in) { key { id } } }`, vars: map[string]any{"in": map[string]any{"name": fmt.Sprintf("matrix made %d", i), "role": "READER", "datasets": []string{f.a}}}}
		}, want: admins, write: true},
		"Mutation.revokeApiKey": {send: func(t *testing.T, c matrixCaller, i int) matrixRequest {
			token := h.Key(casegraph.NewAPIKey{Name: fmt.Sprintf("matrix victim %d", i), Role: casegraph.RoleReader, Datasets: []string{f.a}})
			id, _, _ := casegraph.ParseKeyToken(token)
			return matrixRequest{query: `mutation($id: ID!) { revokeApiKey(id: $id) { id } }`, vars: map[string]any{"id": id}}
		}, want: admins, write: true},

		"Subscription.changes": {send: func(t *testing.T, c matrixCaller, i int) matrixRequest {
			return matrixRequest{query: `subscription($ds: [String!], $after: String) { changes(datasets: $ds, after: $after) { cursor change { operation targets dataset fields { field old new } } } }`, vars: map[string]any{"ds": []string{f.a}, "after": f.feedStart}}
		}, want: func(c matrixCaller) string {
			switch {
			case c.writer() && c.readA:
				return "ok"
			case c.writer():
				return "NOT_FOUND"
			}
			return "FORBIDDEN"
		}, shows: "Nyx Alphanice"},
		"Subscription.changes (every dataset)": {send: func(t *testing.T, c matrixCaller, i int) matrixRequest {
			return matrixRequest{query: `subscription($after: String) { changes(after: $after) { cursor change { operation targets dataset fields { field old new } } } }`, vars: map[string]any{"after": f.feedStart}}
		}, want: func(c matrixCaller) string {
			if c.writer() {
				return "ok"
			}
			return "FORBIDDEN"
		}},
		"Subscription.watchPath": {send: gql(`subscription($from: ID!, $to: ID!) { watchPath(from: $from, to: $to) { kind path { `+path+` } } }`, filterAll), want: findsA, shows: "alphaquote"},
	}
}

// matrixRoutes are the cells of the server's routes, by "METHOD pattern".
func matrixRoutes(f matrixFixture) map[string]matrixOp {
	get := func(path string) func(*testing.T, matrixCaller, int) matrixRequest {
		return func(*testing.T, matrixCaller, int) matrixRequest {
			return matrixRequest{method: http.MethodGet, path: path}
		}
	}
	entity := url.QueryEscape(`query($id: ID!) { entity(id: $id) { name } }`)
	vars := url.QueryEscape(fmt.Sprintf(`{"id": %q}`, f.nice))
	importLine := fmt.Sprintf(`{"type":"entity","id":%q,"kind":"Person","name":"Nyx Alphanice","dataset":%q,"sourceIds":[%q]}`+"\n", f.nice, f.a, f.srcA)
	return map[string]matrixOp{
		"POST /graphql":       {send: gql(`query($id: ID!) { entity(id: $id) { name } }`, map[string]any{"id": f.nice}), want: readsA, shows: "Nyx Alphanice"},
		"GET /graphql":        {send: get("/graphql?query=" + entity + "&variables=" + vars), want: readsA, shows: "Nyx Alphanice"},
		"GET /queries/{name}": {send: get("/queries/" + f.savedA), want: findsA, shows: "Nyx Alphanice"},
		"POST /queries/{name}": {send: func(*testing.T, matrixCaller, int) matrixRequest {
			return matrixRequest{method: http.MethodPost, path: "/queries/" + f.savedA, body: `{}`}
		}, want: findsA, shows: "Nyx Alphanice"},
		"GET /datasets/{name}/export":       {send: get("/datasets/" + f.a + "/export"), want: findsA, shows: "Nyx Alphanice", transfer: true},
		"GET /datasets/{name}/export (FtM)": {send: get("/datasets/" + f.a + "/export?format=ftm"), want: findsA, shows: "Nyx Alphanice", transfer: true},
		"POST /datasets/{name}/import": {send: func(*testing.T, matrixCaller, int) matrixRequest {
			return matrixRequest{method: http.MethodPost, path: "/datasets/" + f.a + "/import", body: importLine}
		}, want: writesA, write: true},
		"GET /healthz":       {send: get("/healthz"), want: everyone, open: true},
		"GET /readyz":        {send: get("/readyz"), want: everyone, open: true},
		"GET /metrics":       {send: get("/metrics"), want: everyone, open: true},
		"GET /{$}":           {send: get("/"), want: everyone, open: true},
		"GET /graphiql":      {send: get("/graphiql"), want: everyone, open: true},
		"GET /assets/{file}": {send: get("/assets/nothing-here.js"), want: func(matrixCaller) string { return "NOT_FOUND" }, open: true},
		"OPTIONS /graphql": {send: func(*testing.T, matrixCaller, int) matrixRequest {
			return matrixRequest{method: http.MethodOptions, path: "/graphql"}
		}, want: everyone, open: true},
		"OPTIONS /queries/{name}": {send: func(*testing.T, matrixCaller, int) matrixRequest {
			return matrixRequest{method: http.MethodOptions, path: "/queries/" + f.savedA}
		}, want: everyone, open: true},
	}
}
