package casegraph

// Direction picks relations by which end an entity is on.
type Direction string

// The directions, from the entity's point of view.
const (
	DirectionBoth     Direction = "BOTH"
	DirectionOutgoing Direction = "OUTGOING" // the entity is the from end
	DirectionIncoming Direction = "INCOMING" // the entity is the to end
)

// Directions are the directions, both first.
func Directions() []Direction {
	return []Direction{DirectionBoth, DirectionOutgoing, DirectionIncoming}
}

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
