package graph

import (
	"context"
	"slices"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/graph/model"
	"github.com/casegraph/casegraph/loaders"
)

// Glue for path searches: filters in, paths and subgraphs out. What a
// search returns primes the request's loaders, so nested fields on its
// entities, relations and sources cost no further round trips.

// The requests of the path fields: each starts from the domain's request
// with its defaults (casegraph.NewPathRequest, ...) and sets over it what the
// client gave; the request's Normalize checks the whole. The complexity
// model prices the same requests.

// pathQueryOf is the request of paths.
func pathQueryOf(from, to string, k *int, filter *model.PathFilter) casegraph.PathRequest {
	q := casegraph.NewPathRequest(from, to)
	given(&q.K, k)
	q.Filter = pathFilterOf(q.Filter, filter)
	return q
}

// shortestPathQueryOf is the request of shortestPath, pathExplanation and
// watchPath: one path.
func shortestPathQueryOf(from, to string, filter *model.PathFilter) casegraph.PathRequest {
	q := pathQueryOf(from, to, nil, filter)
	q.K = 1
	return q
}

func neighborhoodQueryOf(id string, depth, limit *int, filter *model.PathFilter) casegraph.NeighborhoodRequest {
	q := casegraph.NewNeighborhoodRequest(id)
	given(&q.Depth, depth)
	given(&q.Limit, limit)
	q.Filter = pathFilterOf(q.Filter, filter)
	return q
}

func connectionsQueryOf(ids []string, filter *model.PathFilter) casegraph.ConnectionsRequest {
	q := casegraph.NewConnectionsRequest(ids)
	q.Filter = pathFilterOf(q.Filter, filter)
	return q
}

func commonNeighborsQueryOf(ids []string, limit *int, filter *model.PathFilter) casegraph.CommonNeighborsRequest {
	q := casegraph.NewCommonNeighborsRequest(ids)
	given(&q.Limit, limit)
	q.Filter = pathFilterOf(q.Filter, filter)
	q.MaxDepthGiven = filter != nil && filter.MaxDepth != nil
	return q
}

// pathFilterOf sets over f (a request's default filter) the fields the
// client gave.
func pathFilterOf(f casegraph.PathFilter, in *model.PathFilter) casegraph.PathFilter {
	if in == nil {
		return f
	}
	given(&f.MaxDepth, in.MaxDepth)
	for _, t := range in.RelationTypes {
		f.RelationTypes = append(f.RelationTypes, casegraph.RelationType(t))
	}
	for _, t := range in.ExcludeRelationTypes {
		f.ExcludeRelationTypes = append(f.ExcludeRelationTypes, casegraph.RelationType(t))
	}
	f.ExcludeIDs = in.ExcludeIds
	for _, k := range in.Kinds {
		f.Kinds = append(f.Kinds, kindFromModel(k))
	}
	f.Datasets = in.Datasets
	f.ValidAt = dateString(in.ValidAt)
	f.MinConfidence = in.MinConfidence
	gradesGiven(&f.GradeFilter, in.MinReliability, in.MinCredibility)
	for _, s := range in.Statuses {
		f.Statuses = append(f.Statuses, casegraph.Status(s))
	}
	if in.Direction != nil {
		f.Direction = casegraph.PathDirection(*in.Direction)
	}
	f.MaxDegree = in.MaxDegree
	return f
}

// gradesGiven sets the minimum grades a client gave (paths' filters and
// the command queries take the same two).
func gradesGiven(f *casegraph.GradeFilter, minReliability *model.Reliability, minCredibility *int) {
	if minReliability != nil {
		f.MinReliability = casegraph.Reliability(*minReliability)
	}
	given((*int)(&f.MinCredibility), minCredibility)
}

// given sets *field to an optional argument's value when the client gave
// one (a null is not a value: the request's default stays).
func given(field *int, arg *int) {
	if arg != nil {
		*field = *arg
	}
}

