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
	// Citations are the relation's evidence: each source cited with its
	// own quote, locator and credibility.
	Citations []Citation
	// SourceIDs and Quote are the relation's evidence the old way: a
	// write may give them instead of Citations (CitationsOf); Normalize
	// and the store's reads set them from Citations (the sources cited,
	// each once, and the first quote).
	Quote     string
	SourceIDs []string
	Dataset   string
	// RelationAttributes are the properties only some types carry.
	RelationAttributes
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
	var p problems
	p.add("id", ValidateID("id", r.ID))
	spec, typeErr := Spec(r.Type)
	p.add("type", typeErr)
	p.add("from", ValidateID("from", r.FromID))
	p.add("to", ValidateID("to", r.ToID))
	if r.FromID == r.ToID && r.FromID != "" {
		p.add("to", Errorf(CodeBadUserInput, "a relation joins two different entities; from and to are both %q", r.FromID))
	}
	p.add("role", roleRule.Check("role", r.Role))
	p.add("endDate", ValidateDateRange("startDate", r.StartDate, "endDate", r.EndDate))
	if !slices.Contains(Statuses(), r.Status) {
		p.add("status", UnknownValue("status", "status", string(r.Status), Statuses()))
	}
	p.add("confidence", ValidateConfidence(r.Confidence))
	p.add("quote", quoteRule.Check("quote", r.Quote))
	p.add("dataset", ValidateID("dataset", r.Dataset))
	if typeErr == nil {
		// The type's properties, when there is a type to judge them by.
		p.add("", spec.checkProperties(r.RelationAttributes))
	}
	_, err := normalizeCitations(r.Citations, r.SourceIDs, r.Quote)
	p.add("", err)
	return p.err()
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
// and quote in NFC, settles its citations (normalizeCitations: from
// sourceIds and quote when it has none) and sets SourceIDs and Quote from
// them, then validates it.
func (r *Relation) Normalize() error {
	if r.Status == "" {
		r.Status = DefaultStatus
	}
	r.Type, r.Status = Canonical(r.Type, RelationTypes()), Canonical(r.Status, Statuses())
	r.Relationship = Canonical(r.Relationship, FamilyRelationships())
	r.Role, r.Quote = norm.NFC.String(r.Role), norm.NFC.String(r.Quote)
	r.RelationAttributes.normalize()
	if err := r.Validate(); err != nil {
		return err
	}
	r.Citations, _ = normalizeCitations(r.Citations, r.SourceIDs, r.Quote)
	r.SourceIDs, r.Quote = CitedSourceIDs(r.Citations), LegacyQuote(r.Citations)
	return nil
}

// Cited returns the relation's citations: Citations, or, for a relation
// given the old way, one citation per source (CitationsOf).
func (r Relation) Cited() []Citation {
	if len(r.Citations) > 0 {
		return r.Citations
	}
	return CitationsOf(r.SourceIDs, r.Quote)
}

// RelationType is a kind of relation. Each is also a Neo4j relationship
// type, so the set is closed: relationship types in Cypher only ever come
// from this vocabulary.
type RelationType string

// RelationSpec describes a relation type: how to read it both ways, the
// kinds of entity it may join, whether its direction means something, and
// the FollowTheMoney interval it is exported as.
type RelationSpec struct {
	Type         RelationType
	Label        string // reads from -> to: "authored"
	InverseLabel string // reads to -> from: "authored by"
	FromKinds    []Kind
	ToKinds      []Kind
	Directed     bool
	// FtM is the FtM schema of the interval and the properties that hold
	// its from and to ends; the zero FtMLink (no schema of FtM's for it)
	// is exported as an UnknownLink (subject, object) with the type's
	// label as its role, and read back by that label.
	FtM FtMLink
	// Properties name the type-specific properties (relationproperty.go)
	// a relation of the type may carry; a relation of another type that
	// has one is refused.
	Properties []string
}

// FtMLink is how a relation type becomes an FtM interval: its schema, and
// the properties that hold its from and to ends. Default marks the one
// type of each schema that an interval without a Casegraph label (another
// tool's) is read as.
type FtMLink struct {
	Schema, From, To string
	Default          bool
}

