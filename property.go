package casegraph

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// The one table of the properties an entity stores. Each has one name
// everywhere: the Neo4j property, the GraphQL field (sourceIds excepted: the
// field is sources) and the key in data files. Everything that lists them
// is derived from the table: the Cypher projection and the upsert's SET
// list (cypher/statements), the write parameters, content hash and record
// mapper (cypher/entity.go), what a read may return (EntityProperties) and
// so what a GraphQL selection asks of the store, which kinds may carry a
// property and its value's rules, and the data files' record (through
// Attributes, which dataset.Record embeds).
//
// To add a property: a field of Attributes (its JSON name is the property
// name) and a row at the end of entityProperties here, then the GraphQL
// side by hand (graph/schema/entity.graphqls, graph/model/entity.go and
// the conversions in graph/entity.go) and the README.

// Attributes are the properties an entity may store beyond those every
// entity has: the kind-specific ones, and any added later. Entity embeds
// them; so does dataset.Record, whose keys are their JSON names (and where a
// source's url and publishedAt and a relation's startDate and endDate are
// the fields of the same name).
type Attributes struct {
	Category    string `json:"category,omitempty"`    // Organization, Event, Document
	StartDate   string `json:"startDate,omitempty"`   // Event, a partial date
	EndDate     string `json:"endDate,omitempty"`     // Event, a partial date
	PublishedAt string `json:"publishedAt,omitempty"` // Document, a partial date
	PageCount   int    `json:"pageCount,omitempty"`   // Document
	URL         string `json:"url,omitempty"`         // Document
	Nationality string `json:"nationality,omitempty"` // Person, an ISO 3166 alpha-2 code
	// Protected withholds the entity from callers without clearance: they
	// see it redacted (Entity.Redacted), never its name, aliases or id.
	Protected bool `json:"protected,omitempty"`
}

var (
	forEvents    = []Kind{KindEvent}
	forDocuments = []Kind{KindDocument}
)

// entityProperties is the table, in the order every list of properties
// follows (and the content hash: append new rows at the end).
var entityProperties = []EntityProperty{
	// Every kind has these; Entity.Validate checks them.
	{Name: "name", AlwaysHashed: true, field: text(func(e *Entity) *string { return &e.Name })},
	{Name: "aliases", AlwaysHashed: true, field: list(func(e *Entity) *[]string { return &e.Aliases })},
	{Name: "description", AlwaysHashed: true, field: text(func(e *Entity) *string { return &e.Description })},
	{Name: "dataset", AlwaysHashed: true, field: text(func(e *Entity) *string { return &e.Dataset })},
	{Name: "sourceIds", AlwaysHashed: true, field: list(func(e *Entity) *[]string { return &e.SourceIDs })},

	// Attributes.
	{Name: "category", Kinds: []Kind{KindOrganization, KindEvent, KindDocument}, AlwaysHashed: true,
		field: text(func(e *Entity) *string { return &e.Category }), check: checkCategory},
	{Name: "startDate", Kinds: forEvents, AlwaysHashed: true,
		field: text(func(e *Entity) *string { return &e.StartDate }), check: func(e Entity) error {
			return ValidateDateRange("startDate", e.StartDate, "endDate", e.EndDate)
		}},
	{Name: "endDate", Kinds: forEvents, AlwaysHashed: true, field: text(func(e *Entity) *string { return &e.EndDate })},
	{Name: "publishedAt", Kinds: forDocuments, AlwaysHashed: true,
		field: text(func(e *Entity) *string { return &e.PublishedAt }), check: func(e Entity) error {
			return ValidateDate("publishedAt", e.PublishedAt)
		}},
	{Name: "pageCount", Kinds: forDocuments, AlwaysHashed: true,
		field: number(func(e *Entity) *int { return &e.PageCount }), check: func(e Entity) error {
			if e.PageCount < 0 || e.PageCount > 1_000_000 {
				return Errorf(CodeBadUserInput, "pageCount %d is not between 0 and 1000000", e.PageCount)
			}
			return nil
		}},
	{Name: "url", Kinds: forDocuments, AlwaysHashed: true,
		field: text(func(e *Entity) *string { return &e.URL }), check: func(e Entity) error {
			return ValidateURL("url", e.URL)
		}},
	{Name: "nationality", Kinds: []Kind{KindPerson}, AlwaysHashed: true,
		field: text(func(e *Entity) *string { return &e.Nationality }), check: checkNationality},
	{Name: "protected", field: flag(func(e *Entity) *bool { return &e.Protected })},
}

