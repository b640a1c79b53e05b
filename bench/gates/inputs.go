package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
)

// graph is what the inputs are drawn from: the entities of the generated
// file and their neighbours either way, read from the file, so that the
// inputs do not depend on either server's API.
type graph struct {
	ids       []string
	names     []string
	adj       [][]int32 // neighbours either way, once per relation
	relations int
	hubs      []int32 // the most connected, most first
}

func readGraph(path, dataset string) (*graph, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, usageError{fmt.Errorf("-data: %w (make it with casegraph gen, bench/README.md)", err)}
	}
	defer f.Close()
	g := &graph{}
	index := map[string]int32{}
	type edge struct{ from, to string }
	var edges []edge
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	var row struct {
		Type    string `json:"type"`
		ID      string `json:"id"`
		Name    string `json:"name"`
		From    string `json:"from"`
		To      string `json:"to"`
		Dataset string `json:"dataset"`
	}
	for sc.Scan() {
		row.Type, row.ID, row.Name, row.From, row.To, row.Dataset = "", "", "", "", "", ""
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if row.Dataset != dataset {
			continue
		}
		switch row.Type {
		case "entity":
			index[row.ID] = int32(len(g.ids))
			g.ids = append(g.ids, row.ID)
			g.names = append(g.names, row.Name)
		case "relation":
			edges = append(edges, edge{row.From, row.To})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(g.ids) < 10 {
		return nil, fmt.Errorf("%s holds %d entities of dataset %s: -dataset must be the one it was generated for", path, len(g.ids), dataset)
	}
	g.adj = make([][]int32, len(g.ids))
	for _, e := range edges {
		a, okA := index[e.from]
		b, okB := index[e.to]
		if !okA || !okB {
			continue
		}
		g.adj[a] = append(g.adj[a], b)
		g.adj[b] = append(g.adj[b], a)
		g.relations++
	}
	order := make([]int32, len(g.ids))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(x, y int32) int { return cmp.Compare(len(g.adj[y]), len(g.adj[x])) })
	g.hubs = order[:min(len(order), 1000)]
	return g, nil
}

func newRand(seed uint64, key string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(key))
	return rand.New(rand.NewPCG(seed, h.Sum64()))
}

// pick draws an entity: one of the first hubs with probability share,
// else any.
func (g *graph) pick(rng *rand.Rand, hubs int, share float64) int32 {
	if hubs > 0 && rng.Float64() < share {
		return g.hubs[rng.IntN(min(hubs, len(g.hubs)))]
	}
	return int32(rng.IntN(len(g.ids)))
}

// connected draws a pair joined by a path of exactly d relations (d drawn
// from 2 to 4, fewer where the first end reaches no entity that far), by a
// breadth-first search either way from the first end; ok is false when the
// first end has no relation at all.
func (g *graph) connected(rng *rand.Rand, stamp []int32, run int32) (from, to int32, d int, ok bool) {
	from = int32(rng.IntN(len(g.ids)))
	want := 2 + rng.IntN(3)
	frontier := []int32{from}
	stamp[from] = run
	var levels [][]int32
	for depth := 1; depth <= want && len(frontier) > 0; depth++ {
		var next []int32
		for _, n := range frontier {
			for _, m := range g.adj[n] {
				if stamp[m] != run {
					stamp[m] = run
					next = append(next, m)
				}
			}
		}
		if len(next) > 0 {
			levels = append(levels, next)
		}
		frontier = next
	}
	if len(levels) == 0 {
		return 0, 0, 0, false
	}
	last := levels[len(levels)-1]
	return from, last[rng.IntN(len(last))], len(levels), true
}

// describe says what an input is, for a mismatch.
func (in input) String() string {
	switch {
	case in.ID != "":
		return in.ID
	case len(in.IDs) > 0:
		return strings.Join(in.IDs, ",")
	case in.Text != "":
		return fmt.Sprintf("%q", in.Text)
	default:
		return fmt.Sprintf("%s -> %s (%d hops)", in.From, in.To, in.Hops)
	}
}
