package cypher

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	casegraph "github.com/casegraph/casegraph"
)

// The gate's checker (used by TestStatementsGoThroughTheGate): it reads
// a rendered statement as Cypher, without its comments and string
// literals, and finds every pattern element that reads the graph (a node
// of :Entity, a kind, :Source, :Change or :MergedEntity, every
// relationship of the vocabulary, every node of unknown label that the
// statement has not bound already) and every procedure that yields nodes,
// and asks of each that the gate's own test for its variable be one of
// the conjuncts of its MATCH (inline in the element or in the clause's
// WHERE). What no gate covers, or what the checker cannot read (a write
// clause, a pattern inside an expression, a procedure it does not know),
// is a violation: closed when in doubt.

// gateForms renders the gate's tests for a variable, as tokens.
type gateForms struct {
	changeReadable func(v string) []cypherToken
}

func (gateForms) readable(v string) []cypherToken  { return tokenizeCypher(readable(v)) }
func (gateForms) hidden(v string) []cypherToken    { return tokenizeCypher(hidden(v)) }
func (gateForms) notHidden(v string) []cypherToken { return tokenizeCypher("NOT " + hidden(v)) }

// gateChecker checks one statement.
type gateChecker struct {
	toks []cypherToken
	i    int
	// frames are the variables bound, innermost last; frame 0 of a
	// subquery is what it imports (restored by UNION).
	frames []frame
	errs   []string
	forms  gateForms
	// allDatasets: the statement is rendered only for callers who may
	// read every dataset, so a relationship's degree may be read from
	// the store (COUNT { (e)-[:TYPE]-() }).
	allDatasets bool
}

type frame struct {
	bound, imports map[string]binding
	inCount        bool // the body of a COUNT subquery
}

// binding is what a bound variable holds, as far as the gate is
// concerned (the zero value: not bound).
type binding uint8

const (
	// boundValue: anything (a value, a list, a node of no graph data...).
	boundValue binding = iota + 1
	// boundEntity: an entity node found through the gate (a MATCH of an
	// entity label, or the lookup's coalesce of them).
	boundEntity
	// boundRegistryRow: a :RelationId row of a relation of a bound
	// entity (registryRow): its fromId and toId name that relation's
	// ends, not the caller's key.
	boundRegistryRow
)

// checkGate returns the violations of one statement's text.
func checkGate(text string, forms gateForms, allDatasets bool) []string {
	c := &gateChecker{toks: tokenizeCypher(stripCypher(text)), forms: forms, allDatasets: allDatasets}
	c.frames = []frame{newFrame()}
	// Query options first (CYPHER replan=skip): how Neo4j plans, not what
	// the statement reads.
	if c.is(0, "CYPHER") {
		c.i++
		for c.i+2 < len(c.toks) && c.toks[c.i+1].text == "=" {
			c.i += 3
		}
	}
	c.query()
	if c.i < len(c.toks) && len(c.errs) == 0 {
		c.fail("unexpected %q", c.toks[c.i].text)
	}
	return c.errs
}

func (c *gateChecker) fail(format string, args ...any) {
	c.errs = append(c.errs, fmt.Sprintf(format, args...)+" (at "+c.context()+")")
}

// context is the text around the checker's position, for messages.
func (c *gateChecker) context() string {
	var parts []string
	for j := max(0, c.i-6); j < min(len(c.toks), c.i+6); j++ {
		parts = append(parts, c.toks[j].text)
	}
	return strings.Join(parts, " ")
}

func (c *gateChecker) peek(k int) string {
	if c.i+k < len(c.toks) {
		return c.toks[c.i+k].text
	}
	return ""
}

// is says whether the token k ahead is the keyword or punctuation s.
func (c *gateChecker) is(k int, s string) bool { return strings.EqualFold(c.peek(k), s) }

// keyword says whether the token is the keyword w, not a map's key
// ({end: ...}) nor a property (.end).
func (c *gateChecker) keyword(w string) bool {
	return c.is(0, w) && !c.is(1, ":") && (c.i == 0 || c.toks[c.i-1].text != ".")
}

func (c *gateChecker) word(k int) bool { return c.i+k < len(c.toks) && c.toks[c.i+k].word }

func (c *gateChecker) expect(s string) {
	if !c.is(0, s) {
		c.fail("want %q, not %q", s, c.peek(0))
		c.i = len(c.toks) // stop: what follows cannot be read
		return
	}
	c.i++
}

func (c *gateChecker) top() *frame { return &c.frames[len(c.frames)-1] }

func newFrame() frame {
	return frame{bound: map[string]binding{}, imports: map[string]binding{}}
}

func (c *gateChecker) push(bound map[string]binding, inCount bool) {
	c.frames = append(c.frames, frame{bound: bound, imports: maps.Clone(bound), inCount: inCount})
}

