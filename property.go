package casegraph

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"iter"
	"math"
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

	// What identifies a person: partial dates, a place named as the
	// records name it, a gender, and documents' numbers.
	BirthDate  string `json:"birthDate,omitempty"`  // Person, a partial date
	DeathDate  string `json:"deathDate,omitempty"`  // Person, a partial date
	BirthPlace string `json:"birthPlace,omitempty"` // Person, free text ("Daraa, Syria")
	Gender     Gender `json:"gender,omitempty"`     // Person
	// Identifiers are a person's or an organization's document and
	// registry numbers.
	Identifiers []Identifier `json:"identifiers,omitempty"`
	// Address is where a person lives or an organization sits, as the
	// records write it.
	Address string `json:"address,omitempty"` // Person, Organization

	Jurisdiction    string `json:"jurisdiction,omitempty"`    // Organization, an ISO 3166 alpha-2 code
	FoundingDate    string `json:"foundingDate,omitempty"`    // Organization, a partial date
	DissolutionDate string `json:"dissolutionDate,omitempty"` // Organization, a partial date

	Coordinates *Coordinates `json:"coordinates,omitempty"` // Place (WGS 84)
	CountryCode string       `json:"countryCode,omitempty"` // Place, an ISO 3166 alpha-2 code

	Language string `json:"language,omitempty"` // Document, an ISO 639-1 code
}

// Gender is a person's gender as the records give it.
type Gender string

// The genders FollowTheMoney knows; the zero value is unknown.
const (
	GenderMale   Gender = "MALE"
	GenderFemale Gender = "FEMALE"
	GenderOther  Gender = "OTHER"
)

// Genders lists every gender.
func Genders() []Gender { return []Gender{GenderMale, GenderFemale, GenderOther} }

// Coordinates are a point on the earth (WGS 84, degrees), stored as a
// Neo4j point.
type Coordinates struct {
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
}

var (
	forEvents    = []Kind{KindEvent}
	forDocuments = []Kind{KindDocument}
	forPeople    = []Kind{KindPerson}
	forOrgs      = []Kind{KindOrganization}
	forActors    = []Kind{KindPerson, KindOrganization}
	forPlaces    = []Kind{KindPlace}
)

// entityProperties is the table, in the order every list of properties
// follows (and the content hash: append new rows at the end).
var entityProperties = []EntityProperty{
	// Every kind has these; Entity.Validate checks them.
	{Name: "name", AlwaysHashed: true, field: text(func(e *Entity) *string { return &e.Name })},
	{Name: "aliases", AlwaysHashed: true, field: list(func(e *Entity) *[]string { return &e.Aliases })},
	{Name: "description", AlwaysHashed: true, field: text(func(e *Entity) *string { return &e.Description })},
	{Name: "dataset", AlwaysHashed: true, field: text(func(e *Entity) *string { return &e.Dataset })},
	{Name: "sourceIds", AlwaysHashed: true, field: citedIDs()},

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

	// Identifying fields (added later: each in the hash only when set).
	{Name: "birthDate", Kinds: forPeople, field: text(func(e *Entity) *string { return &e.BirthDate }),
		check: func(e Entity) error { return ValidateDateRange("birthDate", e.BirthDate, "deathDate", e.DeathDate) }},
	{Name: "deathDate", Kinds: forPeople, field: text(func(e *Entity) *string { return &e.DeathDate })},
	{Name: "birthPlace", Kinds: forPeople, field: text(func(e *Entity) *string { return &e.BirthPlace }),
		check: func(e Entity) error { return optionalNameRule.Check("birthPlace", e.BirthPlace) }},
	{Name: "gender", Kinds: forPeople, field: enum(func(e *Entity) *Gender { return &e.Gender }), check: checkGender},
	{Name: "identifiers", Kinds: forActors, field: identifiers(func(e *Entity) *[]Identifier { return &e.Identifiers }),
		check: checkIdentifiers},
	{Name: "address", Kinds: forActors, field: text(func(e *Entity) *string { return &e.Address }),
		check: func(e Entity) error { return addressRule.Check("address", e.Address) }},
	{Name: "jurisdiction", Kinds: forOrgs, field: text(func(e *Entity) *string { return &e.Jurisdiction }),
		check: func(e Entity) error { return checkCountry("jurisdiction", e.Jurisdiction) }},
	{Name: "foundingDate", Kinds: forOrgs, field: text(func(e *Entity) *string { return &e.FoundingDate }),
		check: func(e Entity) error {
			return ValidateDateRange("foundingDate", e.FoundingDate, "dissolutionDate", e.DissolutionDate)
		}},
	{Name: "dissolutionDate", Kinds: forOrgs, field: text(func(e *Entity) *string { return &e.DissolutionDate })},
	{Name: "coordinates", Kinds: forPlaces, field: point(func(e *Entity) **Coordinates { return &e.Coordinates }),
		check: func(e Entity) error { return e.Coordinates.Validate() }},
	{Name: "countryCode", Kinds: forPlaces, field: text(func(e *Entity) *string { return &e.CountryCode }),
		check: func(e Entity) error { return checkCountry("countryCode", e.CountryCode) }},
	{Name: "language", Kinds: forDocuments, field: text(func(e *Entity) *string { return &e.Language }),
		check: checkLanguage},
	// The entity's citations, beside sourceIds (one item each, in its
	// order: see citedIDs); Entity.Validate checks them.
	{Name: "citationQuotes", field: citationStrings(
		func(c Citation) string { return c.Quote }, func(c *Citation, s string) { c.Quote = s })},
	{Name: "citationLocators", field: citationStrings(
		func(c Citation) string { return c.Locator }, func(c *Citation, s string) { c.Locator = s })},
	{Name: "citationCredibility", field: citationCredibility()},
	{Name: "citationGrades", Derived: true, field: citationGrades()},
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
	// Derived marks a property the store computes from others when it
	// writes (the citations' grades, from the sources they cite): never
	// in the content hash, as it changes when something else does.
	Derived bool

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
	PropertyString  PropertyType = iota // string
	PropertyInt                         // int (an integer in Neo4j)
	PropertyList                        // []string (a list of strings in Neo4j)
	PropertyBool                        // bool (a boolean in Neo4j; false is stored as absent)
	PropertyPoint                       // *Coordinates (a WGS 84 point in Neo4j)
	PropertyFloat                       // float64 (a float in Neo4j; relations' type-specific properties only)
	PropertyIntList                     // []int (a list of integers in Neo4j)
)

