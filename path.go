package casegraph

// PathDirection says which way a path may follow relations.
type PathDirection string

// The path directions.
const (
	PathAny      PathDirection = "ANY"      // a relation may be followed either way
	PathOutgoing PathDirection = "OUTGOING" // only from its from end to its to end
)

// PathOptions say what a path search returns besides its entities and
// relations.
type PathOptions struct {
	// WithSources asks for the sources its entities and relations cite,
	// read in the same statement; without it the statement reads none
	// (a client that does not select them pays nothing for them).
	WithSources bool
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
