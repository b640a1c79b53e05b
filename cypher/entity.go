package cypher

import (
	"context"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
)

// EntitiesByID returns the entities with the given ids, in one round trip.
// Ids with no entity are absent from the result, which is keyed by id.
func (s *Store) EntitiesByID(ctx context.Context, ids []string) (map[string]casegraph.Entity, error) {
	res, err := s.read(ctx, "EntitiesByID", map[string]any{"ids": ids})
	if err != nil {
		return nil, err
	}
	out := make(map[string]casegraph.Entity, len(res.Records))
	for _, rec := range res.Records {
		e, err := entityFromRecord(rec)
		if err != nil {
			return nil, internalError("EntitiesByID", err)
		}
		out[e.ID] = e
	}
	return out, nil
}

// Entity returns the entity with the id, or a NOT_FOUND error.
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
	if e.Name, err = getString(rec, "name"); err != nil {
		return e, err
	}
	if e.Aliases, err = getStrings(rec, "aliases"); err != nil {
		return e, err
	}
	if e.Description, err = getString(rec, "description"); err != nil {
		return e, err
	}
	if e.Dataset, err = getString(rec, "dataset"); err != nil {
		return e, err
	}
	if e.SourceIDs, err = getStrings(rec, "sourceIds"); err != nil {
		return e, err
	}
	for key, dst := range map[string]*string{
		"category": &e.Category, "startDate": &e.StartDate, "endDate": &e.EndDate,
		"publishedAt": &e.PublishedAt, "url": &e.URL, "nationality": &e.Nationality,
	} {
		if *dst, err = getString(rec, key); err != nil {
			return e, err
		}
	}
	pages, err := getInt(rec, "pageCount")
	if err != nil {
		return e, err
	}
	e.PageCount = int(pages)
	return e, nil
}

// Ping checks that Neo4j answers, within ctx.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.driver.VerifyConnectivity(ctx); err != nil {
		return mapError(ctx, "ping", err)
	}
	return nil
}