// byDefault is l as its schema's default type.
func (l FtMLink) byDefault() FtMLink {
	l.Default = true
	return l
}

var (
	actors   = []Kind{KindPerson, KindOrganization}
	people   = []Kind{KindPerson}
	anyKind  = Kinds()
	agencies = []Kind{KindOrganization}
	places   = []Kind{KindPlace}
	events   = []Kind{KindEvent}
)

// FtM's intervals, by the ends they hold. FtM's Family reads "relative is
// person's relationship" (the relative is the person's mother), as
// FAMILY_OF's relationship reads "from is to's": from is the relative.
var (
	ftmMembership    = FtMLink{Schema: "Membership", From: "member", To: "organization"}
	ftmEmployment    = FtMLink{Schema: "Employment", From: "employee", To: "employer"}
	ftmRepresents    = FtMLink{Schema: "Representation", From: "agent", To: "client"}
	ftmDirectorship  = FtMLink{Schema: "Directorship", From: "director", To: "organization"}
	ftmOwnership     = FtMLink{Schema: "Ownership", From: "owner", To: "asset"}
	ftmPayment       = FtMLink{Schema: "Payment", From: "payer", To: "beneficiary"}
	ftmAssociate     = FtMLink{Schema: "Associate", From: "person", To: "associate"}
	ftmFamily        = FtMLink{Schema: "Family", From: "relative", To: "person"}
	ftmDocumentation = FtMLink{Schema: "Documentation", From: "entity", To: "document"}
	ftmDocumented    = FtMLink{Schema: "Documentation", From: "document", To: "entity"}
	noFtM            = FtMLink{}
)

// The type-specific properties the vocabulary's types carry (the table of
// relationproperty.go).
var (
	none     []string
	shares   = []string{"share"}
	payments = []string{"amount", "currency"}
	family   = []string{"relationship"}
	postRank = []string{"post", "rank"}
	posts    = []string{"post"}
)

