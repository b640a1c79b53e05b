package graph_test

// Datasets over the API: listed with their sizes in the caller's scope,
// deleted whole, and sources deleted unless cited.

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/dataset"
	"github.com/casegraph/casegraph/server/servertest"
)

const datasetsQuery = `{ datasets { name entities relations sources lastChange } }`

// datasetRow is the test's dataset in a datasets answer, or nil.
func datasetRow(res map[string]any, name string) map[string]any {
	list, _ := res["datasets"].([]any)
	for _, d := range list {
		if m := d.(map[string]any); m["name"] == name {
			return m
		}
	}
	return nil
}

// TestDatasets: a dataset is listed with its sizes to the callers who may
// read it, and with the time of its last recorded change.
func TestDatasets(t *testing.T) {
	t.Parallel()
	s := newSeedPaths(t)
	seed, err := dataset.Read(dataset.Seed())
	if err != nil {
		t.Fatal(err)
	}
	row := datasetRow(s.h.MustPost(datasetsQuery, nil).Data, s.ds)
	if row == nil {
		t.Fatalf("%s not listed", s.ds)
	}
	want := map[string]any{"name": s.ds, "entities": float64(len(seed.Entities)), "relations": float64(len(seed.Relations)),
		"sources": float64(len(seed.Sources)), "lastChange": nil}
	for k, v := range want {
		if row[k] != v {
			t.Errorf("%s = %v, want %v", k, row[k], v)
		}
	}
	s.h.MustPost(`mutation($in: SourceInput!) { upsertSource(input: $in) { id } }`,
		map[string]any{"in": map[string]any{"id": s.id("new-source"), "title": "A new source", "dataset": s.ds}})
	if row := datasetRow(s.h.MustPost(datasetsQuery, nil).Data, s.ds); row["lastChange"] == nil || row["sources"] != float64(len(seed.Sources)+1) {
		t.Errorf("after a write: %v", row)
	}

	other := s.h.Key(casegraph.NewAPIKey{Name: "other reader", Role: casegraph.RoleReader, Datasets: []string{"some-other-dataset"}})
	if row := datasetRow(s.h.PostAs(other, datasetsQuery, nil).Data, s.ds); row != nil {
		t.Errorf("a reader of another dataset sees %v", row)
	}
	// Names alone, read without counting (DatasetNames, which
	// cypher's TestDatasetNamesAsDatasets holds to Datasets' list).
	const names = `{ datasets { name __typename } }`
	if row := datasetRow(s.h.MustPost(names, nil).Data, s.ds); !cmp.Equal(row, map[string]any{"name": s.ds, "__typename": "Dataset"}) {
		t.Errorf("names alone: %v", row)
	}
	if row := datasetRow(s.h.PostAs(other, names, nil).Data, s.ds); row != nil {
		t.Errorf("a reader of another dataset sees %v by name", row)
	}
}

// TestDeleteDataset: only an admin deletes a dataset; it goes whole, its
// audit record says what was there, and an unknown name is NOT_FOUND.
func TestDeleteDataset(t *testing.T) {
	t.Parallel()
	s := newSeedPaths(t)
	const del = `mutation($n: String!) { deleteDataset(name: $n) { name entities relations sources } }`
	editor := s.h.Key(casegraph.NewAPIKey{Name: "editor", Role: casegraph.RoleEditor, Datasets: []string{s.ds}})
	if res := s.h.PostAs(editor, del, map[string]any{"n": s.ds}); len(res.Errors) != 1 || res.Errors[0].Extensions["code"] != "FORBIDDEN" {
		t.Fatalf("an editor: %s", res.Raw)
	}
	before := datasetRow(s.h.MustPost(datasetsQuery, nil).Data, s.ds)
	if before == nil || before["entities"] == float64(0) {
		t.Fatalf("the editor's refusal deleted something: %v", before)
	}
	res := s.h.MustPost(del, map[string]any{"n": s.ds})
	for _, k := range []string{"entities", "relations", "sources"} {
		if field(res, "deleteDataset", k) != before[k] {
			t.Errorf("deleted %s %v, want %v", k, field(res, "deleteDataset", k), before[k])
		}
	}
	if row := datasetRow(s.h.MustPost(datasetsQuery, nil).Data, s.ds); row != nil {
		t.Errorf("still listed: %v", row)
	}
	if got := s.h.MustPost(`query($id: ID!) { entity(id: $id) { id } }`, map[string]any{"id": s.id("caesar")}); field(got, "entity") != nil {
		t.Errorf("an entity survived: %s", got.Raw)
	}
	changes := s.h.MustPost(`query($ds: String) { changes(filter: {dataset: $ds}) { edges { node { operation targets } } } }`, map[string]any{"ds": s.ds})
	edges, _ := field(changes, "changes", "edges").([]any)
	if len(edges) == 0 || edges[0].(map[string]any)["node"].(map[string]any)["operation"] != "deleteDataset" {
		t.Errorf("no audit record: %s", changes.Raw)
	}
	if res := s.h.Post(del, map[string]any{"n": s.ds}); len(res.Errors) != 1 || res.Errors[0].Extensions["code"] != "NOT_FOUND" {
		t.Errorf("deleting it again: %s", res.Raw)
	}
}

