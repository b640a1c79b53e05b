package casegraph

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"golang.org/x/text/unicode/norm"
)

// Kind is the kind of an entity. Each kind is also a Neo4j label, so the
// set is closed: labels in Cypher only ever come from this list.
type Kind string

// The entity kinds.
const (
	KindPerson       Kind = "Person"
	KindOrganization Kind = "Organization"
	KindEvent        Kind = "Event"
	KindDocument     Kind = "Document"
	KindPlace        Kind = "Place"
)

// Kinds returns every entity kind, in a stable order; the slice is the
// caller's to change.
func Kinds() []Kind {
	return []Kind{KindPerson, KindOrganization, KindEvent, KindDocument, KindPlace}
}

// ParseKind returns the Kind named s, or a BAD_USER_INPUT error that
// lists the kinds and suggests the nearest.
func ParseKind(s string) (Kind, error) {
	for _, k := range Kinds() {
		if string(k) == s {
			return k, nil
		}
	}
	return "", UnknownValue("kind", "entity kind", s, Kinds())
}

// Entity is an entity as stored, with the fields common to every kind.
type Entity struct {
	// KeepProtection says that a write does not say whether the entity is
	// protected: the stored choice stays (an API upsert that leaves
	// protected out must not expose a witness). Not stored.
	KeepProtection bool

	// Version counts the writes to the entity (1 after its creation); an
	// update that names a version other than the stored one is refused.
	Version   int64
	CreatedAt time.Time
	UpdatedAt time.Time

	ID          string
	Kind        Kind
	Name        string
	Aliases     []string
	Description string
	Dataset     string
	// Citations are the entity's evidence, each source cited with its own
	// quote, locator and credibility; SourceIDs the sources they cite, each
	// once (a write may give SourceIDs alone: each is cited, CitationsOf).
	Citations []Citation
	SourceIDs []string

	// Attributes are the kind-specific properties (see property.go);
	// empty where the kind has none.
	Attributes

	// Redacted says the entity was read by a caller without clearance and
	// is protected: ID is its opaque id, Name "Protected person", and
	// nothing else that could identify it was read. Read only.
	Redacted bool
}

// RedactedName is the name a protected entity shows to callers without
// clearance.
const RedactedName = "Protected person"

// Categories lists the categories an entity of the kind may have; none for
// a person or a place.
func Categories(k Kind) []string {
	switch k {
	case KindOrganization:
		return []string{"GOVERNMENT", "TRIBUNAL", "LAW_FIRM", "MEDIA", "ARMED_GROUP", "NGO",
			"INTERGOVERNMENTAL", "POLITICAL_PARTY", "COMPANY", "OTHER"}
	case KindEvent:
		return []string{"ATROCITY", "ARMED_CONFLICT", "DETENTION", "TRIAL", "CONFERENCE", "ELECTION",
			"PROTEST", "MEETING", "PUBLICATION", "OTHER"}
	case KindDocument:
		return []string{"REPORT", "ARTICLE", "COURT_FILING", "JUDGMENT", "TESTIMONY", "STATEMENT",
			"PHOTOGRAPH", "LEAK", "OTHER"}
	}
	return nil
}

// validateKindFields checks the properties of the table: that the entity's
// kind may carry each one it has, and each one's rule; every problem, each
// under its property's name.
func (e Entity) validateKindFields() error {
	var out problems
	for _, p := range entityProperties {
		if p.Kinds != nil && !slices.Contains(p.Kinds, e.Kind) && p.IsSet(e) {
			out.add(p.Name, Errorf(CodeBadUserInput, "a %s has no %s (a property of %s)", e.Kind, p.Name, orList(p.Kinds)))
		} else if p.check != nil {
			out.add(p.Name, p.check(e))
		}
	}
	return out.err()
}

// canonicalEnums spells the entity's enum values as the domain does,
// whatever their case in the input (Canonical).
func (e *Entity) canonicalEnums() {
	e.Kind = Canonical(e.Kind, Kinds())
	e.Category = Canonical(e.Category, Categories(e.Kind))
	e.Gender = Canonical(e.Gender, Genders())
	for i, id := range e.Identifiers {
		e.Identifiers[i].Type = Canonical(id.Type, IdentifierTypes())
	}
}

