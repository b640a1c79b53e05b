package cypher

import (
	"maps"
	"slices"
	"strings"
)

// The gate's checker: the clauses and expressions of a statement, with
// the variables each binds (gatecheck_test.go).

// clauseWords end an expression at depth 0.
var clauseWords = []string{"MATCH", "OPTIONAL", "WITH", "RETURN", "UNWIND", "CALL", "UNION", "ORDER", "SKIP", "LIMIT",
	"CREATE", "MERGE", "SET", "DELETE", "DETACH", "REMOVE", "FOREACH", "YIELD", "SHOW", "FINISH", "USE", "LOAD", "ON"}

func (c *gateChecker) atClause() bool {
	return slices.ContainsFunc(clauseWords, func(w string) bool { return c.is(0, w) })
}

// query reads clauses up to the end or an unmatched "}", and returns the
// names its last RETURN binds, each holding what it holds in every branch
// of a UNION (the least of them).
func (c *gateChecker) query() map[string]binding {
	returned := map[string]binding{}
	var branches []map[string]binding
	defer func() {
		for _, b := range branches {
			for k, v := range returned {
				returned[k] = min(v, max(b[k], boundValue))
			}
		}
	}()
	for c.i < len(c.toks) && !c.is(0, "}") {
		switch {
		case c.is(0, "MATCH"):
			c.i++
			c.match()
		case c.is(0, "OPTIONAL") && c.is(1, "MATCH"):
			c.i += 2
			c.match()
		case c.is(0, "OPTIONAL") && c.is(1, "CALL"):
			c.i++
		case c.is(0, "CALL"):
			c.i++
			c.call()
		case c.is(0, "WITH"), c.is(0, "RETURN"):
			ret := c.is(0, "RETURN")
			c.i++
			names := c.projection()
			if ret {
				returned = names
			}
		case c.is(0, "UNWIND"):
			c.i++
			c.expr(exprStops{as: true})
			c.expect("AS")
			c.bind(c.peek(0), boundValue)
			c.i++
		case c.is(0, "UNION"):
			branches = append(branches, returned)
			returned = map[string]binding{}
			c.i++
			if c.is(0, "ALL") {
				c.i++
			}
			c.top().bound = maps.Clone(c.top().imports)
		case c.is(0, "SHOW"):
			for c.i < len(c.toks) && !c.is(0, "YIELD") {
				c.i++
			}
			c.i++
			c.yield()
			if c.is(0, "WHERE") {
				c.i++
				c.expr(exprStops{})
			}
		case c.is(0, "(") && len(c.frames) > 1:
			// The body of COUNT { ... } or EXISTS { ... }: a pattern.
			c.match()
		default:
			c.fail("clause %q: a write, or Cypher the gate's test cannot read (declare the statement ungated, or teach the test)", c.peek(0))
			c.i = len(c.toks)
		}
	}
	return returned
}

func (c *gateChecker) bind(name string, b binding) {
	if name != "" {
		c.top().bound[name] = b
	}
}

// projection reads the items of WITH or RETURN and what follows them
// (ORDER BY, SKIP, LIMIT, WHERE), and makes the items' names the bound
// ones; it returns them, each with what it holds (carried).
func (c *gateChecker) projection() map[string]binding {
	if c.is(0, "DISTINCT") {
		c.i++
	}
	names := map[string]binding{}
	for {
		if c.is(0, "*") {
			c.i++
			names = maps.Clone(c.top().bound)
		} else {
			start := c.i
			c.expr(exprStops{as: true, comma: true, where: true})
			item := c.toks[start:c.i]
			if c.is(0, "AS") {
				c.i++
				names[c.peek(0)] = c.carried(item)
				c.i++
			} else if len(item) == 1 && item[0].word {
				names[item[0].text] = c.carried(item)
			}
		}
		if !c.is(0, ",") {
			break
		}
		c.i++
	}
	old := c.top().bound
	c.top().bound = names
	for {
		switch {
		case c.is(0, "ORDER") && c.is(1, "BY"):
			c.i += 2
			// ORDER BY sees the names before the projection too.
			c.top().bound = maps.Clone(old)
			maps.Copy(c.top().bound, names)
			for {
				c.expr(exprStops{comma: true})
				if c.is(0, "ASC") || c.is(0, "DESC") || c.is(0, "ASCENDING") || c.is(0, "DESCENDING") {
					c.i++
				}
				if !c.is(0, ",") {
					break
				}
				c.i++
			}
			c.top().bound = names
		case c.is(0, "SKIP"), c.is(0, "LIMIT"), c.is(0, "WHERE"):
			c.i++
			c.expr(exprStops{})
		default:
			return names
		}
	}
}

// carried is what a projection's item holds: what a bound variable
// holds, an entity for the lookup's coalesce of entities (lookupEntity),
// a value for anything else.
func (c *gateChecker) carried(item []cypherToken) binding {
	bound := c.top().bound
	if len(item) == 1 {
		return max(bound[item[0].text], boundValue)
	}
	n := len(item)
	if n < 4 || !strings.EqualFold(item[0].text, "coalesce") || item[1].text != "(" || item[n-1].text != ")" {
		return boundValue
	}
	for j := 2; j < n-1; j += 2 {
		if bound[item[j].text] != boundEntity || (item[j+1].text != "," && j+1 != n-1) {
			return boundValue
		}
	}
	return boundEntity
}

