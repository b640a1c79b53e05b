package casegraph

import (
	"fmt"
	"slices"
	"strings"
)

// PathDirection says which way a path may follow relations.
type PathDirection string

// The path directions.
const (
	PathAny      PathDirection = "ANY"      // a relation may be followed either way
	PathOutgoing PathDirection = "OUTGOING" // only from its from end to its to end
)

// PathDirections are the path directions, ANY first.
func PathDirections() []PathDirection { return []PathDirection{PathAny, PathOutgoing} }

// PathRead says what a path search reads besides its entities and
// relations, as the GraphQL selection under it asks (the way EntityRead
// does for entities). It is not a client's argument, so it is not part of
// the requests (PathRequest, NeighborhoodRequest, ...): two callers asking the
// same question with other selections ask the same request, and a path
// watch shares one search among them by request and read.
type PathRead struct {
	// WithSources asks for the sources its entities and relations cite,
	// read in the same statement; without it the statement reads none
	// (a client that does not select them pays nothing for them).
	WithSources bool
	// Properties names the properties its entities and relations show
	// (those the selection asks for, as an EntityRead's); nil shows them
	// all.
	Properties *Properties
}

// Path is a walk through the graph: Relations[i] joins Nodes[i] and
// Nodes[i+1], in either direction.
type Path struct {
	Nodes     []Entity
	Relations []Relation
}

// Len is the number of relations in the path.
func (p Path) Len() int { return len(p.Relations) }

// Subgraph is a set of entities and relations among them.
type Subgraph struct {
	Nodes     []Entity
	Relations []Relation
	// Truncated says a limit cut the answer.
	Truncated bool
	// Unconnected lists the pairs of entities with no path between them
	// (connections only), and Ends are their entities, each once.
	Unconnected [][2]string
	Ends        []Entity
	// Distances are the hops from the centre of each of Nodes, in their
	// order (neighborhood only).
	Distances []int
}

// CommonGround is what a set of entities has in common: the entities
// themselves (Of: the other ends of the neighbours' relations) and their
// common neighbours.
type CommonGround struct {
	Of        []Entity
	Neighbors []CommonNeighbor
}

// CommonNeighbor is an entity directly related to every one of a set of
// entities, and the relations that join it to them (at least one for each:
// the evidence of what they have in common).
type CommonNeighbor struct {
	Entity    Entity
	Relations []Relation
}

// Relaxation is a path filter with one of its conditions taken away,
// named by the GraphQL field that set it.
type Relaxation struct {
	Field  string
	Filter PathFilter
}

// Relaxations returns, for every condition f sets other than its depth,
// f without that condition, in the order of PathFilter's fields.
func (f PathFilter) Relaxations() []Relaxation {
	var out []Relaxation
	add := func(field string, set bool, drop func(*PathFilter)) {
		if !set {
			return
		}
		g := f
		drop(&g)
		out = append(out, Relaxation{Field: field, Filter: g})
	}
	add("relationTypes", len(f.RelationTypes) > 0, func(g *PathFilter) { g.RelationTypes = nil })
	add("excludeRelationTypes", len(f.ExcludeRelationTypes) > 0, func(g *PathFilter) { g.ExcludeRelationTypes = nil })
	add("excludeIds", len(f.ExcludeIDs) > 0, func(g *PathFilter) { g.ExcludeIDs = nil })
	add("kinds", len(f.Kinds) > 0, func(g *PathFilter) { g.Kinds = nil })
	add("datasets", len(f.Datasets) > 0, func(g *PathFilter) { g.Datasets = nil })
	add("validAt", f.ValidAt != "", func(g *PathFilter) { g.ValidAt = "" })
	add("minConfidence", f.MinConfidence != nil, func(g *PathFilter) { g.MinConfidence = nil })
	add("minReliability", f.reliabilitySet(), func(g *PathFilter) { g.MinReliability = DefaultGradeFilter().MinReliability })
	add("minCredibility", f.credibilitySet(), func(g *PathFilter) { g.MinCredibility = DefaultGradeFilter().MinCredibility })
	add("statuses", len(f.Statuses) > 0, func(g *PathFilter) { g.Statuses = nil })
	add("direction", f.Direction == PathOutgoing, func(g *PathFilter) { g.Direction = PathAny })
	add("maxDegree", f.MaxDegree != nil, func(g *PathFilter) { g.MaxDegree = nil })
	return out
}

