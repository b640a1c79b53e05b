package main

// How the inputs are drawn: entities by their degree (a random end of a
// random relation, so hubs come up as often as the relations they hold),
// or uniformly (-draw uniform); pairs for W5 joined within 1 to 4 hops by
// a random walk, so that a path exists (a uniform pair in a sparse graph
// mostly has no path, and times only the search's failure).

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

// The ways of drawing entities (-draw).
const (
	drawByDegree = "degree"
	drawUniform  = "uniform"
)

// population is what the inputs are drawn from: the dataset's entities,
// in id order, and the walk that joins pairs.
type population struct {
	entities []sampleEntity
	byDegree bool
	// cumulative[i] is the sum of the weights of entities[0..i]: an
	// entity's degree, and 1 for one without relations (it can still come
	// up, as an entity a user opens may have none).
	cumulative []int64
	// neighbor returns the k-th neighbour (in id order) of an entity, or
	// false when it has fewer.
	neighbor func(id string, k int) (string, bool)
}

func newPopulation(entities []sampleEntity, draw string, neighbor func(string, int) (string, bool)) *population {
	p := &population{entities: entities, byDegree: draw == drawByDegree, neighbor: neighbor}
	var sum int64
	for _, e := range entities {
		sum += max(e.Degree, 1)
		p.cumulative = append(p.cumulative, sum)
	}
	return p
}

// pick draws one entity.
func (p *population) pick(rng *rand.Rand) sampleEntity {
	if !p.byDegree {
		return p.entities[rng.IntN(len(p.entities))]
	}
	x := rng.Int64N(p.cumulative[len(p.cumulative)-1])
	i, _ := slices.BinarySearch(p.cumulative, x+1) // the first whose sum passes x
	return p.entities[i]
}

// byID finds an entity of the population.
func (p *population) byID(id string) (sampleEntity, bool) {
	i, ok := slices.BinarySearchFunc(p.entities, id, func(e sampleEntity, id string) int {
		switch {
		case e.ID < id:
			return -1
		case e.ID > id:
			return 1
		}
		return 0
	})
	if !ok {
		return sampleEntity{}, false
	}
	return p.entities[i], true
}

// joinedPair draws a pair within 1 to 4 hops: a start picked as entities
// are, then a walk of that many steps to a random neighbour each, never
// back to the start. Starts with no way out are drawn again (at most 100
// times; then the last walk's end, which may be the start's neighbour).
func (p *population) joinedPair(rng *rand.Rand) (from, to string) {
	for range 100 {
		start := p.pick(rng)
		hops := 1 + rng.IntN(4)
		at, ok := start, true
		for range hops {
			if at.Degree < 1 {
				ok = false
				break
			}
			next, found := p.neighbor(at.ID, rng.IntN(int(at.Degree)))
			if !found {
				ok = false
				break
			}
			if at, found = p.byID(next); !found {
				ok = false // a neighbour of another dataset
				break
			}
		}
		if ok && at.ID != start.ID {
			return start.ID, at.ID
		}
	}
	return "", ""
}

// neighborQuery reads an entity's k-th neighbour in id order (either
// direction): the walk's step.
const neighborQuery = `MATCH (:Entity {id: $id})--(n:Entity) WITH DISTINCT n ORDER BY n.id SKIP $k LIMIT 1 RETURN n.id AS id`

// neighborOf is the walk's step over the raw driver. A failure of the
// database reads as no neighbour; the first is kept in *failed, so that a
// draw that found no pair says why.
func (r *rawStore) neighborOf(ctx context.Context, failed *error) func(string, int) (string, bool) {
	return func(id string, k int) (string, bool) {
		res, err := neo4j.ExecuteQuery(ctx, r.driver, neighborQuery, map[string]any{"id": id, "k": k}, neo4j.EagerResultTransformer,
			neo4j.ExecuteQueryWithReadersRouting())
		if err == nil && len(res.Records) > 0 {
			var next string
			if next, _, err = neo4j.GetRecordValue[string](res.Records[0], "id"); err == nil {
				return next, true
			}
		}
		if err != nil && *failed == nil {
			*failed = err
		}
		return "", false
	}
}

// sampleQuery reads the dataset's entities, in id order, with their
// degree (the count of relations that every write keeps).
const sampleQuery = `MATCH (e:Entity {dataset: $ds}) RETURN e.id AS id, e.name AS name, coalesce(e.degree, 0) AS degree ORDER BY e.id`

// drawSample reads the ids, names and degrees of the dataset's entities.
func drawSample(ctx context.Context, r *rawStore, dataset string) ([]sampleEntity, error) {
	res, err := neo4j.ExecuteQuery(ctx, r.driver, sampleQuery, map[string]any{"ds": dataset}, neo4j.EagerResultTransformer,
		neo4j.ExecuteQueryWithReadersRouting())
	if err != nil {
		return nil, fmt.Errorf("read the entities of %s: %w", dataset, err)
	}
	out := make([]sampleEntity, 0, len(res.Records))
	for _, rec := range res.Records {
		id, _, err1 := neo4j.GetRecordValue[string](rec, "id")
		name, _, err2 := neo4j.GetRecordValue[string](rec, "name")
		degree, _, err3 := neo4j.GetRecordValue[int64](rec, "degree")
		if err1 != nil || err2 != nil || err3 != nil {
			return nil, fmt.Errorf("read the entities of %s: an entity without id, name or degree", dataset)
		}
		out = append(out, sampleEntity{id, name, degree})
	}
	if len(out) < 10 {
		return nil, fmt.Errorf("dataset %s has %d entities: import a generated graph first (bench/README.md)", dataset, len(out))
	}
	return out, nil
}
