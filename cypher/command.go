package cypher

// Who was in command: a unit's chain of command at a date, and the units
// tied to an incident with their chains, each read in one statement
// (statements/CommandChain and WhoWasInCommand, over the shared
// definitions superiorsWithin and commandRecords) and assembled by the
// domain's rules (casegraph.AssembleChain, AssembleIncident).

import (
	"context"
	"fmt"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
)

// Statements of this file (statements/NAME.cypher.tmpl), each rendered
// for every maxLevels and with and without sources (commandStatementName).
const (
	stmtCommandChain    statement = "CommandChain"
	stmtWhoWasInCommand statement = "WhoWasInCommand"
)

// commandVariant is the data of one rendering of a command statement.
type commandVariant struct {
	Levels, PlaceDepth int
	Sources            bool
}

// commandStatementName names the variant of a command statement for
// levels, with or without sources: NAME/lN (NAME/lN/nosources).
func commandStatementName(stmt statement, levels int, read casegraph.PathRead) statement {
	return withSources(stmt+statement(fmt.Sprintf("/l%d", levels)), read)
}

// commandVariants renders a command statement for every maxLevels, with
// and without sources (the quantifier's bound cannot be a parameter).
func commandVariants(stmt statement) func() []variant {
	return func() []variant {
		var out []variant
		for levels := 1; levels <= casegraph.MaxCommandLevels; levels++ {
			for _, read := range []casegraph.PathRead{{WithSources: true}, {WithSources: false}} {
				out = append(out, variant{Name: commandStatementName(stmt, levels, read),
					Data: commandVariant{Levels: levels, PlaceDepth: casegraph.IncidentPlaceDepth, Sources: read.WithSources}})
			}
		}
		return out
	}
}

// commandParams are what every command statement takes: the id, the
// limits and the grade filter (the shared gradeFilter's $minGrade).
func commandParams(id string, grades casegraph.GradeFilter) map[string]any {
	return map[string]any{"id": id, "minGrade": gradeParam(grades),
		"unitLimit": int64(casegraph.MaxCommandUnits), "unitLimitPlusOne": int64(casegraph.MaxCommandUnits + 1)}
}

// CommandChain returns the chain of command of q.UnitID at q.At, as
// casegraph.AssembleChain makes it from what the caller may read, and
// (with read.WithSources) the sources its units, people and relations
// cite. An id the caller cannot read is NOT_FOUND; an entity that is not
// an organization is BAD_USER_INPUT. q must be valid.
func (s *Store) CommandChain(ctx context.Context, q casegraph.CommandChainRequest, read casegraph.PathRead) (casegraph.CommandChain, []casegraph.Source, error) {
	name := commandStatementName(stmtCommandChain, q.MaxLevels, read)
	params := commandParams(q.UnitID, q.GradeFilter)
	params["from"], params["to"] = q.At.String(), q.At.String()
	res, err := s.read(ctx, name, params)
	if err != nil {
		return casegraph.CommandChain{}, nil, err
	}
	if len(res.Records) == 0 {
		return casegraph.CommandChain{}, nil, casegraph.Errorf(casegraph.CodeNotFound, "no unit with id %q", q.UnitID)
	}
	rec := res.Records[0]
	if err := kindIs(rec, "isUnit", q.UnitID, "a command chain starts at a unit (an organization)"); err != nil {
		return casegraph.CommandChain{}, nil, err
	}
	recs, sources, err := commandRecordsOf(rec)
	if err != nil {
		return casegraph.CommandChain{}, nil, internalError(name, err)
	}
	// The unit is the first the statement read, under the id it has (an
	// id merged into it, or an opaque one, named it).
	var root string
	if units, err := getMaps(rec, "units"); err == nil && len(units) > 0 {
		unit, _ := units[0]["unit"].(map[string]any)
		root, _ = unit["id"].(string)
	}
	chain, ok := casegraph.AssembleChain(root, q.Period(), q.MaxLevels, recs)
	if !ok {
		return casegraph.CommandChain{}, nil, internalError(name, errNoRow)
	}
	return chain, sources, nil
}

// WhoWasInCommand returns the units and people tied to the incident
// q.IncidentID, the units with their chains at the incident's period, as
// casegraph.AssembleIncident makes them from what the caller may read,
// and (with read.WithSources) the sources they cite. An id the caller
// cannot read is NOT_FOUND; an entity that is not an event is
// BAD_USER_INPUT. q must be valid.
func (s *Store) WhoWasInCommand(ctx context.Context, q casegraph.WhoWasInCommandRequest, read casegraph.PathRead) (casegraph.IncidentCommand, []casegraph.Source, error) {
	name, params := whoWasInCommandStatement(q, read)
	res, err := s.read(ctx, name, params)
	if err != nil {
		return casegraph.IncidentCommand{}, nil, err
	}
	if len(res.Records) == 0 {
		return casegraph.IncidentCommand{}, nil, casegraph.Errorf(casegraph.CodeNotFound, "no incident with id %q", q.IncidentID)
	}
	rec := res.Records[0]
	if err := kindIs(rec, "isIncident", q.IncidentID, "whoWasInCommand asks about an incident (an event)"); err != nil {
		return casegraph.IncidentCommand{}, nil, err
	}
	recs, sources, err := incidentRecordsOf(rec)
	if err != nil {
		return casegraph.IncidentCommand{}, nil, internalError(name, err)
	}
	return casegraph.AssembleIncident(q, recs), sources, nil
}

