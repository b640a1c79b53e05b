package casegraph

import (
	"math"
	"slices"

	"golang.org/x/text/unicode/norm"
)

// Status says how well a relation is established.
type Status string

// The statuses. What a report claims, and no one has confirmed, is ALLEGED.
const (
	StatusAlleged   Status = "ALLEGED"
	StatusReported  Status = "REPORTED"
	StatusConfirmed Status = "CONFIRMED"
	StatusDisputed  Status = "DISPUTED"
)

// DefaultStatus is the status of a relation written without one (a link
// that names none, an imported line or FtM interval without one): what a
// source reports, until someone confirms or disputes it. Normalize fills
// it in; the schema's default for LinkInput.status spells it too, and a
// test holds the two equal.
const DefaultStatus = StatusReported

// Statuses lists every status.
func Statuses() []Status {
	return []Status{StatusAlleged, StatusReported, StatusConfirmed, StatusDisputed}
}

// Relation is a relation between two entities, with its evidence.
type Relation struct {
	ID     string
	Type   RelationType
	FromID string
	ToID   string
	Role   string
	// StartDate and EndDate are partial dates; either may be empty.
	StartDate string
	EndDate   string
	Status    Status
	// Confidence is in [0, 1]; nil when not given.
	Confidence *float64
	Quote      string
	SourceIDs  []string
	Dataset    string
}

// Limits on relation text.
const (
	MaxRoleLength  = 200
	MaxQuoteLength = 5000
)

var (
	roleRule  = TextRule{Max: MaxRoleLength}
	quoteRule = TextRule{Max: MaxQuoteLength, Multiline: true}
)

// Validate checks what can be checked of a relation without the graph: the
// kinds of its ends, and that they and its sources exist, are the store's
// to check.
func (r Relation) Validate() error {
	if err := ValidateID("id", r.ID); err != nil {
		return err
	}
	if _, err := Spec(r.Type); err != nil {
		return err
	}
	if err := ValidateID("from", r.FromID); err != nil {
		return err
	}
	if err := ValidateID("to", r.ToID); err != nil {
		return err
	}
	if r.FromID == r.ToID {
		return Errorf(CodeBadUserInput, "a relation joins two different entities; from and to are both %q", r.FromID)
	}
	if err := roleRule.Check("role", r.Role); err != nil {
		return err
	}
	if err := ValidateDateRange("startDate", r.StartDate, "endDate", r.EndDate); err != nil {
		return err
	}
	if !slices.Contains(Statuses(), r.Status) {
		return Errorf(CodeBadUserInput, "unknown status %q", truncate(string(r.Status), 40))
	}
	if err := ValidateConfidence(r.Confidence); err != nil {
		return err
	}
	if err := quoteRule.Check("quote", r.Quote); err != nil {
		return err
	}
	if err := ValidateID("dataset", r.Dataset); err != nil {
		return err
	}
	return validateSourceIDs(r.SourceIDs)
}

// ValidateConfidence checks an optional confidence: a number in [0, 1].
func ValidateConfidence(c *float64) error {
	if c == nil {
		return nil
	}
	if math.IsNaN(*c) || *c < 0 || *c > 1 {
		return Errorf(CodeBadUserInput, "confidence %v is not between 0 and 1", *c)
	}
	return nil
}

// RelationFilter narrows an entity's relations.
type RelationFilter struct {
	Types     []RelationType // empty: every type
	Direction Direction
}

// Validate refuses a filter of types outside the vocabulary, or of a
// direction other than BOTH, OUTGOING or INCOMING (BAD_USER_INPUT).
func (f RelationFilter) Validate() error {
	for _, t := range f.Types {
		if _, err := Spec(t); err != nil {
			return err
		}
	}
	if !slices.Contains(Directions(), f.Direction) {
		return Errorf(CodeBadUserInput, "direction %q: want BOTH, OUTGOING or INCOMING", f.Direction)
	}
	return nil
}

// RelationPage is one page of an entity's relations.
type RelationPage struct {
	Relations []Relation
	HasNext   bool
	Total     int64
}

// Normalize gives a relation without a status DefaultStatus, puts its role
// and quote in NFC, then validates it.
func (r *Relation) Normalize() error {
	if r.Status == "" {
		r.Status = DefaultStatus
	}
	r.Role, r.Quote = norm.NFC.String(r.Role), norm.NFC.String(r.Quote)
	return r.Validate()
}

// RelationType is a kind of relation. Each is also a Neo4j relationship
// type, so the set is closed: relationship types in Cypher only ever come
// from this vocabulary.
type RelationType string

