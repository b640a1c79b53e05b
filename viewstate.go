package casegraph

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
)

// ViewState is what a kept view draws, in the shape of the explorer's view
// (web/src/explorer/state.ts, View), whose short keys it keeps so that the
// explorer saves and restores its own view as it is: the entities drawn
// with their places and flags, the relations drawn, the path search, the
// date, the panels open and the styling. Every field is known and checked
// (ParseViewState): nothing unknown is kept, so nothing unknown can carry
// an id past the gate when a view is shown.
type ViewState struct {
	Entities  []ViewEntity `json:"n"`
	Relations []string     `json:"r"` // by id (a relation's node id, relation~ID, is read as its id)
	Path      *ViewPath    `json:"p,omitempty"`
	AsOf      string       `json:"t,omitempty"` // "show as of": a partial date
	Open      string       `json:"e,omitempty"` // the entity open in the details panel
	Brushed   []string     `json:"b,omitempty"` // the time bar's brushed period: from, to
	Analysis  string       `json:"a,omitempty"` // what Analyse shows: degree, communities, ...
	Live      int          `json:"l,omitempty"` // 1: the live view is on
	Tab       string       `json:"o,omitempty"` // the details panel's tab open: paths, common, ...
	Layout    string       `json:"g,omitempty"` // the layout chosen: force, hierarchy, ...
	LeftOut   *ViewLeftOut `json:"y,omitempty"` // the kinds and relation types left out of the drawing
	// Projection is the map's projection (Equal Earth: scale, then
	// translation x and y), with the layout "map" only: the outlines go
	// back under the places where the view put them, as the explorer's
	// link keeps them (state.ts, View.m).
	Projection []float64 `json:"m,omitempty"`
}

// ViewEntity is an entity drawn: its id, where it is, and whether it is
// pinned, hidden or expanded; in JSON the explorer's [id, x, y, flags]
// ("p", "h", "x").
type ViewEntity struct {
	ID                       string
	X, Y                     float64
	Pinned, Hidden, Expanded bool
}

// ViewPath is the path search of a view: its ends, how many paths, its
// filter and the path chosen.
type ViewPath struct {
	From   string         `json:"f,omitempty"`
	To     string         `json:"t,omitempty"`
	K      int            `json:"k"`
	Filter ViewPathFilter `json:"q"`
	Chosen int            `json:"c"`
}

// ViewPathFilter is the explorer's path filter: the GraphQL PathFilter's
// fields it sets, by their GraphQL names.
type ViewPathFilter struct {
	MaxDepth      *int           `json:"maxDepth,omitempty"`
	RelationTypes []RelationType `json:"relationTypes,omitempty"`
	ExcludeIDs    []string       `json:"excludeIds,omitempty"`
	Kinds         []string       `json:"kinds,omitempty"` // PERSON, ...
	ValidAt       string         `json:"validAt,omitempty"`
	MinConfidence *float64       `json:"minConfidence,omitempty"`
	Statuses      []Status       `json:"statuses,omitempty"`
	MaxDegree     *int           `json:"maxDegree,omitempty"`
}

// ViewLeftOut is what the legend's toggles leave out of the drawing.
type ViewLeftOut struct {
	Kinds []string       `json:"k,omitempty"` // PERSON, ...
	Types []RelationType `json:"t,omitempty"`
}

// maxCoordinate bounds where an entity may be drawn.
const maxCoordinate = 1e7

// viewWord is what the state's words may be (a tab, a layout, a measure):
// short, lower-case, never an id.
var viewWord = regexp.MustCompile(`^[a-z][a-z+-]{0,39}$`)

// MarshalJSON writes the explorer's [id, x, y, flags].
func (e ViewEntity) MarshalJSON() ([]byte, error) {
	flags := ""
	for _, f := range []struct {
		on bool
		c  string
	}{{e.Pinned, "p"}, {e.Hidden, "h"}, {e.Expanded, "x"}} {
		if f.on {
			flags += f.c
		}
	}
	return json.Marshal([]any{e.ID, e.X, e.Y, flags})
}