// TestDeleteSource: a cited source stays (CONFLICT), one nothing cites
// goes, a reader may not, and an unknown id is NOT_FOUND.
func TestDeleteSource(t *testing.T) {
	t.Parallel()
	s := newSeedPaths(t)
	const del = `mutation($id: ID!) { deleteSource(id: $id) { id title } }`
	cited := s.id("caesar-report-article")
	if res := s.h.Post(del, map[string]any{"id": cited}); len(res.Errors) != 1 || res.Errors[0].Extensions["code"] != "CONFLICT" {
		t.Errorf("a cited source: %s", res.Raw)
	}
	if got := s.h.MustPost(`query($id: ID!) { source(id: $id) { id } }`, map[string]any{"id": cited}); field(got, "source", "id") != "source~"+cited {
		t.Errorf("the cited source is gone: %s", got.Raw)
	}
	lone := s.id("lone-source")
	s.h.MustPost(`mutation($in: SourceInput!) { upsertSource(input: $in) { id } }`,
		map[string]any{"in": map[string]any{"id": lone, "title": "Nobody cites me", "dataset": s.ds}})
	reader := s.h.Key(casegraph.NewAPIKey{Name: "reader", Role: casegraph.RoleReader, Datasets: []string{s.ds}})
	if res := s.h.PostAs(reader, del, map[string]any{"id": lone}); len(res.Errors) != 1 || res.Errors[0].Extensions["code"] != "FORBIDDEN" {
		t.Errorf("a reader: %s", res.Raw)
	}
	if res := s.h.MustPost(del, map[string]any{"id": "source~" + lone}); field(res, "deleteSource", "title") != "Nobody cites me" {
		t.Errorf("deleting it: %s", res.Raw)
	}
	if got := s.h.MustPost(`query($id: ID!) { source(id: $id) { id } }`, map[string]any{"id": lone}); field(got, "source") != nil {
		t.Errorf("still there: %s", got.Raw)
	}
	if res := s.h.Post(del, map[string]any{"id": lone}); len(res.Errors) != 1 || res.Errors[0].Extensions["code"] != "NOT_FOUND" {
		t.Errorf("deleting it again: %s", res.Raw)
	}
}

// TestDatasetCountsInScope: a dataset's sizes count what its caller may
// read, as its lists do: a protected person only with clearance (the
// seed's Caesar: 29 entities, as entities { totalCount } says, not 30), a
// relation only when both its ends may be read (a relation of A to B's
// entity is not one of A's for a reader of A alone, nor one of B to A's
// entity for a reader of B alone).
func TestDatasetCountsInScope(t *testing.T) {
	t.Parallel()
	s := newSeedPaths(t)
	h := s.h
	b, bsrc, broker := otherDataset(t, h, "A broker of counts")
	for _, l := range []map[string]any{
		{"type": "RELATED_TO", "from": s.id("carter-ruck"), "to": broker, "dataset": s.ds, "sourceIds": []string{s.id("caesar-report-article")}},
		{"type": "RELATED_TO", "from": broker, "to": s.id("carter-ruck"), "dataset": b, "sourceIds": []string{bsrc}},
	} {
		h.MustPost(link, map[string]any{"in": l})
	}
	reader := h.Key(casegraph.NewAPIKey{Name: "reader", Role: casegraph.RoleReader, Datasets: []string{s.ds}})
	cleared := h.Key(casegraph.NewAPIKey{Name: "cleared reader", Role: casegraph.RoleReader, Datasets: []string{s.ds}, Cleared: true})
	readerB := h.Key(casegraph.NewAPIKey{Name: "reader of B", Role: casegraph.RoleReader, Datasets: []string{b}})
	const total = `query($ds: String!) { entities(filter: {datasets: [$ds]}) { totalCount } }`
	for _, tt := range []struct {
		who, token, ds      string
		entities, relations float64
	}{
		{"admin", h.Token, s.ds, 30, 43},
		{"cleared reader", cleared, s.ds, 30, 42},
		{"reader", reader, s.ds, 29, 42},
		{"admin", h.Token, b, 1, 1},
		{"reader of B", readerB, b, 1, 0},
	} {
		t.Run(tt.who+"/"+tt.ds, func(t *testing.T) {
			row := datasetRow(h.PostAs(tt.token, datasetsQuery, nil).Data, tt.ds)
			if row == nil {
				t.Fatalf("%s is not listed", tt.ds)
			}
			if row["entities"] != tt.entities || row["relations"] != tt.relations {
				t.Errorf("%v entities and %v relations, want %v and %v", row["entities"], row["relations"], tt.entities, tt.relations)
			}
			listed := h.PostAs(tt.token, total, map[string]any{"ds": tt.ds})
			if n := field(listed, "entities", "totalCount"); n != row["entities"] {
				t.Errorf("datasets counts %v entities, entities { totalCount } %v", row["entities"], n)
			}
		})
	}
}

// TestDatasetNamesAloneCountNothing: a selection of the datasets' names
// alone asks the store for the names (DatasetNames), any other for the
// counted list (Datasets).
func TestDatasetNamesAloneCountNothing(t *testing.T) {
	t.Parallel()
	for query, want := range map[string]string{
		`{ datasets { name } }`:                            "DatasetNames",
		`{ datasets { __typename name } }`:                 "DatasetNames",
		`{ datasets { ... on Dataset { name } } }`:         "DatasetNames",
		`{ datasets { name entities } }`:                   "Datasets",
		`{ datasets { name lastChange } }`:                 "Datasets",
		`{ datasets { ... on Dataset { name sources } } }`: "Datasets",
	} {
		h := servertest.Edge(t, servertest.Options{})
		h.Refusing.Allow("Datasets", "DatasetNames")
		h.Post(query, nil)
		if calls := h.Refusing.Calls(); !slices.Equal(calls, []string{want}) {
			t.Errorf("%s asked the store %v, want %s", query, calls, want)
		}
	}
}
