package main

import (
	"context"
	"fmt"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/rs/zerolog"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
)

// rawStore is the "raw" system: Casegraph's own statements through its
// store on the Go driver, in this process, without HTTP and GraphQL.
//
// Each workload is one small method below that calls the store the way
// Casegraph's resolvers and loaders do for that query (one call a level, ids
// batched as the loaders batch them) and returns the normalized answer. It
// is the seam for a new store API: when the store can answer a whole
// selection in one compiled statement, replace the body of the method with
// that call; nothing else in the benchmark changes.
type rawStore struct {
	driver  neo4j.DriverWithContext
	store   *cypher.Store
	timeout time.Duration
}

func openRaw(ctx context.Context, cfg config) (*rawStore, error) {
	auth := neo4j.NoAuth()
	if cfg.Neo4jUser != "" {
		auth = neo4j.BasicAuth(cfg.Neo4jUser, cfg.Neo4jPass, "")
	}
	driver, err := neo4j.NewDriverWithContext(cfg.Neo4jURI, auth, cypher.DriverConfig)
	if err != nil {
		return nil, usageError{fmt.Errorf("neo4j-uri %q: %w", cfg.Neo4jURI, err)}
	}
	if err := driver.VerifyConnectivity(ctx); err != nil {
		driver.Close(ctx)
		return nil, fmt.Errorf("neo4j at %s: %w", cfg.Neo4jURI, err)
	}
	store, err := cypher.NewStore(driver, cypher.Options{
		Database:    cfg.Database,
		Logger:      zerolog.Nop(),
		PathTimeout: 10 * time.Second, // Casegraph's default CASEGRAPH_PATH_TIMEOUT
	})
	if err != nil {
		driver.Close(ctx)
		return nil, err
	}
	return &rawStore{driver: driver, store: store, timeout: cfg.Timeout}, nil
}

func (r *rawStore) Close() {
	r.driver.Close(context.Background())
}

// RoundTrips is how many statements the raw system has sent to Neo4j.
func (r *rawStore) RoundTrips() int64 { return r.store.RoundTrips() }

