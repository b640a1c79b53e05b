package cypher

// The compiled read of entities (ReadEntities): a selection's
// casegraph.EntityRead rendered into one statement per shape (kept
// rendered), and its answer decoded.

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/casegraph/casegraph"
)

// stmtReadEntities is rendered for each shape of read (see compileRead).
const stmtReadEntities statement = "ReadEntities"

// DefaultHubDegree is the degree past which the compiled read pages an
// entity's relations from the :RelationId registry's indexes
// (registrySide of ReadEntities) instead of expanding all of them and
// keeping the top k, unless Options.HubDegree says otherwise: a registry
// row costs a seek of its other end and the walk between the two ends
// (Expand(Into)), the expansion a few reads a relation, and W2/W3 of the
// peer comparison lost 3 to 4 times their throughput with every entity
// paged from the registry when each row sought its relationship in every
// type's relation id index. BenchmarkHubThreshold (a page of 20 with its
// ends, one client) had that registry at 3.0-4.4 ms whatever the degree,
// at par with the expansion about 1,000 relations (by database hits about
// 600: 2,474 against 2,142 at 527); finding the relationship between the
// two ends, the registry is at 1.8-3.2 ms whatever the degree, at par
// about 250 (0.87-0.88 of the expansion at 500; 719 database hits against
// 2,028 at 500, BenchmarkHubPageCost). With each row's relationship
// found by the element id the row keeps (rel) instead, registry over
// expansion is 1.20 at 10 relations, 1.09 at 100, 0.95 at 250, 0.87 at
// 500 and 0.46 at 2,500; and the peer comparison's W2 with 200 against
// 500 was 2.45/2.30/1.80x against 2.45/2.26/1.94x (c=1/8/32), nothing
// this machine can tell apart: 500 stays (bench/README.md).
const DefaultHubDegree = 500

// maxReadShapes bounds the statements kept rendered: shapes come from
// clients' selections, so their number is the clients' to choose. Past the
// bound a statement is rendered for each use (a few microseconds).
const maxReadShapes = 2000

// readStatements caches rendered statements by the shape of their read.
type readStatements struct {
	mu     sync.Mutex
	byKey  map[string]string
	render func(level readLevel) (string, error)
}

func (c *readStatements) get(shape string, level readLevel) (string, error) {
	c.mu.Lock()
	text, ok := c.byKey[shape]
	c.mu.Unlock()
	if ok {
		return text, nil
	}
	text, err := c.render(level)
	if err != nil {
		return "", err
	}
	c.mu.Lock()
	if len(c.byKey) < maxReadShapes {
		c.byKey[shape] = text
	}
	c.mu.Unlock()
	return text, nil
}

func newReadStatements() *readStatements {
	return &readStatements{byKey: map[string]string{}, render: func(level readLevel) (string, error) {
		set, err := templates()
		if err != nil {
			return "", err
		}
		return execute(set, string(stmtReadEntities)+".cypher.tmpl", level)
	}}
}

// readLevel is an entity variable and what to read with it, as the
// template sees it.
type readLevel struct {
	Var        string // e0, e1, ...
	Projection string // what is returned of the entity
	Sources    bool
	Pages      []readPage
}

// readPage is one page of relations read from a level.
type readPage struct {
	Param       string // the page's parameter prefix: p0, p0_1, ...
	From, To    string // entity variables
	Rel         string // relationship variable: r1, r2, ...
	Left, Right string // the pattern's arrows: "-", "->" or "<-", "-"
	Types       string // AUTHORED|FUNDS|...
	Projection  string // what is returned of each relation
	Hidden      string // whether an end is hidden from the caller (relationHidden), computed once as Rel_hidden
	Order       string // the page's order and cursor, of the relation alone (relationOrder), computed once as Rel_order
	Key         string // the relation's id as the caller sees it, of Rel_hidden, for the page's relations only: computed once as Rel_key
	Total       bool
	Sources     bool
	Backward    bool // reads the page before the cursor, in reverse
	Ends        *readLevel
	// The page read in order from the :RelationId registry: Out, the
	// relations the entity is the from end of, In, those it is the to end
	// of; KeyProp the registry's key the caller's order is (id for a
	// cleared caller, pageKey for another: relationOrder); TypeList the
	// types asked for when the filter names some ("" for every type).
	Out, In bool
	// FromEnd: a backward page without a cursor (the last page), rendered
	// without the cursor's test, as the disjunction $after = "" OR key <
	// $after would not let the planner seek the index in order.
	FromEnd  bool
	KeyProp  string
	TypeList string
	// Scoped: the caller may not read every dataset, so the total counts
	// relations one by one instead of reading the degree store.
	Scoped bool
}

