package dataset

// An FtM interval (Ownership, Payment, Family, Membership, ...) read as a
// Casegraph relation: its type, ends, dates and type-specific properties.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	casegraph "github.com/casegraph/casegraph"
)

// ftmRelation reads an interval: its type by relationSchemata (the label
// at the start of its role choosing among several; without one, the
// schema's default type), its ends, dates,
// quote, status and confidence.
func ftmRelation(e FtMEntity, kinds map[string]casegraph.Kind, id func(string) string) (casegraph.Relation, string, bool) {
	var rel casegraph.Relation
	attrs, roles, note := ftmRelationAttributes(e)
	role := ""
	if len(roles) > 0 {
		role = roles[0]
	}
	typ, fromProp, toProp := "", "", ""
	if loose, ok := looseLinks[e.Schema]; ok {
		typ, fromProp, toProp = "RELATED_TO", loose.from, loose.to
		role = strings.TrimSuffix(strings.TrimSpace(loose.schema+": "+role), ":")
		note = joinNotes(note, fmt.Sprintf("%s %s as RELATED_TO (role %q): Casegraph has no type for it", e.Schema, e.ID, role))
	} else {
		for t, l := range relationSchemata {
			if l.schema != e.Schema {
				continue
			}
			spec, _ := casegraph.Spec(t)
			rest, labelled := strings.CutPrefix(role, spec.Label)
			if labelled && (rest == "" || strings.HasPrefix(rest, ": ")) {
				typ, fromProp, toProp, role = string(t), l.from, l.to, strings.TrimPrefix(rest, ": ")
				break
			}
			if spec.FtM.Default && typ == "" { // unlabelled: the schema's default type
				typ, fromProp, toProp = string(t), l.from, l.to
			}
		}
		if e.Schema == "UnknownLink" {
			typ, fromProp, toProp = "RELATED_TO", "subject", "object"
			for _, spec := range casegraph.Vocabulary() {
				if rest, ok := strings.CutPrefix(role, spec.Label); ok && (rest == "" || strings.HasPrefix(rest, ": ")) {
					typ, role = string(spec.Type), strings.TrimPrefix(rest, ": ")
					break
				}
			}
		}
	}
	if typ == "" {
		return rel, fmt.Sprintf("%s %s: no Casegraph kind or relation type for this schema", e.Schema, e.ID), false
	}
	from, to := first(e, fromProp), first(e, toProp)
	if e.Schema == "Documentation" {
		// The document end is the relation's to when the type takes that
		// way round (AUTHORED), else its from (DOCUMENTS), as the export wrote it.
		spec, _ := casegraph.Spec(casegraph.RelationType(typ))
		if !slices.Contains(spec.ToKinds, kinds[id(to)]) || !slices.Contains(spec.FromKinds, kinds[id(from)]) {
			from, to = to, from
		}
	}
	if from == "" || to == "" {
		return rel, fmt.Sprintf("%s %s lacks %s or %s", e.Schema, e.ID, fromProp, toProp), false
	}
	for _, end := range []string{from, to} {
		if _, ok := kinds[id(end)]; !ok {
			return rel, fmt.Sprintf("%s %s: %s is not an entity of the file that was read", e.Schema, e.ID, end), false
		}
	}
	rel.Type, rel.FromID, rel.ToID, rel.Role = casegraph.RelationType(typ), id(from), id(to), role
	rel.RelationAttributes = attrs
	rel.StartDate, rel.EndDate, rel.Quote = ftmDate(first(e, "startDate")), ftmDate(first(e, "endDate")), first(e, "summary")
	rel.Status = casegraph.Status(strings.ToUpper(first(e, "status")))
	for _, fact := range strings.Split(first(e, "description"), "; ") {
		k, v, _ := strings.Cut(fact, ": ")
		switch k {
		case "status":
			rel.Status = casegraph.Status(strings.ToUpper(v))
		case "confidence":
			if c, err := strconv.ParseFloat(v, 64); err == nil {
				rel.Confidence = &c
			}
		}
	}
	if !slices.Contains(casegraph.Statuses(), rel.Status) {
		rel.Status = casegraph.DefaultStatus // none, or one Casegraph does not know
	}
	return rel, note, true
}

