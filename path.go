package casegraph

import (
	"slices"
)

// PathDirection says which way a path may follow relations.
type PathDirection string

// The path directions.
const (
	PathAny      PathDirection = "ANY"      // a relation may be followed either way
	PathOutgoing PathDirection = "OUTGOING" // only from its from end to its to end
)

// Path search limits.
const (
	DefaultMaxDepth     = 4
	MaxMaxDepth         = 8
	MaxPaths            = 20
	MaxNeighborhood     = 3
	MaxNeighborhoodSize = 1000
	MinConnections      = 2
	MaxConnections      = 10
	maxFilterList       = 50
)

// PathOptions say what a path search returns besides its entities and
// relations.
type PathOptions struct {
	// WithSources asks for the sources its entities and relations cite,
	// read in the same statement; without it the statement reads none
	// (a client that does not select them pays nothing for them).
	WithSources bool
}

// PathFilter narrows a path search. Every filter applies during the search:
// a path that would need an excluded entity or relation is not "found and
// dropped", the search goes around it.
type PathFilter struct {
	MaxDepth             int // relations in a path, 1 to 8
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
	Statuses      []Status
	Direction     PathDirection
	// MaxDegree, when set, keeps paths out of entities with more relations
	// than this (hubs): it bounds the work of a search on a dense graph.
	MaxDegree int
}

// Normalize checks the filter and fills in the defaults.
func (f *PathFilter) Normalize() error {
	if f.MaxDepth == 0 {
		f.MaxDepth = DefaultMaxDepth
	}
	if f.MaxDepth < 1 || f.MaxDepth > MaxMaxDepth {
		return Errorf(CodeBadUserInput, "maxDepth must be between 1 and %d, not %d", MaxMaxDepth, f.MaxDepth)
	}
	if f.Direction == "" {
		f.Direction = PathAny
	}
	if f.Direction != PathAny && f.Direction != PathOutgoing {
		return Errorf(CodeBadUserInput, "direction must be ANY or OUTGOING")
	}
	if len(f.RelationTypes) > maxFilterList || len(f.ExcludeRelationTypes) > maxFilterList ||
		len(f.ExcludeIDs) > maxFilterList || len(f.Datasets) > maxFilterList {
		return Errorf(CodeBadUserInput, "a filter list holds at most %d values", maxFilterList)
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
	for _, k := range f.Kinds {
		if _, err := ParseKind(string(k)); err != nil {
			return err
		}
	}
	for _, s := range f.Statuses {
		if !slices.Contains(Statuses(), s) {
			return Errorf(CodeBadUserInput, "unknown status %q", truncate(string(s), 40))
		}
	}
	if f.MaxDegree < 0 || f.MaxDegree > 100_000_000 {
		return Errorf(CodeBadUserInput, "maxDegree must be between 1 and 100000000")
	}
	if err := ValidateDate("validAt", f.ValidAt); err != nil {
		return err
	}
	return ValidateConfidence(f.MinConfidence)
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
	// (connections only).
	Unconnected [][2]string
}
