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