// EntityFilter narrows a list of entities; empty fields do not filter.
type EntityFilter struct {
	Kinds        []Kind
	Datasets     []string
	Category     string
	NameContains string // matched folded: case and accents do not matter
	// DateFrom and DateTo (partial dates) keep events whose dates meet the
	// range and documents published in it; entities without dates go.
	DateFrom, DateTo string
	// HasRelation keeps entities with a relation of one of these types.
	HasRelation []RelationType
	// Near keeps the places within a distance of a point (nil: any).
	Near *Near
}

// Near is a circle on the earth: the places whose coordinates are within
// Kilometres of the point (great-circle distance, WGS 84), answered from
// the point index on places' coordinates.
type Near struct {
	Coordinates
	Kilometres float64
}

// MaxNearKilometres bounds a near filter's radius: a wider circle would
// read a continent's places, which a listing by name or date does better.
const MaxNearKilometres = 1000

// Validate checks a near filter (nil: none): its point, and a radius
// above 0 and at most MaxNearKilometres.
func (n *Near) Validate() error {
	if n == nil {
		return nil
	}
	if err := n.check("filter.near"); err != nil {
		return err
	}
	if math.IsNaN(n.Kilometres) || n.Kilometres <= 0 || n.Kilometres > MaxNearKilometres {
		return Errorf(CodeBadUserInput, "filter.near.kilometres %v is not above 0 and at most %d", n.Kilometres, MaxNearKilometres)
	}
	return nil
}

// EntityOrderField is what a list of entities is sorted by.
type EntityOrderField string

// The sort keys of entity lists; ties go by id.
const (
	OrderByID        EntityOrderField = "ID"
	OrderByName      EntityOrderField = "NAME"
	OrderByUpdatedAt EntityOrderField = "UPDATED_AT"
	OrderByDegree    EntityOrderField = "DEGREE"
)

// EntityOrderFields are the sort keys, in the schema's order.
func EntityOrderFields() []EntityOrderField {
	return []EntityOrderField{OrderByID, OrderByName, OrderByUpdatedAt, OrderByDegree}
}

// EntityOrder sorts a list of entities.
type EntityOrder struct {
	Field EntityOrderField
	Desc  bool
}

// DefaultEntityOrder is the order of a list that asks for none: by id,
// ascending.
var DefaultEntityOrder = EntityOrder{Field: OrderByID}

// Direction is ASC or DESC.
func (o EntityOrder) Direction() string {
	if o.Desc {
		return "DESC"
	}
	return "ASC"
}

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

// MaxFilterValues is the most values a filter's list may hold.
const MaxFilterValues = 50

// Validate checks a filter of entities.
func (f EntityFilter) Validate() error {
	if err := validateScope("filter", f.Kinds, f.Datasets); err != nil {
		return err
	}
	if f.Category != "" && !slices.ContainsFunc(Kinds(), func(k Kind) bool { return slices.Contains(Categories(k), f.Category) }) {
		return Errorf(CodeBadUserInput, "filter.category: unknown category %q", truncate(f.Category, 40))
	}
	if err := ValidateDate("filter.dateFrom", f.DateFrom); err != nil {
		return err
	}
	if err := ValidateDate("filter.dateTo", f.DateTo); err != nil {
		return err
	}
	if f.DateFrom != "" && f.DateTo != "" && MustPartialDate(f.DateTo).Latest() < MustPartialDate(f.DateFrom).Earliest() {
		return Errorf(CodeBadUserInput, "filter.dateTo %s is before dateFrom %s", f.DateTo, f.DateFrom)
	}
	if len(f.HasRelation) > MaxFilterValues {
		return Errorf(CodeBadUserInput, "filter.hasRelation: at most %d types", MaxFilterValues)
	}
	for _, t := range f.HasRelation {
		if _, err := Spec(t); err != nil {
			return err
		}
	}
	if err := f.Near.Validate(); err != nil {
		return err
	}
	return TextRule{Max: MaxNameLength}.Check("filter.nameContains", f.NameContains)
}

// EntitiesRequest asks for one page of the entities that match Filter, in
// Order (ties by id).
type EntitiesRequest struct {
	Filter EntityFilter
	Order  EntityOrder
	Page   Page
}

// NewEntitiesRequest is the list of every entity with the defaults:
// DefaultEntityOrder, the first DefaultPageSize.
func NewEntitiesRequest() EntitiesRequest {
	return EntitiesRequest{Order: DefaultEntityOrder, Page: Page{First: DefaultPageSize}}
}