// RelationSpec describes a relation type: how to read it both ways, the
// kinds of entity it may join, and whether its direction means something.
type RelationSpec struct {
	Type         RelationType
	Label        string // reads from -> to: "authored"
	InverseLabel string // reads to -> from: "authored by"
	FromKinds    []Kind
	ToKinds      []Kind
	Directed     bool
}

var (
	actors   = []Kind{KindPerson, KindOrganization}
	anyKind  = Kinds()
	agencies = []Kind{KindOrganization}
)

// vocabulary is the fixed relation vocabulary, in a stable order.
var vocabulary = []RelationSpec{
	{"AUTHORED", "authored", "authored by", actors, []Kind{KindDocument}, true},
	{"COMMISSIONED", "commissioned", "commissioned by", actors, []Kind{KindDocument, KindEvent}, true},
	{"REPRESENTS", "represents", "represented by", actors, actors, true},
	{"FUNDS", "funds", "funded by", actors, []Kind{KindPerson, KindOrganization, KindEvent}, true},
	{"ARMS", "arms", "armed by", actors, actors, true},
	{"MEMBER_OF", "member of", "has member", actors, agencies, true},
	{"EMPLOYED_BY", "employed by", "employs", []Kind{KindPerson}, agencies, true},
	{"HELD_POSITION", "held a position in", "position held by", []Kind{KindPerson}, agencies, true},
	{"LEADS", "leads", "led by", actors, []Kind{KindOrganization, KindEvent}, true},
	{"PART_OF", "part of", "includes", []Kind{KindOrganization, KindEvent}, []Kind{KindOrganization, KindEvent}, true},
	{"PROSECUTED", "prosecuted", "prosecuted by", actors, []Kind{KindPerson, KindOrganization, KindEvent}, true},
	{"ACCUSED", "accused", "accused by", []Kind{KindPerson, KindOrganization, KindDocument}, actors, true},
	{"RESPONSIBLE_FOR", "responsible for", "responsibility of", actors, []Kind{KindEvent}, true},
	{"PARTICIPATED_IN", "participated in", "had participant", actors, []Kind{KindEvent}, true},
	{"LOCATED_IN", "located in", "location of", anyKind, []Kind{KindPlace}, true},
	{"PUBLISHED", "published", "published by", actors, []Kind{KindDocument}, true},
	{"OBTAINED", "obtained", "obtained by", actors, []Kind{KindDocument}, true},
	{"DEFECTED_FROM", "defected from", "defector", []Kind{KindPerson}, agencies, true},
	{"SOURCE_OF", "source of", "sourced from", []Kind{KindPerson, KindOrganization, KindDocument}, []Kind{KindDocument, KindEvent}, true},
	{"DOCUMENTS", "documents", "documented in", []Kind{KindDocument}, []Kind{KindEvent, KindPerson, KindOrganization}, true},
	{"STATEMENT_ABOUT", "made a statement about", "subject of a statement by", actors, anyKind, true},
	{"COINCIDES_WITH", "coincides with", "coincides with", []Kind{KindEvent, KindDocument}, []Kind{KindEvent, KindDocument}, false},
	{"WORKED_WITH", "worked with", "worked with", actors, actors, false},
	{"RELATED_TO", "related to", "related to", anyKind, anyKind, false},
}

// Vocabulary returns the relation vocabulary, in a stable order.
func Vocabulary() []RelationSpec {
	return slices.Clone(vocabulary)
}

// RelationTypes returns every relation type, in the vocabulary's order.
func RelationTypes() []RelationType {
	out := make([]RelationType, len(vocabulary))
	for i, s := range vocabulary {
		out[i] = s.Type
	}
	return out
}

// Spec returns the spec of a relation type, or a BAD_USER_INPUT error.
func Spec(t RelationType) (RelationSpec, error) {
	for _, s := range vocabulary {
		if s.Type == t {
			return s, nil
		}
	}
	return RelationSpec{}, Errorf(CodeBadUserInput, "unknown relation type %q", truncate(string(t), 40))
}

// Allows reports whether the relation type may join an entity of kind from
// to one of kind to. An undirected type allows either order.
func (s RelationSpec) Allows(from, to Kind) bool {
	if slices.Contains(s.FromKinds, from) && slices.Contains(s.ToKinds, to) {
		return true
	}
	return !s.Directed && slices.Contains(s.FromKinds, to) && slices.Contains(s.ToKinds, from)
}

// CheckKinds returns a BAD_USER_INPUT error when the type may not join the
// two kinds.
func (s RelationSpec) CheckKinds(from, to Kind) error {
	if s.Allows(from, to) {
		return nil
	}
	return Errorf(CodeBadUserInput, "a relation of type %s cannot go from a %s to a %s (it joins %v to %v)",
		s.Type, from, to, s.FromKinds, s.ToKinds)
}
