package cypher

import (
	"maps"
	"slices"
	"strings"

	casegraph "github.com/casegraph/casegraph"
)

// The gate's checker: the patterns of a MATCH, element by element
// (gatecheck_test.go).

// element is one node or relationship of a pattern, or a quantified
// group of them.
type element struct {
	rel, group bool
	v          string
	labels     []string      // node labels, or relationship types
	props      []string      // keys of its property map
	id         []cypherToken // the value its property map gives id
	where      [][]cypherToken
	varLength  bool
	items      []*element // a group's
	// bound: the variable was bound before this MATCH; juxtaposed: the
	// first node of a quantified group, between gated nodes.
	bound, juxtaposed bool
}

// patternPart is one comma-separated part of a MATCH's pattern.
type patternPart struct {
	path     string // p = ...
	shortest bool   // shortestPath(...) or allShortestPaths(...)
	items    []*element
}

// match reads a MATCH's pattern and WHERE, and checks every element.
func (c *gateChecker) match() {
	var parts []patternPart
	for {
		parts = append(parts, c.patternPart())
		if !c.is(0, ",") {
			break
		}
		c.i++
	}
	// The WHERE sees the pattern's variables (and an ungated one is a
	// violation below, whatever the WHERE does with it); what each holds
	// is settled after the checks (holds), from what was bound before.
	before := maps.Clone(c.top().bound)
	for _, p := range parts {
		c.bind(p.path, boundValue)
		for _, it := range flatten(p.items) {
			if !it.bound {
				c.bind(it.v, boundValue)
			}
		}
	}
	// A planner's hint (USING INDEX v:Label(a, b)) reads nothing: skipped
	// to its closing parenthesis.
	for c.is(0, "USING") {
		for c.i < len(c.toks) && !c.is(0, ")") {
			c.i++
		}
		c.expect(")")
	}
	var conj [][]cypherToken
	if c.is(0, "WHERE") {
		c.i++
		conj = c.expr(exprStops{})
	}
	alls := make([][][]cypherToken, len(parts))
	for k, p := range parts {
		// The clause's WHERE and every inline WHERE of the part (outside
		// quantified groups, whose predicates hold per iteration) hold of
		// the same match.
		alls[k] = slices.Clone(conj)
		for _, it := range p.items {
			if !it.group {
				alls[k] = append(alls[k], it.where...)
			}
		}
		c.checkChain(p, p.items, alls[k])
	}
	for k, p := range parts {
		for i, it := range p.items {
			if !it.bound && it.v != "" {
				c.bind(it.v, holds(p.items, i, alls[k], before))
			}
		}
	}
}

// holds is what the node items[i], newly bound by a MATCH, holds: an
// entity, when it has an entity label or is the end of a relationship of
// the vocabulary's types (the checks above gate it, or fail); a
// :RelationId registry row, when one of the MATCH's conjuncts ties the
// row's fromId or toId to the id of an entity bound before the MATCH
// (registryRow); anything else a value.
func holds(items []*element, i int, conj [][]cypherToken, before map[string]binding) binding {
	e := items[i]
	if e.rel || e.group {
		return boundValue
	}
	relation := func(j int) bool {
		if j < 0 || j >= len(items) || !items[j].rel || items[j].varLength || len(items[j].labels) == 0 {
			return false
		}
		return !slices.ContainsFunc(items[j].labels, func(t string) bool {
			return !slices.Contains(casegraph.RelationTypes(), casegraph.RelationType(t))
		})
	}
	if slices.ContainsFunc(e.labels, func(l string) bool { return dataLabels()[l] == "entity" }) ||
		len(e.labels) == 0 && (relation(i-1) || relation(i+1)) {
		return boundEntity
	}
	if slices.Equal(e.labels, []string{"RelationId"}) && registryRow(e.v, conj, before) {
		return boundRegistryRow
	}
	return boundValue
}

// registryRow says whether a conjunct is "v.fromId = x.id" or
// "v.toId = x.id" (either way round), x an entity bound before: v is the
// registry row of one of x's relations.
func registryRow(v string, conj [][]cypherToken, before map[string]binding) bool {
	side := func(ts []cypherToken) bool {
		return len(ts) == 3 && ts[0].text == v && ts[1].text == "." && (ts[2].text == "fromId" || ts[2].text == "toId")
	}
	entityID := func(ts []cypherToken) bool {
		return len(ts) == 3 && before[ts[0].text] == boundEntity && ts[1].text == "." && ts[2].text == "id"
	}
	for _, cj := range conj {
		cj = unwrap(cj)
		if len(cj) != 7 || cj[3].text != "=" {
			continue
		}
		l, r := cj[:3], cj[4:]
		if side(l) && entityID(r) || side(r) && entityID(l) {
			return true
		}
	}
	return false
}