// PathExplanation says why a shortest-path search found what it found.
type PathExplanation struct {
	MaxDepth int
	// Found says a path meets the filter; Length is its length (0 from an
	// entity to itself, see PathRequest).
	Found  bool
	Length int
	// Beyond is the length of the shortest path that meets every other
	// condition but is longer than MaxDepth (up to MaxMaxDepth); 0 when
	// there is none or the search found one.
	Beyond int
	// Blocking are the conditions (Relaxation.Field) each of which, taken
	// away alone, lets a path within MaxDepth through.
	Blocking []string
	// Complete is false when the time budget ran out before every
	// relaxation was tried: what is said holds, but more may be true.
	Complete bool
}

// Message says the explanation in a sentence.
func (e PathExplanation) Message() string {
	if e.Found && e.Length == 0 {
		return "from and to are the same entity: a path of 0 relations"
	}
	if e.Found {
		return fmt.Sprintf("a path of %d relations meets the filter", e.Length)
	}
	var parts []string
	if e.Beyond > 0 {
		parts = append(parts, fmt.Sprintf("one of %d relations exists beyond maxDepth %d", e.Beyond, e.MaxDepth))
	}
	if len(e.Blocking) > 0 {
		parts = append(parts, "taking away "+strings.Join(e.Blocking, " or ")+" alone would find one within it")
	}
	msg := fmt.Sprintf("no path of at most %d relations meets the filter", e.MaxDepth)
	if len(parts) == 0 {
		if e.MaxDepth < MaxMaxDepth {
			msg += fmt.Sprintf(", none of at most %d either", MaxMaxDepth)
		}
		if e.Complete {
			return msg + ", and no single condition of the filter is the reason"
		}
		return msg + " (the time budget ran out before every condition was tried)"
	}
	msg += ": " + strings.Join(parts, "; ")
	if !e.Complete {
		msg += " (the time budget ran out before every condition was tried)"
	}
	return msg
}

// Limits and defaults of a path search.
const (
	DefaultMaxDepth = 4           // PathFilter.MaxDepth when a client gives none
	MaxMaxDepth     = 8           // the most relations in a path
	MaxMaxDegree    = 100_000_000 // the largest hub cap (PathFilter.MaxDegree)

	DefaultPaths = 3  // PathRequest.K for paths when a client gives none
	MaxPaths     = 20 // the most paths one search returns
)

// Limits and defaults of a neighbourhood.
const (
	DefaultNeighborhoodDepth = 1
	MaxNeighborhood          = 3 // the deepest neighborhood
	DefaultNeighborhoodSize  = 100
	MaxNeighborhoodSize      = 1000 // the most entities of a neighborhood besides its centre
)

// Limits and defaults of connections and common neighbours.
const (
	MinConnections = 2 // the fewest entities of connections and commonNeighbors
	MaxConnections = 10

	DefaultCommonNeighbors = 100
	MaxCommonNeighbors     = 1000 // the most entities commonNeighbors returns
)

// PathFilter narrows a path search. Every filter applies during the search:
// a path that would need an excluded entity or relation is not "found and
// dropped", the search goes around it. DefaultPathFilter gives the
// defaults; the zero filter is not valid (its MaxDepth is 0).
type PathFilter struct {
	MaxDepth             int // relations in a path, 1 to MaxMaxDepth
	RelationTypes        []RelationType
	ExcludeRelationTypes []RelationType
	// ExcludeIDs are entities no path may pass through (hubs, say).
	ExcludeIDs []string
	// Kinds are the kinds an entity inside a path may have (its ends are
	// what they are).
	Kinds    []Kind
	Datasets []string
	// ValidAt keeps relations whose dates allow this partial date: a
	// relation without a start started long ago, one without an end has
	// not ended.
	ValidAt       string
	MinConfidence *float64
	// GradeFilter keeps the hops (relations) one of whose citations is
	// graded at least MinReliability and MinCredibility.
	GradeFilter
	Statuses  []Status
	Direction PathDirection // "" is PathAny
	// MaxDegree, when set, keeps paths out of entities with more relations
	// than this (hubs): it bounds the work of a search on a dense graph.
	MaxDegree *int
}

// DefaultPathFilter is the filter of a search that gives none: paths of
// up to DefaultMaxDepth relations, followed either way, of any grade.
func DefaultPathFilter() PathFilter {
	return PathFilter{MaxDepth: DefaultMaxDepth, Direction: PathAny, GradeFilter: DefaultGradeFilter()}
}

