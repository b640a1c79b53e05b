package casegraph

import (
	"regexp"
	"slices"
	"time"
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

// ParseKind returns the Kind named s, or a BAD_USER_INPUT error.
func ParseKind(s string) (Kind, error) {
	for _, k := range Kinds() {
		if string(k) == s {
			return k, nil
		}
	}
	return "", Errorf(CodeBadUserInput, "unknown entity kind %q", s)
}

// Entity is an entity as stored, with the fields common to every kind.
type Entity struct {
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
	SourceIDs   []string

	// Kind-specific fields; empty where the kind has none.
	Category    string // Organization, Event, Document
	StartDate   string // Event, a partial date
	EndDate     string // Event, a partial date
	PublishedAt string // Document, a partial date
	PageCount   int    // Document
	URL         string // Document
	Nationality string // Person, an ISO 3166 alpha-2 code
}

// Source is a piece of provenance that entities and relations cite.
type Source struct {
	ID          string
	Title       string
	Publisher   string
	URL         string
	PublishedAt string
	RetrievedAt string
	// Dataset is the investigation that brought the source in.
	Dataset string
}

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

var countryCode = regexp.MustCompile(`^[A-Z]{2}$`)

// validateKindFields checks the fields that belong to some kinds only.
func (e Entity) validateKindFields() error {
	cats := Categories(e.Kind)
	if e.Category != "" && !slices.Contains(cats, e.Category) {
		if cats == nil {
			return Errorf(CodeBadUserInput, "a %s has no category", e.Kind)
		}
		return Errorf(CodeBadUserInput, "category %q is not one of %v", truncate(e.Category, 40), cats)
	}
	if e.Kind != KindEvent && (e.StartDate != "" || e.EndDate != "") {
		return Errorf(CodeBadUserInput, "only an event has startDate and endDate")
	}
	if e.Kind != KindDocument && (e.PublishedAt != "" || e.PageCount != 0 || e.URL != "") {
		return Errorf(CodeBadUserInput, "only a document has publishedAt, pageCount and url")
	}
	if e.Kind != KindPerson && e.Nationality != "" {
		return Errorf(CodeBadUserInput, "only a person has a nationality")
	}
	if err := ValidateDateRange("startDate", e.StartDate, "endDate", e.EndDate); err != nil {
		return err
	}
	if err := ValidateDate("publishedAt", e.PublishedAt); err != nil {
		return err
	}
	if e.PageCount < 0 || e.PageCount > 1_000_000 {
		return Errorf(CodeBadUserInput, "pageCount %d is not between 0 and 1000000", e.PageCount)
	}
	if err := ValidateURL("url", e.URL); err != nil {
		return err
	}
	if e.Nationality != "" && !countryCode.MatchString(e.Nationality) {
		return Errorf(CodeBadUserInput, "nationality %q is not an ISO 3166-1 alpha-2 code such as GB", truncate(e.Nationality, 10))
	}
	return nil
}