// Validate checks the filter, the order, and that the page's sort key (from a cursor) is of the order's type: the key reaches
// Cypher as a time or a number (a cursor's checksum keeps out accidents,
// not forgeries).
func (q EntitiesRequest) Validate() error {
	if err := q.Filter.Validate(); err != nil {
		return err
	}
	if !slices.Contains(EntityOrderFields(), q.Order.Field) {
		return Errorf(CodeBadUserInput, "cannot sort by %q", truncate(string(q.Order.Field), 40))
	}
	if q.Page.After == "" {
		return nil
	}
	var err error
	switch q.Order.Field {
	case OrderByUpdatedAt:
		_, err = time.Parse(time.RFC3339Nano, q.Page.AfterKey)
	case OrderByDegree:
		_, err = strconv.ParseInt(q.Page.AfterKey, 10, 64)
	}
	if err != nil {
		return Errorf(CodeBadUserInput, "after: not a cursor of this list")
	}
	return nil
}

// validateScope checks the kinds and datasets a filter keeps; field (""
// for none) names the filter in errors.
func validateScope(field string, kinds []Kind, datasets []string) error {
	prefix, datasetsField := "", "datasets"
	if field != "" {
		prefix, datasetsField = field+": ", field+".datasets"
	}
	if len(kinds) > MaxFilterValues || len(datasets) > MaxFilterValues {
		return Errorf(CodeBadUserInput, "%sat most %d kinds and %d datasets", prefix, MaxFilterValues, MaxFilterValues)
	}
	if err := validateKinds(kinds); err != nil {
		return err
	}
	for _, ds := range datasets {
		if err := ValidateID(datasetsField, ds); err != nil {
			return err
		}
	}
	return nil
}

func validateKinds(kinds []Kind) error {
	for _, k := range kinds {
		if _, err := ParseKind(string(k)); err != nil {
			return err
		}
	}
	return nil
}

// Text is stored in Unicode normalization form C: an "é" typed as "e" and
// a combining accent is stored as the one character "é", so that what a
// client reads back, compares, or matches against a constraint is the same
// text however it was typed. Each Normalize puts a write's text in NFC and
// then checks it with Validate.

// Normalize puts the entity's free text (name, aliases, description, birth
// place, address, identifiers) in NFC, then validates it.
func (e *Entity) Normalize() error {
	e.canonicalEnums()
	e.Name, e.Description = norm.NFC.String(e.Name), norm.NFC.String(e.Description)
	for i, a := range e.Aliases {
		e.Aliases[i] = norm.NFC.String(a)
	}
	// The free text of the identifying fields too: a birth place or an
	// identifier typed decomposed must equal the same one typed composed.
	e.BirthPlace, e.Address = norm.NFC.String(e.BirthPlace), norm.NFC.String(e.Address)
	for i, id := range e.Identifiers {
		e.Identifiers[i].Value, e.Identifiers[i].Issuer = norm.NFC.String(id.Value), norm.NFC.String(id.Issuer)
	}
	if err := e.Validate(); err != nil {
		return err
	}
	e.Citations, _ = normalizeCitations(e.Citations, e.SourceIDs, "")
	e.SourceIDs = CitedSourceIDs(e.Citations)
	return nil
}

// Validate checks an entity before it is written, and reports every
// problem it finds at once (Problems), each with its field.
func (e Entity) Validate() error {
	var p problems
	p.add("id", ValidateID("id", e.ID))
	_, kindErr := ParseKind(string(e.Kind))
	p.add("kind", kindErr)
	p.add("name", nameRule.Check("name", e.Name))
	if len(e.Aliases) > MaxAliases {
		p.add("aliases", Errorf(CodeBadUserInput, "%d aliases; the limit is %d", len(e.Aliases), MaxAliases))
	} else {
		for i, a := range e.Aliases {
			field := fmt.Sprintf("aliases[%d]", i)
			p.add(field, nameRule.Check(field, a))
		}
	}
	p.add("description", descriptionRule.Check("description", e.Description))
	p.add("dataset", ValidateID("dataset", e.Dataset))
	if kindErr == nil {
		// The kind's properties, when there is a kind to judge them by.
		p.add("", e.validateKindFields())
	}
	_, err := normalizeCitations(e.Citations, e.SourceIDs, "")
	p.add("", err)
	return p.err()
}

// Cited returns the entity's citations: Citations, or, for an entity
// given the old way, one for each of SourceIDs (CitationsOf).
func (e Entity) Cited() []Citation {
	if len(e.Citations) > 0 {
		return e.Citations
	}
	return CitationsOf(e.SourceIDs, "")
}
