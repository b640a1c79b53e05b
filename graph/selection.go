package graph

import (
	"context"
	"encoding/json"
	"math"
	"slices"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/graph/model"
	"github.com/casegraph/casegraph/loaders"
)

// A root field that returns entities compiles the selection under them
// (gqlgen's field collection) into a casegraph.EntityRead: the sources and
// the pages of relations it asks for, level after level, with the entities
// at their ends. The store answers the whole read in one statement; the
// result fills the request's loaders, so the nested resolvers find every
// entity, page and source there and send nothing to Neo4j. A relations
// field whose arguments do not check out is left out of the read: its
// resolver then reports the error as it would have.

// entityTypes are the types an entity selection's fragments may name.
var entityTypes = []string{"Entity", "Person", "Organization", "Event", "Document", "Place"}

// maxReadLevels bounds how many levels of relations one read compiles;
// the depth limit keeps real documents well inside it, and anything deeper
// is left to the loaders.
const maxReadLevels = 4

// readHere compiles what the current field's selection asks of the
// entities it returns, found by following path (such as "edges", "node")
// from the field; nil when the selection asks nothing beyond the entities'
// own fields.
func readHere(ctx context.Context, path ...string) *casegraph.EntityRead {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || !graphql.HasOperationContext(ctx) {
		return nil
	}
	op := graphql.GetOperationContext(ctx)
	sets := []ast.SelectionSet{fc.Field.Selections}
	for _, name := range path {
		sets = fieldsNamed(op, sets, name, nil)
	}
	read := entityRead(op, sets, 0)
	if read.Empty() {
		return nil
	}
	read.ShareTotals()
	read.Properties = operationProperties(op)
	return read
}

// Entity and relation fields and the properties they show; the others
// (relations, from, to, kind, id, ...) need none beyond those every read
// returns. An entity field shows the property of its name
// (casegraph.EntityProperties), sources shows sourceIds, citations (and
// a relation's quote, its first citation's) the parallel lists of
// citations, and a type-specific relation property the property of its
// name.
var relationFieldProperties = func() map[string][]string {
	m := map[string][]string{
		"role": {"role"}, "startDate": {"startDate"}, "endDate": {"endDate"}, "status": {"status"}, "confidence": {"confidence"},
		"quote": citedProperties, "sources": {"sourceIds"}, "citations": citedProperties, "dataset": {"dataset"},
	}
	for _, p := range casegraph.RelationPropertyNames() {
		m[p] = []string{p}
	}
	return m
}()

var citedProperties = append([]string{"sourceIds"}, casegraph.CitationProperties...)

func entityFieldProperties(field string) []string {
	switch field {
	case "sources":
		return []string{"sourceIds"}
	case "citations":
		return citedProperties
	}
	if slices.Contains(casegraph.EntityProperties, field) {
		return []string{field}
	}
	return nil
}

// operationProperties is what the whole operation shows of any entity and
// any relation. A compiled read returns those properties only, and its
// entities go into the request's loaders: every field that can meet one of
// them, anywhere in the operation, finds what it shows.
func operationProperties(op *graphql.OperationContext) *casegraph.Properties {
	entity, relation := map[string]bool{}, map[string]bool{}
	seen := map[string]bool{} // fragments, walked once however often spread
	var walk func(set ast.SelectionSet)
	walk = func(set ast.SelectionSet) {
		for _, sel := range set {
			switch s := sel.(type) {
			case *ast.Field:
				if s.ObjectDefinition != nil {
					if slices.Contains(entityTypes, s.ObjectDefinition.Name) {
						for _, p := range entityFieldProperties(s.Name) {
							entity[p] = true
						}
					} else if s.ObjectDefinition.Name == "Relation" {
						for _, p := range relationFieldProperties[s.Name] {
							relation[p] = true
						}
					}
				}
				walk(s.SelectionSet)
			case *ast.InlineFragment:
				walk(s.SelectionSet)
			case *ast.FragmentSpread:
				if s.Definition != nil && !seen[s.Name] {
					seen[s.Name] = true
					walk(s.Definition.SelectionSet)
				}
			}
		}
	}
	walk(op.Operation.SelectionSet)
	props := &casegraph.Properties{Entity: []string{}, Relation: []string{}}
	for _, p := range casegraph.EntityProperties {
		if entity[p] {
			props.Entity = append(props.Entity, p)
		}
	}
	for _, p := range casegraph.RelationProperties {
		if relation[p] {
			props.Relation = append(props.Relation, p)
		}
	}
	return props
}