// systemProperties are stored on every entity by the writes themselves,
// never set from outside; reads return them after the table's.
var systemProperties = []string{"version", "createdAt", "updatedAt"}

// EntityProperty is one row of the table: a property an entity stores.
type EntityProperty struct {
	// Name is the property's name everywhere.
	Name string
	// Kinds are the kinds that may carry the property; nil for every kind.
	Kinds []Kind
	// AlwaysHashed puts the property in every content hash, set or not, in
	// table order: the properties the hash began with. A property added
	// later leaves it false: it enters the hash only when set, with its
	// name, so adding it changes no stored entity's hash and the next
	// import does not rewrite every entity.
	AlwaysHashed bool

	field fieldRef
	// check is the rule of the property's value (nil: none, or, for the
	// properties every kind has, in Entity.Validate).
	check func(Entity) error
}

// PropertyType is the Go and Neo4j type of a property's values.
type PropertyType int

// The property types. The zero value of each ("", 0, an empty list) means
// the property is not set; it is stored as absent (a list as empty).
const (
	PropertyString PropertyType = iota // string
	PropertyInt                        // int (an integer in Neo4j)
	PropertyList                       // []string (a list of strings in Neo4j)
	PropertyBool                       // bool (a boolean in Neo4j; false is stored as absent)
)

// EntityPropertyTable returns the table of the properties an entity
// stores, in its order; the slice is the caller's to change.
func EntityPropertyTable() []EntityProperty {
	return slices.Clone(entityProperties)
}

// Type is the type of the property's values.
func (p EntityProperty) Type() PropertyType {
	return p.field.typ
}

// Value is the property's value on e: a string, an int, a bool or a []string, as
// Type says.
func (p EntityProperty) Value(e Entity) any {
	return p.field.get(&e)
}

// Set sets the property on e to v, which must be of the property's type.
func (p EntityProperty) Set(e *Entity, v any) error {
	if err := p.field.set(e, v); err != nil {
		return fmt.Errorf("%s: %w", p.Name, err)
	}
	return nil
}

// IsSet reports whether e has the property (a value other than the zero
// value of its type).
func (p EntityProperty) IsSet(e Entity) bool {
	switch v := p.Value(e).(type) {
	case string:
		return v != ""
	case int:
		return v != 0
	case []string:
		return len(v) > 0
	case bool:
		return v
	}
	return false
}

// fieldRef reads and writes one field of an Entity.
type fieldRef struct {
	typ PropertyType
	get func(*Entity) any
	set func(*Entity, any) error
}

func ref[T string | int | bool | []string](typ PropertyType, at func(*Entity) *T) fieldRef {
	return fieldRef{
		typ: typ,
		get: func(e *Entity) any { return *at(e) },
		set: func(e *Entity, v any) error {
			t, ok := v.(T)
			if !ok {
				return fmt.Errorf("want %T, got %T", t, v)
			}
			*at(e) = t
			return nil
		},
	}
}

func text(at func(*Entity) *string) fieldRef { return ref(PropertyString, at) }

func number(at func(*Entity) *int) fieldRef { return ref(PropertyInt, at) }

func list(at func(*Entity) *[]string) fieldRef { return ref(PropertyList, at) }

func flag(at func(*Entity) *bool) fieldRef { return ref(PropertyBool, at) }

// entityPropertyNames names what a read may return: the table's
// properties, then the system ones.
func entityPropertyNames() []string {
	names := make([]string, 0, len(entityProperties)+len(systemProperties))
	for _, p := range entityProperties {
		names = append(names, p.Name)
	}
	return append(names, systemProperties...)
}

// kindList writes kinds as "Person", "Event or Document", ...
func kindList(kinds []Kind) string {
	s := make([]string, len(kinds))
	for i, k := range kinds {
		s[i] = string(k)
	}
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

func checkCategory(e Entity) error {
	if cats := Categories(e.Kind); e.Category != "" && !slices.Contains(cats, e.Category) {
		return Errorf(CodeBadUserInput, "category %q is not one of %v", truncate(e.Category, 40), cats)
	}
	return nil
}

var countryCode = regexp.MustCompile(`^[A-Z]{2}$`)

func checkNationality(e Entity) error {
	if e.Nationality != "" && !countryCode.MatchString(e.Nationality) {
		return Errorf(CodeBadUserInput, "nationality %q is not an ISO 3166-1 alpha-2 code such as GB", truncate(e.Nationality, 10))
	}
	return nil
}
