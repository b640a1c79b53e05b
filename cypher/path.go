package cypher

// Path searches: shortest and k paths, neighbourhoods, connections and
// common neighbours; their rendered variants, parameters and time budget,
// and their results read back.

import (
	"context"
	"fmt"
	"strings"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
)

// pathKs are the k that Paths is rendered for: Cypher's SHORTEST takes a
// literal, so a request for k paths runs the smallest rendered k >= k and
// keeps k (LIMIT $k).
var pathKs = []int{1, 3, 5, 10, 20}

type pathVariant struct {
	Depth   int
	Arrow   string // "" (either way) or ">" (outgoing only)
	K       int
	Sources bool // read the sources the result cites
	// Open: the filter excludes nothing, so what the search expands is
	// tested against the gate alone (openVariant).
	Open bool
}

func arrowOf(d casegraph.PathDirection) string {
	if d == casegraph.PathOutgoing {
		return ">"
	}
	return ""
}

// The path statements, each rendered for every depth and direction (and
// Paths for every k of pathKs), with and without sources, open or not.
const (
	stmtPaths        statement = "Paths"
	stmtNeighborhood statement = "Neighborhood"
	stmtConnections  statement = "Connections"
)

// pathStatementName names the variant of a path statement for a depth, a
// direction and (Paths) a rendered k.
func pathStatementName(stmt statement, depth int, d casegraph.PathDirection, k int) statement {
	name := stmt + statement(fmt.Sprintf("/d%d/%s", depth, strings.ToLower(string(d))))
	if k > 0 {
		name += statement(fmt.Sprintf("/k%d", k))
	}
	return name
}

// withSources names the variant of a path statement that reads the sources
// its result cites (NAME), or the one that reads none (NAME/nosources).
func withSources(name statement, read casegraph.PathRead) statement {
	if read.WithSources {
		return name
	}
	return name + "/nosources"
}

// pathVariants renders a path statement for every depth (Neighborhood up
// to casegraph.MaxNeighborhood) and direction, Paths for every k of
// pathKs, each with and without sources and open or not (openVariant).
func pathVariants(stmt statement) func() []variant {
	return func() []variant {
		ks, maxDepth := []int{0}, casegraph.MaxMaxDepth
		switch stmt {
		case stmtPaths:
			ks = pathKs
		case stmtNeighborhood:
			maxDepth = casegraph.MaxNeighborhood
		}
		var out []variant
		for _, d := range []casegraph.PathDirection{casegraph.PathAny, casegraph.PathOutgoing} {
			for depth := 1; depth <= maxDepth; depth++ {
				for _, k := range ks {
					for _, read := range []casegraph.PathRead{{WithSources: true}, {WithSources: false}} {
						out = append(out, openVariants(withSources(pathStatementName(stmt, depth, d, k), read),
							pathVariant{Depth: depth, Arrow: arrowOf(d), K: k, Sources: read.WithSources})...)
					}
				}
			}
		}
		return out
	}
}

// openVariants are a path statement's variant for a filter and its open
// one (NAME/open, openVariant).
func openVariants(name statement, v pathVariant) []variant {
	open := v
	open.Open = true
	return []variant{{Name: name, Data: v}, {Name: name + "/open", Data: open}}
}

// openVariant is the variant of the path statement name to run with a
// filter's parameters (pathParams): its open one when they are all null,
// the filter excluding nothing, whose search tests the relations and
// entities it expands against the gate alone instead of against a dozen
// tests of null parameters (W5's shortest path, every filter unset, spent
// 7 to 18% of its statement's time on them; bench/README.md).
func openVariant(name statement, params map[string]any) statement {
	for _, v := range params {
		if v != nil {
			return name
		}
	}
	return name + "/open"
}

