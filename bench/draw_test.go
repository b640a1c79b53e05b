package main

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// A star and a chain: the hub h with 90 spokes s00..s89, and a chain
// c0 - c1 - c2 - c3 - c4; z has no relations.
func testPopulation(draw string) *population {
	adj := map[string][]string{}
	var es []sampleEntity
	join := func(a, b string) { adj[a], adj[b] = append(adj[a], b), append(adj[b], a) }
	for i := range 90 {
		join("h", spoke(i))
	}
	for i := range 4 {
		join(chain(i), chain(i+1))
	}
	for _, id := range []string{"h", "z", chain(0), chain(1), chain(2), chain(3), chain(4)} {
		es = append(es, sampleEntity{ID: id, Name: id, Degree: int64(len(adj[id]))})
	}
	for i := range 90 {
		es = append(es, sampleEntity{ID: spoke(i), Name: spoke(i), Degree: 1})
	}
	sortByID(es)
	return newPopulation(es, draw, func(id string, k int) (string, bool) {
		ns := append([]string(nil), adj[id]...)
		sortStrings(ns)
		if k >= len(ns) {
			return "", false
		}
		return ns[k], true
	})
}

func spoke(i int) string { return "s" + string(rune('0'+i/10)) + string(rune('0'+i%10)) }
func chain(i int) string { return "c" + string(rune('0'+i)) }

// TestDrawByDegree: by degree, the hub (90 of the 188 relation ends)
// comes up about as often as its relations, and an entity without any
// still comes up; uniformly, the hub is one entity of 97.
func TestDrawByDegree(t *testing.T) {
	const n = 20000
	count := func(draw string) (hub, lonely int) {
		p, rng := testPopulation(draw), rand.New(rand.NewPCG(1, 2))
		for range n {
			switch p.pick(rng).ID {
			case "h":
				hub++
			case "z":
				lonely++
			}
		}
		return hub, lonely
	}
	hub, lonely := count(drawByDegree)
	// Weights: h 90, z 1, c0 and c4 1, c1-c3 2, 90 spokes 1: 189 in all.
	if share := float64(hub) / n; share < 0.44 || share > 0.51 {
		t.Errorf("by degree, the hub came up %.3f of the time, want about 90/189 = 0.476", share)
	}
	if lonely == 0 {
		t.Error("by degree, an entity without relations never came up")
	}
	hub, _ = count(drawUniform)
	if share := float64(hub) / n; share < 0.005 || share > 0.016 {
		t.Errorf("uniformly, the hub came up %.3f of the time, want about 1/97 = 0.0103", share)
	}
}

// TestJoinedPairs: every pair W5 draws is joined within 4 hops (checked
// by a breadth-first search of the same graph), never an entity with
// itself, and the same seed draws the same pairs.
func TestJoinedPairs(t *testing.T) {
	p := testPopulation(drawByDegree)
	draw := func() [][2]string {
		rng := rand.New(rand.NewPCG(3, 4))
		var out [][2]string
		for range 500 {
			from, to := p.joinedPair(rng)
			out = append(out, [2]string{from, to})
		}
		return out
	}
	pairs := draw()
	for _, pair := range pairs {
		if pair[0] == "" || pair[0] == pair[1] {
			t.Fatalf("pair %v", pair)
		}
		if d := p.distance(pair[0], pair[1]); d < 1 || d > 4 {
			t.Errorf("pair %v is %d hops apart, want 1 to 4", pair, d)
		}
	}
	again := draw()
	for i := range pairs {
		if pairs[i] != again[i] {
			t.Fatalf("the same seed drew %v, then %v", pairs[i], again[i])
		}
	}
}

// distance is the hops between two entities by breadth-first search over
// the population's neighbour function (-1: not within 8).
func (p *population) distance(from, to string) int {
	seen, frontier := map[string]bool{from: true}, []string{from}
	for d := 1; d <= 8; d++ {
		var next []string
		for _, id := range frontier {
			for k := 0; ; k++ {
				n, ok := p.neighbor(id, k)
				if !ok {
					break
				}
				if n == to {
					return d
				}
				if !seen[n] {
					seen[n] = true
					next = append(next, n)
				}
			}
		}
		frontier = next
	}
	return -1
}

func sortByID(es []sampleEntity) {
	slices.SortFunc(es, func(a, b sampleEntity) int { return strings.Compare(a.ID, b.ID) })
}

func sortStrings(s []string) { slices.Sort(s) }
