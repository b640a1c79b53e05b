package main

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
)

// input is one request's arguments; which fields are set depends on the
// workload.
type input struct {
	ID       string   // W1, W2
	IDs      []string // W3
	Text     string   // W4
	From, To string   // W5
}

// workload is one kind of request, as each system asks it.
type workload struct {
	Key   string
	Title string
	// What the peer does instead, where it is not the same query.
	PeerNote string
	inputs   func(rng *rand.Rand, pop *population, n int) []input

	casegraph     func(input) graphQLRequest
	peer          func(input) graphQLRequest
	raw           func(ctx context.Context, r *rawStore, in input) (any, error)
	fromCasegraph func(json.RawMessage) (any, error)
	fromPeer      func(json.RawMessage) (any, error)
}

func newRand(seed uint64, key string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(key))
	return rand.New(rand.NewPCG(seed, h.Sum64()))
}

func randomIDs(rng *rand.Rand, pop *population, n int) []input {
	out := make([]input, n)
	for i := range out {
		out[i].ID = pop.pick(rng).ID
	}
	return out
}

// w3Roots is how many entities W3 starts from.
const w3Roots = 10

// w3Fragment is Casegraph's W3 selection on each root: the neighbours at
// the other ends of 10 outgoing relations and theirs, by the edges'
// neighbor (what a client that wants neighbours asks; the compiled read is
// the one that to would give, as outgoing relations' other end is their
// to); no relation fields, so that the answer is the peer's.
const w3Fragment = `fragment W3 on Entity {
  id name
  relations(direction: OUTGOING, first: 10) { edges { neighbor {
    id name
    relations(direction: OUTGOING, first: 10) { edges { neighbor { id name } } }
  } } }
}`

// w3Casegraph asks for the 10 roots by aliases of entity(id): Casegraph has
// no list of entities by ids, and its loaders batch the aliases into one
// round trip.
var w3Casegraph = func() string {
	var b strings.Builder
	b.WriteString("query W3(")
	for i := range w3Roots {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "$i%d: ID!", i)
	}
	b.WriteString(") {\n")
	for i := range w3Roots {
		fmt.Fprintf(&b, "  e%d: entity(id: $i%d) { ...W3 }\n", i, i)
	}
	b.WriteString("}\n")
	b.WriteString(w3Fragment)
	return b.String()
}()

