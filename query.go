package casegraph

// Direction picks relations by which end an entity is on.
type Direction string

// The directions, from the entity's point of view.
const (
	DirectionBoth     Direction = "BOTH"
	DirectionOutgoing Direction = "OUTGOING" // the entity is the from end
	DirectionIncoming Direction = "INCOMING" // the entity is the to end
)

// Page asks for up to First items after the item whose sort key is After
// ("" for the first page).
type Page struct {
	First int
	After string
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
	NameContains string
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
