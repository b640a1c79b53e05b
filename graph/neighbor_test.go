package graph_test

// A relation edge's neighbor: the other end of each relation of an
// entity, with the direction, agreeing with from and to on every edge of
// the seed, redacted as they are, in the same one round trip, paged the
// same.

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/dataset"
	"github.com/casegraph/casegraph/server/servertest"
)

const neighborEdges = `query($id: ID!, $dir: Direction) { entity(id: $id) { id
  relations(direction: $dir, first: 50) { pageInfo { hasNextPage } edges { cursor direction neighbor { ...end } node { id from { ...end } to { ...end } } } } } }
fragment end on Entity { id name redacted }`

// The same page without neighbor and direction: what paged before.
const endsEdges = `query($id: ID!, $dir: Direction) { entity(id: $id) { id
  relations(direction: $dir, first: 50) { pageInfo { hasNextPage } edges { cursor node { id from { ...end } to { ...end } } } } } }
fragment end on Entity { id name redacted }`

type endJSON struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Redacted bool   `json:"redacted"`
}

type edgeJSON struct {
	Cursor    string   `json:"cursor"`
	Direction string   `json:"direction"`
	Neighbor  *endJSON `json:"neighbor"`
	Node      struct {
		ID   string  `json:"id"`
		From endJSON `json:"from"`
		To   endJSON `json:"to"`
	} `json:"node"`
}

// entityEdges posts one of the queries above for an entity and returns
// its id as the caller sees it and its edges.
func entityEdges(t *testing.T, h *servertest.Harness, token, query, id, dir string) (string, []edgeJSON) {
	t.Helper()
	res := h.PostAs(token, query, map[string]any{"id": id, "dir": dir})
	if len(res.Errors) > 0 || res.Data["entity"] == nil {
		t.Fatalf("%s %s: %s", id, dir, truncate(res.Raw))
	}
	var got struct {
		Entity struct {
			ID        string `json:"id"`
			Relations struct {
				PageInfo struct {
					HasNextPage bool `json:"hasNextPage"`
				} `json:"pageInfo"`
				Edges []edgeJSON `json:"edges"`
			} `json:"relations"`
		} `json:"entity"`
	}
	raw, _ := json.Marshal(res.Data)
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	if got.Entity.Relations.PageInfo.HasNextPage {
		t.Fatalf("%s has more than a page of relations: the test would miss some", id)
	}
	return got.Entity.ID, got.Entity.Relations.Edges
}

