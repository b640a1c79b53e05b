package cypher

import (
	"slices"
	"strings"
)

// The gate's checker: the patterns of a MATCH, element by element
// (gatecheck_test.go).

// element is one node or relationship of a pattern, or a quantified
// group of them.
type element struct {
	rel, group bool
	v          string
	labels     []string // node labels, or relationship types
	props      []string // keys of its property map
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
	// violation below, whatever the WHERE does with it).
	for _, p := range parts {
		c.bind(p.path)
		for _, it := range flatten(p.items) {
			c.bind(it.v)
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
	for _, p := range parts {
		// The clause's WHERE and every inline WHERE of the part (outside
		// quantified groups, whose predicates hold per iteration) hold of
		// the same match.
		all := slices.Clone(conj)
		for _, it := range p.items {
			if !it.group {
				all = append(all, it.where...)
			}
		}
		c.checkChain(p, p.items, all)
	}
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
		e.bound = c.top().bound[e.v]
		c.i++
	}
	e.labels = c.labels()
	e.props = c.properties()
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
			e.bound = c.top().bound[e.v]
			c.i++
		}
		e.labels = c.labels()
		if c.is(0, "*") {
			e.varLength = true
			for c.i++; !c.is(0, "]") && !c.is(0, "{") && !c.is(0, "WHERE") && c.i < len(c.toks); c.i++ {
			}
		}
		e.props = c.properties()
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

// properties reads a property map's keys ({id: key}), or a parameter.
func (c *gateChecker) properties() []string {
	if strings.HasPrefix(c.peek(0), "$") {
		c.i++
		return []string{"$"}
	}
	if !c.is(0, "{") {
		return nil
	}
	c.i++
	var keys []string
	for {
		if c.word(0) && c.is(1, ":") {
			keys = append(keys, c.peek(0))
			c.i += 2
		}
		c.expr(exprStops{comma: true})
		if !c.is(0, ",") {
			break
		}
		c.i++
	}
	c.expect("}")
	return keys
}