// call reads CALL: a subquery, or a procedure.
func (c *gateChecker) call() {
	switch {
	case c.is(0, "("):
		c.i++
		imports := map[string]binding{}
		for !c.is(0, ")") && c.i < len(c.toks) {
			if c.is(0, "*") {
				imports = maps.Clone(c.top().bound)
			} else if c.word(0) {
				imports[c.peek(0)] = max(c.top().bound[c.peek(0)], boundValue)
			}
			c.i++
		}
		c.expect(")")
		c.subquery(imports)
	case c.is(0, "{"):
		c.subquery(maps.Clone(c.top().bound))
	default:
		c.procedure()
	}
}

// subquery reads { ... } as a query of its own over the imports, and
// binds what it returns.
func (c *gateChecker) subquery(imports map[string]binding) {
	c.expect("{")
	c.push(imports, false)
	returned := c.query()
	c.pop()
	c.expect("}")
	for k, b := range returned {
		c.bind(k, b)
	}
}

// procedure reads a procedure's call, YIELD and WHERE: the full-text
// index's nodes (and relationships) must pass the gate in the WHERE.
func (c *gateChecker) procedure() {
	var name strings.Builder
	for c.word(0) || c.is(0, ".") {
		name.WriteString(c.peek(0))
		c.i++
	}
	if c.is(0, "(") {
		c.i++
		c.expr(exprStops{})
		c.expect(")")
	}
	yields := map[string]string{
		"db.index.fulltext.queryNodes":         "node",
		"db.index.fulltext.queryRelationships": "relationship",
	}
	element, known := yields[name.String()]
	if !known {
		c.fail("procedure %s: the gate's test cannot tell what it reads", name.String())
		return
	}
	if !c.is(0, "YIELD") {
		c.fail("procedure %s without YIELD", name.String())
		return
	}
	c.i++
	names := c.yield()
	if !slices.Contains(names, element) {
		return
	}
	var conj [][]cypherToken
	if c.is(0, "WHERE") {
		c.i++
		conj = c.expr(exprStops{})
	}
	if !hasConjunct(conj, c.forms.readable(element)) {
		c.fail("%s of %s is not gated: no %s in its WHERE", element, name.String(), readable(element))
	}
	if element == "relationship" && (!hasConjunct(conj, c.forms.readable("startNode(relationship)")) || !hasConjunct(conj, c.forms.readable("endNode(relationship)"))) {
		c.fail("relationship of %s: its ends are not gated", name.String())
	}
}

// yield reads YIELD's names (a WHERE after it is the caller's) and binds
// them.
func (c *gateChecker) yield() []string {
	var names []string
	for c.word(0) {
		name := c.peek(0)
		c.i++
		if c.is(0, "AS") {
			name = c.peek(1)
			c.i += 2
		}
		names = append(names, name)
		c.bind(name, boundValue)
		if !c.is(0, ",") {
			break
		}
		c.i++
	}
	return names
}

// exprStops says where an expression ends at depth 0, besides a clause
// keyword or a bracket it did not open.
type exprStops struct{ as, comma, where bool }

// expr reads an expression and returns its top-level conjuncts (split at
// AND). It reads the subqueries inside it (COUNT, EXISTS, COLLECT), and
// refuses a pattern inside it (a pattern predicate or comprehension).
func (c *gateChecker) expr(stops exprStops) [][]cypherToken {
	var conj [][]cypherToken
	var cur []cypherToken
	depth := 0
	var scoped []int // the depths of comprehensions open
	defer func() {
		for range scoped {
			c.pop()
		}
	}()
	for c.i < len(c.toks) {
		t := c.toks[c.i]
		if depth == 0 && (c.atClause() || (stops.as && c.is(0, "AS")) || (stops.comma && t.text == ",") || (stops.where && c.is(0, "WHERE"))) {
			break
		}
		switch {
		case (t.text == "[" || t.text == "(") && c.word(1) && c.is(2, "IN"):
			// A comprehension, all(), any(), ...: its variable is bound
			// within it (to what the list holds, which the gate found).
			depth++
			scoped = append(scoped, depth-1)
			c.push(maps.Clone(c.top().bound), c.top().inCount)
			c.bind(c.peek(1), boundValue)
			cur = append(cur, t)
			c.i++
			continue
		case (c.is(0, "COUNT") || c.is(0, "EXISTS") || c.is(0, "COLLECT")) && c.is(1, "{"):
			start := c.i
			inCount := c.is(0, "COUNT")
			c.i += 2
			c.push(maps.Clone(c.top().bound), inCount)
			c.query()
			c.pop()
			c.expect("}")
			cur = append(cur, c.toks[start:c.i]...)
			continue
		case t.text == "(" || t.text == "[" || t.text == "{" || c.keyword("CASE"):
			depth++
		case t.text == ")" || t.text == "]" || t.text == "}" || c.keyword("END"):
			if depth == 0 {
				conj = append(conj, cur)
				return conj
			}
			depth--
			if len(scoped) > 0 && scoped[len(scoped)-1] == depth {
				// The end of a comprehension: its variable goes.
				scoped = scoped[:len(scoped)-1]
				c.pop()
			}
			if t.text == ")" && (c.is(1, "-") && (c.is(2, "[") || c.is(2, "-") || c.is(2, ">")) || c.is(1, "<") && c.is(2, "-")) {
				c.fail("a pattern inside an expression: write it as a MATCH, or in COUNT, EXISTS or COLLECT { }")
			}
		case depth == 0 && strings.EqualFold(t.text, "AND"):
			conj = append(conj, cur)
			cur = nil
			c.i++
			continue
		}
		cur = append(cur, t)
		c.i++
	}
	return append(conj, cur)
}