// TestNeighborAgreesWithTheEnds: on every edge of the seed, from each of
// its entities (a protected one too, by the opaque id an uncleared caller
// knows it by), in each direction, neighbor is the end that is not the
// entity, with OUTGOING when the entity is the relation's from and
// INCOMING when it is its to; an uncleared caller sees a protected
// neighbor as "Protected person" by the same opaque id as from and to,
// a cleared one by its name; and the request is the one round trip it was
// without neighbor, whose cursors and relations it keeps.
func TestNeighborAgreesWithTheEnds(t *testing.T) {
	t.Parallel()
	h, ds, id, uncleared, cleared := seedReaders(t)
	callers := []struct {
		name    string
		token   string
		cleared bool
	}{{"uncleared", uncleared, false}, {"cleared", cleared, true}}
	for _, c := range callers {
		t.Run(c.name, func(t *testing.T) {
			res := h.PostAs(c.token, `query($ds: [String!]) { entities(filter: {datasets: $ds}, first: 100) { pageInfo { hasNextPage } edges { node { id } } } }`,
				map[string]any{"ds": []string{ds}})
			if len(res.Errors) > 0 || field(res, "entities", "pageInfo", "hasNextPage") != false {
				t.Fatal(truncate(res.Raw))
			}
			var ids []string
			for _, e := range field(res, "entities", "edges").([]any) {
				ids = append(ids, e.(map[string]any)["node"].(map[string]any)["id"].(string))
			}
			seed, err := dataset.Read(dataset.Seed())
			if err != nil {
				t.Fatal(err)
			}
			relations := len(seed.Relations)
			// Lists leave a protected person out for an uncleared caller:
			// it is read by the opaque id its neighbours show.
			for i := 0; i < len(ids); i++ {
				_, edges := entityEdges(t, h, c.token, neighborEdges, ids[i], "BOTH")
				for _, e := range edges {
					if e.Neighbor != nil && e.Neighbor.Redacted && !slices.Contains(ids, e.Neighbor.ID) {
						ids = append(ids, e.Neighbor.ID)
					}
				}
			}
			counts := map[string]int{}
			redacted, caesar := 0, 0
			for _, entity := range ids {
				for _, dir := range []string{"BOTH", "OUTGOING", "INCOMING"} {
					before := h.Store.RoundTrips()
					self, edges := entityEdges(t, h, c.token, neighborEdges, entity, dir)
					if trips := h.Store.RoundTrips() - before; trips != 1 {
						t.Errorf("%s %s: %d round trips, want 1", entity, dir, trips)
					}
					for _, e := range edges {
						counts[dir]++
						var want endJSON
						switch {
						case e.Direction == "OUTGOING" && e.Node.From.ID == self:
							want = e.Node.To
						case e.Direction == "INCOMING" && e.Node.To.ID == self:
							want = e.Node.From
						default:
							t.Errorf("%s: relation %s from %s to %s: direction %s", self, e.Node.ID, e.Node.From.ID, e.Node.To.ID, e.Direction)
							continue
						}
						if dir != "BOTH" && e.Direction != dir {
							t.Errorf("%s: relations(direction: %s) gave an edge %s", self, dir, e.Direction)
						}
						if e.Neighbor == nil || *e.Neighbor != want {
							t.Errorf("%s: relation %s: neighbor %+v, want %+v", self, e.Node.ID, e.Neighbor, want)
						}
						if e.Neighbor != nil && e.Neighbor.Redacted {
							redacted++
							if e.Neighbor.Name != casegraph.RedactedName || e.Neighbor.ID == id("caesar") {
								t.Errorf("a redacted neighbor shows %+v", *e.Neighbor)
							}
						}
						if e.Neighbor != nil && e.Neighbor.ID == id("caesar") {
							caesar++
						}
					}
					_, plain := entityEdges(t, h, c.token, endsEdges, entity, dir)
					if diff := cmp.Diff(cursorsAndIDs(plain), cursorsAndIDs(edges)); diff != "" {
						t.Errorf("%s %s: the page differs with neighbor (-without +with):\n%s", entity, dir, diff)
					}
				}
			}
			if counts["OUTGOING"] != relations || counts["INCOMING"] != relations || counts["BOTH"] != 2*relations {
				t.Errorf("edges by direction %v, want each of the dataset's %v relations once each way", counts, relations)
			}
			if c.cleared && (redacted != 0 || caesar == 0) {
				t.Errorf("a cleared caller sees %d redacted neighbors and Caesar %d times", redacted, caesar)
			}
			if !c.cleared && (redacted == 0 || caesar != 0) {
				t.Errorf("an uncleared caller sees %d redacted neighbors and Caesar by his id %d times", redacted, caesar)
			}
		})
	}
}

func cursorsAndIDs(edges []edgeJSON) []string {
	out := make([]string, len(edges))
	for i, e := range edges {
		out[i] = e.Cursor + " " + e.Node.ID + " " + e.Node.From.ID + " " + e.Node.To.ID
	}
	return out
}

// TestNeighborsAtDepthTwo: two levels of neighbors, in one round trip,
// are the tree that two levels of from and to give once each level's
// listed entity is taken out, for every entity of the seed.
func TestNeighborsAtDepthTwo(t *testing.T) {
	t.Parallel()
	h := servertest.New(t, servertest.Options{})
	ds, _ := cyphertest.LoadSeed(t, h.Store)
	const neighbors = `query($id: ID!) { entity(id: $id) { id relations(first: 20) { edges { direction neighbor { id name
		relations(first: 20) { edges { direction neighbor { id name } } } } } } } }`
	const ends = `query($id: ID!) { entity(id: $id) { id relations(first: 20) { edges { node { from { ...l2 } to { ...l2 } } } } } }
		fragment l2 on Entity { id name relations(first: 20) { edges { node { from { id name } to { id name } } } } }`
	res := h.MustPost(`query($ds: [String!]) { entities(filter: {datasets: $ds}, first: 100) { edges { node { id } } } }`, map[string]any{"ds": []string{ds}})
	for _, e := range field(res, "entities", "edges").([]any) {
		entity := e.(map[string]any)["node"].(map[string]any)["id"].(string)
		before := h.Store.RoundTrips()
		got := h.MustPost(neighbors, map[string]any{"id": entity})
		if trips := h.Store.RoundTrips() - before; trips != 1 {
			t.Errorf("%s: %d round trips, want 1", entity, trips)
		}
		want := neighborsOf(field(h.MustPost(ends, map[string]any{"id": entity}), "entity").(map[string]any))
		if diff := cmp.Diff(want, field(got, "entity")); diff != "" {
			t.Errorf("%s (-from and to +neighbor):\n%s", entity, diff)
		}
	}
}