// entities looks up the ids not in known (as a request's loader looks up
// only what it has not seen) and adds them to it.
func (r *rawStore) entities(ctx context.Context, ids []string, known map[string]casegraph.Entity) error {
	var missing []string
	seen := map[string]bool{}
	for _, id := range ids {
		if _, ok := known[id]; !ok && !seen[id] {
			seen[id] = true
			missing = append(missing, id)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	found, err := r.store.EntitiesByID(ctx, missing)
	if err != nil {
		return err
	}
	for id, e := range found {
		known[id] = e
	}
	return nil
}

// entityByID is W1: entity(id) { id name aliases }.
func (r *rawStore) entityByID(ctx context.Context, id string) (w1Answer, error) {
	e, err := r.store.Entity(ctx, id)
	if err != nil {
		return w1Answer{}, err
	}
	return w1Answer{ID: e.ID, Name: e.Name, Aliases: e.Aliases}, nil
}

// entityWithRelations is W2: the entity, its first 20 relations (either
// way, in id order) and the names of both ends of each.
func (r *rawStore) entityWithRelations(ctx context.Context, id string) (w2Answer, error) {
	known := map[string]casegraph.Entity{}
	if err := r.entities(ctx, []string{id}, known); err != nil {
		return w2Answer{}, err
	}
	e, ok := known[id]
	if !ok {
		return w2Answer{}, fmt.Errorf("no entity %q", id)
	}
	pages, err := r.store.RelationsOf(ctx, []string{e.ID}, casegraph.RelationFilter{Direction: casegraph.DirectionBoth}, casegraph.Page{First: 20})
	if err != nil {
		return w2Answer{}, err
	}
	rels := pages[e.ID].Relations
	var ends []string
	for _, rel := range rels {
		ends = append(ends, rel.FromID, rel.ToID)
	}
	known[e.ID] = e
	if err := r.entities(ctx, ends, known); err != nil {
		return w2Answer{}, err
	}
	out := w2Answer{ID: e.ID, Name: e.Name, Relations: []w2Relation{}}
	for _, rel := range rels {
		out.Relations = append(out.Relations, w2Relation{
			ID: rel.ID, Type: string(rel.Type),
			From: entityRef{rel.FromID, known[rel.FromID].Name}, To: entityRef{rel.ToID, known[rel.ToID].Name},
		})
	}
	return out, nil
}

// depthTwo is W3: for each root, the other ends of its first 10 outgoing
// relations (in relation id order), and theirs: level by level, one
// RelationsOf and one EntitiesByID a level, as the loaders batch them.
func (r *rawStore) depthTwo(ctx context.Context, roots []string) (w3Answer, error) {
	known := map[string]casegraph.Entity{}
	if err := r.entities(ctx, roots, known); err != nil {
		return nil, err
	}
	out := w3Answer{}
	for _, id := range roots {
		if e, ok := known[id]; ok {
			out = append(out, treeNode{ID: e.ID, Name: e.Name})
		}
	}
	level := make([]*treeNode, len(out))
	for i := range out {
		level[i] = &out[i]
	}
	for depth := 0; depth < 2; depth++ {
		ids := make([]string, 0, len(level))
		for _, n := range level {
			ids = append(ids, n.ID)
		}
		pages, err := r.store.RelationsOf(ctx, dedupe(ids), casegraph.RelationFilter{Direction: casegraph.DirectionOutgoing}, casegraph.Page{First: 10})
		if err != nil {
			return nil, err
		}
		var ends []string
		for _, id := range ids {
			for _, rel := range pages[id].Relations {
				ends = append(ends, rel.ToID)
			}
		}
		if err := r.entities(ctx, ends, known); err != nil {
			return nil, err
		}
		var next []*treeNode
		for _, n := range level {
			n.Children = []treeNode{}
			for _, rel := range pages[n.ID].Relations {
				n.Children = append(n.Children, treeNode{ID: rel.ToID, Name: known[rel.ToID].Name})
			}
			for i := range n.Children {
				next = append(next, &n.Children[i])
			}
		}
		level = next
	}
	return out.sorted(), nil
}

// search is W4: the full-text candidates (the best 200), ranked, the
// first 20.
func (r *rawStore) search(ctx context.Context, text string) (w4Answer, error) {
	words, err := casegraph.ValidateSearchText("text", text)
	if err != nil {
		return nil, err
	}
	hits, err := r.store.Search(ctx, words, casegraph.SearchFilter{}, casegraph.SearchWindow)
	if err != nil {
		return nil, err
	}
	ranked := casegraph.Rank(words, hits)
	out := w4Answer{}
	for _, h := range ranked[:min(20, len(ranked))] {
		out = append(out, w4Hit{ID: h.Entity.ID, Name: h.Entity.Name, Score: h.Score})
	}
	return out, nil
}

// shortestPath is W5: the shortest path of at most 4 relations.
func (r *rawStore) shortestPath(ctx context.Context, from, to string) (w5Answer, error) {
	f := casegraph.PathFilter{MaxDepth: 4}
	if err := f.Normalize(); err != nil {
		return w5Answer{}, err
	}
	paths, _, err := r.store.Paths(ctx, from, to, 1, f)
	if err != nil {
		return w5Answer{}, err
	}
	if len(paths) == 0 {
		return w5Answer{}, nil
	}
	p := paths[0]
	out := w5Answer{Found: true, Length: p.Len()}
	for _, n := range p.Nodes {
		out.Nodes = append(out.Nodes, n.ID)
	}
	return out, nil
}

// sampleEntity is what the inputs are drawn from.
type sampleEntity struct {
	ID, Name string
}

// drawSample reads the ids and names of the dataset's entities, in id
// order, a page of 5000 at a time through the store's Entities.
func drawSample(ctx context.Context, r *rawStore, dataset string) ([]sampleEntity, error) {
	var out []sampleEntity
	f := casegraph.EntityFilter{Datasets: []string{dataset}}
	page := casegraph.Page{First: 5000}
	for {
		found, keys, more, err := r.store.Entities(ctx, f, casegraph.EntityOrder{Field: casegraph.OrderByID}, page)
		if err != nil {
			return nil, fmt.Errorf("read the entities of %s: %w", dataset, err)
		}
		for _, e := range found {
			out = append(out, sampleEntity{e.ID, e.Name})
		}
		if !more || len(found) == 0 {
			break
		}
		page.After, page.AfterKey = found[len(found)-1].ID, keys[len(keys)-1]
	}
	if len(out) < 10 {
		return nil, fmt.Errorf("dataset %s has %d entities: import a generated graph first (bench/README.md)", dataset, len(out))
	}
	return out, nil
}

func dedupe(ids []string) []string {
	seen := make(map[string]bool, len(ids))
	out := ids[:0:0]
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
