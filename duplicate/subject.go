package duplicate

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/casegraph/casegraph"
)

// Subject is what a run reads of an entity: its id, kind, names and what
// scoring compares, all parts of one string (its row). A run holds a
// hundred thousand of them: as casegraph.Entity values (528 bytes each,
// every field a string of its own) they were the largest part of what
// a run allocated, and the rows the store reads are that one string
// already, so a subject's id, names and fields are parts of it, never
// copies. Only the candidates' subjects become entities (Entity), to be
// scored.
type Subject struct {
	ID     string
	Kind   casegraph.Kind
	fields string // the row after the kind
}

// A subject's row is its id, its kind, then its fields in
// SubjectProperties' order, each after a SubjectSeparator; a list
// property's field is its values, each after a SubjectListSeparator.
// Validated text holds no control characters (casegraph.TextRule), so
// neither separator can be part of an id or a value, and an empty list
// and a list of one empty value differ.
const (
	SubjectSeparator     = "\x1f"
	SubjectListSeparator = "\x1e"
)

// SubjectProperties are the entity properties of a subject's row, in
// order: names first (blocking's), then what scoring compares (Score:
// dates, and casegraph.Attributes).
var SubjectProperties = []string{"name", "aliases", "identifiers", "startDate", "endDate", "publishedAt", "nationality",
	"birthDate", "deathDate", "birthPlace", "gender", "address", "jurisdiction", "foundingDate", "dissolutionDate"}

// The fields blocking reads, by their place in SubjectProperties.
const (
	fieldName = iota
	fieldAliases
	fieldIdentifiers
)

// subjectColumns are SubjectProperties as the entity table has them.
var subjectColumns = sync.OnceValue(func() []casegraph.EntityProperty {
	out := make([]casegraph.EntityProperty, len(SubjectProperties))
	for p := range casegraph.EntityPropertyRows() {
		if i := slices.Index(SubjectProperties, p.Name); i >= 0 {
			out[i] = p
		}
	}
	return out
})

// SubjectColumns are SubjectProperties as the entity table has them (what
// a store's statement reads of each, and whether it is a list).
func SubjectColumns() []casegraph.EntityProperty { return slices.Clone(subjectColumns()) }

// NewSubject is the subject of an entity, its row written as a store's
// statement writes it (cypher's DuplicateSubjects).
func NewSubject(e casegraph.Entity) Subject {
	var row strings.Builder
	row.WriteString(e.ID)
	row.WriteString(SubjectSeparator)
	row.WriteString(string(e.Kind))
	for _, p := range subjectColumns() {
		row.WriteString(SubjectSeparator)
		switch v := p.ValueOf(&e).(type) {
		case string:
			row.WriteString(v)
		case []string:
			for _, x := range v {
				row.WriteString(SubjectListSeparator)
				row.WriteString(x)
			}
		}
	}
	s, _ := ParseSubject(row.String()) // an entity without id or kind has a subject without them too
	return s
}

// ParseSubject is the subject of a row a store read; it checks that the
// row has an id, a kind and every field.
func ParseSubject(row string) (Subject, error) {
	id, rest, _ := strings.Cut(row, SubjectSeparator)
	kind, _, _ := strings.Cut(rest, SubjectSeparator)
	s := Subject{ID: id, Kind: casegraph.Kind(kind), fields: rest[len(kind):]}
	if id == "" || kind == "" {
		return s, fmt.Errorf("a subject without id or kind: %q", truncate(row, 60))
	}
	if n := strings.Count(s.fields, SubjectSeparator); n != len(SubjectProperties) {
		return s, fmt.Errorf("subject %q: a row of %d fields, want %d", id, n, len(SubjectProperties))
	}
	return s, nil
}

// truncate is s cut to at most n bytes, for an error.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// field is the text of the i-th of SubjectProperties (a list's values
// each after a SubjectListSeparator).
func (s Subject) field(i int) string {
	rest := s.fields
	for range i + 1 {
		_, rest, _ = strings.Cut(rest, SubjectSeparator)
	}
	v, _, _ := strings.Cut(rest, SubjectSeparator)
	return v
}

// name is the text of the subject's k-th name: its name, then its
// aliases.
func (s Subject) name(k int) string {
	if k == 0 {
		return s.field(fieldName)
	}
	i := 0 // the field starts with a separator: its first part, 0, is empty
	for v := range strings.SplitSeq(s.field(fieldAliases), SubjectListSeparator) {
		if i == k {
			return v
		}
		i++
	}
	return ""
}

// values are the values of a list field, in order.
func values(field string) []string {
	if field == "" {
		return nil
	}
	return strings.Split(field[len(SubjectListSeparator):], SubjectListSeparator)
}

// eachValue calls f with each value of a list field, in order, without
// making a slice of them.
func eachValue(field string, f func(string)) {
	if field == "" {
		return
	}
	for v := range strings.SplitSeq(field[len(SubjectListSeparator):], SubjectListSeparator) {
		f(v)
	}
}

// Entity is the entity a subject holds: its id, kind and the properties
// of its row (what Score reads).
func (s Subject) Entity() (casegraph.Entity, error) {
	e := casegraph.Entity{ID: s.ID, Kind: s.Kind}
	for i, p := range subjectColumns() {
		var v any = s.field(i)
		if p.Type() == casegraph.PropertyList {
			v = values(v.(string))
		}
		if err := p.Set(&e, v); err != nil {
			return casegraph.Entity{}, fmt.Errorf("subject %q: %w", s.ID, err)
		}
	}
	return e, nil
}