// EntityPropertyRows yields the table of the properties an entity
// stores, row by row in its order (every entity read ranges over it: a
// copy each time was 7% of whoWasInCommand's allocations).
func EntityPropertyRows() iter.Seq[EntityProperty] {
	return slices.Values(entityProperties)
}

// Type is the type of the property's values.
func (p EntityProperty) Type() PropertyType {
	return p.field.typ
}

// Value is the property's value on e: a string, an int, a bool or a []string, as
// Type says.
func (p EntityProperty) Value(e Entity) any {
	return p.ValueOf(&e)
}

// ValueOf is Value of the entity e points to, without copying it: Value's
// copy of an entity (528 bytes) goes to the heap on every call, since
// the property's getter is a function value.
func (p EntityProperty) ValueOf(e *Entity) any {
	return p.field.get(e)
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
	case *Coordinates:
		return v != nil
	case []int:
		return len(v) > 0
	}
	return false
}

// fieldRef reads and writes one field of an Entity.
type fieldRef struct {
	typ PropertyType
	get func(*Entity) any
	set func(*Entity, any) error
}

func ref[T string | int | bool | []string | *Coordinates](typ PropertyType, at func(*Entity) *T) fieldRef {
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

func point(at func(*Entity) **Coordinates) fieldRef { return ref(PropertyPoint, at) }

// enum stores a string type's values as strings.
func enum[T ~string](at func(*Entity) *T) fieldRef {
	return fieldRef{
		typ: PropertyString,
		get: func(e *Entity) any { return string(*at(e)) },
		set: func(e *Entity, v any) error {
			s, ok := v.(string)
			if !ok {
				return fmt.Errorf("want string, got %T", v)
			}
			*at(e) = T(s)
			return nil
		},
	}
}

// An entity's citations are stored as parallel lists, one item per
// citation in their order: sourceIds (which the old shape had alone),
// citationQuotes, citationLocators, citationCredibility (typed) and
// citationGrades (effective), as a relation's are (see
// docs/architecture.md, "Citations"). Each row reads and writes its part
// of Entity.Citations; a part no citation sets (every quote empty, every
// credibility DefaultCredibility) reads as nil, so that it is not set and
// enters no content hash: an entity cited the old way keeps its hash.

// citedIDs is the sourceIds row: the cited source of each citation (or
// SourceIDs, for an entity given the old way); set, it cites each and
// keeps them, each once, as SourceIDs.
func citedIDs() fieldRef {
	return citationPart(PropertyList, func(e *Entity) any {
		if len(e.Citations) == 0 {
			return e.SourceIDs
		}
		ids := make([]string, len(e.Citations))
		for i, c := range e.Citations {
			ids[i] = c.SourceID
		}
		return ids
	}, func(e *Entity, ids []string) {
		e.SourceIDs = uniqueExcept(ids, "")
		growCitations(e, len(ids))
		for i, id := range ids {
			e.Citations[i].SourceID = id
		}
	})
}

func citationStrings(get func(Citation) string, set func(*Citation, string)) fieldRef {
	return citationPart(PropertyList, func(e *Entity) any {
		out := make([]string, len(e.Citations))
		some := false
		for i, c := range e.Citations {
			out[i] = get(c)
			some = some || out[i] != ""
		}
		if !some {
			return []string(nil)
		}
		return out
	}, func(e *Entity, v []string) {
		growCitations(e, len(v))
		for i, s := range v {
			set(&e.Citations[i], s)
		}
	})
}

func citationCredibility() fieldRef {
	return citationPart(PropertyIntList, func(e *Entity) any {
		out := make([]int, len(e.Citations))
		some := false
		for i, c := range e.Citations {
			out[i] = int(cmp.Or(c.Credibility, DefaultCredibility))
			some = some || c.Credibility != DefaultCredibility && c.Credibility != 0
		}
		if !some {
			return []int(nil)
		}
		return out
	}, func(e *Entity, v []int) {
		growCitations(e, len(v))
		for i, n := range v {
			e.Citations[i].Credibility = Credibility(n)
		}
	})
}

func citationGrades() fieldRef {
	return citationPart(PropertyList, func(e *Entity) any { return Grades(e.Cited()) }, func(e *Entity, v []string) {
		growCitations(e, len(v))
		for i, g := range v {
			e.Citations[i].Grade = Grade(g)
		}
	})
}

// citationPart is a row over Entity.Citations (T: []string or []int).
func citationPart[T []string | []int](typ PropertyType, get func(*Entity) any, set func(*Entity, T)) fieldRef {
	return fieldRef{typ: typ, get: get, set: func(e *Entity, v any) error {
		t, ok := v.(T)
		if !ok {
			return fmt.Errorf("want %T, got %T", t, v)
		}
		set(e, t)
		return nil
	}}
}

// growCitations makes e cite at least n (a later part read may be longer
// than an earlier one); a citation added has DefaultCredibility until its
// credibility is read.
func growCitations(e *Entity, n int) {
	for len(e.Citations) < n {
		e.Citations = append(e.Citations, Citation{Credibility: DefaultCredibility})
	}
}

// entityPropertyNames names what a read may return: the table's
// properties, then the system ones.
func entityPropertyNames() []string {
	names := make([]string, 0, len(entityProperties)+len(systemProperties))
	for _, p := range entityProperties {
		names = append(names, p.Name)
	}
	return append(names, systemProperties...)
}

// orList writes kinds or types as "Person", "Event or Document", "OWNS",
// "HELD_POSITION, COMMANDS or DIRECTOR_OF".
func orList[T ~string](items []T) string {
	s := make([]string, len(items))
	for i, k := range items {
		s[i] = string(k)
	}
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

func checkCategory(e Entity) error {
	if cats := Categories(e.Kind); e.Category != "" && !slices.Contains(cats, e.Category) {
		return UnknownValue("category", string(e.Kind)+" category", e.Category, cats)
	}
	return nil
}

var (
	countryCode  = regexp.MustCompile(`^[A-Z]{2}$`)
	languageCode = regexp.MustCompile(`^[a-z]{2}$`)
	addressRule  = TextRule{Max: MaxDescriptionLength, Multiline: true}
)

func checkNationality(e Entity) error { return checkCountry("nationality", e.Nationality) }

// checkCountry checks an optional ISO 3166-1 alpha-2 code.
func checkCountry(field, code string) error {
	if code != "" && !countryCode.MatchString(code) {
		return Errorf(CodeBadUserInput, "%s %q is not an ISO 3166-1 alpha-2 code such as GB", field, truncate(code, 10))
	}
	return nil
}

func checkLanguage(e Entity) error { return ValidateLanguage("language", e.Language) }

func checkGender(e Entity) error {
	if e.Gender != "" && !slices.Contains(Genders(), e.Gender) {
		return UnknownValue("gender", "gender", string(e.Gender), Genders())
	}
	return nil
}

// UnmarshalJSON reads {"latitude": ..., "longitude": ...}, both required:
// a point without one is not on the equator or the meridian, it is a
// mistake (a data file's line is refused, not read as 0).
func (c *Coordinates) UnmarshalJSON(b []byte) error {
	var raw struct {
		Latitude  *float64 `json:"latitude"`
		Longitude *float64 `json:"longitude"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return Errorf(CodeBadUserInput, "coordinates: want {\"latitude\": degrees, \"longitude\": degrees}: %v", err)
	}
	if raw.Latitude == nil || raw.Longitude == nil {
		return Errorf(CodeBadUserInput, "coordinates: want both latitude and longitude")
	}
	c.Latitude, c.Longitude = *raw.Latitude, *raw.Longitude
	return nil
}

// Validate checks coordinates (nil: none): a latitude in [-90, 90] and a
// longitude in [-180, 180].
func (c *Coordinates) Validate() error {
	if c == nil {
		return nil
	}
	return c.check("coordinates")
}

// check checks coordinates that field names in errors.
func (c Coordinates) check(field string) error {
	if math.IsNaN(c.Latitude) || c.Latitude < -90 || c.Latitude > 90 {
		return Errorf(CodeBadUserInput, "%s.latitude %v is not between -90 and 90", field, c.Latitude)
	}
	if math.IsNaN(c.Longitude) || c.Longitude < -180 || c.Longitude > 180 {
		return Errorf(CodeBadUserInput, "%s.longitude %v is not between -180 and 180", field, c.Longitude)
	}
	return nil
}
