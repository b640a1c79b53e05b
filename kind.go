package casegraph

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

// Kinds lists every entity kind, in a stable order.
var Kinds = []Kind{KindPerson, KindOrganization, KindEvent, KindDocument, KindPlace}

// ParseKind returns the Kind named s, or a BAD_USER_INPUT error.
func ParseKind(s string) (Kind, error) {
	for _, k := range Kinds {
		if string(k) == s {
			return k, nil
		}
	}
	return "", Errorf(CodeBadUserInput, "unknown entity kind %q", s)
}

// Entity is an entity as stored, with the fields common to every kind.
type Entity struct {
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
