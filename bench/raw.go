package main

import (
	"context"
	"fmt"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
)

// rawStore is the "raw" system: Casegraph's own statements through its
// store on the Go driver, in this process, without HTTP and GraphQL.
//
// Each workload is one small method below that calls the store the way
// Casegraph's resolvers do for that query (the compiled read for W2 and W3,
// the search and the path search for W4 and W5) and returns the normalized
// answer.
type rawStore struct {
	driver  neo4j.DriverWithContext
	store   *cypher.Store
	timeout time.Duration
	// caller is the principal Casegraph's server gives the benchmark's
	// requests (an anonymous caller of -anonymous's datasets, as
	// bench/run.sh starts it): the raw store reads with the same rights,
	// so that both answer the same (the store reads nothing without one).
	caller casegraph.Principal
}

// as is ctx with the raw system's caller.
func (r *rawStore) as(ctx context.Context) context.Context {
	return casegraph.WithPrincipal(ctx, r.caller)
}

func openRaw(ctx context.Context, cfg config) (*rawStore, error) {
	driver, err := cfg.Neo4j.Open(ctx)
	if err != nil {
		return nil, err
	}
	store, err := cypher.NewStore(driver, cypher.Options{
		Database:    cfg.Database,
		PathTimeout: cypher.DefaultPathTimeout,
	})
	if err != nil {
		driver.Close(ctx)
		return nil, err
	}
	return &rawStore{driver: driver, store: store, timeout: cfg.Timeout, caller: casegraph.Anonymous(cfg.Anonymous)}, nil
}

func (r *rawStore) Close() {
	r.driver.Close(context.Background())
}

// RoundTrips is how many statements the raw system has sent to Neo4j.
func (r *rawStore) RoundTrips() int64 { return r.store.RoundTrips() }

// entityByID is W1: entity(id) { id name aliases }.
func (r *rawStore) entityByID(ctx context.Context, id string) (w1Answer, error) {
	ctx = r.as(ctx)
	e, err := r.store.Entity(ctx, id)
	if err != nil {
		return w1Answer{}, err
	}
	return w1Answer{ID: e.ID, Name: e.Name, Aliases: e.Aliases}, nil
}

// entityWithRelations is W2: the entity, its first 20 relations (either
// way, in id order) and the names of both ends of each, in one compiled
// read, as the entity resolver asks for it.
func (r *rawStore) entityWithRelations(ctx context.Context, id string) (w2Answer, error) {
	ctx = r.as(ctx)
	read := &casegraph.EntityRead{Relations: []casegraph.RelationsRead{{
		Filter: casegraph.RelationFilter{Direction: casegraph.DirectionBoth}, Page: casegraph.Page{First: 20},
		Ends: &casegraph.EntityRead{},
	}}}
	res, err := r.store.ReadEntities(ctx, []string{id}, read)
	if err != nil {
		return w2Answer{}, err
	}
	e, ok := res.Roots[id]
	if !ok {
		return w2Answer{}, fmt.Errorf("no entity %q", id)
	}
	names := map[string]string{}
	for _, x := range res.Entities {
		names[x.ID] = x.Name
	}
	out := w2Answer{ID: e.ID, Name: e.Name, Relations: []w2Relation{}}
	for _, rel := range pageOf(res, e.ID) {
		out.Relations = append(out.Relations, w2Relation{
			ID: rel.ID, Type: string(rel.Type),
			From: entityRef{rel.FromID, names[rel.FromID]}, To: entityRef{rel.ToID, names[rel.ToID]},
		})
	}
	return out, nil
}

// pageOf returns the relations read for an entity (the reads here ask for
// one page an entity).
func pageOf(res casegraph.ReadResult, id string) []casegraph.Relation {
	for _, p := range res.Pages {
		if p.EntityID == id {
			return p.Result.Relations
		}
	}
	return nil
}

// depthTwo is W3: for each root, the other ends of its first 10 outgoing
// relations (in relation id order), and theirs, in one compiled read, as
// the aliased entity fields ask for it.
func (r *rawStore) depthTwo(ctx context.Context, roots []string) (w3Answer, error) {
	ctx = r.as(ctx)
	window := func(ends *casegraph.EntityRead) casegraph.RelationsRead {
		return casegraph.RelationsRead{Filter: casegraph.RelationFilter{Direction: casegraph.DirectionOutgoing}, Page: casegraph.Page{First: 10}, Ends: ends}
	}
	read := &casegraph.EntityRead{Relations: []casegraph.RelationsRead{
		window(&casegraph.EntityRead{Relations: []casegraph.RelationsRead{window(&casegraph.EntityRead{})}}),
	}}
	res, err := r.store.ReadEntities(ctx, dedupe(roots), read)
	if err != nil {
		return nil, err
	}
	names := map[string]string{}
	for _, x := range res.Entities {
		names[x.ID] = x.Name
	}
	var tree func(id string, depth int) treeNode
	tree = func(id string, depth int) treeNode {
		n := treeNode{ID: id, Name: names[id]}
		if depth < 2 {
			n.Children = []treeNode{}
			for _, rel := range pageOf(res, id) {
				n.Children = append(n.Children, tree(rel.ToID, depth+1))
			}
		}
		return n
	}
	out := w3Answer{}
	for _, id := range roots {
		if e, ok := res.Roots[id]; ok {
			out = append(out, tree(e.ID, 0))
		}
	}
	return out.sorted(), nil
}

// search is W4: the full-text candidates (the best 200), ranked, the
// first 20; it shows their names, as W4's selection does.
func (r *rawStore) search(ctx context.Context, text string) (w4Answer, error) {
	ctx = r.as(ctx)
	q := casegraph.SearchRequest{Text: text, Shows: []string{"name"}, Page: casegraph.Page{First: 20}}
	if err := q.Normalize(); err != nil {
		return nil, err
	}
	found, err := r.store.Search(ctx, q)
	if err != nil {
		return nil, err
	}
	out := w4Answer{}
	for _, h := range found.Results {
		out = append(out, w4Hit{ID: h.Entity.ID, Name: h.Entity.Name, Score: h.Score})
	}
	return out, nil
}

// shortestPath is W5: the shortest path of at most 4 relations.
func (r *rawStore) shortestPath(ctx context.Context, from, to string) (w5Answer, error) {
	ctx = r.as(ctx)
	q := casegraph.PathRequest{From: from, To: to, K: 1, Filter: casegraph.PathFilter{MaxDepth: 4}}
	if err := q.Normalize(); err != nil {
		return w5Answer{}, err
	}
	// W5 selects ids: no sources and no property, as the resolver asks.
	read := casegraph.PathRead{Properties: &casegraph.Properties{Entity: []string{}, Relation: []string{}}}
	paths, _, err := r.store.Paths(ctx, q, read)
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
	Degree   int64
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
