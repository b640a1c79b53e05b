package casegraph

// What one compiled read of entities asks for (EntityRead: a GraphQL
// selection under an entity, compiled by graph) and what it returns
// (ReadResult); the store answers all of it in one statement
// (cypher/entityread.go).

import "slices"

// EntityRead says what to read with an entity besides its own fields: its
// sources, and pages of its relations, each with what to read of the
// relations and of the entities at their other ends. It is what a GraphQL
// selection under an entity asks for, compiled (graph.entityRead) so that
// the store can answer all of it in one statement.
type EntityRead struct {
	Sources   bool
	Relations []RelationsRead
	// Properties, on the read's root only: what to return of every entity
	// and relation (nil: everything).
	Properties *Properties
}

// RelationsRead is one page of an entity's relations, as one `relations`
// field (or several with the same arguments) asks for it.
type RelationsRead struct {
	Filter RelationFilter
	Page   Page
	// Total: the page's totalCount is asked for.
	Total bool
	// Sources: the relations' sources are asked for.
	Sources bool
	// Ends is what to read of the entity at a relation's other end; nil
	// when neither end is asked for.
	Ends *EntityRead
}

// Empty reports whether the read asks for nothing beyond the entity's own
// fields.
func (r *EntityRead) Empty() bool {
	return r == nil || (!r.Sources && len(r.Relations) == 0)
}

// Merge adds what o asks for to r: pages with the same filter and page
// become one, their ends' reads merged.
func (r *EntityRead) Merge(o *EntityRead) {
	if o == nil {
		return
	}
	r.Sources = r.Sources || o.Sources
	for _, p := range o.Relations {
		r.addRelations(p)
	}
}

func (r *EntityRead) addRelations(p RelationsRead) {
	for i := range r.Relations {
		q := &r.Relations[i]
		if !q.sameWindow(p) {
			continue
		}
		q.Total = q.Total || p.Total
		q.Sources = q.Sources || p.Sources
		if p.Ends != nil {
			if q.Ends == nil {
				q.Ends = &EntityRead{}
			}
			q.Ends.Merge(p.Ends)
		}
		return
	}
	if p.Ends != nil {
		ends := &EntityRead{}
		ends.Merge(p.Ends)
		p.Ends = ends
	}
	r.Relations = append(r.Relations, p)
}

// sameWindow reports whether two reads ask for the same page of the same
// relations (the order of types does not matter).
func (p RelationsRead) sameWindow(o RelationsRead) bool {
	return p.Page == o.Page && p.Filter.Direction == o.Filter.Direction && sameTypes(p.Filter.Types, o.Filter.Types)
}

func sameTypes(a, b []RelationType) bool {
	if len(a) != len(b) {
		return false
	}
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// ReadResult is everything one compiled read returned, for the request's
// loaders to hold: the entities asked for by the key they were asked by (an
// id merged away finds its survivor), every entity read on the way, every
// page of relations and every source.
type ReadResult struct {
	Roots    map[string]Entity
	Entities []Entity
	Pages    []EntityRelations
	Sources  []Source
}

// EntityRelations is one page of one entity's relations, with the filter
// and page it answers.
type EntityRelations struct {
	EntityID string
	Filter   RelationFilter
	Page     Page
	Result   RelationPage
	// Total: Result.Total was counted (it was asked for).
	Total bool
}

// ShareTotals asks for the total of every page whose window (filter and
// page) has its total asked for anywhere in the read: the request's
// loaders hold one page per entity and window, whichever field read it
// first, so every copy must carry the total that any of them needs.
func (r *EntityRead) ShareTotals() {
	var counted []RelationsRead
	var collect func(r *EntityRead)
	collect = func(r *EntityRead) {
		if r == nil {
			return
		}
		for _, p := range r.Relations {
			if p.Total {
				counted = append(counted, p)
			}
			collect(p.Ends)
		}
	}
	collect(r)
	if len(counted) == 0 {
		return
	}
	var mark func(r *EntityRead)
	mark = func(r *EntityRead) {
		if r == nil {
			return
		}
		for i := range r.Relations {
			p := &r.Relations[i]
			for _, c := range counted {
				if p.sameWindow(c) {
					p.Total = true
				}
			}
			mark(p.Ends)
		}
	}
	mark(r)
}

// Properties names what a read returns of every entity and relation it
// reads: the properties some field of the operation shows, so that a hub's
// thousand neighbours do not bring their descriptions along when only their
// names are asked for. Ids, kinds, types and ends always come. Nil means
// everything.
type Properties struct {
	Entity   []string // of EntityProperties
	Relation []string // of RelationProperties
}

// EntityProperties and RelationProperties are the properties a read may
// return besides those that always come: for entities, the table's
// (property.go) and the system ones; for relations, those every relation
// has, then the type-specific ones (relationproperty.go).
var (
	EntityProperties   = entityPropertyNames()
	RelationProperties = append(append([]string{"role", "startDate", "endDate", "status", "confidence", "sourceIds"},
		append(CitationProperties, "dataset")...), RelationPropertyNames()...)
	// CitationProperties are the parallel lists that hold a claim's
	// citations beside its sourceIds (entities' and relations' alike).
	CitationProperties = []string{"citationQuotes", "citationLocators", "citationCredibility", "citationGrades"}
)
