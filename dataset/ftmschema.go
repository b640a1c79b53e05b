package dataset

// The mapping between Casegraph's vocabulary and FollowTheMoney's
// schemata: the schema of each kind, organization category and relation
// type, the properties a relation's role and typed properties become, and
// the kinds each link schema joins. The export (ftm.go) writes by these
// tables and the import (ftmread.go) reads by them.

import (
	"fmt"
	"strconv"
	"strings"

	casegraph "github.com/casegraph/casegraph"
)

// kindSchemata is the FtM schema of each kind; organizations go by their
// category (organizationSchemata) when it has one.
var kindSchemata = map[casegraph.Kind]string{
	casegraph.KindPerson:       "Person",
	casegraph.KindOrganization: "Organization",
	casegraph.KindEvent:        "Event",
	casegraph.KindDocument:     "Document",
	casegraph.KindPlace:        "Address",
}

// organizationSchemata are the organizations that FtM has a narrower
// schema for.
var organizationSchemata = map[string]string{
	"GOVERNMENT":        "PublicBody",
	"INTERGOVERNMENTAL": "PublicBody",
	"TRIBUNAL":          "PublicBody",
	"COMPANY":           "Company",
	"LAW_FIRM":          "Company",
	"MEDIA":             "Company",
}

// ftmLink says how a relation type becomes an FtM interval: its schema,
// and the properties that hold its from and to ends. Documentation takes
// the document end as its document whichever way the relation reads.
type ftmLink struct {
	schema, from, to string
}

// relationSchemata maps each relation type that FtM has a schema for (the
// vocabulary's FtM column); a type missing here, or whose ends FtM's
// schema would not take, is an UnknownLink (subject, object) with the
// relation's reading label as its role.
var relationSchemata = func() map[casegraph.RelationType]ftmLink {
	out := map[casegraph.RelationType]ftmLink{}
	for _, spec := range casegraph.Vocabulary() {
		if spec.FtM.Schema != "" {
			out[spec.Type] = ftmLink{spec.FtM.Schema, spec.FtM.From, spec.FtM.To}
		}
	}
	return out
}()

// sharedSchemata are the FtM schemata that stand for more than one
// relation type (the vocabulary's FtM column), whose role carries the
// type's label.
var sharedSchemata = func() map[string]bool {
	types := map[string]int{}
	for _, l := range relationSchemata {
		types[l.schema]++
	}
	out := map[string]bool{}
	for schema, n := range types {
		out[schema] = n > 1
	}
	return out
}()

// roleProperty is the property that holds a relation's role in the
// schemata that have no "role" (ftmRelation reads them back).
var roleProperty = map[string]string{"Payment": "purpose", "Associate": "relationship", "Family": "relationship"}

// relationPropertyFtM is the FtM property that holds a type-specific
// relation property (casegraph.RelationPropertyTable), by schema; in any
// other schema it goes among the role's values as "post: brigade
// commander" (FtM's properties are lists), which ftmRelation reads back.
var relationPropertyFtM = map[string]map[string]string{
	"Ownership": {"share": "percentage"},
	"Payment":   {"amount": "amount", "currency": "currency"},
	"Family":    {"relationship": "relationship"},
}

// ftmValue is a type-specific relation property's value as FtM writes it:
// a number in decimal, a family relationship as a word ("uncle or aunt").
func ftmValue(name string, v any) string {
	switch v := v.(type) {
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case string:
		if name == "relationship" {
			return strings.ToLower(strings.ReplaceAll(v, "_", " "))
		}
		return v
	}
	return fmt.Sprint(v)
}

// linkEnds are the kinds an FtM link schema's ends take: a relation whose
// ends are of other kinds goes as an UnknownLink.
var linkEnds = map[string][2][]casegraph.Kind{
	"Membership":     {{casegraph.KindPerson, casegraph.KindOrganization}, {casegraph.KindOrganization}},
	"Employment":     {{casegraph.KindPerson}, {casegraph.KindOrganization}},
	"Representation": {{casegraph.KindPerson, casegraph.KindOrganization}, {casegraph.KindPerson, casegraph.KindOrganization}},
	"Directorship":   {{casegraph.KindPerson, casegraph.KindOrganization}, {casegraph.KindOrganization}},
	"Payment":        {{casegraph.KindPerson, casegraph.KindOrganization}, {casegraph.KindPerson, casegraph.KindOrganization}},
	"Associate":      {{casegraph.KindPerson}, {casegraph.KindPerson}},
	"Family":         {{casegraph.KindPerson}, {casegraph.KindPerson}},
	"Ownership":      {{casegraph.KindPerson, casegraph.KindOrganization}, {casegraph.KindOrganization}},
}
