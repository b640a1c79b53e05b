package casegraph

import "time"

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
	SourceIDs   []string

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
