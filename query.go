package casegraph

// Direction picks relations by which end an entity is on.
type Direction string

// The directions, from the entity's point of view.
const (
	DirectionBoth     Direction = "BOTH"
	DirectionOutgoing Direction = "OUTGOING" // the entity is the from end
	DirectionIncoming Direction = "INCOMING" // the entity is the to end
)

// Page asks for up to First items after the item with id After ("" for
// the first page) and, in lists sorted by something else, sort key
// AfterKey.
type Page struct {
	First    int
	After    string
	AfterKey string
	// Backward pages toward the start (last and before): First is how
	// many, After and AfterKey the item the page ends before, and the rows
	// come back in the list's order all the same.
	Backward bool
}

// Page sizes.
const (
	DefaultPageSize = 20
	MaxPageSize     = 100
)

// ValidatePage checks a page size: 1 to MaxPageSize.
func ValidatePage(first int) error {
	if first < 1 || first > MaxPageSize {
		return Errorf(CodeBadUserInput, "first must be between 1 and %d, not %d", MaxPageSize, first)
	}
	return nil
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
}

// RelationFilter narrows an entity's relations.
type RelationFilter struct {
	Types     []RelationType // empty: every type
	Direction Direction
}

// RelationPage is one page of an entity's relations.
type RelationPage struct {
	Relations []Relation
	HasNext   bool
	Total     int64
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

// EntityOrder sorts a list of entities.
type EntityOrder struct {
	Field EntityOrderField
	Desc  bool
}

// Direction is ASC or DESC.
func (o EntityOrder) Direction() string {
	if o.Desc {
		return "DESC"
	}
	return "ASC"
}