// Normalize checks the filter and fills in the direction when it has none.
func (f *PathFilter) Normalize() error {
	if f.MaxDepth < 1 || f.MaxDepth > MaxMaxDepth {
		return Errorf(CodeBadUserInput, "maxDepth must be between 1 and %d, not %d", MaxMaxDepth, f.MaxDepth)
	}
	if f.Direction == "" {
		f.Direction = PathAny
	}
	if f.Direction != PathAny && f.Direction != PathOutgoing {
		return Errorf(CodeBadUserInput, "direction must be ANY or OUTGOING")
	}
	if len(f.RelationTypes) > MaxFilterValues || len(f.ExcludeRelationTypes) > MaxFilterValues ||
		len(f.ExcludeIDs) > MaxFilterValues || len(f.Datasets) > MaxFilterValues {
		return Errorf(CodeBadUserInput, "a filter list holds at most %d values", MaxFilterValues)
	}
	for _, t := range append(slices.Clone(f.RelationTypes), f.ExcludeRelationTypes...) {
		if _, err := Spec(t); err != nil {
			return err
		}
	}
	for _, id := range f.ExcludeIDs {
		if err := ValidateID("excludeIds", id); err != nil {
			return err
		}
	}
	for _, ds := range f.Datasets {
		if err := ValidateID("datasets", ds); err != nil {
			return err
		}
	}
	if err := validateKinds(f.Kinds); err != nil {
		return err
	}
	for _, s := range f.Statuses {
		if !slices.Contains(Statuses(), s) {
			return Errorf(CodeBadUserInput, "unknown status %q", truncate(string(s), 40))
		}
	}
	if d := f.MaxDegree; d != nil && *d < 1 {
		return Errorf(CodeBadUserInput, "maxDegree must be at least 1")
	}
	if d := f.MaxDegree; d != nil && *d > MaxMaxDegree {
		return Errorf(CodeBadUserInput, "maxDegree must be between 1 and %d", MaxMaxDegree)
	}
	if err := ValidateDate("validAt", f.ValidAt); err != nil {
		return err
	}
	if err := f.GradeFilter.Validate(); err != nil {
		return err
	}
	return ValidateConfidence(f.MinConfidence)
}

// Requests. Each New... function returns the request with every argument
// a client may leave out at its default (the constants above, which the
// schema's argument defaults spell again: graph's TestSchemaDefaults holds
// the two together); the GraphQL layer sets over it what the client gave,
// and Normalize checks the whole. A client's explicit 0 is not "left out":
// Normalize refuses it, which is why a zero field is not read as "use the
// default" here.

// PathRequest asks for up to K shortest simple paths from one entity to
// another (shortestPath, pathExplanation and watchPath are K 1).
//
// From an entity to itself (From and To the same id, or ids merged into
// the same entity) the answer is the path of no relations: that entity
// alone, length 0, as an analyst reads "how is X connected to X" (it is
// X), and as a saved query over pairs expects of a pair that happens to
// be one entity twice. Every search answers so through the store, a path
// watch included (whose path then changes only when the entity goes). An
// id the caller may not read is NOT_FOUND, as for any other search.
type PathRequest struct {
	From, To string
	K        int // 1 to MaxPaths
	Filter   PathFilter
}

// NewPathRequest is the search for paths from one entity to another with
// the defaults: DefaultPaths of them, under DefaultPathFilter.
func NewPathRequest(from, to string) PathRequest {
	return PathRequest{From: from, To: to, K: DefaultPaths, Filter: DefaultPathFilter()}
}

// Normalize checks the request and normalizes its filter.
func (q *PathRequest) Normalize() error {
	if err := ValidateID("from", q.From); err != nil {
		return err
	}
	if err := ValidateID("to", q.To); err != nil {
		return err
	}
	if q.K < 1 || q.K > MaxPaths {
		return Errorf(CodeBadUserInput, "k must be between 1 and %d, not %d", MaxPaths, q.K)
	}
	return q.Filter.Normalize()
}

// NeighborhoodRequest asks for the entities within Depth relations of one,
// nearest first, at most Limit besides it, and the relations among them.
type NeighborhoodRequest struct {
	ID     string
	Depth  int // 1 to MaxNeighborhood
	Limit  int // 1 to MaxNeighborhoodSize
	Filter PathFilter
}

