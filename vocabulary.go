package casegraph

import "slices"

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
