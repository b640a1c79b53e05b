package cypher

import (
	"context"
	"fmt"
	"strings"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
)

// EntitiesByID returns the entities with the given ids, in one round trip,
// keyed by the id asked for: an id merged into another entity maps to the
// survivor. Ids with no entity are absent.
func (s *Store) EntitiesByID(ctx context.Context, ids []string) (map[string]casegraph.Entity, error) {
	res, err := s.read(ctx, "EntitiesByID", map[string]any{"ids": ids})
	if err != nil {
		return nil, err
	}
	return entitiesByKey("EntitiesByID", res.Records)
}

// Entity returns the entity with the id (or the one it was merged into), or
// a NOT_FOUND error.
func (s *Store) Entity(ctx context.Context, id string) (casegraph.Entity, error) {
	found, err := s.EntitiesByID(ctx, []string{id})
	if err != nil {
		return casegraph.Entity{}, err
	}
	e, ok := found[id]
	if !ok {
		return casegraph.Entity{}, casegraph.Errorf(casegraph.CodeNotFound, "no entity with id %q", id)
	}
	return e, nil
}

// Entities returns one page of the entities that match the filter, in the
// order asked for (ties by id), the sort key of each (for cursors), and
// whether there are more.
func (s *Store) Entities(ctx context.Context, f casegraph.EntityFilter, order casegraph.EntityOrder, page casegraph.Page) ([]casegraph.Entity, []string, bool, error) {
	if _, ok := entityOrders[order.Field]; !ok {
		return nil, nil, false, casegraph.Errorf(casegraph.CodeBadUserInput, "cannot sort by %q", order.Field)
	}
	params := entityFilterParams(f)
	params["afterId"], params["afterKey"] = nullable(page.After), page.AfterKey
	params["limit"] = pageLimit(page)
	name := entityOrderName(order, f.Datasets)
	res, err := s.read(ctx, name, params)
	if err != nil {
		return nil, nil, false, err
	}
	out := make([]casegraph.Entity, 0, len(res.Records))
	keys := make([]string, 0, len(res.Records))
	for _, rec := range res.Records {
		e, err := entityFrom(rec)
		if err != nil {
			return nil, nil, false, internalError(name, err)
		}
		key, err := getString(rec, "key")
		if err != nil {
			return nil, nil, false, internalError(name, err)
		}
		out, keys = append(out, e), append(keys, key)
	}
	out, hasNext := trimPage(out, page)
	keys, _ = trimPage(keys, page)
	return out, keys, hasNext, nil
}

// CountEntities counts the entities that match the filter.
func (s *Store) CountEntities(ctx context.Context, f casegraph.EntityFilter) (int64, error) {
	res, err := s.read(ctx, byDatasets("CountEntities", f.Datasets), entityFilterParams(f))
	if err != nil {
		return 0, err
	}
	n, err := getInt(res.Records[0], "total")
	if err != nil {
		return 0, internalError("CountEntities", err)
	}
	return n, nil
}

func entityFilterParams(f casegraph.EntityFilter) map[string]any {
	p := map[string]any{"kinds": listParam(f.Kinds), "datasets": listParam(f.Datasets), "category": nullable(f.Category),
		"nameContains": nil, "dateFrom": nil, "dateTo": nil, "hasRelation": listParam(f.HasRelation)}
	if f.NameContains != "" {
		p["nameContains"] = casegraph.Fold(f.NameContains)
	}
	if f.DateFrom != "" {
		p["dateFrom"] = casegraph.MustPartialDate(f.DateFrom).Earliest()
	}
	if f.DateTo != "" {
		p["dateTo"] = casegraph.MustPartialDate(f.DateTo).Latest()
	}
	return p
}

func entitiesByKey(stmt string, recs []*neo4j.Record) (map[string]casegraph.Entity, error) {
	out := make(map[string]casegraph.Entity, len(recs))
	for _, rec := range recs {
		key, err := getString(rec, "key")
		if err != nil {
			return nil, internalError(stmt, err)
		}
		e, err := entityFrom(rec)
		if err != nil {
			return nil, internalError(stmt, err)
		}
		out[key] = e
	}
	return out, nil
}

// Ping checks that Neo4j answers, within ctx.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.driver.VerifyConnectivity(ctx); err != nil {
		return mapError(ctx, "ping", err)
	}
	return nil
}

// entityOrder is how Entities sorts: the key, and how a cursor's key is
// read back.
type entityOrder struct {
	Key   string // Cypher expression of the sort key
	Param string // the cursor's key as that type
}

var entityOrders = map[casegraph.EntityOrderField]entityOrder{
	casegraph.OrderByID:        {"e.id", "$afterKey"},
	casegraph.OrderByName:      {"e.name", "$afterKey"},
	casegraph.OrderByUpdatedAt: {"e.updatedAt", "datetime($afterKey)"},
	// The degree every write keeps (see degree.go); 0 for an entity that
	// migrate has not counted yet, as a cursor's key is never null.
	casegraph.OrderByDegree: {"coalesce(e.degree, 0)", "toInteger($afterKey)"},
}

func entityOrderName(o casegraph.EntityOrder, datasets []string) string {
	return byDatasets(fmt.Sprintf("Entities/%s/%s", strings.ToLower(string(o.Field)), strings.ToLower(o.Direction())), datasets)
}

func entityOrderVariants() []variant {
	var out []variant
	for field, o := range entityOrders {
		for _, desc := range []bool{false, true} {
			for _, ds := range [][]string{nil, {"any"}} {
				ord := casegraph.EntityOrder{Field: field, Desc: desc}
				data := map[string]any{"Key": o.Key, "Param": o.Param, "Dir": ord.Direction(), "Cmp": ">", "Datasets": ds != nil}
				if desc {
					data["Cmp"] = "<"
				}
				out = append(out, variant{Name: entityOrderName(ord, ds), Data: data})
			}
		}
	}
	return out
}

// entityFrom reads the "entity" column, a projection by the shared
// "entity" template.
func entityFrom(rec *neo4j.Record) (casegraph.Entity, error) {
	m, err := getMap(rec, "entity")
	if err != nil {
		return casegraph.Entity{}, err
	}
	return entityFromMap(m)
}