// pathParams are the filter's statement parameters; null where the filter
// does not apply.
func pathParams(f casegraph.PathFilter) map[string]any {
	p := map[string]any{
		"types":         listParam(f.RelationTypes),
		"excludeTypes":  listParam(f.ExcludeRelationTypes),
		"excludeIds":    listParam(f.ExcludeIDs),
		"kinds":         listParam(f.Kinds),
		"datasets":      listParam(f.Datasets),
		"statuses":      listParam(f.Statuses),
		"minConfidence": nil,
		"minGrade":      gradeParam(f.GradeFilter),
		"maxDegree":     nil,
		"validEarliest": nil,
		"validLatest":   nil,
	}
	if f.MinConfidence != nil {
		p["minConfidence"] = *f.MinConfidence
	}
	if f.MaxDegree != nil {
		p["maxDegree"] = int64(*f.MaxDegree)
	}
	if f.ValidAt != "" {
		d := casegraph.MustPartialDate(f.ValidAt) // validated by Normalize
		p["validEarliest"], p["validLatest"] = d.Earliest(), d.Latest()
	}
	return p
}

// gradeParam is the parameter of the shared "gradeFilter" ($minGrade):
// null for a filter that asks for no minimum, else the least reliability
// and credibility as two strings ("F" and "6" where one is not asked
// for), which compare as the grades' letters and digits do.
func gradeParam(f casegraph.GradeFilter) any {
	if !f.Set() {
		return nil
	}
	reliability, credibility := f.MinReliability, f.MinCredibility
	if reliability == "" {
		reliability = casegraph.ReliabilityF
	}
	if credibility == 0 {
		credibility = casegraph.CredibilityUnknown
	}
	return []string{string(reliability), fmt.Sprint(int(credibility))}
}

// withPathBudget bounds a path search by the store's path timeout (or the
// request's deadline, when that comes first).
func (s *Store) withPathBudget(ctx context.Context) (context.Context, context.CancelFunc) {
	if s.pathTimeout <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, s.pathTimeout)
}

// pathError explains a search that ran out of time or of memory.
func (s *Store) pathError(err error) error {
	if casegraph.ErrorCode(err) != casegraph.CodeTimeout {
		return err
	}
	const narrow = "narrow it with a lower maxDepth, relationTypes, maxDegree, or excludeIds for the busiest entities"
	msg := "the path search ran out of time: " + narrow
	switch {
	case isMemoryLimit(err):
		msg = "the path search needed more memory than one query may use: " + narrow
	case s.pathTimeout > 0:
		msg = fmt.Sprintf("the path search ran out of its time budget (%s): %s", s.pathTimeout, narrow)
	}
	return &casegraph.Error{Code: casegraph.CodeTimeout, Cause: err, Message: msg}
}

// Paths returns up to q.K shortest simple paths from q.From to q.To that
// pass the filter, shortest first, and (with read.WithSources) the sources
// their entities and relations cite. From an entity to itself it returns
// the path of no relations (see casegraph.PathRequest). Unknown ends are
// NOT_FOUND. q must be normalized.
func (s *Store) Paths(ctx context.Context, q casegraph.PathRequest, read casegraph.PathRead) ([]casegraph.Path, []casegraph.Source, error) {
	ctx, cancel := s.withPathBudget(ctx)
	defer cancel()
	rendered := pathKs[len(pathKs)-1]
	for _, pk := range pathKs {
		if pk >= q.K {
			rendered = pk
			break
		}
	}
	params := pathParams(q.Filter)
	name := openVariant(withSources(pathStatementName(stmtPaths, q.Filter.MaxDepth, q.Filter.Direction, rendered), read), params)
	props, err := pathProperties(read, params)
	if err != nil {
		return nil, nil, internalError(stmtPaths, err)
	}
	params["from"], params["to"], params["k"] = q.From, q.To, int64(q.K)
	res, err := s.readHeavy(ctx, name, params)
	if err != nil {
		return nil, nil, s.pathError(err)
	}
	rec := res.Records[0]
	for key, id := range map[string]string{"fromFound": q.From, "toFound": q.To} {
		found, _, err := neo4j.GetRecordValue[bool](rec, key)
		if err != nil {
			return nil, nil, internalError(name, err)
		}
		if !found {
			return nil, nil, casegraph.Errorf(casegraph.CodeNotFound, "%s: no entity with id %q", strings.TrimSuffix(key, "Found"), id)
		}
	}
	raw, err := getMaps(rec, "paths")
	if err != nil {
		return nil, nil, internalError(name, err)
	}
	paths := make([]casegraph.Path, 0, len(raw))
	for _, m := range raw {
		p, err := pathFromMap(m, props)
		if err != nil {
			return nil, nil, internalError(name, err)
		}
		paths = append(paths, p)
	}
	sources, err := sourcesFromRecord(rec)
	if err != nil {
		return nil, nil, internalError(name, err)
	}
	return paths, sources, nil
}

