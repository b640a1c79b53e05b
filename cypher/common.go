package cypher

import (
	"context"
	"fmt"

	casegraph "github.com/casegraph/casegraph"
)

// stmtCommonNeighbors is rendered with and without sources (NAME,
// NAME/nosources).
const stmtCommonNeighbors statement = "CommonNeighbors"

// sourceVariants renders a statement that may read the sources its result
// cites twice: with them (NAME) and without (NAME/nosources).
func sourceVariants(stmt statement) func() []variant {
	return func() []variant {
		var out []variant
		for _, o := range []casegraph.PathOptions{{WithSources: true}, {WithSources: false}} {
			out = append(out, variant{Name: withSources(stmt, o), Data: pathVariant{Sources: o.WithSources}})
		}
		return out
	}
}

// CommonNeighbors returns the entities directly related to every one of
// ids through relations that pass the filter (its maxDepth and direction
// do not apply), each with the relations that join it to them, the ones
// with the most relations first, at most limit, and (with o.WithSources)
// the sources they and the entities of ids cite. Unknown ids are NOT_FOUND.
// f must be normalized.
func (s *Store) CommonNeighbors(ctx context.Context, ids []string, limit int, f casegraph.PathFilter, o casegraph.PathOptions) (casegraph.CommonGround, []casegraph.Source, error) {
	var g casegraph.CommonGround
	ctx, cancel := s.withPathBudget(ctx)
	defer cancel()
	params := pathParams(f)
	params["ids"], params["limit"] = ids, int64(limit)
	name := withSources(stmtCommonNeighbors, o)
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
	if g.Of, _, err = subgraphFromMaps(given, nil); err != nil {
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
		nodes, relations, err := subgraphFromMaps([]map[string]any{e}, rels)
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