// vocabulary is the fixed relation vocabulary, in a stable order: adding
// a type is a row here, its value in the schema's RelationType enum (with
// its description), and its line in the analyst's guide. Its columns: the
// type, its labels, the kinds of its from and to ends, whether it is
// directed, its FtM interval, its type-specific properties.
var vocabulary = []RelationSpec{
	{"AUTHORED", "authored", "authored by", actors, []Kind{KindDocument}, true, ftmDocumentation.byDefault(), none},
	{"COMMISSIONED", "commissioned", "commissioned by", actors, []Kind{KindDocument, KindEvent}, true, noFtM, none},
	{"REPRESENTS", "represents", "represented by", actors, actors, true, ftmRepresents.byDefault(), none},
	{"FUNDS", "funds", "funded by", actors, []Kind{KindPerson, KindOrganization, KindEvent}, true, ftmPayment, payments},
	{"ARMS", "arms", "armed by", actors, actors, true, noFtM, none},
	{"MEMBER_OF", "member of", "has member", actors, agencies, true, ftmMembership.byDefault(), none},
	{"EMPLOYED_BY", "employed by", "employs", people, agencies, true, ftmEmployment.byDefault(), none},
	{"HELD_POSITION", "held a position in", "position held by", people, agencies, true, ftmDirectorship, postRank},
	{"LEADS", "leads", "led by", actors, []Kind{KindOrganization, KindEvent}, true, ftmDirectorship, none},
	{"PART_OF", "part of", "includes", []Kind{KindOrganization, KindEvent}, []Kind{KindOrganization, KindEvent}, true, noFtM, none},
	{"PROSECUTED", "prosecuted", "prosecuted by", actors, []Kind{KindPerson, KindOrganization, KindEvent}, true, noFtM, none},
	{"ACCUSED", "accused", "accused by", []Kind{KindPerson, KindOrganization, KindDocument}, actors, true, noFtM, none},
	{"RESPONSIBLE_FOR", "responsible for", "responsibility of", actors, events, true, noFtM, none},
	{"PARTICIPATED_IN", "participated in", "had participant", actors, events, true, noFtM, none},
	{"LOCATED_IN", "located in", "location of", anyKind, places, true, noFtM, none},
	{"PUBLISHED", "published", "published by", actors, []Kind{KindDocument}, true, ftmDocumentation, none},
	{"OBTAINED", "obtained", "obtained by", actors, []Kind{KindDocument}, true, noFtM, none},
	{"DEFECTED_FROM", "defected from", "defector", people, agencies, true, noFtM, none},
	{"SOURCE_OF", "source of", "sourced from", []Kind{KindPerson, KindOrganization, KindDocument}, []Kind{KindDocument, KindEvent}, true, ftmDocumentation, none},
	{"DOCUMENTS", "documents", "documented in", []Kind{KindDocument}, []Kind{KindEvent, KindPerson, KindOrganization}, true, ftmDocumented, none},
	{"STATEMENT_ABOUT", "made a statement about", "subject of a statement by", actors, anyKind, true, ftmDocumented, none},
	// Command and control: who commanded a unit, which unit was under
	// which, where a unit was based and operated.
	{"COMMANDS", "commands", "commanded by", people, agencies, true, ftmDirectorship, postRank},
	{"SUBORDINATE_TO", "subordinate to", "has subordinate", agencies, agencies, true, ftmMembership, none},
	{"BASED_AT", "based at", "base of", agencies, places, true, noFtM, none},
	{"OPERATES_IN", "operates in", "area of operations of", agencies, places, true, noFtM, none},
	// Money and control of companies.
	{"OWNS", "owns", "owned by", actors, agencies, true, ftmOwnership.byDefault(), shares},
	{"DIRECTOR_OF", "director of", "has director", actors, agencies, true, ftmDirectorship.byDefault(), posts},
	{"PAID", "paid", "paid by", actors, actors, true, ftmPayment.byDefault(), payments},
	// People among themselves. FAMILY_OF is undirected (either may be
	// stored as from), but its relationship reads from → to: from is to's
	// PARENT.
	{"FAMILY_OF", "family of", "family of", people, people, false, ftmFamily.byDefault(), family},
	{"ASSOCIATE_OF", "associate of", "associate of", people, people, false, ftmAssociate.byDefault(), none},
	{"MET_WITH", "met with", "met with", actors, actors, false, noFtM, none},
	{"COMMUNICATED_WITH", "communicated with", "communicated with", actors, actors, false, noFtM, none},
	// Detention and incidents: who was held by whom, who died in whose
	// custody, who saw an incident, who carried it out (or is alleged to).
	{"DETAINED_BY", "detained by", "detained", people, agencies, true, noFtM, none},
	{"DIED_IN_CUSTODY_OF", "died in the custody of", "had die in custody", people, agencies, true, noFtM, none},
	{"WITNESSED", "witnessed", "witnessed by", people, events, true, noFtM, none},
	{"PERPETRATED", "perpetrated", "perpetrated by", actors, events, true, noFtM, none},
	{"ALLEGEDLY_PERPETRATED", "allegedly perpetrated", "allegedly perpetrated by", actors, events, true, noFtM, none},
	{"COINCIDES_WITH", "coincides with", "coincides with", []Kind{KindEvent, KindDocument}, []Kind{KindEvent, KindDocument}, false, noFtM, none},
	{"WORKED_WITH", "worked with", "worked with", actors, actors, false, ftmAssociate, none},
	{"RELATED_TO", "related to", "related to", anyKind, anyKind, false, noFtM, none},
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

// specAt is the index of each type's spec in vocabulary: Spec is asked of
// every relation a read decodes.
var specAt = func() map[RelationType]int {
	at := make(map[RelationType]int, len(vocabulary))
	for i, s := range vocabulary {
		if _, ok := at[s.Type]; !ok {
			at[s.Type] = i
		}
	}
	return at
}()

// Spec returns the spec of a relation type, or a BAD_USER_INPUT error.
func Spec(t RelationType) (RelationSpec, error) {
	if i, ok := specAt[t]; ok {
		return vocabulary[i], nil
	}
	return RelationSpec{}, UnknownValue("type", "relation type", string(t), RelationTypes())
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
