package cypher

import (
	"context"
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

// Entities returns one page of the entities that match the filter, in id
// order, and whether there are more.
func (s *Store) Entities(ctx context.Context, f casegraph.EntityFilter, page casegraph.Page) ([]casegraph.Entity, bool, error) {
	params := entityFilterParams(f)
	params["after"] = page.After
	params["limit"] = int64(page.First + 1)
	res, err := s.read(ctx, "Entities", params)
	if err != nil {
		return nil, false, err
	}
	out := make([]casegraph.Entity, 0, len(res.Records))
	for _, rec := range res.Records {
		e, err := entityFromRecord(rec)
		if err != nil {
			return nil, false, internalError("Entities", err)
		}
		out = append(out, e)
	}
	if len(out) > page.First {
		return out[:page.First], true, nil
	}
	return out, false, nil
}

// CountEntities counts the entities that match the filter.
func (s *Store) CountEntities(ctx context.Context, f casegraph.EntityFilter) (int64, error) {
	res, err := s.read(ctx, "CountEntities", entityFilterParams(f))
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
	p := map[string]any{"kinds": nil, "datasets": nil, "category": nullable(f.Category), "nameContains": nil}
	if len(f.Kinds) > 0 {
		kinds := make([]string, len(f.Kinds))
		for i, k := range f.Kinds {
			kinds[i] = string(k)
		}
		p["kinds"] = kinds
	}
	if len(f.Datasets) > 0 {
		p["datasets"] = f.Datasets
	}
	if f.NameContains != "" {
		p["nameContains"] = strings.ToLower(f.NameContains)
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
		e, err := entityFromRecord(rec)
		if err != nil {
			return nil, internalError(stmt, err)
		}
		out[key] = e
	}
	return out, nil
}

func entityFromRecord(rec *neo4j.Record) (casegraph.Entity, error) {
	var e casegraph.Entity
	var err error
	var kind string
	if e.ID, err = getString(rec, "id"); err != nil {
		return e, err
	}
	if kind, err = getString(rec, "kind"); err != nil {
		return e, err
	}
	if e.Kind, err = casegraph.ParseKind(kind); err != nil {
		return e, err
	}
	for key, dst := range map[string]*string{
		"name": &e.Name, "description": &e.Description, "dataset": &e.Dataset,
		"category": &e.Category, "startDate": &e.StartDate, "endDate": &e.EndDate,
		"publishedAt": &e.PublishedAt, "url": &e.URL, "nationality": &e.Nationality,
	} {
		if *dst, err = getString(rec, key); err != nil {
			return e, err
		}
	}
	if e.Aliases, err = getStrings(rec, "aliases"); err != nil {
		return e, err
	}
	if e.SourceIDs, err = getStrings(rec, "sourceIds"); err != nil {
		return e, err
	}
	pages, err := getInt(rec, "pageCount")
	if err != nil {
		return e, err
	}
	e.PageCount = int(pages)
	if e.Version, err = getInt(rec, "version"); err != nil {
		return e, err
	}
	if e.CreatedAt, err = getTime(rec, "createdAt"); err != nil {
		return e, err
	}
	if e.UpdatedAt, err = getTime(rec, "updatedAt"); err != nil {
		return e, err
	}
	return e, nil
}

// Ping checks that Neo4j answers, within ctx.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.driver.VerifyConnectivity(ctx); err != nil {
		return mapError(ctx, "ping", err)
	}
	return nil
}