// registryEnd says whether an entity found by its real id takes the id
// from a registry row bound before this MATCH (its fromId or toId, as it
// is): an end of a relation of an entity the gate found, not a caller's
// key. The end must still pass the gate's test (readable), and shows
// redacted (hidden) as any other end of a relation.
func (c *gateChecker) registryEnd(e *element) bool {
	ts := e.id
	return len(ts) == 3 && c.top().bound[ts[0].text] == boundRegistryRow &&
		ts[1].text == "." && (ts[2].text == "fromId" || ts[2].text == "toId")
}

func flatten(items []*element) []*element {
	var out []*element
	for _, it := range items {
		out = append(out, it)
		out = append(out, flatten(it.items)...)
	}
	return out
}

func (c *gateChecker) patternPart() patternPart {
	var p patternPart
	if c.word(0) && c.is(1, "=") {
		p.path = c.peek(0)
		c.i += 2
	}
	// A selector (SHORTEST k, ANY, ALL SHORTEST, SHORTEST k GROUPS)
	// chooses among the matches; it gates nothing.
	if c.is(0, "SHORTEST") || c.is(0, "ANY") || c.is(0, "ALL") && c.is(1, "SHORTEST") {
		for c.i < len(c.toks) && !c.is(0, "(") {
			c.i++
		}
	}
	if (c.is(0, "shortestPath") || c.is(0, "allShortestPaths")) && c.is(1, "(") {
		c.i += 2
		p.shortest = true
		p.items = c.chain()
		c.expect(")")
		return p
	}
	p.items = c.chain()
	return p
}

// chain reads nodes, relationships and groups, in order.
func (c *gateChecker) chain() []*element {
	var items []*element
	for {
		switch {
		case c.is(0, "(") && c.is(1, "("):
			c.i++
			inner := c.chain()
			if c.is(0, "WHERE") {
				c.i++
				c.expr(exprStops{}) // a path's predicate: not a gate
			}
			c.expect(")")
			if c.is(0, "{") || c.is(0, "+") || c.is(0, "*") {
				for c.i < len(c.toks) && !c.is(0, "(") {
					c.i++ // the quantifier
				}
				items = append(items, &element{group: true, items: inner})
			} else {
				items = append(items, inner...) // a parenthesized path
			}
		case c.is(0, "("):
			items = append(items, c.node())
		case c.is(0, "-") || (c.is(0, "<") && c.is(1, "-")):
			items = append(items, c.relationship())
		default:
			return items
		}
	}
}

func (c *gateChecker) node() *element {
	c.expect("(")
	e := &element{}
	if c.word(0) && !c.is(0, "WHERE") {
		e.v = c.peek(0)
		e.bound = c.top().bound[e.v] != 0
		c.i++
	}
	e.labels = c.labels()
	e.props, e.id = c.properties()
	if c.is(0, "WHERE") {
		c.i++
		e.where = c.expr(exprStops{})
	}
	c.expect(")")
	return e
}

func (c *gateChecker) relationship() *element {
	e := &element{rel: true}
	if c.is(0, "<") {
		c.i++
	}
	c.expect("-")
	if c.is(0, "[") {
		c.i++
		if c.word(0) && !c.is(0, "WHERE") {
			e.v = c.peek(0)
			e.bound = c.top().bound[e.v] != 0
			c.i++
		}
		e.labels = c.labels()
		if c.is(0, "*") {
			e.varLength = true
			for c.i++; !c.is(0, "]") && !c.is(0, "{") && !c.is(0, "WHERE") && c.i < len(c.toks); c.i++ {
			}
		}
		e.props, e.id = c.properties()
		if c.is(0, "WHERE") {
			c.i++
			e.where = c.expr(exprStops{})
		}
		c.expect("]")
	}
	c.expect("-")
	if c.is(0, ">") {
		c.i++
	}
	return e
}

// labels reads :A, :A|B, :A&B, :A:B.
func (c *gateChecker) labels() []string {
	var out []string
	if !c.is(0, ":") {
		return nil
	}
	for c.is(0, ":") || c.is(0, "|") || c.is(0, "&") {
		c.i++
		if c.is(0, ":") { // :A|:B
			c.i++
		}
		out = append(out, c.peek(0))
		c.i++
	}
	return out
}

// properties reads a property map's keys ({id: key}), or a parameter,
// and the value it gives id.
func (c *gateChecker) properties() (keys []string, id []cypherToken) {
	if strings.HasPrefix(c.peek(0), "$") {
		c.i++
		return []string{"$"}, nil
	}
	if !c.is(0, "{") {
		return nil, nil
	}
	c.i++
	for {
		key := ""
		if c.word(0) && c.is(1, ":") {
			key = c.peek(0)
			keys = append(keys, key)
			c.i += 2
		}
		start := c.i
		c.expr(exprStops{comma: true})
		if key == "id" {
			id = c.toks[start:c.i]
		}
		if !c.is(0, ",") {
			break
		}
		c.i++
	}
	c.expect("}")
	return keys, id
}
