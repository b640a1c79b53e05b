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

// PageWindow is a page as a Relay client asks for it: forward with First
// and After, or backward with Last and Before (nil or false: not given).
// The cursors themselves are the API's (opaque); the domain needs only
// whether one was sent.
type PageWindow struct {
	First, Last   *int
	After, Before bool
}

// Size is the page's size and direction: DefaultPageSize when no count
// is given, First forward, Last backward. It refuses a window that pages
// both ways, and a size out of 1 to MaxPageSize (BAD_USER_INPUT).
func (w PageWindow) Size() (n int, backward bool, err error) {
	if w.Last == nil && !w.Before {
		n = DefaultPageSize
		if w.First != nil {
			n = *w.First
		}
		return n, false, ValidatePage(n)
	}
	if w.First != nil || w.After {
		return 0, false, Errorf(CodeBadUserInput, "page forward with first and after, or backward with last and before, not both ways")
	}
	n = DefaultPageSize
	if w.Last != nil {
		n = *w.Last
	}
	if n < 1 || n > MaxPageSize {
		return 0, false, Errorf(CodeBadUserInput, "last must be between 1 and %d, not %d", MaxPageSize, n)
	}
	return n, true, nil
}
