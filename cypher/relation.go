package cypher

import (
	"context"
	"fmt"

	casegraph "github.com/casegraph/casegraph"
)

// RelationsByID returns the relations with the given ids, in one round trip.
func (s *Store) RelationsByID(ctx context.Context, ids []string) (map[string]casegraph.Relation, error) {
	res, err := s.read(ctx, "RelationsByID", map[string]any{"ids": ids})
	if err != nil {
		return nil, err
	}
	out := make(map[string]casegraph.Relation, len(res.Records))
	for _, rec := range res.Records {
		r, err := relationFromRecord(rec)
		if err != nil {
			return nil, err
		}
		out[r.ID] = r
	}
	return out, nil
}

// RelationsOf returns, for each entity id, one page of its relations that
// match the filter, in relation-id order, with their total: one round trip
// for all the ids.
func (s *Store) RelationsOf(ctx context.Context, ids []string, f casegraph.RelationFilter, page casegraph.Page) (map[string]casegraph.RelationPage, error) {
	types := listParam(f.Types)
	dir := f.Direction
	if dir == "" {
		dir = casegraph.DirectionBoth
	}
	res, err := s.read(ctx, "RelationsOf", map[string]any{
		"ids": ids, "types": types, "direction": string(dir),
		"after": page.After, "limit": pageLimit(page),
	})
	if err != nil {
		return nil, err
	}
	out := make(map[string]casegraph.RelationPage, len(res.Records))
	for _, rec := range res.Records {
		key, err := getString(rec, "key")
		if err != nil {
			return nil, internalError("RelationsOf", err)
		}
		total, err := getInt(rec, "total")
		if err != nil {
			return nil, internalError("RelationsOf", err)
		}
		maps, err := getMaps(rec, "relations")
		if err != nil {
			return nil, internalError("RelationsOf", err)
		}
		p := casegraph.RelationPage{Total: total, Relations: make([]casegraph.Relation, 0, len(maps))}
		for _, m := range maps {
			r, err := relationFromMap(m)
			if err != nil {
				return nil, internalError("RelationsOf", err)
			}
			p.Relations = append(p.Relations, r)
		}
		p.Relations, p.HasNext = trimPage(p.Relations, page)
		out[key] = p
	}
	return out, nil
}

func relationFromMap(m map[string]any) (casegraph.Relation, error) {
	var r casegraph.Relation
	var typ, status string
	var err error
	for key, dst := range map[string]*string{
		"id": &r.ID, "type": &typ, "from": &r.FromID, "to": &r.ToID, "role": &r.Role,
		"startDate": &r.StartDate, "endDate": &r.EndDate, "status": &status, "quote": &r.Quote, "dataset": &r.Dataset,
	} {
		if *dst, err = mapString(m, key); err != nil {
			return r, err
		}
	}
	r.Type, r.Status = casegraph.RelationType(typ), casegraph.Status(status)
	if _, err := casegraph.Spec(r.Type); err != nil {
		return r, fmt.Errorf("relation %s: %w", r.ID, err)
	}
	if r.Confidence, err = mapFloat(m, "confidence"); err != nil {
		return r, err
	}
	if r.SourceIDs, err = mapStrings(m, "sourceIds"); err != nil {
		return r, err
	}
	return r, nil
}

func relationParams(r casegraph.Relation) map[string]any {
	var confidence any
	if r.Confidence != nil {
		confidence = *r.Confidence
	}
	return map[string]any{
		"id": r.ID, "type": string(r.Type), "from": r.FromID, "to": r.ToID,
		"role": nullable(r.Role), "startDate": nullable(r.StartDate), "endDate": nullable(r.EndDate),
		"status": string(r.Status), "confidence": confidence, "quote": nullable(r.Quote),
		"sourceIds": r.SourceIDs, "dataset": r.Dataset,
	}
}
