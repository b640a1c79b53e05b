package model

import (
	"time"

	casegraph "github.com/casegraph/casegraph"
)

// The entity types are written here, not generated, so that the fields
// every entity has are listed once (EntityFields) and each kind adds only
// its own; gqlgen.yml binds the schema's types to them.

// EntityFields are the fields of the Entity interface that every kind
// has; sources and relations are resolvers (they read through loaders).
type EntityFields struct {
	ID          string     `json:"id"`
	Kind        EntityKind `json:"kind"`
	Name        string     `json:"name"`
	Aliases     []string   `json:"aliases"`
	Description *string    `json:"description,omitempty"`
	Dataset     string     `json:"dataset"`
	// CreatedAt and UpdatedAt are nil for a redacted entity.
	CreatedAt *time.Time `json:"createdAt"`
	UpdatedAt *time.Time `json:"updatedAt"`
	Version   int        `json:"version"`
	Protected bool       `json:"protected"`
	Redacted  bool       `json:"redacted"`
	// SourceIDs are the ids of the sources the entity cites, for its
	// sources resolver.
	SourceIDs []string `json:"-"`
	// Cited are its citations as read, for its citations resolver.
	Cited []casegraph.Citation `json:"-"`
}

// Person is a person.
type Person struct {
	EntityFields
	// Nationality is an ISO 3166-1 alpha-2 country code.
	Nationality *string      `json:"nationality,omitempty"`
	BirthDate   *PartialDate `json:"birthDate,omitempty"`
	DeathDate   *PartialDate `json:"deathDate,omitempty"`
	BirthPlace  *string      `json:"birthPlace,omitempty"`
	Gender      *Gender      `json:"gender,omitempty"`
	Identifiers []Identifier `json:"identifiers"`
	Address     *string      `json:"address,omitempty"`
}

// Organization is an organization.
type Organization struct {
	EntityFields
	Category        *Category    `json:"category,omitempty"`
	Jurisdiction    *string      `json:"jurisdiction,omitempty"`
	FoundingDate    *PartialDate `json:"foundingDate,omitempty"`
	DissolutionDate *PartialDate `json:"dissolutionDate,omitempty"`
	Identifiers     []Identifier `json:"identifiers"`
	Address         *string      `json:"address,omitempty"`
}

// Event is an event.
type Event struct {
	EntityFields
	Category  *Category    `json:"category,omitempty"`
	StartDate *PartialDate `json:"startDate,omitempty"`
	EndDate   *PartialDate `json:"endDate,omitempty"`
}

// Document is a document.
type Document struct {
	EntityFields
	Category    *Category    `json:"category,omitempty"`
	PublishedAt *PartialDate `json:"publishedAt,omitempty"`
	PageCount   *int         `json:"pageCount,omitempty"`
	URL         *string      `json:"url,omitempty"`
	Language    *string      `json:"language,omitempty"`
}

// Place is a place.
type Place struct {
	EntityFields
	Coordinates *Coordinates `json:"coordinates,omitempty"`
	CountryCode *string      `json:"countryCode,omitempty"`
}

// IsEntity marks Person as an Entity.
func (Person) IsEntity() {}

// IsEntity marks Organization as an Entity.
func (Organization) IsEntity() {}

// IsEntity marks Event as an Entity.
func (Event) IsEntity() {}

// IsEntity marks Document as an Entity.
func (Document) IsEntity() {}

// IsEntity marks Place as an Entity.
func (Place) IsEntity() {}

// IsNode marks an entity as a Node (Relay); its node id is its id.
func (EntityFields) IsNode() {}
