package casegraph

import (
	"fmt"
	"iter"
	"math"
	"regexp"
	"slices"

	"golang.org/x/text/unicode/norm"
)

// Type-specific relation properties: what only some relation types carry
// (an ownership's share, a payment's amount, a family tie's relationship,
// a command's post and rank). The vocabulary's Properties column names
// those each type carries; relationProperties below is the one table of
// the properties themselves, each with its rule. Everything else is
// derived from the two: Relation.Validate (a property on a type that does
// not carry it is refused, naming the types that do), what a read may
// return (RelationProperties), the relation projection and the writes'
// parameters and content hash (cypher/relation.go), the data files'
// record (dataset.Record embeds RelationAttributes).
//
// To add a property: a field of RelationAttributes (its JSON name is the
// property's name), a row at the end of relationProperties, its name in
// the Properties column of the types that carry it, then the GraphQL side
// (graph/schema/relation.graphqls: Relation and LinkInput; make generate;
// the two conversions in graph/relation.go) and the analyst's guide.

// RelationAttributes are the properties a relation carries only when its
// type does (RelationSpec.Properties). Relation embeds them; so does
// dataset.Record, whose keys are their JSON names.
type RelationAttributes struct {
	// Share is the percentage of the asset owned, in (0, 100] (OWNS).
	Share *float64 `json:"share,omitempty"`
	// Amount is the sum paid, not negative (PAID, FUNDS), in Currency
	// when that is known.
	Amount *float64 `json:"amount,omitempty"`
	// Currency is Amount's ISO 4217 code, such as USD (PAID, FUNDS); it
	// comes only with an amount.
	Currency string `json:"currency,omitempty"`
	// Relationship is what the from end is to the to end (FAMILY_OF):
	// PARENT says from is to's parent.
	Relationship FamilyRelationship `json:"relationship,omitempty"`
	// Post is the post held, as the record names it (COMMANDS,
	// HELD_POSITION, DIRECTOR_OF): "commander of the 4th Division".
	Post string `json:"post,omitempty"`
	// Rank is the military or police rank held (COMMANDS, HELD_POSITION):
	// "brigadier general".
	Rank string `json:"rank,omitempty"`
}

// FamilyRelationship is what one person is to another in a FAMILY_OF
// relation: the from end is the to end's RELATIONSHIP.
type FamilyRelationship string

// The family relationships, read from → to: "from is to's PARENT". The
// symmetric ones (SIBLING, SPOUSE, PARTNER, COUSIN, IN_LAW, OTHER) read
// the same both ways; the others read the other way as their Inverse.
const (
	FamilyParent        FamilyRelationship = "PARENT"
	FamilyChild         FamilyRelationship = "CHILD"
	FamilySibling       FamilyRelationship = "SIBLING"
	FamilySpouse        FamilyRelationship = "SPOUSE"
	FamilyPartner       FamilyRelationship = "PARTNER"
	FamilyGrandparent   FamilyRelationship = "GRANDPARENT"
	FamilyGrandchild    FamilyRelationship = "GRANDCHILD"
	FamilyUncleOrAunt   FamilyRelationship = "UNCLE_OR_AUNT"
	FamilyNephewOrNiece FamilyRelationship = "NEPHEW_OR_NIECE"
	FamilyCousin        FamilyRelationship = "COUSIN"
	FamilyInLaw         FamilyRelationship = "IN_LAW"
	FamilyOther         FamilyRelationship = "OTHER"
)

// FamilyRelationships lists every family relationship.
func FamilyRelationships() []FamilyRelationship {
	return []FamilyRelationship{FamilyParent, FamilyChild, FamilySibling, FamilySpouse, FamilyPartner,
		FamilyGrandparent, FamilyGrandchild, FamilyUncleOrAunt, FamilyNephewOrNiece, FamilyCousin, FamilyInLaw, FamilyOther}
}

// Inverse is the relationship read the other way (to is from's ...): a
// PARENT's is CHILD; a symmetric one's is itself.
func (f FamilyRelationship) Inverse() FamilyRelationship {
	pairs := [][2]FamilyRelationship{{FamilyParent, FamilyChild}, {FamilyGrandparent, FamilyGrandchild},
		{FamilyUncleOrAunt, FamilyNephewOrNiece}}
	for _, p := range pairs {
		switch f {
		case p[0]:
			return p[1]
		case p[1]:
			return p[0]
		}
	}
	return f
}

// Limits on type-specific relation properties.
const (
	MaxPostLength = 200
	MaxRankLength = 100
	MaxShare      = 100
)

var (
	postRule     = TextRule{Max: MaxPostLength}
	rankRule     = TextRule{Max: MaxRankLength}
	currencyCode = regexp.MustCompile(`^[A-Z]{3}$`)
)

// RelationProperty is one row of the table: a property that only some
// relation types carry.
type RelationProperty struct {
	// Name is the property's name everywhere: the Neo4j property, the
	// GraphQL field and the data files' key.
	Name string

	field relationField
	// check is the rule of a value that is set.
	check func(RelationAttributes) error
}

// relationField reads and writes one field of RelationAttributes as it is
// stored: a string or a float64, nil when it is not set.
type relationField struct {
	typ PropertyType
	get func(*RelationAttributes) any
	set func(*RelationAttributes, any) error
}

