package cypher

// Relations: reads by id and entities' pages of relations, link and unlink
// under the write plan, and their record mapping and parameters.

import (
	"context"
	"fmt"
	"maps"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
)

// Statements of this file (statements/NAME.cypher or NAME.cypher.tmpl).
const (
	stmtRelationsByID  statement = "RelationsByID"
	stmtRelationsOf    statement = "RelationsOf"
	stmtUpsertRelation statement = "UpsertRelation"
	stmtDeleteRelation statement = "DeleteRelation"
)

// relationUngated: the statements of this file that return no graph data to a
// caller, and why (see ungated): every other goes through the gate.
func relationUngated() ungated {
	return ungated{
		stmtUpsertRelation: "a write under the write plan, after its checks (both ends found through the gate, EntitiesByID)",
		stmtDeleteRelation: "a write under the write plan, after its checks",
	}
}

// RelationsByID returns the relations with the given ids, in one round trip.
func (s *Store) RelationsByID(ctx context.Context, ids []string) (map[string]casegraph.Relation, error) {
	res, err := s.read(ctx, stmtRelationsByID, map[string]any{"ids": ids})
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
	res, err := s.read(ctx, stmtRelationsOf.paged(page), map[string]any{
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
	// An array, not a map literal: a map was built (and hashed) for every
	// relation read, 2% of the server's CPU on W3.
	for _, f := range [...]struct {
		key string
		dst *string
	}{
		{"id", &r.ID}, {"type", &typ}, {"from", &r.FromID}, {"to", &r.ToID}, {"role", &r.Role},
		{"startDate", &r.StartDate}, {"endDate", &r.EndDate}, {"status", &status}, {"dataset", &r.Dataset},
	} {
		if *f.dst, err = mapString(m, f.key); err != nil {
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
	if r.Citations, err = citationsFromMap(m); err != nil {
		return r, err
	}
	for p := range casegraph.RelationPropertyRows() {
		v := m[p.Name]
		if v == nil {
			continue // absent or null: the zero value, which r has
		}
		if err := p.Set(&r.RelationAttributes, v); err != nil {
			return r, err
		}
	}
	r.SourceIDs, r.Quote = casegraph.CitedSourceIDs(r.Citations), casegraph.LegacyQuote(r.Citations)
	return r, nil
}

// citationsFromMap reads a claim's citations from its parallel lists
// (sourceIds and casegraph.CitationProperties) in a projection; a list
// shorter than sourceIds (empty: no citation has a quote, say) leaves the
// rest at their defaults.
func citationsFromMap(m map[string]any) ([]casegraph.Citation, error) {
	ids, err := mapStrings(m, "sourceIds")
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	quotes, err := mapStrings(m, "citationQuotes")
	if err != nil {
		return nil, err
	}
	locators, err := mapStrings(m, "citationLocators")
	if err != nil {
		return nil, err
	}
	grades, err := mapStrings(m, "citationGrades")
	if err != nil {
		return nil, err
	}
	credibility, err := mapInts(m, "citationCredibility")
	if err != nil {
		return nil, err
	}
	at := func(list []string, i int) string {
		if i < len(list) {
			return list[i]
		}
		return ""
	}
	out := make([]casegraph.Citation, len(ids))
	for i, id := range ids {
		out[i] = casegraph.Citation{SourceID: id, Quote: at(quotes, i), Locator: at(locators, i),
			Grade: casegraph.Grade(at(grades, i)), Credibility: casegraph.DefaultCredibility}
		if i < len(credibility) {
			out[i].Credibility = casegraph.Credibility(credibility[i])
		}
	}
	return out, nil
}

// citationParams are a claim's citations as their parallel lists (the
// parameters, and properties, sourceIds and casegraph.CitationProperties);
// cs must be graded.
func citationParams(cs []casegraph.Citation) map[string]any {
	ids, quotes, locators, grades := make([]string, len(cs)), make([]string, len(cs)), make([]string, len(cs)), make([]string, len(cs))
	credibility := make([]int64, len(cs))
	for i, c := range cs {
		ids[i], quotes[i], locators[i], grades[i] = c.SourceID, c.Quote, c.Locator, string(c.Grade)
		credibility[i] = int64(c.Credibility)
	}
	return map[string]any{"sourceIds": ids, "citationQuotes": quotes, "citationLocators": locators,
		"citationCredibility": credibility, "citationGrades": grades}
}

// relationParams are the parameters of a relation's write; its citations
// must be graded (gate.graded).
func relationParams(r casegraph.Relation) map[string]any {
	var confidence any
	if r.Confidence != nil {
		confidence = *r.Confidence
	}
	params := map[string]any{
		"id": r.ID, "type": string(r.Type), "from": r.FromID, "to": r.ToID,
		"role": nullable(r.Role), "startDate": nullable(r.StartDate), "endDate": nullable(r.EndDate),
		"status": string(r.Status), "confidence": confidence, "dataset": r.Dataset,
	}
	for p := range casegraph.RelationPropertyRows() { // absent: nil, stored as no property
		params[p.Name] = p.Value(r.RelationAttributes)
	}
	maps.Copy(params, citationParams(r.Cited()))
	return params
}

// Link creates a relation, or updates the one with its id when that one has
// the same type and ends (a client that retries with its id gets one
// relation), through the write gate (gaterules.go: ends that exist for the
// caller, an id merged away naming its survivor, kinds the type may join,
// sources that exist, an id that no other relation of any type holds).
func (s *Store) Link(ctx context.Context, r casegraph.Relation) (casegraph.Relation, error) {
	p := planOf(casegraph.Writes{Relations: []casegraph.Relation{r}})
	if err := precheck(ctx, p); err != nil {
		return casegraph.Relation{}, err
	}
	var out casegraph.Relation
	err := s.mutate(ctx, "Link", &out, func(run txRunner) (change, error) {
		g, err := passGate(ctx, run, p)
		if err != nil {
			return change{}, err
		}
		r := p.Relations[0]            // as the gate settled it
		var before *casegraph.Relation // for the audit record
		if old, ok := g.relations[r.ID]; ok {
			before = &old.Relation
		}
		upsert := stmtUpsertRelation.ofType(r.Type)
		r.Citations = g.graded(r.Cited())
		params := relationParams(r)
		params["fromSeen"], params["toSeen"] = g.seen(r.FromID), g.seen(r.ToID)
		recs, err := run(upsert, params)
		if err != nil {
			return change{}, err
		}
		if len(recs) != 1 {
			return change{}, internalError(upsert, errNoRow)
		}
		if changed, _, err := neo4j.GetRecordValue[bool](recs[0], "changedEnds"); err != nil {
			return change{}, internalError(upsert, err)
		} else if changed {
			return change{}, endsChanged(r.ID)
		}
		if out, err = relationFromRecord(recs[0]); err != nil {
			return change{}, err
		}
		cited := citingDatasets{}
		cited.add(out.Dataset, out.Cited())
		if err := cited.note(run); err != nil {
			return change{}, err
		}
		return change{operation: "link", dataset: out.Dataset, targets: []string{out.ID, out.FromID, out.ToID},
			fields: casegraph.Diff(before, &out)}, nil
	})
	return out, err
}

// Unlink removes the relation with the id and returns it as it was.
func (s *Store) Unlink(ctx context.Context, id string) (casegraph.Relation, error) {
	p := &gatePlan{relationIDs: []string{id}}
	if err := precheck(ctx, p); err != nil {
		return casegraph.Relation{}, err
	}
	var out casegraph.Relation
	err := s.mutate(ctx, "Unlink", &out, func(run txRunner) (change, error) {
		g, err := passGate(ctx, run, p)
		if err != nil {
			return change{}, err
		}
		if out, err = g.relation(id); err != nil {
			return change{}, err
		}
		if _, err = run(stmtDeleteRelation.ofType(out.Type), map[string]any{"id": id, "from": out.FromID, "to": out.ToID}); err != nil {
			return change{}, err
		}
		return change{operation: "unlink", dataset: out.Dataset, targets: []string{id, out.FromID, out.ToID},
			fields: casegraph.Diff(&out, (*casegraph.Relation)(nil))}, nil
	})
	return out, err
}

func relationFromRecord(rec *neo4j.Record) (casegraph.Relation, error) {
	m, err := getMap(rec, "relation")
	if err != nil {
		return casegraph.Relation{}, internalError("relation", err)
	}
	r, err := relationFromMap(m)
	if err != nil {
		return r, internalError("relation", err)
	}
	return r, nil
}