func (c *gateChecker) pop() { c.frames = c.frames[:len(c.frames)-1] }

// dataLabels are the labels of nodes that hold graph data.
func dataLabels() map[string]string {
	out := map[string]string{"Entity": "entity", "Source": "source", "Change": "change", "MergedEntity": "tombstone"}
	for _, k := range casegraph.Kinds() {
		out[string(k)] = "entity"
	}
	return out
}

// graphRelationship says whether a relationship element may match a
// relation of the graph (a type of the vocabulary, or any type).
func graphRelationship(types []string) bool {
	if len(types) == 0 {
		return true
	}
	for _, t := range types {
		if slices.Contains(casegraph.RelationTypes(), casegraph.RelationType(t)) {
			return true
		}
	}
	return false
}

// nodeGated says whether a node passes the gate: bound before (what the
// statement found through the gate already), or tested by the gate
// among the conjuncts that hold of it, or one of a list bound before.
func (c *gateChecker) nodeGated(e *element, conj [][]cypherToken) bool {
	if e.bound || e.juxtaposed {
		return true
	}
	if e.v == "" {
		return false
	}
	all := append(slices.Clone(conj), e.where...)
	if hasMember(all, e.v, c.top().bound) {
		return true
	}
	if slices.ContainsFunc(e.labels, func(l string) bool { return dataLabels()[l] == "change" }) {
		return hasConjunct(all, c.forms.changeReadable(e.v))
	}
	return hasConjunct(all, c.forms.readable(e.v))
}

// last is the node at an item's end (a group's own).
func last(e *element) *element {
	if e.group && len(e.items) > 0 {
		return last(e.items[len(e.items)-1])
	}
	return e
}

// checkChain checks the elements of a part of a pattern (or of a
// quantified group), with the conjuncts that hold of them.
func (c *gateChecker) checkChain(p patternPart, items []*element, conj [][]cypherToken) {
	labels := dataLabels()
	has := func(e *element, form []cypherToken) bool {
		return hasConjunct(conj, form) || hasConjunct(e.where, form)
	}
	pathGated := func(fn string) bool {
		if p.path == "" {
			return false
		}
		for _, cj := range conj {
			if v, inner, ok := allOver(cj, fn, p.path); ok && hasConjunct(inner, c.forms.readable(v)) {
				return true
			}
		}
		return false
	}
	// ends: a relationship whose ends are tested by the gate.
	ends := func(e *element) bool {
		return e != nil && e.rel && e.v != "" && has(e, c.forms.readable("startNode("+e.v+")")) && has(e, c.forms.readable("endNode("+e.v+")"))
	}
	at := func(j int) *element {
		if j >= 0 && j < len(items) {
			return items[j]
		}
		return nil
	}
	for i, e := range items {
		prev, next := at(i-1), at(i+1)
		switch {
		case e.group:
			// A group's first node is the node before the group (in the
			// first iteration) or the group's last node (in the others).
			x := e.items[0]
			if !x.rel && len(x.labels) == 0 && len(x.props) == 0 && len(x.where) == 0 && !x.bound {
				x.juxtaposed = prev != nil && c.nodeGated(last(prev), conj) && c.nodeGated(last(e), nil)
			}
			c.checkChain(patternPart{}, e.items, nil)
		case e.rel:
			if !graphRelationship(e.labels) {
				continue
			}
			if e.varLength {
				if !pathGated("relationships") || !pathGated("nodes") {
					c.fail("a variable-length relationship not gated: want all(r IN relationships(p) WHERE %s ...) and all(y IN nodes(p) WHERE %s ...) on its path p", readable("r"), readable("y"))
				}
				continue
			}
			if e.v == "" {
				if c.allDatasets && c.top().inCount && len(e.props) == 0 && len(e.where) == 0 && next != nil &&
					next.v == "" && len(next.labels) == 0 && len(next.props) == 0 && len(next.where) == 0 {
					next.juxtaposed = true
					continue // a degree, for a caller who may read every dataset
				}
				c.fail("an anonymous relationship: name it and gate it (%s)", readable("r"))
				continue
			}
			if e.bound {
				continue
			}
			if !has(e, c.forms.readable(e.v)) {
				c.fail("relationship %s is not gated: no %s", e.v, readable(e.v))
			}
			if slices.Contains(e.props, "id") && (!has(e, c.forms.notHidden("startNode("+e.v+")")) || !has(e, c.forms.notHidden("endNode("+e.v+")"))) {
				c.fail("relationship %s found by its id: want NOT %s for both its ends (a relation of a protected person hidden from the caller is shown by its opaque id only)", e.v, hidden("startNode("+e.v+")"))
			}
		default:
			kind, other := "", false
			for _, l := range e.labels {
				if k, ok := labels[l]; ok {
					kind = k
				} else {
					other = true
				}
			}
			if other && kind == "" {
				continue // a node of no graph data (a saved query, a key)
			}
			if kind == "tombstone" {
				if e.v != "" {
					c.fail("a :MergedEntity node named %s: a tombstone only leads, anonymous, to its gated survivor", e.v)
				}
				continue
			}
			switch {
			case c.nodeGated(e, conj):
				if e.bound || kind != "entity" {
					continue
				}
				if (slices.Contains(e.props, "id") || idConjunct(e.v, conj)) && !has(e, c.forms.notHidden(e.v)) && !c.registryEnd(e) {
					c.fail("entity %s found by its real id: want NOT %s (a protected person hidden from the caller is found by its opaque id only)", e.v, hidden(e.v))
				}
				if slices.Contains(e.props, "redactedId") && !has(e, c.forms.hidden(e.v)) {
					c.fail("entity %s found by its opaque id: want %s", e.v, hidden(e.v))
				}
			case kind == "" && (ends(prev) || ends(next)):
				// an end of a relationship whose ends are tested
			case kind == "" && p.path != "" && pathGated("nodes"):
				// a node of a path whose nodes are tested
			case kind == "" && prev != nil && prev.group && c.nodeGated(last(prev), nil):
				// the last node of a quantified group
			default:
				c.fail("node %s is not gated: no %s", orDefault(e.v, "()"), readable(orDefault(e.v, "n")))
			}
		}
	}
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func tokensText(ts []cypherToken) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = t.text
	}
	return strings.Join(parts, " ")
}

