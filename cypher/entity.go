package cypher

// Entities: reads by id, pages by filter and order and their counts,
// upsert and delete under the write plan (merge is merge.go), and their
// record mapping and parameters.

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
)

// Statements of this file (statements/NAME.cypher or NAME.cypher.tmpl).
const (
	stmtEntitiesByID   statement = "EntitiesByID"
	stmtEntities       statement = "Entities"
	stmtCountEntities  statement = "CountEntities"
	stmtUpsertEntities statement = "UpsertEntities"
	stmtCreateEntities statement = "CreateEntities"
	stmtDeleteEntity   statement = "DeleteEntity"
)

// entityUngated: the statements of this file that return no graph data to a
// caller, and why (see ungated): every other goes through the gate.
func entityUngated() ungated {
	return ungated{
		stmtUpsertEntities: "a write under the write plan, after its checks",
		stmtCreateEntities: "a write under the write plan, after its checks: returns a count",
		stmtDeleteEntity:   "a write under the write plan, after its checks: returns a count",
	}
}

// EntitiesByID returns the entities with the given ids, in one round trip,
// keyed by the id asked for: an id merged into another entity maps to the
// survivor. Ids with no entity are absent.
func (s *Store) EntitiesByID(ctx context.Context, ids []string) (map[string]casegraph.Entity, error) {
	res, err := s.read(ctx, stmtEntitiesByID, map[string]any{"ids": ids})
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

// Entities returns one page of the entities that match q's filter, in its
// order (ties by id), the sort key of each (for cursors), and whether there
// are more. q must be valid.
func (s *Store) Entities(ctx context.Context, q casegraph.EntitiesRequest) ([]casegraph.Entity, []string, bool, error) {
	order, page := q.Order, q.Page
	if _, ok := entityOrders[order.Field]; !ok {
		return nil, nil, false, internalError(stmtEntities, fmt.Errorf("no statement sorts by %q (EntitiesRequest.Validate lets through only the sort keys it knows)", order.Field))
	}
	name, params := entitiesStatement(ctx, q)
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

// entitiesStatement is the variant of Entities that reads a page of q for
// the request's caller, and its parameters.
func entitiesStatement(ctx context.Context, q casegraph.EntitiesRequest) (statement, map[string]any) {
	f, page := q.Filter, q.Page
	params := entityFilterParams(f)
	params["afterId"], params["afterKey"] = nullable(page.After), page.AfterKey
	params["limit"] = pageLimit(page)
	name := entityOrderName(q.Order, f, page.Backward)
	if seek, ok := seekDatasets(q.Order, f, casegraph.ScopeFrom(ctx)); ok {
		name, params["seekDatasets"] = name.seek(), planList(seek)
	}
	return name, params
}

// CountEntities counts the entities that match the filter.
func (s *Store) CountEntities(ctx context.Context, f casegraph.EntityFilter) (int64, error) {
	res, err := s.read(ctx, stmtCountEntities.byFilter(f), entityFilterParams(f))
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
	if f.Near != nil { // only the near variants read them
		p["near"], p["nearMetres"] = pointOf(f.Near.Coordinates), f.Near.Kilometres*1000
	}
	return p
}

// byFilter names the variant of Entities or CountEntities that answers a
// filter from an index: the places near a point from the point index on
// their coordinates (a near filter is the narrower; its datasets are
// tested after), else the entities of its datasets from the dataset index
// (byDatasets).
func (name statement) byFilter(f casegraph.EntityFilter) statement {
	if f.Near != nil {
		return name + "/near"
	}
	return name.byDatasets(f.Datasets)
}

// filterVariants renders a statement of a filter of entities for each of
// byFilter's variants.
func filterVariants(name statement) func() []variant {
	return func() []variant {
		var out []variant
		for _, f := range entityFilterScopes {
			out = append(out, variant{Name: name.byFilter(f), Data: map[string]any{"Datasets": f.Datasets != nil, "Near": f.Near != nil}})
		}
		return out
	}
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

// entityOrder is how Entities sorts: the key, and how a cursor's key is
// read back.
// Each key is an indexed property every entity has, tested IS NOT NULL
// (Entities.cypher.tmpl) so that the planner reads the entities in the
// index's order and stops at the page's end, instead of sorting them all
// (TestEntityOrdersReadAnIndex).
type entityOrder struct {
	Key   string // Cypher expression of the sort key
	Param string // the cursor's key as that type
	// ByDataset: an index on the dataset and the key reads the entities
	// of one dataset in the key's order (the seek variant).
	ByDataset bool
}

// seekDatasets are the datasets the seek variant of Entities reads one by
// one for a caller of the scope: those it may read, of the filter's when
// it names some, or the filter's for a caller who may read every one; ok
// is false where the order has no index by dataset, for a filter near a
// point, and for a caller who may read every dataset without a filter by
// datasets (the order's own index serves them).
func seekDatasets(o casegraph.EntityOrder, f casegraph.EntityFilter, scope casegraph.Scope) (datasets []string, ok bool) {
	if !entityOrders[o.Field].ByDataset || f.Near != nil {
		return nil, false
	}
	switch {
	case !scope.Limited:
		return f.Datasets, len(f.Datasets) > 0
	case len(f.Datasets) == 0:
		return scope.Datasets, true
	}
	for _, d := range f.Datasets {
		if slices.Contains(scope.Datasets, d) {
			datasets = append(datasets, d)
		}
	}
	return datasets, true
}

var entityOrders = map[casegraph.EntityOrderField]entityOrder{
	casegraph.OrderByID:        {Key: "e.id", Param: "$afterKey"},
	casegraph.OrderByName:      {Key: "e.name", Param: "$afterKey"},
	casegraph.OrderByUpdatedAt: {Key: "e.updatedAt", Param: "datetime($afterKey)"},
	// The degree every write keeps (see degree.go), read in the order of
	// its index (entity_degree). An entity migrate has not counted yet
	// (written by another tool) has none, and is listed in this order
	// once migrate has counted it.
	casegraph.OrderByDegree: {Key: "e.degree", Param: "toInteger($afterKey)", ByDataset: true},
}

// entityOrderName names the variant of Entities for a sort order, read
// forward or backward.
func entityOrderName(o casegraph.EntityOrder, f casegraph.EntityFilter, backward bool) statement {
	name := stmtEntities + statement(fmt.Sprintf("/%s/%s", strings.ToLower(string(o.Field)), strings.ToLower(o.Direction())))
	if backward {
		name += "/backward"
	}
	return name.byFilter(f)
}

// seek names the seek variant of an Entities statement (seekDatasets).
func (name statement) seek() statement { return name + "/seek" }

// entityFilterScopes are a filter of each of byFilter's variants.
var entityFilterScopes = []casegraph.EntityFilter{{}, {Datasets: []string{"any"}}, {Near: &casegraph.Near{}}}

func entityOrderVariants() []variant {
	var out []variant
	for field, o := range entityOrders {
		for _, desc := range []bool{false, true} {
			for _, back := range []bool{false, true} {
				for _, f := range entityFilterScopes {
					ord := casegraph.EntityOrder{Field: field, Desc: desc}
					// Backward reads the order reversed, ties by id too.
					read := casegraph.EntityOrder{Field: field, Desc: desc != back}
					data := map[string]any{"Key": o.Key, "Param": o.Param, "Dir": read.Direction(), "Cmp": ">",
						"IDCmp": ">", "IDDir": "ASC", "Datasets": f.Datasets != nil, "Near": f.Near != nil, "Seek": false}
					if read.Desc {
						data["Cmp"] = "<"
					}
					if back {
						data["IDCmp"], data["IDDir"] = "<", "DESC"
					}
					out = append(out, variant{Name: entityOrderName(ord, f, back), Data: data})
					if o.ByDataset && f.Near == nil {
						seek := maps.Clone(data)
						seek["Seek"], seek["Prop"] = true, strings.TrimPrefix(o.Key, "e.")
						out = append(out, variant{Name: entityOrderName(ord, f, back).seek(), Data: seek})
					}
				}
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

// UpsertEntity creates the entity, or updates the one with its id, through
// the write gate (gaterules.go: a change of kind, an id merged away, a
// protection set or lifted without clearance are refused). When expected
// is set, the stored version must equal it (optimistic concurrency:
// CONFLICT when it does not, NOT_FOUND when there is nothing to update).
func (s *Store) UpsertEntity(ctx context.Context, e casegraph.Entity, expected *int64) (casegraph.Entity, error) {
	p := planOf(casegraph.Writes{Entities: []casegraph.Entity{e}})
	p.expected = expected
	if err := precheck(ctx, p); err != nil {
		return casegraph.Entity{}, err
	}
	var out casegraph.Entity
	err := s.mutate(ctx, "UpsertEntity", &out, func(run txRunner) (change, error) {
		g, err := passGate(ctx, run, p)
		if err != nil {
			return change{}, err
		}
		e := p.Entities[0]                // as the gate settled it
		before := g.entities[e.ID].entity // for the audit record
		if _, err := upsertEntities(run, g, []casegraph.Entity{e}); err != nil {
			return change{}, err
		}
		if out, err = readEntity(run, e.ID); err != nil {
			return change{}, err
		}
		return change{operation: "upsertEntity", dataset: out.Dataset, targets: []string{out.ID},
			fields: casegraph.Diff(before, &out)}, nil
	})
	return out, err
}

// DeleteEntity removes the entity and its relations, and returns how many
// relations went with it.
func (s *Store) DeleteEntity(ctx context.Context, id string) (int64, error) {
	p := &gatePlan{entityIDs: []string{id}}
	if err := precheck(ctx, p); err != nil {
		return 0, err
	}
	var n int64
	err := s.mutate(ctx, "DeleteEntity", &n, func(run txRunner) (change, error) {
		g, err := passGate(ctx, run, p)
		if err != nil {
			return change{}, err
		}
		before, err := g.entity(id)
		if err != nil {
			return change{}, err
		}
		recs, err := run(stmtDeleteEntity, map[string]any{"id": id})
		if err != nil {
			return change{}, err
		}
		if len(recs) == 0 {
			return change{}, internalError(stmtDeleteEntity, errNoRow) // locked by the gate: it is there
		}
		if n, err = getInt(recs[0], "relations"); err != nil {
			return change{}, internalError(stmtDeleteEntity, err)
		}
		return change{operation: "deleteEntity", dataset: before.Dataset, targets: []string{id},
			fields: casegraph.Diff(&before, (*casegraph.Entity)(nil))}, nil
	})
	return n, err
}

func readEntity(run txRunner, id string) (casegraph.Entity, error) {
	recs, err := run(stmtEntitiesByID, map[string]any{"ids": []string{id}})
	if err != nil {
		return casegraph.Entity{}, err
	}
	found, err := entitiesByKey("EntitiesByID", recs)
	if err != nil {
		return casegraph.Entity{}, err
	}
	e, ok := found[id]
	if !ok {
		return casegraph.Entity{}, internalError("readEntity", errNoRow)
	}
	return e, nil
}

// entityFromMap reads an entity from a map projection n {.*, kind: ...}:
// its id and kind, the properties of the domain's table that the map has,
// and the system ones. A property the map does not have (or has as null)
// is passed over: the zero value it would set is already there, and a
// read that shows an id and a name has none of the table's other
// properties (BenchmarkEntityFromMap: 0.6-0.8 us an entity so, 1.2-1.7
// us when each was set to its zero value).
func entityFromMap(m map[string]any) (casegraph.Entity, error) {
	var e casegraph.Entity
	err := decodeEntity(m, &e)
	return e, err
}

// decodeEntity is entityFromMap into e, a new entity: where e is already
// on the heap (an element of a list the answer keeps: the compiled read's,
// a path's or neighbourhood's, a search page's, a chain of command's
// hops), decoding into it saves a copy there of every entity read, since
// the table's setters, function values, move a local entity to the heap
// (528 bytes; BenchmarkSubgraphFromMaps: 10 entities, 11.3 KB and 21
// allocations to 5.5 KB and 11).
func decodeEntity(m map[string]any, e *casegraph.Entity) error {
	var err error
	var kind string
	if e.ID, err = mapString(m, "id"); err != nil {
		return err
	}
	if kind, err = mapString(m, "kind"); err != nil {
		return err
	}
	if e.Kind, err = casegraph.ParseKind(kind); err != nil {
		return err
	}
	for p := range casegraph.EntityPropertyRows() {
		if m[p.Name] == nil {
			continue // absent or null: the zero value, which e has (TestZeroValuesSetNothing)
		}
		v, err := entityValue(m, p)
		if err == nil {
			err = p.Set(e, v)
		}
		if err != nil {
			return err
		}
	}
	e.Redacted, _ = m["redacted"].(bool)
	e.Version = 1
	if v, ok := m["version"].(int64); ok {
		e.Version = v
	}
	if t, ok := m["createdAt"].(time.Time); ok {
		e.CreatedAt = t.UTC()
	}
	if t, ok := m["updatedAt"].(time.Time); ok {
		e.UpdatedAt = t.UTC()
	}
	return nil
}

// entityValue is the value of property p in m, of the type p.Type() says
// (an absent or null one as that type's zero value).
func entityValue(m map[string]any, p casegraph.EntityProperty) (any, error) {
	switch p.Type() {
	case casegraph.PropertyString:
		return mapString(m, p.Name)
	case casegraph.PropertyList:
		return mapStrings(m, p.Name)
	case casegraph.PropertyIntList:
		return mapInts(m, p.Name)
	case casegraph.PropertyInt:
		n, _ := m[p.Name].(int64) // absent (or not an integer) reads as 0
		return int(n), nil
	case casegraph.PropertyBool:
		b, _ := m[p.Name].(bool) // absent reads as false
		return b, nil
	case casegraph.PropertyPoint:
		return coordinatesFromPoint(m[p.Name]), nil
	}
	return nil, fmt.Errorf("%s: a property type the decoder does not read (%v)", p.Name, p.Type())
}

// entityParams is one row of UpsertEntities: the entity's id and kind,
// every property of the domain's table (an absent one as null, a list as
// empty), the derived search fields (and rankFields), and the content hash.
func entityParams(e casegraph.Entity) map[string]any {
	p := map[string]any{
		"hash":       entityHash(e),
		"searchName": casegraph.Fold(e.Name), "searchAliases": searchAliases(e.Aliases, e.Identifiers),
		"searchDescription": nullable(casegraph.Fold(e.Description)),
		"searchScope":       casegraph.SearchScope(e.Dataset, e.Kind),
		"id":                e.ID, "kind": string(e.Kind),
	}
	maps.Copy(p, rankFields(e.Name, e.Aliases, e.Identifiers))
	for prop := range casegraph.EntityPropertyRows() {
		switch v := prop.Value(e).(type) {
		case string:
			p[prop.Name] = nullable(v)
		case int:
			p[prop.Name] = nil
			if v != 0 {
				p[prop.Name] = int64(v)
			}
		case []string:
			p[prop.Name] = nonNilStrings(v)
		case []int:
			ints := make([]int64, len(v))
			for i, n := range v {
				ints[i] = int64(n)
			}
			p[prop.Name] = ints
		case bool:
			p[prop.Name] = nil
			if v {
				p[prop.Name] = true
			}
		case *casegraph.Coordinates:
			p[prop.Name] = nil
			if v != nil {
				p[prop.Name] = pointOf(*v)
			}
		}
	}
	return p
}

// wgs84 is the Neo4j spatial reference of 2D WGS 84 points (x longitude,
// y latitude, in degrees).
const wgs84 = 4326

// pointOf is coordinates as the point Neo4j stores.
func pointOf(c casegraph.Coordinates) neo4j.Point2D {
	return neo4j.Point2D{X: c.Longitude, Y: c.Latitude, SpatialRefId: wgs84}
}

// coordinatesFromPoint reads a stored point (nil for none, or for a point
// of another reference system, which Casegraph never writes).
func coordinatesFromPoint(v any) *casegraph.Coordinates {
	p, ok := v.(neo4j.Point2D)
	if !ok || p.SpatialRefId != wgs84 {
		return nil
	}
	return &casegraph.Coordinates{Latitude: p.Y, Longitude: p.X}
}

// entityHash fingerprints what UpsertEntities writes of an entity. The
// search fields are derived, so they are not in the hash; the version tag
// is, so that a change in how they are derived rewrites every entity once.
// The table's first properties are in it always, by position; one added
// later only when set, with its name (EntityProperty.AlwaysHashed), so
// that adding a property changes no stored hash.
func entityHash(e casegraph.Entity) string {
	fields := []any{searchVersion, e.Kind}
	for p := range casegraph.EntityPropertyRows() {
		v := p.Value(e)
		if list, ok := v.([]string); ok {
			v = nonNilStrings(list)
		}
		switch {
		case p.Derived:
		case p.AlwaysHashed:
			fields = append(fields, v)
		case p.IsSet(e):
			fields = append(fields, p.Name, v)
		}
	}
	return contentHash(fields...)
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