// fieldsNamed returns the selection sets of every field called name (any
// alias) in sets.
func fieldsNamed(op *graphql.OperationContext, sets []ast.SelectionSet, name string, satisfies []string) []ast.SelectionSet {
	var out []ast.SelectionSet
	for _, set := range sets {
		for _, f := range graphql.CollectFields(op, set, satisfies) {
			if f.Name == name {
				out = append(out, f.Selections)
			}
		}
	}
	return out
}

// entityRead compiles the selections of entities.
func entityRead(op *graphql.OperationContext, sets []ast.SelectionSet, level int) *casegraph.EntityRead {
	read := &casegraph.EntityRead{}
	var ends []*casegraph.EntityRead
	for _, set := range sets {
		for _, f := range graphql.CollectFields(op, set, entityTypes) {
			switch f.Name {
			case "sources", "citations":
				read.Sources = true
			case "relations":
				if level >= maxReadLevels {
					continue
				}
				p, self, ok := relationsRead(op, f, level)
				if !ok {
					continue
				}
				read.Merge(&casegraph.EntityRead{Relations: []casegraph.RelationsRead{p}})
				ends = append(ends, self)
			}
		}
	}
	// A relation's from or to may be the entity itself (the to of an
	// incoming relation): it must have what they are asked for too. Its
	// neighbor never is.
	for _, e := range ends {
		read.Merge(e)
	}
	return read
}

// relationsRead compiles one relations field: its window from the
// arguments, and what its connection selects; self is what its relations'
// from and to ask for (nil for nothing), which the listed entity, one of
// them, must read too.
func relationsRead(op *graphql.OperationContext, f graphql.CollectedField, level int) (p casegraph.RelationsRead, self *casegraph.EntityRead, ok bool) {
	args := f.ArgumentMap(op.Variables)
	types, ok := enumList[model.RelationType](args["types"])
	if !ok {
		return casegraph.RelationsRead{}, nil, false
	}
	direction, ok := enumArg[model.Direction](args["direction"])
	if !ok {
		return casegraph.RelationsRead{}, nil, false
	}
	first, ok := intArg(args["first"])
	if !ok {
		return casegraph.RelationsRead{}, nil, false
	}
	after, ok := stringArg(args["after"])
	if !ok {
		return casegraph.RelationsRead{}, nil, false
	}
	last, ok := intArg(args["last"])
	if !ok {
		return casegraph.RelationsRead{}, nil, false
	}
	before, ok := stringArg(args["before"])
	if !ok {
		return casegraph.RelationsRead{}, nil, false
	}
	filter, page, err := relationsWindow(types, direction, window{first: first, after: after, last: last, before: before})
	if err != nil {
		return casegraph.RelationsRead{}, nil, false
	}
	p = casegraph.RelationsRead{Filter: filter, Page: page}
	conn := []ast.SelectionSet{f.Selections}
	for _, c := range graphql.CollectFields(op, f.Selections, []string{"RelationConnection"}) {
		if c.Name == "totalCount" {
			p.Total = true
		}
	}
	edges := fieldsNamed(op, conn, "edges", []string{"RelationConnection"})
	var endSets []ast.SelectionSet
	for _, set := range fieldsNamed(op, edges, "node", []string{"RelationEdge"}) {
		for _, rf := range graphql.CollectFields(op, set, []string{"Relation"}) {
			switch rf.Name {
			case "sources", "citations":
				p.Sources = true
			case "from", "to":
				endSets = append(endSets, rf.Selections)
			}
		}
	}
	// The statement reads each relation's other end once, whichever of
	// from, to and neighbor names it.
	neighbors := fieldsNamed(op, edges, "neighbor", []string{"RelationEdge"})
	if len(endSets) > 0 {
		self = entityRead(op, endSets, level+1)
	}
	p.Ends = self
	if len(neighbors) > 0 {
		// A copy of self (which the listed entity reads too) with what
		// the neighbors ask for: self is compiled once, not again with
		// them.
		p.Ends = &casegraph.EntityRead{}
		p.Ends.Merge(self)
		p.Ends.Merge(entityRead(op, neighbors, level+1))
	}
	return p, self, true
}

// The arguments of a collected field come as the parser or the variables
// left them: enums as strings, integers as int64 or json.Number, lists as
// []any. An argument that is not what the schema says makes the field
// fall back to its resolver, which reports it.

func enumList[T ~string](v any) ([]T, bool) {
	if v == nil {
		return nil, true
	}
	list, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]T, len(list))
	for i, x := range list {
		s, ok := x.(string)
		if !ok {
			return nil, false
		}
		out[i] = T(s)
	}
	return out, true
}