// UnmarshalJSON reads [id, x, y, flags], each flag at most once.
func (e *ViewEntity) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil || len(raw) != 4 {
		return Errorf(CodeBadUserInput, "an entity drawn is [id, x, y, flags]")
	}
	var flags string
	for i, dst := range []any{&e.ID, &e.X, &e.Y, &flags} {
		if err := json.Unmarshal(raw[i], dst); err != nil {
			return Errorf(CodeBadUserInput, "an entity drawn is [id, x, y, flags]: item %d is not a %s", i, []string{"string", "number", "number", "string"}[i])
		}
	}
	for _, c := range flags {
		on := map[rune]*bool{'p': &e.Pinned, 'h': &e.Hidden, 'x': &e.Expanded}[c]
		if on == nil || *on {
			return Errorf(CodeBadUserInput, "flags %q: use p (pinned), h (hidden) and x (expanded), each once", truncate(flags, 10))
		}
		*on = true
	}
	return nil
}

// ParseViewState reads a view's state from JSON, strictly (an unknown key
// is refused), and checks it: every id's form, every word and date, the
// path filter as a path search checks it, and the limits. Errors name
// their field under state (state.n[3], state.p.q.kinds[0]).
func ParseViewState(raw json.RawMessage) (ViewState, error) {
	var s ViewState
	if len(raw) > MaxViewStateBytes {
		return s, InField("state", Errorf(CodeBadUserInput, "%d bytes; the limit is %d", len(raw), MaxViewStateBytes))
	}
	if trimmed := bytes.TrimSpace(raw); len(trimmed) == 0 || trimmed[0] != '{' {
		return s, InField("state", Errorf(CodeBadUserInput, "not a view: want one JSON object"))
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil || dec.More() {
		return ViewState{}, InField("state", Errorf(CodeBadUserInput, "not a view: %s", jsonProblem(err)))
	}
	return s, InField("state", s.validate())
}

// jsonProblem says what is wrong with a JSON view, in words that quote
// nothing but its field names.
func jsonProblem(err error) string {
	var coded *Error
	var typeErr *json.UnmarshalTypeError
	switch {
	case err == nil:
		return "want one JSON object"
	case errors.As(err, &coded):
		return coded.Message
	case errors.As(err, &typeErr):
		return fmt.Sprintf("%s is not a %s", typeErr.Field, typeErr.Type)
	case strings.HasPrefix(err.Error(), "json: unknown field"):
		return strings.TrimPrefix(err.Error(), "json: ")
	}
	return "not valid JSON"
}

// validate checks a state read from JSON.
func (s ViewState) validate() error {
	var p problems
	if s.Entities == nil || s.Relations == nil {
		p.add("n", Errorf(CodeBadUserInput, "n (the entities) and r (the relations) are required"))
	}
	if len(s.Entities) > MaxViewEntities {
		p.add("n", Errorf(CodeBadUserInput, "n: %d entities; the limit is %d", len(s.Entities), MaxViewEntities))
	}
	if len(s.Relations) > MaxViewRelations {
		p.add("r", Errorf(CodeBadUserInput, "r: %d relations; the limit is %d", len(s.Relations), MaxViewRelations))
	}
	for i, e := range s.Entities[:min(len(s.Entities), MaxViewEntities)] {
		f := fmt.Sprintf("n[%d]", i)
		p.add(f, ValidateID(f, e.ID))
		if math.Abs(e.X) > maxCoordinate || math.Abs(e.Y) > maxCoordinate {
			p.add(f, Errorf(CodeBadUserInput, "%s: x and y lie within ±%g", f, maxCoordinate))
		}
	}
	for i, id := range s.Relations[:min(len(s.Relations), MaxViewRelations)] {
		f := fmt.Sprintf("r[%d]", i)
		bare, err := BareID(NodeRelation, f, id)
		p.add(f, err)
		s.Relations[i] = bare
	}
	if s.Path != nil {
		p.add("", InField("p", s.Path.validate()))
	}
	p.add("t", ValidateDate("t", s.AsOf))
	if s.Open != "" {
		p.add("e", ValidateID("e", s.Open))
	}
	if s.Brushed != nil {
		if len(s.Brushed) != 2 {
			p.add("b", Errorf(CodeBadUserInput, "b is the period brushed: [from, to]"))
		} else {
			p.add("b", ValidateDateRange("b[0]", s.Brushed[0], "b[1]", s.Brushed[1]))
		}
	}
	for _, w := range []struct{ field, word string }{{"a", s.Analysis}, {"o", s.Tab}, {"g", s.Layout}} {
		if w.word != "" && !viewWord.MatchString(w.word) {
			p.add(w.field, Errorf(CodeBadUserInput, "%s %q is not a word of the explorer's (lower-case letters, + and -)", w.field, truncate(w.word, 40)))
		}
	}
	if s.Live != 0 && s.Live != 1 {
		p.add("l", Errorf(CodeBadUserInput, "l is 1 when the live view is on, else left out"))
	}
	if s.Projection != nil {
		p.add("m", s.validateProjection())
	}
	if s.LeftOut != nil {
		p.add("y.k", validateKindNames("y.k", s.LeftOut.Kinds))
		p.add("y.t", validateTypes("y.t", s.LeftOut.Types))
	}
	return p.err()
}

// validateProjection checks the map's projection: with the map as the
// layout, a scale above 0 and a translation, each within ±maxCoordinate.
func (s ViewState) validateProjection() error {
	m := s.Projection
	switch {
	case s.Layout != "map":
		return Errorf(CodeBadUserInput, "m is the map's projection: only with g \"map\"")
	case len(m) != 3:
		return Errorf(CodeBadUserInput, "m is the map's projection: [scale, x, y]")
	case m[0] <= 0 || slices.ContainsFunc(m, func(v float64) bool { return math.Abs(v) > maxCoordinate }):
		return Errorf(CodeBadUserInput, "m: the scale lies above 0, and every number within ±%g", maxCoordinate)
	}
	return nil
}

// validate checks a path search as the explorer keeps it, with the rules
// of a path search (PathFilter.Normalize).
func (v ViewPath) validate() error {
	var p problems
	for _, end := range []struct{ field, id string }{{"f", v.From}, {"t", v.To}} {
		if end.id != "" {
			p.add(end.field, ValidateID(end.field, end.id))
		}
	}
	if v.K < 1 || v.K > MaxPaths {
		p.add("k", Errorf(CodeBadUserInput, "k must be from 1 to %d, not %d", MaxPaths, v.K))
	}
	if v.Chosen < 0 || v.Chosen >= MaxPaths {
		p.add("c", Errorf(CodeBadUserInput, "c (the path chosen) must be from 0 to %d, not %d", MaxPaths-1, v.Chosen))
	}
	q := v.Filter
	p.add("q.kinds", validateKindNames("q.kinds", q.Kinds))
	f := DefaultPathFilter()
	if q.MaxDepth != nil {
		f.MaxDepth = *q.MaxDepth
	}
	f.RelationTypes, f.ExcludeIDs, f.ValidAt, f.MinConfidence, f.Statuses, f.MaxDegree =
		q.RelationTypes, q.ExcludeIDs, q.ValidAt, q.MinConfidence, q.Statuses, q.MaxDegree
	p.add("", InField("q", f.Normalize()))
	return p.err()
}

// validateKindNames checks kinds as the API names them (PERSON, ...).
func validateKindNames(field string, kinds []string) error {
	for i, k := range kinds {
		if !slices.ContainsFunc(Kinds(), func(kind Kind) bool { return EnumName(kind) == k }) {
			return UnknownValue(fmt.Sprintf("%s[%d]", field, i), "entity kind", k, Kinds())
		}
	}
	return nil
}

// validateTypes checks relation types of the vocabulary.
func validateTypes(field string, types []RelationType) error {
	for i, t := range types {
		if _, err := Spec(t); err != nil {
			return UnknownValue(fmt.Sprintf("%s[%d]", field, i), "relation type", string(t), RelationTypes())
		}
	}
	return nil
}

// Keys are the entity and relation ids a state names (every id once, in
// the order they come): the entities drawn, the path's ends and the ids it
// keeps out, the entity open; the relations drawn.
func (s ViewState) Keys() (entities, relations []string) {
	seen := map[string]bool{}
	add := func(id string) {
		if id != "" && !seen[id] {
			seen[id] = true
			entities = append(entities, id)
		}
	}
	for _, e := range s.Entities {
		add(e.ID)
	}
	if s.Path != nil {
		add(s.Path.From)
		add(s.Path.To)
		for _, id := range s.Path.Filter.ExcludeIDs {
			add(id)
		}
	}
	add(s.Open)
	seen = map[string]bool{}
	for _, id := range s.Relations {
		if !seen[id] {
			seen[id] = true
			relations = append(relations, id)
		}
	}
	return entities, relations
}

// Rename is the state with every entity id and relation id renamed by
// entity and relation (true: kept as the id returned; false: left out):
// an entity drawn twice under one name (ids merged into one entity) is
// drawn once, where it was first; a path end left out leaves the end
// empty.
func (s ViewState) Rename(entity, relation func(string) (string, bool)) ViewState {
	out := s
	out.Entities = make([]ViewEntity, 0, len(s.Entities))
	drawn := map[string]bool{}
	for _, e := range s.Entities {
		if id, ok := entity(e.ID); ok && !drawn[id] {
			drawn[id] = true
			e.ID = id
			out.Entities = append(out.Entities, e)
		}
	}
	out.Relations = make([]string, 0, len(s.Relations))
	kept := map[string]bool{}
	for _, r := range s.Relations {
		if id, ok := relation(r); ok && !kept[id] {
			kept[id] = true
			out.Relations = append(out.Relations, id)
		}
	}
	one := func(id string) string {
		if id == "" {
			return ""
		}
		if now, ok := entity(id); ok {
			return now
		}
		return ""
	}
	if s.Path != nil {
		p := *s.Path
		p.From, p.To = one(p.From), one(p.To)
		p.Filter.ExcludeIDs = nil
		for _, id := range s.Path.Filter.ExcludeIDs {
			if now := one(id); now != "" {
				p.Filter.ExcludeIDs = append(p.Filter.ExcludeIDs, now)
			}
		}
		out.Path = &p
	}
	out.Open = one(s.Open)
	return out
}

// Show is a kept state (real ids) as a reader sees it: every id by the id
// the reader reads it by (an opaque id for a protected person hidden from
// it, or a relation of one), and what it may not read left out, nowhere to
// be found in it.
func (s ViewState) Show(entities, relations map[string]Shown) ViewState {
	pick := func(names map[string]Shown) func(string) (string, bool) {
		return func(id string) (string, bool) {
			n, ok := names[id]
			return n.ID, ok
		}
	}
	return s.Rename(pick(entities), pick(relations))
}

// Unknown is NOT_FOUND, at its field, for the first id of the state that
// known does not know (entity for entity ids, relation for relation
// ids), or nil when it knows them all.
func (s ViewState) Unknown(entity, relation func(string) bool) error {
	missing := func(field, what, id string) error {
		return InField("state."+field, Errorf(CodeNotFound, "no %s %q", what, truncate(id, 40)))
	}
	for i, e := range s.Entities {
		if !entity(e.ID) {
			return missing(fmt.Sprintf("n[%d]", i), "entity", e.ID)
		}
	}
	for i, id := range s.Relations {
		if !relation(id) {
			return missing(fmt.Sprintf("r[%d]", i), "relation", id)
		}
	}
	if p := s.Path; p != nil {
		for _, end := range []struct{ field, id string }{{"p.f", p.From}, {"p.t", p.To}} {
			if end.id != "" && !entity(end.id) {
				return missing(end.field, "entity", end.id)
			}
		}
		for i, id := range p.Filter.ExcludeIDs {
			if !entity(id) {
				return missing(fmt.Sprintf("p.q.excludeIds[%d]", i), "entity", id)
			}
		}
	}
	if s.Open != "" && !entity(s.Open) {
		return missing("e", "entity", s.Open)
	}
	return nil
}