// whoWasInCommandStatement is the variant of WhoWasInCommand that q and
// read ask for, with its parameters.
func whoWasInCommandStatement(q casegraph.WhoWasInCommandRequest, read casegraph.PathRead) (statement, map[string]any) {
	params := commandParams(q.IncidentID, q.GradeFilter)
	// Ties of each kind: enough for MaxUnits units tied to the incident
	// several ways each.
	tieLimit := 4 * q.MaxUnits
	params["tieLimit"], params["tieLimitPlusOne"] = int64(tieLimit), int64(tieLimit+1)
	return commandStatementName(stmtWhoWasInCommand, q.MaxLevels, read), params
}

// kindIs refuses (BAD_USER_INPUT) an entity the statement found of
// another kind than the question asks about.
func kindIs(rec *neo4j.Record, key, id, why string) error {
	ok, _, err := neo4j.GetRecordValue[bool](rec, key)
	if err != nil {
		return internalError(key, err)
	}
	if ok {
		return nil
	}
	kind, err := getString(rec, "kind")
	if err != nil {
		return internalError(key, err)
	}
	return casegraph.Errorf(casegraph.CodeBadUserInput, "%q is a %s: %s", id, kind, why)
}

// commandRecordsOf reads a command statement's units (commandRecords),
// whether it cut them, and its sources.
func commandRecordsOf(rec *neo4j.Record) (casegraph.CommandRecords, []casegraph.Source, error) {
	recs := casegraph.CommandRecords{Units: map[string]casegraph.UnitRecords{}}
	units, err := getMaps(rec, "units")
	if err != nil {
		return recs, nil, err
	}
	for _, m := range units {
		var u casegraph.UnitRecords
		unit, ok := m["unit"].(map[string]any)
		if !ok {
			return recs, nil, fmt.Errorf("units: a unit without its entity")
		}
		if u.Unit, err = entityFromMap(unit); err != nil {
			return recs, nil, err
		}
		if u.Superiors, err = hopsOf(m, "superiors"); err != nil {
			return recs, nil, err
		}
		if u.Commanders, err = hopsOf(m, "commanders"); err != nil {
			return recs, nil, err
		}
		sup, _ := m["superiorsRecorded"].(int64)
		cmd, _ := m["commandersRecorded"].(int64)
		u.SuperiorsRecorded, u.CommandersRecorded = int(sup), int(cmd)
		recs.Units[u.Unit.ID] = u
	}
	if recs.Truncated, _, err = neo4j.GetRecordValue[bool](rec, "truncated"); err != nil {
		return recs, nil, err
	}
	sources, err := sourcesFromRecord(rec)
	return recs, sources, err
}

// hopsOf reads a unit's list of {relation, entity} maps.
func hopsOf(m map[string]any, key string) ([]casegraph.Hop, error) {
	maps, err := mapMaps(m, key)
	if err != nil {
		return nil, err
	}
	hops := make([]casegraph.Hop, len(maps))
	for i, h := range maps {
		rel, okRel := h["relation"].(map[string]any)
		end, okEnd := h["entity"].(map[string]any)
		if !okRel || !okEnd {
			return nil, fmt.Errorf("%s[%d]: want a relation and an entity", key, i)
		}
		if hops[i].Relation, err = relationFromMap(rel); err != nil {
			return nil, err
		}
		if hops[i].Entity, err = entityFromMap(end); err != nil {
			return nil, err
		}
	}
	return hops, nil
}

// incidentRecordsOf reads WhoWasInCommand's row.
func incidentRecordsOf(rec *neo4j.Record) (casegraph.IncidentRecords, []casegraph.Source, error) {
	var recs casegraph.IncidentRecords
	chains, sources, err := commandRecordsOf(rec)
	if err != nil {
		return recs, nil, err
	}
	recs.Chains, recs.Truncated = chains, chains.Truncated
	incident, err := getMap(rec, "incident")
	if err != nil {
		return recs, nil, err
	}
	if recs.Incident, err = entityFromMap(incident); err != nil {
		return recs, nil, err
	}
	places, err := getMaps(rec, "places")
	if err != nil {
		return recs, nil, err
	}
	recs.Places = map[string]casegraph.Entity{}
	for _, m := range places {
		p, err := entityFromMap(m)
		if err != nil {
			return recs, nil, err
		}
		recs.Places[p.ID] = p
	}
	ties, err := getMaps(rec, "ties")
	if err != nil {
		return recs, nil, err
	}
	recs.Ties, recs.Actors = map[string][]casegraph.IncidentTie{}, map[string]casegraph.Entity{}
	for _, m := range ties {
		rel, okRel := m["relation"].(map[string]any)
		actor, okActor := m["actor"].(map[string]any)
		if !okRel || !okActor {
			return recs, nil, fmt.Errorf("ties: want a relation and an actor")
		}
		var t casegraph.IncidentTie
		if t.Relation, err = relationFromMap(rel); err != nil {
			return recs, nil, err
		}
		a, err := entityFromMap(actor)
		if err != nil {
			return recs, nil, err
		}
		t.Kind = casegraph.TieKind(t.Relation.Type)
		if place, ok := m["place"].(string); ok {
			if p, found := recs.Places[place]; found {
				t.Place = &p
			}
		}
		recs.Actors[a.ID] = a
		recs.Ties[a.ID] = append(recs.Ties[a.ID], t)
	}
	return recs, sources, nil
}