// pathRead says what the path search of the root field being resolved
// must read for its selection: the sources its entities and relations cite
// only when a field named sources or citations is selected somewhere under it (in any
// fragment, whatever its type condition: reading them when not needed
// costs time, not reading them when needed costs round trips), and the
// properties the operation shows anywhere (operationProperties: the
// entities go to the request's loaders, where any field may find them).
func pathRead(ctx context.Context) casegraph.PathRead {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || !graphql.HasOperationContext(ctx) {
		return casegraph.PathRead{WithSources: true}
	}
	op := graphql.GetOperationContext(ctx)
	return casegraph.PathRead{WithSources: selects(op, fc.Field.Selections, "sources", "citations"), Properties: operationProperties(op)}
}

// selects reports whether a field called one of names is selected in set
// or below.
func selects(op *graphql.OperationContext, set ast.SelectionSet, names ...string) bool {
	return selectsOn(op, set, nil, names...)
}

// selectsOn reports whether a field called one of names, of one of the
// types on (any type for none), is selected in set or below.
func selectsOn(op *graphql.OperationContext, set ast.SelectionSet, on []string, names ...string) bool {
	for _, f := range graphql.CollectFields(op, set, nil) {
		if slices.Contains(names, f.Name) && (on == nil || f.ObjectDefinition != nil && slices.Contains(on, f.ObjectDefinition.Name)) {
			return true
		}
		if selectsOn(op, f.Selections, on, names...) {
			return true
		}
	}
	return false
}

func toPath(p casegraph.Path) model.Path {
	out := model.Path{Length: p.Len(), Nodes: make([]model.Entity, len(p.Nodes)), Steps: make([]model.PathStep, len(p.Relations))}
	for i, n := range p.Nodes {
		out.Nodes[i] = toEntity(n)
	}
	for i, r := range p.Relations {
		from, to := p.Nodes[i].ID, p.Nodes[i+1].ID
		forward := r.FromID == from
		out.Steps[i] = model.PathStep{Relation: toRelation(r), FromID: from, ToID: to, Forward: forward, Label: readingLabel(r.Type, forward)}
	}
	return out
}

// readingLabel is a relation type read one way or the other; the
// vocabulary holds every stored type, so an unknown one is a bug, read as
// its name.
func readingLabel(t casegraph.RelationType, forward bool) string {
	spec, err := casegraph.Spec(t)
	if err != nil {
		return string(t)
	}
	if forward {
		return spec.Label
	}
	return spec.InverseLabel
}

func toSubgraph(g casegraph.Subgraph) *model.Subgraph {
	out := &model.Subgraph{
		Nodes:            make([]model.Entity, len(g.Nodes)),
		Relations:        make([]model.Relation, len(g.Relations)),
		Truncated:        g.Truncated,
		UnconnectedPairs: make([]model.EntityPair, len(g.Unconnected)),
		Distances:        make([]model.NodeDistance, len(g.Distances)),
	}
	for i, n := range g.Nodes {
		out.Nodes[i] = toEntity(n)
	}
	for i, r := range g.Relations {
		out.Relations[i] = *toRelation(r)
	}
	for i, d := range g.Distances {
		out.Distances[i] = model.NodeDistance{ID: g.Nodes[i].ID, Hops: d}
	}
	for i, p := range g.Unconnected {
		out.UnconnectedPairs[i] = model.EntityPair{AID: p[0], BID: p[1]}
	}
	return out
}

// toCommonNeighbors converts common neighbours, and primes the request's
// loaders with them, the entities they are common to (their relations'
// other ends) and the sources they cite.
func toCommonNeighbors(ctx context.Context, g casegraph.CommonGround, sources []casegraph.Source) []model.CommonNeighbor {
	out := make([]model.CommonNeighbor, len(g.Neighbors))
	nodes := slices.Clone(g.Of)
	for i, c := range g.Neighbors {
		nodes = append(nodes, c.Entity)
		out[i] = model.CommonNeighbor{Entity: toEntity(c.Entity), Relations: make([]model.Relation, len(c.Relations))}
		for j, r := range c.Relations {
			out[i].Relations[j] = *toRelation(r)
		}
	}
	loaders.Prime(ctx, nodes, sources)
	return out
}