// compileRead turns a read into the template's levels, its shape (the
// cache key: everything but the values) and the values as parameters.
// The properties shown are values too ($entityProps, $relationProps:
// entityValues), as is the hub degree ($hubDegree), so that the
// selections of one shape that show other fields share one text, planned once by Neo4j.
func compileRead(read *casegraph.EntityRead, scoped, cleared bool, hubDegree int) (readLevel, string, map[string]any, error) {
	entityProps, relationProps := readProperties(read)
	if err := checkProperties(&casegraph.Properties{Entity: entityProps, Relation: relationProps}); err != nil {
		return readLevel{}, "", nil, err
	}
	params := map[string]any{"entityProps": valueNames(entityProps), "relationProps": valueNames(relationProps), "hubDegree": hubDegree}
	var shape strings.Builder
	fmt.Fprintf(&shape, "scoped%t cleared%t", scoped, cleared)
	keyProp := "pageKey"
	if cleared {
		keyProp = "id"
	}
	var level func(r *casegraph.EntityRead, depth int, path string) readLevel
	level = func(r *casegraph.EntityRead, depth int, path string) readLevel {
		v := "e" + strconv.Itoa(depth)
		l := readLevel{Var: v, Sources: r.Sources, Projection: entityValues(v)}
		fmt.Fprintf(&shape, "{s%t", r.Sources)
		for i, p := range r.Relations {
			param := "p" + strconv.Itoa(i)
			if path != "" {
				param = path + "_" + strconv.Itoa(i)
			}
			left, right := "-", "-"
			switch p.Filter.Direction {
			case casegraph.DirectionOutgoing:
				right = "->"
			case casegraph.DirectionIncoming:
				left = "<-"
			}
			types := p.Filter.Types
			typeList := ""
			if len(types) > 0 {
				typeList = cypherList(relationTypeNames(types))
			}
			if len(types) == 0 {
				types = casegraph.RelationTypes()
			}
			names := make([]string, len(types))
			for j, t := range types {
				names[j] = string(t) // validated: only vocabulary types reach here
			}
			rel := "r" + strconv.Itoa(depth+1)
			pg := readPage{
				Param: param, From: v, To: "e" + strconv.Itoa(depth+1), Rel: rel,
				Left: left, Right: right, Types: strings.Join(names, "|"), Total: p.Total, Sources: p.Sources, Scoped: scoped,
				Projection: relationValuesOf(rel, rel+"_hidden", rel+"_key"),
				Hidden:     relationHidden(rel), Order: relationOrder(rel), Key: relationKeyOf(rel, rel+"_hidden"), Backward: p.Page.Backward,
				Out: left == "-", In: right == "-", KeyProp: keyProp, TypeList: typeList, FromEnd: p.Page.Backward && p.Page.After == "",
			}
			fmt.Fprintf(&shape, "[%s%s%s t%t s%t b%t e%t", left, pg.Types, right, p.Total, p.Sources, p.Page.Backward, pg.FromEnd)
			params[param+"_after"] = p.Page.After
			params[param+"_limit"] = pageLimit(p.Page)
			if p.Ends != nil {
				ends := level(p.Ends, depth+1, param)
				pg.Ends = &ends
			}
			shape.WriteString("]")
			l.Pages = append(l.Pages, pg)
		}
		shape.WriteString("}")
		return l
	}
	root := level(read, 0, "")
	return root, shape.String(), params, nil
}

// relationTypeNames are the names of validated vocabulary types.
func relationTypeNames(types []casegraph.RelationType) []string {
	out := make([]string, len(types))
	for i, t := range types {
		out[i] = string(t)
	}
	return out
}