// relationsPerEntity bounds the relations of a neighbourhood: at most this
// many times its entity limit.
const relationsPerEntity = 5

// Neighborhood returns the entities within q.Depth hops of q.ID through
// relations that pass the filter (nearest first, at most q.Limit besides
// q.ID), the relations among them that pass it (at most 5 per entity), each
// entity's hops from q.ID (Distances), and (with read.WithSources) their
// sources. Truncated says that either limit cut the answer. q must be
// normalized.
func (s *Store) Neighborhood(ctx context.Context, q casegraph.NeighborhoodRequest, read casegraph.PathRead) (casegraph.Subgraph, []casegraph.Source, error) {
	ctx, cancel := s.withPathBudget(ctx)
	defer cancel()
	params := pathParams(q.Filter)
	name := openVariant(withSources(pathStatementName(stmtNeighborhood, q.Depth, q.Filter.Direction, 0), read), params)
	props, err := pathProperties(read, params)
	if err != nil {
		return casegraph.Subgraph{}, nil, internalError(stmtNeighborhood, err)
	}
	params["id"], params["limit"], params["limitPlusOne"] = q.ID, int64(q.Limit), int64(q.Limit+1)
	relationLimit := relationsPerEntity * q.Limit
	params["relationLimit"], params["relationLimitPlusOne"] = int64(relationLimit), int64(relationLimit+1)
	res, err := s.readHeavy(ctx, name, params)
	if err != nil {
		return casegraph.Subgraph{}, nil, s.pathError(err)
	}
	if len(res.Records) == 0 {
		return casegraph.Subgraph{}, nil, casegraph.Errorf(casegraph.CodeNotFound, "no entity with id %q", q.ID)
	}
	rec := res.Records[0]
	var g casegraph.Subgraph
	nodes, err := getMaps(rec, "nodes")
	if err != nil {
		return g, nil, internalError(name, err)
	}
	rels, err := getMaps(rec, "relations")
	if err != nil {
		return g, nil, internalError(name, err)
	}
	if g.Nodes, g.Relations, err = subgraphFromValues(nodes, rels, props); err != nil {
		return g, nil, internalError(name, err)
	}
	if g.Distances, err = getInts(rec, "distances"); err != nil {
		return g, nil, internalError(name, err)
	}
	if len(g.Distances) != len(g.Nodes) {
		return g, nil, internalError(name, fmt.Errorf("%d distances for %d nodes", len(g.Distances), len(g.Nodes)))
	}
	if g.Truncated, _, err = neo4j.GetRecordValue[bool](rec, "truncated"); err != nil {
		return g, nil, internalError(name, err)
	}
	sources, err := sourcesFromRecord(rec)
	if err != nil {
		return g, nil, internalError(name, err)
	}
	return g, sources, nil
}