func enumArg[T ~string](v any) (*T, bool) {
	if v == nil {
		return nil, true
	}
	s, ok := v.(string)
	if !ok {
		return nil, false
	}
	t := T(s)
	return &t, true
}

func stringArg(v any) (*string, bool) {
	if v == nil {
		return nil, true
	}
	s, ok := v.(string)
	return &s, ok
}

func intArg(v any) (*int, bool) {
	var n int64
	switch x := v.(type) {
	case nil:
		return nil, true
	case int:
		n = int64(x)
	case int64:
		n = x
	case int32:
		n = int64(x)
	case float64:
		if x != math.Trunc(x) {
			return nil, false
		}
		n = int64(x)
	case json.Number:
		var err error
		if n, err = x.Int64(); err != nil {
			return nil, false
		}
	default:
		return nil, false
	}
	if n < math.MinInt32 || n > math.MaxInt32 {
		return nil, false
	}
	i := int(n)
	return &i, true
}

// readEntity answers entity(id) with everything selected under it; nil
// when there is no such entity.
func (r *Resolver) readEntity(ctx context.Context, id string) (model.Entity, error) {
	res, err := r.rootEntities(ctx, []string{id})
	if err != nil {
		return nil, err
	}
	e, ok := res.Roots[id]
	if !ok {
		return nil, nil
	}
	return toEntity(e), nil
}

// rootEntities reads the entities of the operation's root fields that
// name entities: every entity field, and the entities among the ids of
// every node and nodes field (aliases, each with its ids and selection),
// by one statement, run by whichever of them comes first, with the union
// of their selections. ids are the caller's own, read alone if the
// operation's fields do not hold them (cannot happen at the root).
func (r *Resolver) rootEntities(ctx context.Context, ids []string) (casegraph.ReadResult, error) {
	op := graphql.GetOperationContext(ctx)
	return loaders.Read(ctx, rootRead{op: op, field: "entity"}, func() (casegraph.ReadResult, error) {
		all, read := entityRoots(op)
		if len(all) == 0 {
			all, read = ids, readHere(ctx)
		}
		return r.EntityStore.ReadEntities(ctx, all, read)
	})
}

// rootRead names the read that one operation's root fields of one name
// share.
type rootRead struct {
	op    *graphql.OperationContext
	field string
}

// entityRoots collects the entity ids and the selections of the
// operation's root fields that name entities: entity(id), node(id) and
// nodes(ids) (their ids of other nodes, and ids that do not parse, left to
// their resolvers).
func entityRoots(op *graphql.OperationContext) ([]string, *casegraph.EntityRead) {
	var ids []string
	seen := map[string]bool{}
	add := func(id string) {
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	read := &casegraph.EntityRead{}
	for _, f := range graphql.CollectFields(op, op.Operation.SelectionSet, []string{"Query"}) {
		args := f.ArgumentMap(op.Variables)
		var named []string
		switch f.Name {
		case "entity":
			if id, ok := args["id"].(string); ok {
				named = append(named, id)
			}
		case "node":
			if id, ok := args["id"].(string); ok {
				named = append(named, entityIDs([]any{id})...)
			}
		case "nodes":
			list, _ := args["ids"].([]any)
			named = append(named, entityIDs(list)...)
		}
		if len(named) == 0 {
			continue
		}
		for _, id := range named {
			add(id)
		}
		read.Merge(entityRead(op, []ast.SelectionSet{f.Selections}, 0))
	}
	read.ShareTotals()
	read.Properties = operationProperties(op)
	return ids, read
}

// entityIDs are the ids of entities among node ids (values of a node or
// nodes argument).
func entityIDs(values []any) []string {
	var out []string
	for _, v := range values {
		id, ok := v.(string)
		if !ok {
			continue
		}
		if ref, err := casegraph.ParseNodeID("id", id); err == nil && ref.Type == casegraph.NodeEntity {
			out = append(out, ref.ID)
		}
	}
	return out
}

// readUnder gives the request's loaders the entities a list field found,
// and, when the selection under them (at path) asks for more, reads it for
// all of them in one more round trip.
func (r *Resolver) readUnder(ctx context.Context, found []casegraph.Entity, path ...string) error {
	loaders.Prime(ctx, found, nil)
	read := readHere(ctx, path...)
	if read == nil || len(found) == 0 {
		return nil
	}
	ids := make([]string, len(found))
	for i, e := range found {
		ids[i] = e.ID
	}
	res, err := r.EntityStore.ReadEntities(ctx, ids, read)
	if err != nil {
		return err
	}
	loaders.Hold(ctx, res)
	return nil
}
