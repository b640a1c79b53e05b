package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
)

// input is one request's arguments; which are set depends on the workload.
type input struct {
	ID       string   // W1, W2, W3X
	IDs      []string // W3
	Text     string   // W4
	From, To string   // W5
	Hops     int      // W5: the length of the shortest path, from the file
}

// graphQLRequest is the body of a POST /graphql.
type graphQLRequest struct {
	Query     string         `json:"query"`
	Variables map[string]any `json:"variables,omitempty"`
}

type workload struct {
	Key, Title string
	inputs     func(cfg config, rng *rand.Rand, g *graph, n int) []input
	request    func(input) graphQLRequest
}

// exportKey is the export of the dataset, GET /datasets/{name}/export,
// measured apart (export.go).
const exportKey = "EXPORT"

// The W3 shape of the peer comparison (bench/workloads.go): 10 roots by
// aliases of entity(id), 10 outgoing relations each and 10 of each other
// end's.
const w3Roots = 10

var w3Query = func() string {
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
	b.WriteString(`}
fragment W3 on Entity {
  id name
  relations(direction: OUTGOING, first: 10) { edges { node { to {
    id name
    relations(direction: OUTGOING, first: 10) { edges { node { to { id name } } } }
  } } } }
}`)
	return b.String()
}()

// w3xQuery is the depth-2 exploration of issue 23's brief: one root, 10
// relations either way, both ends of each with their name and the ids of
// 10 of their relations; it reads both ends of every relation, which is
// where the read gate checks the most.
const w3xQuery = `query W3X($id: ID!) { entity(id: $id) { id name relations(first: 10) { edges { node { id type
  from { id name relations(first: 10) { edges { node { id } } } }
  to { id name relations(first: 10) { edges { node { id } } } }
} } } } }`

var workloads = []workload{
	{
		Key: "W1", Title: "entity by id",
		inputs: func(cfg config, rng *rand.Rand, g *graph, n int) []input {
			out := make([]input, n)
			for i := range out {
				out[i].ID = g.ids[g.pick(rng, cfg.Hubs, cfg.HubShare)]
			}
			return out
		},
		request: func(in input) graphQLRequest {
			return graphQLRequest{`query W1($id: ID!) { entity(id: $id) { id name aliases } }`, map[string]any{"id": in.ID}}
		},
	},
	{
		Key: "W2", Title: "entity + 20 relations, both ends",
		inputs: func(cfg config, rng *rand.Rand, g *graph, n int) []input {
			out := make([]input, n)
			for i := range out {
				out[i].ID = g.ids[g.pick(rng, cfg.Hubs, cfg.HubShare)]
			}
			return out
		},
		request: func(in input) graphQLRequest {
			return graphQLRequest{`query W2($id: ID!) { entity(id: $id) { id name relations(first: 20) { edges { node { id type from { id name } to { id name } } } } } }`,
				map[string]any{"id": in.ID}}
		},
	},
	{
		Key: "W3", Title: "depth 2: 10 roots x 10 x 10 (bench's W3)",
		inputs: func(cfg config, rng *rand.Rand, g *graph, n int) []input {
			out := make([]input, n)
			for i := range out {
				seen := map[string]bool{}
				for len(out[i].IDs) < w3Roots {
					id := g.ids[rng.IntN(len(g.ids))]
					if !seen[id] {
						seen[id] = true
						out[i].IDs = append(out[i].IDs, id)
					}
				}
			}
			return out
		},
		request: func(in input) graphQLRequest {
			vars := map[string]any{}
			for i, id := range in.IDs {
				vars[fmt.Sprintf("i%d", i)] = id
			}
			return graphQLRequest{w3Query, vars}
		},
	},
	{
		Key: "W3X", Title: "depth 2: 1 root x 10, both ends x 10",
		inputs: func(cfg config, rng *rand.Rand, g *graph, n int) []input {
			out := make([]input, n)
			for i := range out {
				out[i].ID = g.ids[g.pick(rng, cfg.Hubs, cfg.HubShare)]
			}
			return out
		},
		request: func(in input) graphQLRequest {
			return graphQLRequest{w3xQuery, map[string]any{"id": in.ID}}
		},
	},
	{
		Key: "W4", Title: "full-text search, 20 hits",
		inputs: func(cfg config, rng *rand.Rand, g *graph, n int) []input {
			out := make([]input, n)
			for i := range out {
				out[i].Text = g.names[rng.IntN(len(g.names))]
			}
			return out
		},
		request: func(in input) graphQLRequest {
			return graphQLRequest{`query W4($t: String!) { search(text: $t, first: 20) { edges { score node { id name } } } }`, map[string]any{"t": in.Text}}
		},
	},
	{
		Key: "W5", Title: "shortestPath, connected pairs 2-4 hops",
		inputs: func(cfg config, rng *rand.Rand, g *graph, n int) []input {
			n = max(10, n/4)
			out := make([]input, 0, n)
			stamp := make([]int32, len(g.ids))
			for run := int32(1); len(out) < n; run++ {
				from, to, d, ok := g.connected(rng, stamp, run)
				if ok {
					out = append(out, input{From: g.ids[from], To: g.ids[to], Hops: d})
				}
			}
			return out
		},
		request: func(in input) graphQLRequest {
			return graphQLRequest{`query W5($from: ID!, $to: ID!) { shortestPath(from: $from, to: $to, filter: {maxDepth: 4}) { length nodes { id } steps { relation { id } } } }`,
				map[string]any{"from": in.From, "to": in.To}}
		},
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

// prepared is a workload with its inputs and their request bodies, made
// in advance so that the load generator does little besides sending them.
type prepared struct {
	w      workload
	inputs []input
	bodies [][]byte
}

func (h *harness) prepare(w workload, g *graph) *prepared {
	inputs := w.inputs(h.cfg, newRand(h.cfg.Seed, w.Key), g, h.cfg.Inputs)
	p := &prepared{w: w, inputs: inputs, bodies: make([][]byte, len(inputs))}
	for i, in := range inputs {
		b, err := json.Marshal(w.request(in))
		if err != nil {
			panic(err) // strings and maps of strings
		}
		p.bodies[i] = b
	}
	return p
}