// Connections returns the union of the shortest paths between every pair
// of q.IDs that pass the filter, (with read.WithSources) the sources they
// cite, and the pairs with no such path. Unknown ids are NOT_FOUND. q must
// be normalized.
func (s *Store) Connections(ctx context.Context, q casegraph.ConnectionsRequest, read casegraph.PathRead) (casegraph.Subgraph, []casegraph.Source, error) {
	ctx, cancel := s.withPathBudget(ctx)
	defer cancel()
	var pairs [][]string
	for _, p := range q.Pairs() {
		pairs = append(pairs, []string{p[0], p[1]})
	}
	params := pathParams(q.Filter)
	name := openVariant(withSources(pathStatementName(stmtConnections, q.Filter.MaxDepth, q.Filter.Direction, 0), read), params)
	props, err := pathProperties(read, params)
	if err != nil {
		return casegraph.Subgraph{}, nil, internalError(stmtConnections, err)
	}
	params["ids"], params["pairs"] = q.IDs, pairs
	res, err := s.readHeavy(ctx, name, params)
	if err != nil {
		return casegraph.Subgraph{}, nil, s.pathError(err)
	}
	var g casegraph.Subgraph
	var sources []casegraph.Source
	seenNode, seenRel, seenSource, seenEnd := map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
	entityID := func(e casegraph.Entity) string { return e.ID }
	for _, rec := range res.Records {
		missing, err := getStrings(rec, "missing")
		if err != nil {
			return g, nil, internalError(name, err)
		}
		if len(missing) > 0 {
			return g, nil, casegraph.Errorf(casegraph.CodeNotFound, "no entity with id %q", missing[0])
		}
		pair, err := getStrings(rec, "pair")
		if err != nil {
			return g, nil, internalError(name, fmt.Errorf("pair: %w", err))
		}
		if len(pair) != 2 {
			return g, nil, internalError(name, fmt.Errorf("pair %v: want two ids", pair))
		}
		m, err := getMap(rec, "path")
		if err != nil {
			return g, nil, internalError(name, err)
		}
		if m == nil {
			g.Unconnected = append(g.Unconnected, [2]string{pair[0], pair[1]})
			ends, err := mapMaps(rec.AsMap(), "ends")
			if err != nil {
				return g, nil, internalError(name, err)
			}
			es, _, err := subgraphFromValues(ends, nil, props)
			if err != nil {
				return g, nil, internalError(name, fmt.Errorf("ends: %w", err))
			}
			g.Ends = appendOnce(seenEnd, g.Ends, es, entityID)
		} else {
			p, err := pathFromMap(m, props)
			if err != nil {
				return g, nil, internalError(name, err)
			}
			g.Nodes = appendOnce(seenNode, g.Nodes, p.Nodes, entityID)
			g.Relations = appendOnce(seenRel, g.Relations, p.Relations, func(r casegraph.Relation) string { return r.ID })
		}
		srcs, err := sourcesFromRecord(rec)
		if err != nil {
			return g, nil, internalError(name, err)
		}
		sources = appendOnce(seenSource, sources, srcs, func(s casegraph.Source) string { return s.ID })
	}
	return g, sources, nil
}

// appendOnce appends to out each of items whose key seen has not had,
// and marks it seen: a statement's rows repeat what several of them share.
func appendOnce[T any](seen map[string]bool, out, items []T, key func(T) string) []T {
	for _, it := range items {
		if k := key(it); !seen[k] {
			seen[k] = true
			out = append(out, it)
		}
	}
	return out
}

// pathFromMap reads a path whose entities and relations show the
// properties of props as values (entityValues, relationValues).
func pathFromMap(m map[string]any, props *casegraph.Properties) (casegraph.Path, error) {
	nodes, err := mapMaps(m, "nodes")
	if err != nil {
		return casegraph.Path{}, err
	}
	rels, err := mapMaps(m, "relations")
	if err != nil {
		return casegraph.Path{}, err
	}
	var p casegraph.Path
	p.Nodes, p.Relations, err = subgraphFromValues(nodes, rels, props)
	if err == nil && len(p.Nodes) != len(p.Relations)+1 {
		err = fmt.Errorf("a path of %d nodes and %d relations", len(p.Nodes), len(p.Relations))
	}
	return p, err
}

// pathProperties says which properties a path read's entities and
// relations show (those read names, else every one) and sets the
// statement's parameters that name them ($entityProps, $relationProps),
// which its projections read (entityValues, relationValues): one text
// and one plan for every selection, and a client that asks for ids reads
// ids.
func pathProperties(read casegraph.PathRead, params map[string]any) (*casegraph.Properties, error) {
	props := &casegraph.Properties{Entity: casegraph.EntityProperties, Relation: casegraph.RelationProperties}
	if read.Properties != nil {
		if err := checkProperties(read.Properties); err != nil {
			return nil, err
		}
		props = read.Properties
	}
	params["entityProps"], params["relationProps"] = valueNames(props.Entity), valueNames(props.Relation)
	return props, nil
}

// subgraphFromValues is subgraphFromMaps for entities and relations that
// show the properties of props as values (entityValues, relationValues),
// as the path reads return them.
func subgraphFromValues(nodes, rels []map[string]any, props *casegraph.Properties) ([]casegraph.Entity, []casegraph.Relation, error) {
	for _, n := range nodes {
		if err := valuesByName(n, props.Entity); err != nil {
			return nil, nil, fmt.Errorf("entity: %w", err)
		}
	}
	for _, r := range rels {
		if err := valuesByName(r, props.Relation); err != nil {
			return nil, nil, fmt.Errorf("relation: %w", err)
		}
	}
	return subgraphFromMaps(nodes, rels)
}