// ftmRelationAttributes reads an interval's type-specific properties (in
// their schema's own property, relationPropertyFtM, or among the role's
// values as "post: ..."), and the role's other values: a Family's
// relationship that is one of Casegraph's (or a word for one: "mother" is
// PARENT, kept as the role too) is its relationship. A value that is not
// a number where one is wanted is left out, said in the note.
func ftmRelationAttributes(e FtMEntity) (casegraph.RelationAttributes, []string, string) {
	var a casegraph.RelationAttributes
	var roles, bad []string
	native := relationPropertyFtM[e.Schema]
	table := casegraph.RelationPropertyTable()
	set := func(p casegraph.RelationProperty, v string) {
		var value any = v
		switch {
		case p.Type() == casegraph.PropertyFloat:
			f, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(v, "%")), 64)
			if err != nil {
				bad = append(bad, fmt.Sprintf("%s %q", p.Name, v))
				return
			}
			value = f
		case p.Name == "currency":
			value = strings.ToUpper(v)
		}
		_ = p.Set(&a, value) // a float64 or a string, as the row takes
	}
	for _, prop := range []string{"role", "purpose", "relationship"} {
	values:
		for _, v := range e.Properties[prop] {
			for _, p := range table {
				if rest, ok := strings.CutPrefix(v, p.Name+": "); ok {
					set(p, rest)
					continue values
				}
			}
			if native["relationship"] == prop && a.Relationship == "" {
				if f, word := familyRelationship(v); f != "" {
					a.Relationship = f
					if word {
						roles = append(roles, v)
					}
					continue
				}
			}
			roles = append(roles, v)
		}
	}
	for _, p := range table {
		if prop, ok := native[p.Name]; ok && p.Name != "relationship" && first(e, prop) != "" {
			set(p, first(e, prop))
		}
	}
	note := ""
	if len(bad) > 0 {
		note = fmt.Sprintf("%s %s: left out %s, not a number", e.Schema, e.ID, strings.Join(bad, ", "))
	}
	return a, roles, note
}

// familyWords are words other tools write in a Family's relationship, and
// what they are in Casegraph's list; word says the word says more than
// the list (mother, not only parent), so it is kept as the role.
var familyWords = map[string]casegraph.FamilyRelationship{
	"mother": casegraph.FamilyParent, "father": casegraph.FamilyParent,
	"son": casegraph.FamilyChild, "daughter": casegraph.FamilyChild,
	"brother": casegraph.FamilySibling, "sister": casegraph.FamilySibling,
	"husband": casegraph.FamilySpouse, "wife": casegraph.FamilySpouse,
	"grandmother": casegraph.FamilyGrandparent, "grandfather": casegraph.FamilyGrandparent,
	"grandson": casegraph.FamilyGrandchild, "granddaughter": casegraph.FamilyGrandchild,
	"uncle": casegraph.FamilyUncleOrAunt, "aunt": casegraph.FamilyUncleOrAunt,
	"nephew": casegraph.FamilyNephewOrNiece, "niece": casegraph.FamilyNephewOrNiece,
}

// familyRelationship reads a Family's relationship: one of Casegraph's as
// the export writes it ("uncle or aunt"), or a word for one (word true);
// "" when it is neither.
func familyRelationship(v string) (f casegraph.FamilyRelationship, word bool) {
	norm := strings.ToLower(strings.TrimSpace(v))
	if f, ok := familyWords[norm]; ok {
		return f, true
	}
	f = casegraph.FamilyRelationship(strings.ToUpper(strings.NewReplacer(" ", "_", "-", "_").Replace(norm)))
	if slices.Contains(casegraph.FamilyRelationships(), f) {
		return f, false
	}
	return "", false
}

func joinNotes(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