// neighborsOf turns an entity read with from and to into the same read
// with direction and neighbor, level after level.
func neighborsOf(entity map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range entity {
		if k != "relations" {
			out[k] = v
			continue
		}
		var edges []any
		for _, x := range v.(map[string]any)["edges"].([]any) {
			node := x.(map[string]any)["node"].(map[string]any)
			from, to := node["from"].(map[string]any), node["to"].(map[string]any)
			edge := map[string]any{"direction": "OUTGOING", "neighbor": neighborsOf(to)}
			if from["id"] != entity["id"] {
				edge = map[string]any{"direction": "INCOMING", "neighbor": neighborsOf(from)}
			}
			edges = append(edges, edge)
		}
		if edges == nil {
			edges = []any{}
		}
		out[k] = map[string]any{"edges": edges}
	}
	return out
}

// TestNeighborPaging: a page of relations walked forward and backward,
// three at a time, lists the same relations with neighbor selected as
// without, from a protected entity (by its opaque id) as from any.
func TestNeighborPaging(t *testing.T) {
	t.Parallel()
	h, _, id, uncleared, cleared := seedReaders(t)
	page := func(selection string) string {
		return fmt.Sprintf(`query($id: ID!, $first: Int, $after: String, $last: Int, $before: String) { entity(id: $id) {
			relations(first: $first, after: $after, last: $last, before: $before) {
				pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor %s node { id } } } } }`, selection)
	}
	// Caesar, protected, is the from of the photographs' AUTHORED.
	res := h.PostAs(uncleared, `query($id: ID!) { entity(id: $id) { relations(types: [AUTHORED]) { edges { node { from { id redacted } } } } } }`,
		map[string]any{"id": id("caesar-photographs")})
	opaque, _ := field(res, "entity", "relations", "edges").([]any)[0].(map[string]any)["node"].(map[string]any)["from"].(map[string]any)["id"].(string)
	if opaque == "" || opaque == id("caesar") {
		t.Fatalf("Caesar's opaque id: %s", truncate(res.Raw))
	}
	for _, tt := range []struct{ name, token, id string }{
		{"the report, cleared", cleared, id("caesar-report")},
		{"the report, uncleared", uncleared, id("caesar-report")},
		{"the protected person, cleared", cleared, id("caesar")},
		{"the protected person, uncleared", uncleared, opaque},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, backward := range []bool{false, true} {
				vars := map[string]any{"id": tt.id}
				without := pageWalk(t, h, tt.token, page(""), "entity.relations", vars, backward, nil)
				with := pageWalk(t, h, tt.token, page("direction neighbor { id name }"), "entity.relations", vars, backward, nil)
				if len(without) < 2 {
					t.Fatalf("%d relations: too few to page", len(without))
				}
				if diff := cmp.Diff(without, with); diff != "" {
					t.Errorf("backward %t (-without +with neighbor):\n%s", backward, diff)
				}
			}
		})
	}
}

// seedReaders is a server over the seed (in a dataset of the test's own,
// ds, whose ids id gives) and two readers of it, without and with
// clearance.
func seedReaders(t *testing.T) (h *servertest.Harness, ds string, id func(string) string, uncleared, cleared string) {
	t.Helper()
	return seedReadersWith(t, servertest.Options{})
}

// seedReadersWith is seedReaders over a server started with opts.
func seedReadersWith(t *testing.T, opts servertest.Options) (h *servertest.Harness, ds string, id func(string) string, uncleared, cleared string) {
	t.Helper()
	h = servertest.New(t, opts)
	ds, id = cyphertest.LoadSeed(t, h.Store)
	uncleared = h.Key(casegraph.NewAPIKey{Name: "uncleared", Role: casegraph.RoleReader, Datasets: []string{ds}})
	cleared = h.Key(casegraph.NewAPIKey{Name: "cleared", Role: casegraph.RoleReader, Datasets: []string{ds}, Cleared: true})
	return h, ds, id, uncleared, cleared
}
