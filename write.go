package casegraph

import "fmt"

// Writes is what one write puts into the graph, as the store's one write
// gate judges it: the sources, entities and relations it creates or
// updates by id. A mutation's is one row; an import's batch, many.
type Writes struct {
	// Dataset, when set, confines the write to one dataset (an import
	// over HTTP into it): an id that something of another dataset holds
	// is taken, as the import writes by id and must not take another's
	// over. Unset, a write may move what the caller may write from one
	// dataset to another (upsertEntity, the operator's import).
	Dataset   string
	Sources   []Source
	Entities  []Entity
	Relations []Relation
}

// MoreWrites is the rest of a write too large to hold whole (an import's
// file, read again each time it is needed): its entities and relations, a
// part at a time and in order, after those of the Writes it comes with.
// The parts are the caller's to keep or drop; an error yield returns stops
// the reading, and is returned.
type MoreWrites struct {
	// Kind is the kind of an entity that Entities yields, by its id (the
	// first row of the id's): what the write's relations may end at.
	Kind      func(id string) (Kind, bool)
	Entities  func(yield func(rows []Entity) error) error
	Relations func(yield func(rows []Relation) error) error
}

// RowKind names the list of a Writes that a row is in.
type RowKind string

// The kinds of row.
const (
	RowSource   RowKind = "source"
	RowEntity   RowKind = "entity"
	RowRelation RowKind = "relation"
)

// Refusal is one row of a Writes that the write gate refused, and why (a
// coded error that names only what the caller may read).
type Refusal struct {
	Kind  RowKind
	Index int
	Err   error
}

// Error says which row was refused (counting from 1) and why.
func (r Refusal) Error() string {
	return fmt.Sprintf("%s %d: %s", r.Kind, r.Index+1, ErrorMessage(r.Err))
}

// Coded is the refusal as a coded error of its own code, which says the
// row, for a write that refuses itself whole.
func (r Refusal) Coded() *Error {
	return &Error{Code: ErrorCode(r.Err), Message: r.Error(), Cause: r}
}

// Unwrap returns why the row was refused.
func (r Refusal) Unwrap() error { return r.Err }