// relationProperties is the table, in the order every list of them follows
// (and the content hash: append new rows at the end).
var relationProperties = []RelationProperty{
	{Name: "share", field: relNumber(func(a *RelationAttributes) **float64 { return &a.Share }), check: checkShare},
	{Name: "amount", field: relNumber(func(a *RelationAttributes) **float64 { return &a.Amount }), check: checkAmount},
	{Name: "currency", field: relText(func(a *RelationAttributes) *string { return &a.Currency }), check: checkCurrency},
	{Name: "relationship", field: relText(func(a *RelationAttributes) *string { return (*string)(&a.Relationship) }),
		check: checkRelationship},
	{Name: "post", field: relText(func(a *RelationAttributes) *string { return &a.Post }),
		check: func(a RelationAttributes) error { return postRule.Check("post", a.Post) }},
	{Name: "rank", field: relText(func(a *RelationAttributes) *string { return &a.Rank }),
		check: func(a RelationAttributes) error { return rankRule.Check("rank", a.Rank) }},
}

// RelationPropertyTable returns the table of type-specific relation
// properties, in its order; the slice is the caller's to change.
func RelationPropertyTable() []RelationProperty {
	return slices.Clone(relationProperties)
}

// RelationPropertyRows yields the table of type-specific relation
// properties, row by row in its order, without the copy
// RelationPropertyTable makes (every relation read ranges over it: the
// copies were 2% of a depth-2 read's allocations).
func RelationPropertyRows() iter.Seq[RelationProperty] {
	return slices.Values(relationProperties)
}

// RelationPropertyNames names the table's properties, in its order.
func RelationPropertyNames() []string {
	names := make([]string, len(relationProperties))
	for i, p := range relationProperties {
		names[i] = p.Name
	}
	return names
}

// Type is the type of the property's values: PropertyString or
// PropertyFloat.
func (p RelationProperty) Type() PropertyType {
	return p.field.typ
}

// Value is the property's value on a as stored: a string or a float64, or
// nil when it is not set.
func (p RelationProperty) Value(a RelationAttributes) any {
	return p.field.get(&a)
}

// Set puts a stored value (nil: not set) into a.
func (p RelationProperty) Set(a *RelationAttributes, v any) error {
	if err := p.field.set(a, v); err != nil {
		return fmt.Errorf("%s: %w", p.Name, err)
	}
	return nil
}

// Types are the relation types that carry the property (the vocabulary's
// Properties column), in the vocabulary's order.
func (p RelationProperty) Types() []RelationType {
	var out []RelationType
	for _, s := range vocabulary {
		if slices.Contains(s.Properties, p.Name) {
			out = append(out, s.Type)
		}
	}
	return out
}

// relNumber is an optional number.
func relNumber(at func(*RelationAttributes) **float64) relationField {
	return relationField{
		typ: PropertyFloat,
		get: func(a *RelationAttributes) any {
			if v := *at(a); v != nil {
				return *v
			}
			return nil
		},
		set: func(a *RelationAttributes, v any) error {
			switch n := v.(type) {
			case nil:
				*at(a) = nil
			case float64:
				*at(a) = &n
			case int64: // a whole number stored by another writer
				f := float64(n)
				*at(a) = &f
			default:
				return fmt.Errorf("want a number, got %T", v)
			}
			return nil
		},
	}
}

// relText is a text, or an enum's value; empty is not set.
func relText(at func(*RelationAttributes) *string) relationField {
	return relationField{
		typ: PropertyString,
		get: func(a *RelationAttributes) any {
			if v := *at(a); v != "" {
				return v
			}
			return nil
		},
		set: func(a *RelationAttributes, v any) error {
			switch s := v.(type) {
			case nil:
				*at(a) = ""
			case string:
				*at(a) = s
			default:
				return fmt.Errorf("want a string, got %T", v)
			}
			return nil
		},
	}
}

// checkProperties refuses a type-specific property on a relation whose
// type does not carry it, naming the types that do, and checks the value
// of each that is set: the first problem, at its property's field (share,
// currency ...), for a form to show it there.
func (s RelationSpec) checkProperties(a RelationAttributes) error {
	for _, p := range relationProperties {
		if p.Value(a) == nil {
			continue
		}
		if !slices.Contains(s.Properties, p.Name) {
			return atField(p.Name, Errorf(CodeBadUserInput, "a relation of type %s has no %s: only %s relations carry it",
				s.Type, p.Name, orList(p.Types())))
		}
		if err := p.check(a); err != nil {
			return atField(p.Name, err)
		}
	}
	return nil
}

// normalize puts the text properties in NFC.
func (a *RelationAttributes) normalize() {
	a.Post, a.Rank = norm.NFC.String(a.Post), norm.NFC.String(a.Rank)
}

func checkShare(a RelationAttributes) error {
	if v := *a.Share; math.IsNaN(v) || v <= 0 || v > MaxShare {
		return Errorf(CodeBadUserInput, "share %v is not a percentage above 0 and at most 100", v)
	}
	return nil
}

func checkAmount(a RelationAttributes) error {
	if v := *a.Amount; math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return Errorf(CodeBadUserInput, "amount %v is not a number of at least 0", v)
	}
	return nil
}

// checkCurrency: an ISO 4217 code, and only with the amount it counts (a
// currency alone says nothing of a payment; an amount alone, in a currency
// the record does not name, does).
func checkCurrency(a RelationAttributes) error {
	if !currencyCode.MatchString(a.Currency) {
		return Errorf(CodeBadUserInput, "currency %q is not an ISO 4217 code of three capital letters such as USD", truncate(a.Currency, 10))
	}
	if a.Amount == nil {
		return Errorf(CodeBadUserInput, "currency %s without an amount: give the amount it counts", a.Currency)
	}
	return nil
}

func checkRelationship(a RelationAttributes) error {
	if !slices.Contains(FamilyRelationships(), a.Relationship) {
		return UnknownValue("relationship", "family relationship", string(a.Relationship), FamilyRelationships())
	}
	return nil
}