// readProperties are the properties a read shows of entities and of
// relations: those it names, or every one.
func readProperties(read *casegraph.EntityRead) (entity, relation []string) {
	if p := read.Properties; p != nil {
		return p.Entity, p.Relation
	}
	return casegraph.EntityProperties, casegraph.RelationProperties
}

// valueNames is the parameter that names the properties a read shows
// ($entityProps, $relationProps): the properties, made as long as
// planList makes lists, so that reads that show more or fewer properties
// share a plan (an empty list, or one of another length class, is another
// parameter type to Neo4j). The projection reads none of the names
// planList adds (notPadded); the id comes apart, as the caller sees it.
func valueNames(props []string) []string {
	return planList(props)
}

// valuesByName turns a projection of entityValues or relationValuesOf
// into the map projection the record mappers read: each of the values
// under the name of its property (props, in valueNames' order; a redacted
// entity's list goes on with nulls for the names planList added).
func valuesByName(m map[string]any, props []string) error {
	values, ok := m["values"].([]any)
	if !ok || len(values) < len(props) {
		return fmt.Errorf("%d values for %d properties", len(values), len(props))
	}
	for i, name := range props {
		m[name] = values[i]
	}
	delete(m, "values")
	return nil
}

// checkProperties refuses a property of no table: the properties are
// written into statements, so only the vocabulary's may be.
func checkProperties(p *casegraph.Properties) error {
	for _, name := range p.Entity {
		if !slices.Contains(casegraph.EntityProperties, name) {
			return fmt.Errorf("no entity property %q", name)
		}
	}
	for _, name := range p.Relation {
		if !slices.Contains(casegraph.RelationProperties, name) {
			return fmt.Errorf("no relation property %q", name)
		}
	}
	return nil
}

// ReadEntities reads the entities with the given ids (an id merged away
// finds its survivor) and everything read asks for under them, in one
// round trip, however deep the read goes. Ids that match nothing are
// absent from the result's Roots.
func (s *Store) ReadEntities(ctx context.Context, ids []string, read *casegraph.EntityRead) (casegraph.ReadResult, error) {
	if read == nil {
		read = &casegraph.EntityRead{}
	}
	for _, p := range allPages(read) {
		for _, t := range p.Filter.Types {
			if _, err := casegraph.Spec(t); err != nil {
				return casegraph.ReadResult{}, err
			}
		}
	}
	scope := casegraph.ScopeFrom(ctx)
	level, shape, params, err := compileRead(read, scope.Limited, scope.Cleared, s.hubDegree)
	if err != nil {
		return casegraph.ReadResult{}, internalError("ReadEntities", err)
	}
	text, err := s.reads.get(shape, level)
	if err != nil {
		return casegraph.ReadResult{}, internalError("ReadEntities", err)
	}
	params["ids"] = planList(ids) // planPad finds no entity: absent from the answer
	res, err := s.executeText(ctx, stmtReadEntities, text, params, neo4j.AccessModeRead)
	if err != nil {
		return casegraph.ReadResult{}, err
	}
	out := casegraph.ReadResult{Roots: make(map[string]casegraph.Entity, len(res.Records))}
	d := readDecoder{out: &out, seen: map[string]bool{}, seenSources: map[string]bool{}}
	d.entityProps, d.relationProps = readProperties(read)
	for _, rec := range res.Records {
		key, err := getString(rec, "key")
		if err != nil {
			return out, internalError("ReadEntities", err)
		}
		node, err := getMap(rec, "node")
		if err != nil {
			return out, internalError("ReadEntities", err)
		}
		e, err := d.node(node, read)
		if err != nil {
			return out, internalError("ReadEntities", err)
		}
		out.Roots[key] = e
	}
	return out, nil
}

// allPages lists every page a read asks for, at every level.
func allPages(read *casegraph.EntityRead) []casegraph.RelationsRead {
	if read == nil {
		return nil
	}
	var out []casegraph.RelationsRead
	for _, p := range read.Relations {
		out = append(out, p)
		out = append(out, allPages(p.Ends)...)
	}
	return out
}

