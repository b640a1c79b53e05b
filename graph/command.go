package graph

// Glue for who was in command: the requests in, chains and incidents
// out, the request's loaders primed with the entities and sources the
// statement read (so nested fields cost no further round trips).

import (
	"context"

	"github.com/99designs/gqlgen/graphql"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/graph/model"
	"github.com/casegraph/casegraph/loaders"
)

// commandChainQueryOf is the request of commandChain: the domain's
// defaults, and what the client gave.
func commandChainQueryOf(unitID string, at model.PartialDate, maxLevels *int, minReliability *model.Reliability, minCredibility *int) casegraph.CommandChainRequest {
	q := casegraph.NewCommandChainRequest(unitID, partialDateOf(&at))
	given(&q.MaxLevels, maxLevels)
	gradesGiven(&q.GradeFilter, minReliability, minCredibility)
	return q
}

// whoWasInCommandQueryOf is the request of whoWasInCommand.
func whoWasInCommandQueryOf(incidentID string, maxLevels, maxUnits *int, minReliability *model.Reliability, minCredibility *int) casegraph.WhoWasInCommandRequest {
	q := casegraph.NewWhoWasInCommandRequest(incidentID)
	given(&q.MaxLevels, maxLevels)
	given(&q.MaxUnits, maxUnits)
	gradesGiven(&q.GradeFilter, minReliability, minCredibility)
	return q
}

// commandRead is what the command field's selection asks the statement
// to read: the sources if it selects them (only the relations' if it
// selects no entity's), and the properties the whole operation shows of
// any entity and relation (operationProperties), since the entities it
// reads prime the request's loaders.
func commandRead(ctx context.Context) casegraph.CommandRead {
	read := casegraph.CommandRead{WithSources: pathRead(ctx).WithSources}
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || !graphql.HasOperationContext(ctx) {
		return read
	}
	op := graphql.GetOperationContext(ctx)
	read.Properties = operationProperties(op)
	read.RelationSourcesOnly = read.WithSources && !selectsOn(op, fc.Field.Selections, entityTypes, "sources", "citations")
	return read
}

// commandModels turns chains into their GraphQL form, and keeps the
// entities they hold, to prime the loaders with. An entity is turned
// once however often it appears: the units above an incident's tied
// units sit in each of their chains.
type commandModels struct {
	entities []casegraph.Entity
	models   map[string]model.Entity
}

func (c *commandModels) entity(e casegraph.Entity) model.Entity {
	if m, ok := c.models[e.ID]; ok {
		return m
	}
	if c.models == nil {
		c.models = map[string]model.Entity{}
	}
	m := toEntity(e)
	c.models[e.ID], c.entities = m, append(c.entities, e)
	return m
}

func (c *commandModels) hops(hs []casegraph.Hop) []model.CommandHop {
	out := make([]model.CommandHop, len(hs))
	for i, h := range hs {
		out[i] = model.CommandHop{Entity: c.entity(h.Entity), Relation: toRelation(h.Relation), Overlap: model.DateOverlap(h.Overlap.String())}
	}
	return out
}

func (c *commandModels) unit(u casegraph.ChainUnit) model.ChainUnit {
	return model.ChainUnit{
		Unit: c.entity(u.Unit), Overlap: model.DateOverlap(u.Overlap.String()),
		Commanders: c.hops(u.Commanders), CommandersRecord: model.CommandRecord(u.CommandersRecord),
		Superiors: c.hops(u.Superiors), SuperiorsRecord: model.CommandRecord(u.SuperiorsRecord),
	}
}

func (c *commandModels) chain(ch casegraph.CommandChain) *model.CommandChain {
	unit := c.unit(ch.Unit)
	out := &model.CommandChain{Unit: &unit, From: datePtr(ch.Period.Start.String()), To: datePtr(ch.Period.End.String()),
		Levels: make([]model.CommandLevel, len(ch.Levels)), Truncated: ch.Truncated}
	for i, level := range ch.Levels {
		out.Levels[i] = model.CommandLevel{Level: i + 1, Units: make([]model.ChainUnit, len(level))}
		for j, u := range level {
			out.Levels[i].Units[j] = c.unit(u)
		}
	}
	return out
}

func (c *commandModels) ties(ts []casegraph.IncidentTie) []model.IncidentTie {
	out := make([]model.IncidentTie, len(ts))
	for i, t := range ts {
		out[i] = model.IncidentTie{Kind: model.IncidentTieKind(t.Kind), Relation: toRelation(t.Relation), Overlap: model.DateOverlap(t.Overlap.String())}
		if t.Place != nil {
			out[i].Place = c.entity(*t.Place)
		}
	}
	return out
}

// toCommandChain is a chain in its GraphQL form; it primes the request's
// loaders with its entities and sources.
func toCommandChain(ctx context.Context, ch casegraph.CommandChain, sources []casegraph.Source) *model.CommandChain {
	var c commandModels
	out := c.chain(ch)
	loaders.Prime(ctx, c.entities, sources)
	return out
}

// toIncidentCommand is whoWasInCommand's answer in its GraphQL form; it
// primes the request's loaders likewise.
func toIncidentCommand(ctx context.Context, a casegraph.IncidentCommand, sources []casegraph.Source) *model.IncidentCommand {
	var c commandModels
	out := &model.IncidentCommand{Incident: c.entity(a.Incident), From: datePtr(a.Period.Start.String()), To: datePtr(a.Period.End.String()),
		Units: make([]model.IncidentUnit, len(a.Units)), People: make([]model.IncidentActor, len(a.People)), Truncated: a.Truncated}
	for i, u := range a.Units {
		chain := c.chain(u.Chain)
		out.Units[i] = model.IncidentUnit{Unit: chain.Unit.Unit, Ties: c.ties(u.Ties), Chain: chain}
	}
	for i, p := range a.People {
		out.People[i] = model.IncidentActor{Person: c.entity(p.Actor), Ties: c.ties(p.Ties)}
	}
	loaders.Prime(ctx, c.entities, sources)
	return out
}