var workloads = []workload{
	{
		Key:    "W1",
		Title:  "entity by id",
		inputs: randomIDs,
		casegraph: func(in input) graphQLRequest {
			return graphQLRequest{`query W1($id: ID!) { entity(id: $id) { id name aliases } }`, map[string]any{"id": in.ID}}
		},
		peer: func(in input) graphQLRequest {
			return graphQLRequest{`query W1($id: String!) { entityNodes(where: {id: {eq: $id}}) { id name aliases } }`, map[string]any{"id": in.ID}}
		},
		raw: func(ctx context.Context, r *rawStore, in input) (any, error) {
			return r.entityByID(ctx, in.ID)
		},
		fromCasegraph: decodeCasegraphW1,
		fromPeer:      decodePeerW1,
	},
	{
		Key:      "W2",
		Title:    "entity + 20 relations, both ends",
		PeerNote: "relations: a @cypher field (RelationsOf's pattern) returning maps with both ends",
		inputs:   randomIDs,
		casegraph: func(in input) graphQLRequest {
			return graphQLRequest{`query W2($id: ID!) { entity(id: $id) { id name relations(first: 20) { edges { node { id type from { id name } to { id name } } } } } }`,
				map[string]any{"id": in.ID}}
		},
		peer: func(in input) graphQLRequest {
			return graphQLRequest{`query W2($id: String!) { entityNodes(where: {id: {eq: $id}}) { id name relations(first: 20) { id type from { id name } to { id name } } } }`,
				map[string]any{"id": in.ID}}
		},
		raw: func(ctx context.Context, r *rawStore, in input) (any, error) {
			return r.entityWithRelations(ctx, in.ID)
		},
		fromCasegraph: decodeCasegraphW2,
		fromPeer:      decodePeerW2,
	},
	{
		Key:      "W3",
		Title:    "depth 2: 10 x 10 x 10, names",
		PeerNote: "entityNodes(where: {id: {in}}) and a node-typed @cypher neighbors field, nested",
		inputs: func(rng *rand.Rand, pop *population, n int) []input {
			out := make([]input, n)
			for i := range out {
				seen := map[string]bool{}
				for len(out[i].IDs) < w3Roots {
					id := pop.pick(rng).ID
					if !seen[id] {
						seen[id] = true
						out[i].IDs = append(out[i].IDs, id)
					}
				}
			}
			return out
		},
		casegraph: func(in input) graphQLRequest {
			vars := map[string]any{}
			for i, id := range in.IDs {
				vars[fmt.Sprintf("i%d", i)] = id
			}
			return graphQLRequest{w3Casegraph, vars}
		},
		peer: func(in input) graphQLRequest {
			return graphQLRequest{`query W3($ids: [String!]!) { entityNodes(where: {id: {in: $ids}}) {
  id name
  neighbors(direction: OUTGOING, first: 10) { id name neighbors(direction: OUTGOING, first: 10) { id name } }
} }`, map[string]any{"ids": in.IDs}}
		},
		raw: func(ctx context.Context, r *rawStore, in input) (any, error) {
			return r.depthTwo(ctx, in.IDs)
		},
		fromCasegraph: decodeCasegraphW3,
		fromPeer:      decodePeerW3,
	},
	{
		Key:      "W4",
		Title:    "full-text search, 20 hits",
		PeerNote: "@fulltext over entity_search with Casegraph's Lucene query; Lucene's top 20 by score, not Casegraph's ranking",
		inputs: func(rng *rand.Rand, pop *population, n int) []input {
			out := make([]input, n)
			for i := range out {
				// Names as a user types them: any entity's, whatever its degree.
				out[i].Text = pop.entities[rng.IntN(len(pop.entities))].Name
			}
			return out
		},
		casegraph: func(in input) graphQLRequest {
			return graphQLRequest{`query W4($t: String!) { search(text: $t, first: 20) { edges { score node { id name } } } }`, map[string]any{"t": in.Text}}
		},
		peer: func(in input) graphQLRequest {
			return graphQLRequest{`query W4($q: String!) { searchEntities(phrase: $q, first: 20) { edges { score node { id name } } } }`,
				map[string]any{"q": cypher.LuceneSearch(casegraph.Words(in.Text))}}
		},
		raw: func(ctx context.Context, r *rawStore, in input) (any, error) {
			return r.search(ctx, in.Text)
		},
		fromCasegraph: decodeCasegraphW4,
		fromPeer:      decodePeerW4,
	},
	{
		Key:      "W5",
		Title:    "shortest path, at most 4 hops",
		PeerNote: "a @cypher Query field with Casegraph's shortestPath() pattern, without its (unset) filters",
		inputs: func(rng *rand.Rand, pop *population, n int) []input {
			out := make([]input, 0, n)
			for len(out) < n {
				from, to := pop.joinedPair(rng)
				if from == "" {
					break // nothing in the dataset is joined
				}
				out = append(out, input{From: from, To: to})
			}
			return out
		},
		casegraph: func(in input) graphQLRequest {
			return graphQLRequest{`query W5($from: ID!, $to: ID!) { shortestPath(from: $from, to: $to, filter: {maxDepth: 4}) { length nodes { id } } }`,
				map[string]any{"from": in.From, "to": in.To}}
		},
		peer: func(in input) graphQLRequest {
			return graphQLRequest{`query W5($from: ID!, $to: ID!) { shortestPath(from: $from, to: $to) { length nodes { id } } }`,
				map[string]any{"from": in.From, "to": in.To}}
		},
		raw: func(ctx context.Context, r *rawStore, in input) (any, error) {
			return r.shortestPath(ctx, in.From, in.To)
		},
		fromCasegraph: decodeW5,
		fromPeer:      decodeW5,
	},
}

func workloadByKey(key string) (workload, bool) {
	for _, w := range workloads {
		if w.Key == key {
			return w, true
		}
	}
	return workload{}, false
}