func subgraphFromMaps(nodes, rels []map[string]any) ([]casegraph.Entity, []casegraph.Relation, error) {
	es := make([]casegraph.Entity, len(nodes))
	for i, n := range nodes {
		if err := decodeEntity(n, &es[i]); err != nil { // in place: decodeEntity says why
			return nil, nil, err
		}
	}
	rs := make([]casegraph.Relation, 0, len(rels))
	for _, m := range rels {
		r, err := relationFromMap(m)
		if err != nil {
			return nil, nil, err
		}
		rs = append(rs, r)
	}
	return es, rs, nil
}

// stmtCommonNeighbors is rendered with and without sources (NAME,
// NAME/nosources), each open or not (openVariants).
const stmtCommonNeighbors statement = "CommonNeighbors"

// sourceVariants renders a path statement that may read the sources its
// result cites with them (NAME) and without (NAME/nosources), each open or
// not (openVariants).
func sourceVariants(stmt statement) func() []variant {
	return func() []variant {
		var out []variant
		for _, read := range []casegraph.PathRead{{WithSources: true}, {WithSources: false}} {
			out = append(out, openVariants(withSources(stmt, read), pathVariant{Sources: read.WithSources})...)
		}
		return out
	}
}

// CommonNeighbors returns the entities directly related to every one of
// q.IDs through relations that pass the filter (its maxDepth and direction
// do not apply), each with the relations that join it to them, the ones
// with the most relations first, at most q.Limit, and (with
// read.WithSources) the sources they and the entities of q.IDs cite.
// Unknown ids are NOT_FOUND. q must be normalized.
func (s *Store) CommonNeighbors(ctx context.Context, q casegraph.CommonNeighborsRequest, read casegraph.PathRead) (casegraph.CommonGround, []casegraph.Source, error) {
	var g casegraph.CommonGround
	ctx, cancel := s.withPathBudget(ctx)
	defer cancel()
	params := pathParams(q.Filter)
	name := openVariant(withSources(stmtCommonNeighbors, read), params)
	props, err := pathProperties(read, params)
	if err != nil {
		return g, nil, internalError(stmtCommonNeighbors, err)
	}
	params["ids"], params["limit"] = q.IDs, int64(q.Limit)
	res, err := s.readHeavy(ctx, name, params)
	if err != nil {
		return g, nil, s.pathError(err)
	}
	rec := res.Records[0]
	missing, err := getStrings(rec, "missing")
	if err != nil {
		return g, nil, internalError(name, err)
	}
	if len(missing) > 0 {
		return g, nil, casegraph.Errorf(casegraph.CodeNotFound, "no entity with id %q", missing[0])
	}
	given, err := getMaps(rec, "given")
	if err != nil {
		return g, nil, internalError(name, err)
	}
	raw, err := getMaps(rec, "neighbors")
	if err != nil {
		return g, nil, internalError(name, err)
	}
	if g.Of, _, err = subgraphFromValues(given, nil, props); err != nil {
		return g, nil, internalError(name, err)
	}
	g.Neighbors = make([]casegraph.CommonNeighbor, 0, len(raw))
	for _, m := range raw {
		e, ok := m["entity"].(map[string]any)
		if !ok {
			return g, nil, internalError(name, fmt.Errorf("neighbor entity: %T", m["entity"]))
		}
		rels, err := mapMaps(m, "relations")
		if err != nil {
			return g, nil, internalError(name, err)
		}
		nodes, relations, err := subgraphFromValues([]map[string]any{e}, rels, props)
		if err != nil {
			return g, nil, internalError(name, err)
		}
		g.Neighbors = append(g.Neighbors, casegraph.CommonNeighbor{Entity: nodes[0], Relations: relations})
	}
	sources, err := sourcesFromRecord(rec)
	if err != nil {
		return g, nil, internalError(name, err)
	}
	return g, sources, nil
}