// NewNeighborhoodRequest is the neighbourhood of id with the defaults:
// DefaultNeighborhoodDepth, at most DefaultNeighborhoodSize entities,
// under DefaultPathFilter.
func NewNeighborhoodRequest(id string) NeighborhoodRequest {
	return NeighborhoodRequest{ID: id, Depth: DefaultNeighborhoodDepth, Limit: DefaultNeighborhoodSize, Filter: DefaultPathFilter()}
}

// Normalize checks the request and normalizes its filter.
func (q *NeighborhoodRequest) Normalize() error {
	if err := ValidateID("id", q.ID); err != nil {
		return err
	}
	if q.Depth < 1 || q.Depth > MaxNeighborhood {
		return Errorf(CodeBadUserInput, "depth must be between 1 and %d, not %d", MaxNeighborhood, q.Depth)
	}
	if q.Limit < 1 || q.Limit > MaxNeighborhoodSize {
		return Errorf(CodeBadUserInput, "limit must be between 1 and %d, not %d", MaxNeighborhoodSize, q.Limit)
	}
	return q.Filter.Normalize()
}

// ConnectionsRequest asks, for MinConnections to MaxConnections distinct
// entities, for the shortest paths between every pair.
type ConnectionsRequest struct {
	IDs    []string
	Filter PathFilter
}

// NewConnectionsRequest is the connections of ids under DefaultPathFilter.
func NewConnectionsRequest(ids []string) ConnectionsRequest {
	return ConnectionsRequest{IDs: ids, Filter: DefaultPathFilter()}
}

// Normalize checks the request and normalizes its filter.
func (q *ConnectionsRequest) Normalize() error {
	if err := validateIDSet("connections", q.IDs); err != nil {
		return err
	}
	return q.Filter.Normalize()
}

// Pairs are the pairs of IDs whose shortest paths connections asks for,
// each once, in the order of IDs.
func (q ConnectionsRequest) Pairs() [][2]string {
	var pairs [][2]string
	for i := range q.IDs {
		for j := i + 1; j < len(q.IDs); j++ {
			pairs = append(pairs, [2]string{q.IDs[i], q.IDs[j]})
		}
	}
	return pairs
}

// validateIDSet checks the ids of connections or commonNeighbors (field):
// MinConnections to MaxConnections valid ids, none twice.
func validateIDSet(field string, ids []string) error {
	if len(ids) < MinConnections || len(ids) > MaxConnections {
		return Errorf(CodeBadUserInput, "%s takes %d to %d ids, not %d", field, MinConnections, MaxConnections, len(ids))
	}
	for i, id := range ids {
		if err := ValidateID("ids", id); err != nil {
			return err
		}
		if slices.Contains(ids[:i], id) {
			return Errorf(CodeBadUserInput, "ids: %q is named twice", id)
		}
	}
	return nil
}

// CommonNeighborsRequest asks, for MinConnections to MaxConnections distinct
// entities, for the entities directly related to every one of them (one
// hop: the filter's maxDepth has no meaning and is refused when a client
// gives one, and its direction must be ANY, as a neighbour is common
// whichever way its relations run).
type CommonNeighborsRequest struct {
	IDs    []string
	Limit  int // 1 to MaxCommonNeighbors
	Filter PathFilter
	// MaxDepthGiven says the client gave the filter a maxDepth (which
	// Filter.MaxDepth cannot say: a client's 0 is a maxDepth given).
	MaxDepthGiven bool
}

// NewCommonNeighborsRequest is the common neighbours of ids with the
// defaults: at most DefaultCommonNeighbors, under DefaultPathFilter.
func NewCommonNeighborsRequest(ids []string) CommonNeighborsRequest {
	return CommonNeighborsRequest{IDs: ids, Limit: DefaultCommonNeighbors, Filter: DefaultPathFilter()}
}

// Normalize checks the request and normalizes its filter.
func (q *CommonNeighborsRequest) Normalize() error {
	if q.MaxDepthGiven {
		return Errorf(CodeBadUserInput, "filter.maxDepth: commonNeighbors looks one hop away; leave maxDepth out")
	}
	if err := validateIDSet("commonNeighbors", q.IDs); err != nil {
		return err
	}
	if q.Limit < 1 || q.Limit > MaxCommonNeighbors {
		return Errorf(CodeBadUserInput, "limit must be between 1 and %d, not %d", MaxCommonNeighbors, q.Limit)
	}
	if q.Filter.Direction == PathOutgoing {
		return Errorf(CodeBadUserInput, "filter.direction: commonNeighbors follows relations either way (ANY)")
	}
	return q.Filter.Normalize()
}