// hasConjunct says whether the conjuncts hold the form: each conjunct of
// the form is one of them (either without parentheses around it).
func hasConjunct(conj [][]cypherToken, form []cypherToken) bool {
	have := map[string]bool{}
	for _, cj := range conj {
		have[tokensText(unwrap(cj))] = true
	}
	split := &gateChecker{toks: form, frames: []frame{newFrame()}}
	for _, want := range split.expr(exprStops{}) {
		if !have[tokensText(unwrap(want))] {
			return false
		}
	}
	return true
}

// unwrap removes parentheses around a whole expression.
func unwrap(ts []cypherToken) []cypherToken {
	for len(ts) >= 2 && ts[0].text == "(" && ts[len(ts)-1].text == ")" {
		depth := 0
		whole := true
		for i, t := range ts {
			switch t.text {
			case "(":
				depth++
			case ")":
				depth--
			}
			if depth == 0 && i < len(ts)-1 {
				whole = false
				break
			}
		}
		if !whole {
			return ts
		}
		ts = ts[1 : len(ts)-1]
	}
	return ts
}

// hasMember says whether a conjunct is "v IN w" with w bound already: v
// is one of what the statement found through the gate.
func hasMember(conj [][]cypherToken, v string, bound map[string]binding) bool {
	for _, cj := range conj {
		cj = unwrap(cj)
		if len(cj) == 3 && cj[0].text == v && strings.EqualFold(cj[1].text, "IN") && bound[cj[2].text] != 0 {
			return true
		}
	}
	return false
}

// allOver reads a conjunct all(v IN fn(path) WHERE inner) and returns v
// and inner's conjuncts.
func allOver(cj []cypherToken, fn, path string) (string, [][]cypherToken, bool) {
	cj = unwrap(cj)
	if len(cj) < 10 || !strings.EqualFold(cj[0].text, "all") || cj[1].text != "(" || !strings.EqualFold(cj[3].text, "IN") ||
		cj[4].text != fn || cj[5].text != "(" || cj[6].text != path || cj[7].text != ")" || !strings.EqualFold(cj[8].text, "WHERE") ||
		cj[len(cj)-1].text != ")" {
		return "", nil, false
	}
	inner := &gateChecker{toks: cj[9 : len(cj)-1], frames: []frame{newFrame()}}
	return cj[2].text, inner.expr(exprStops{}), true
}

// idConjunct says whether one of a MATCH's conjuncts finds v by its real
// id as the inline {id: ...} does: v.id = x, x = v.id, or v.id IN x.
func idConjunct(v string, conj [][]cypherToken) bool {
	isID := func(ts []cypherToken) bool {
		return len(ts) == 3 && ts[0].text == v && ts[1].text == "." && ts[2].text == "id"
	}
	for _, cj := range conj {
		cj = unwrap(cj)
		if len(cj) > 4 && isID(cj[:3]) && (cj[3].text == "=" || strings.EqualFold(cj[3].text, "IN")) {
			return true
		}
		if len(cj) > 4 && isID(cj[len(cj)-3:]) && cj[len(cj)-4].text == "=" {
			return true
		}
	}
	return false
}
