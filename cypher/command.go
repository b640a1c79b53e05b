package cypher

// Who was in command: a unit's chain of command at a date, and the units
// tied to an incident with their chains, each read in one statement
// (statements/CommandChain and WhoWasInCommand, over the shared
// definitions superiorsWithin and commandRecords) and assembled by the
// domain's rules (casegraph.AssembleChain, AssembleIncident).

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
)

// Statements of this file (statements/NAME.cypher.tmpl), each rendered
// up front for every maxLevels, with and without sources, with every
// property (commandStatementName), and on demand for the property sets
// that selections ask for (commandStatements).
const (
	stmtCommandChain    statement = "CommandChain"
	stmtWhoWasInCommand statement = "WhoWasInCommand"
)

// commandVariant is the data of one rendering of a command statement:
// the properties it projects of units, people and places (Entity), of the
// incident (Incident: Entity with its dates, which the answer's period
// needs) and of relations (Relation: with their dates, which the
// assembly's overlaps need).
type commandVariant struct {
	Levels, PlaceDepth int
	// Sources reads the sources that relations cite, and with
	// EntitySources those that entities cite.
	Sources, EntitySources     bool
	Entity, Incident, Relation []string
}

// commandStatementName names the variant of a command statement for
// levels, with or without sources: NAME/lN (NAME/lN/nosources).
func commandStatementName(stmt statement, levels int, read casegraph.CommandRead) statement {
	return withSources(stmt+statement(fmt.Sprintf("/l%d", levels)), casegraph.PathRead{WithSources: read.WithSources})
}

// commandVariants renders a command statement for every maxLevels, with
// and without sources (the quantifier's bound cannot be a parameter), with
// every property.
func commandVariants(stmt statement) func() []variant {
	return func() []variant {
		var out []variant
		for levels := 1; levels <= casegraph.MaxCommandLevels; levels++ {
			for _, read := range []casegraph.CommandRead{{WithSources: true}, {WithSources: false}} {
				v, _ := commandVariantOf(levels, read) // every property: no error
				out = append(out, variant{Name: commandStatementName(stmt, levels, read), Data: v})
			}
		}
		return out
	}
}

// commandVariantOf is the rendering of a command statement that levels
// and read ask for; an error for a property of no table (a bug).
func commandVariantOf(levels int, read casegraph.CommandRead) (commandVariant, error) {
	v := commandVariant{Levels: levels, PlaceDepth: casegraph.IncidentPlaceDepth,
		Sources: read.WithSources, EntitySources: read.WithSources && !read.RelationSourcesOnly,
		Entity: casegraph.EntityProperties, Incident: casegraph.EntityProperties, Relation: casegraph.RelationProperties}
	if p := read.Properties; p != nil {
		if err := checkProperties(p); err != nil {
			return v, err
		}
		v.Entity = p.Entity
		v.Incident = including(casegraph.EntityProperties, p.Entity, "startDate", "endDate")
		v.Relation = including(casegraph.RelationProperties, p.Relation, "startDate", "endDate")
	}
	return v, nil
}

// including is the properties of all that are in props or more, in the
// order of all.
func including(all, props []string, more ...string) []string {
	var out []string
	for _, p := range all {
		if slices.Contains(props, p) || slices.Contains(more, p) {
			out = append(out, p)
		}
	}
	return out
}

// maxCommandShapes bounds the command statements rendered for selections'
// property sets (each its own plan in Neo4j, and a command statement
// takes seconds to plan on a loaded machine): past it, a selection with
// another set is answered by the statement with every property.
const maxCommandShapes = 64

// commandStatements keeps the command statements rendered for property
// sets, by variant name and set.
type commandStatements struct {
	mu    sync.Mutex
	byKey map[string]string
}

func newCommandStatements() *commandStatements {
	return &commandStatements{byKey: map[string]string{}}
}

// get is the statement of stmt as name and v ask for; false when the
// bound is reached (and it is not kept already).
func (c *commandStatements) get(stmt, name statement, v commandVariant) (string, bool, error) {
	key := fmt.Sprintf("%s %t %v %v", name, v.EntitySources, v.Entity, v.Relation)
	c.mu.Lock()
	text, ok := c.byKey[key]
	full := len(c.byKey) >= maxCommandShapes
	c.mu.Unlock()
	if ok || full {
		return text, ok, nil
	}
	set, err := templates()
	if err != nil {
		return "", false, err
	}
	if text, err = execute(set, string(stmt)+".cypher.tmpl", v); err != nil {
		return "", false, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.byKey) >= maxCommandShapes {
		return "", false, nil
	}
	c.byKey[key] = text
	return text, true, nil
}

// readCommand runs the variant of a command statement that levels and
// read ask for (commandText).
func (s *Store) readCommand(ctx context.Context, stmt statement, levels int, read casegraph.CommandRead, params map[string]any) (*neo4j.EagerResult, statement, error) {
	name, text, err := s.commandText(stmt, levels, read)
	if err != nil {
		return nil, name, err
	}
	res, err := s.executeText(ctx, name, text, params, neo4j.AccessModeRead)
	return res, name, err
}

// commandText is the text of the variant of a command statement that
// levels and read ask for, and its name: that of its variant with every
// property and every source (for metrics and errors, so that names stay
// few), whose text it is when read asks for no less or the bound is
// reached.
func (s *Store) commandText(stmt statement, levels int, read casegraph.CommandRead) (statement, string, error) {
	name := commandStatementName(stmt, levels, read)
	if read.Properties == nil && (!read.WithSources || !read.RelationSourcesOnly) {
		return name, s.statement(name), nil
	}
	v, err := commandVariantOf(levels, read)
	if err != nil {
		return name, "", internalError(string(name), err)
	}
	text, ok, err := s.commands.get(stmt, name, v)
	if err != nil {
		return name, "", internalError(string(name), err)
	}
	if !ok {
		text = s.statement(name)
	}
	return name, text, nil
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
func (s *Store) CommandChain(ctx context.Context, q casegraph.CommandChainRequest, read casegraph.CommandRead) (casegraph.CommandChain, []casegraph.Source, error) {
	params := commandParams(q.UnitID, q.GradeFilter)
	params["from"], params["to"] = q.At.String(), q.At.String()
	res, name, err := s.readCommand(ctx, stmtCommandChain, q.MaxLevels, read, params)
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
func (s *Store) WhoWasInCommand(ctx context.Context, q casegraph.WhoWasInCommandRequest, read casegraph.CommandRead) (casegraph.IncidentCommand, []casegraph.Source, error) {
	res, name, err := s.readCommand(ctx, stmtWhoWasInCommand, q.MaxLevels, read, whoWasInCommandParams(q))
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

// whoWasInCommandParams are WhoWasInCommand's parameters for q.
func whoWasInCommandParams(q casegraph.WhoWasInCommandRequest) map[string]any {
	params := commandParams(q.IncidentID, q.GradeFilter)
	// Ties of each kind: enough for MaxUnits units tied to the incident
	// several ways each.
	tieLimit := 4 * q.MaxUnits
	params["tieLimit"], params["tieLimitPlusOne"] = int64(tieLimit), int64(tieLimit+1)
	return params
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
		if err := decodeEntity(end, &hops[i].Entity); err != nil { // in place: decodeEntity says why
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