// readDecoder turns the nested maps of ReadEntities into the result's
// flat lists, each entity and source once.
type readDecoder struct {
	out         *casegraph.ReadResult
	seen        map[string]bool
	seenSources map[string]bool
	// the names of the values the statement returned ($entityProps,
	// $relationProps)
	entityProps, relationProps []string
}

func (d *readDecoder) node(m map[string]any, read *casegraph.EntityRead) (casegraph.Entity, error) {
	em, ok := m["entity"].(map[string]any)
	if !ok {
		return casegraph.Entity{}, fmt.Errorf("node without an entity")
	}
	if err := valuesByName(em, d.entityProps); err != nil {
		return casegraph.Entity{}, err
	}
	// Decoded in place at the list's end, and dropped from it when seen
	// before (decodeEntity says why).
	n := len(d.out.Entities)
	d.out.Entities = append(d.out.Entities, casegraph.Entity{})
	if err := decodeEntity(em, &d.out.Entities[n]); err != nil {
		return casegraph.Entity{}, err
	}
	e := d.out.Entities[n]
	if d.seen[e.ID] {
		d.out.Entities[n] = casegraph.Entity{}
		d.out.Entities = d.out.Entities[:n]
	} else {
		d.seen[e.ID] = true
	}
	if read.Sources {
		if err := d.sources(m["sources"]); err != nil {
			return e, err
		}
	}
	pages, ok := m["pages"].([]any)
	if !ok || len(pages) != len(read.Relations) {
		return e, fmt.Errorf("entity %s: %d pages of relations, want %d", e.ID, len(pages), len(read.Relations))
	}
	for i, raw := range pages {
		pr := read.Relations[i]
		pm, ok := raw.(map[string]any)
		if !ok {
			return e, fmt.Errorf("entity %s: page %d is %T", e.ID, i, raw)
		}
		items, ok := pm["relations"].([]any)
		if !ok {
			return e, fmt.Errorf("entity %s: page %d without relations", e.ID, i)
		}
		page := casegraph.RelationPage{Relations: make([]casegraph.Relation, 0, len(items))}
		for _, it := range items {
			im, ok := it.(map[string]any)
			if !ok {
				return e, fmt.Errorf("entity %s: relation item is %T", e.ID, it)
			}
			rm, ok := im["relation"].(map[string]any)
			if !ok {
				return e, fmt.Errorf("entity %s: item without a relation", e.ID)
			}
			if err := valuesByName(rm, d.relationProps); err != nil {
				return e, fmt.Errorf("entity %s: relation: %w", e.ID, err)
			}
			r, err := relationFromMap(rm)
			if err != nil {
				return e, err
			}
			page.Relations = append(page.Relations, r)
			if pr.Sources {
				if err := d.sources(im["sources"]); err != nil {
					return e, err
				}
			}
			if pr.Ends != nil {
				end, ok := im["end"].(map[string]any)
				if !ok {
					return e, fmt.Errorf("relation %s without its end", r.ID)
				}
				if _, err := d.node(end, pr.Ends); err != nil {
					return e, err
				}
			}
		}
		page.Relations, page.HasNext = trimPage(page.Relations, pr.Page)
		if pr.Total {
			total, ok := pm["total"].(int64)
			if !ok {
				return e, fmt.Errorf("entity %s: page %d without its total", e.ID, i)
			}
			page.Total = total
		}
		d.out.Pages = append(d.out.Pages, casegraph.EntityRelations{
			EntityID: e.ID, Filter: pr.Filter, Page: pr.Page, Result: page, Total: pr.Total,
		})
	}
	return e, nil
}

func (d *readDecoder) sources(raw any) error {
	list, ok := raw.([]any)
	if !ok {
		return fmt.Errorf("sources are %T", raw)
	}
	for _, x := range list {
		m, ok := x.(map[string]any)
		if !ok {
			return fmt.Errorf("source is %T", x)
		}
		src, err := sourceFromMap(m)
		if err != nil {
			return err
		}
		if !d.seenSources[src.ID] {
			d.seenSources[src.ID] = true
			d.out.Sources = append(d.out.Sources, src)
		}
	}
	return nil
}
