package cypher

import (
	"slices"
	"strings"

	"github.com/casegraph/casegraph"
)

// The gate: scope and redaction, the one way a statement finds, for a
// caller, the entities, relations, sources and audit records it returns,
// and shows them. Its tests are written here once, and every statement
// template of statements/ applies them inside its match (never by filtering
// results afterwards), with the caller's scope as parameters (withScope):
//
//   - readable: an entity, a source or a relation of a dataset the caller
//     may read ($readable; $readAll for every one);
//   - a relation only with both its ends readable: its pattern's end nodes
//     are gated, or its ends are tested (the "relationEnds" definition of
//     statements/shared.tmpl);
//   - hidden: a protected person seen by a caller without clearance
//     ($callerCleared), who finds it by its opaque id only (lookup) and
//     sees it redacted (the projections below: entityProjection,
//     relationProjection), or not at all (lists, counts, search, exports);
//   - lookup: an entity named by a key, as the caller may name it (its id,
//     a merged-away id's tombstone, or its opaque id);
//   - the "changeReadable" definition: an audit record only when the caller
//     may read every dataset it names.
//
// gate_test.go renders every statement and proves, pattern by pattern,
// that each reads the graph through these tests; the statements that
// return no graph data to a caller (writes under the write plan,
// migrations, the operator's work) are declared next to their constants
// (ungated), each with its reason.

// ungated lists statements that do not go through the gate, each with the
// reason it may not: it returns no graph data to a caller. Every file
// that has such statements declares them in a function next to their
// constants, and ungatedStatements collects them; gate_test.go checks
// every other statement, and that each one listed here needs it.
type ungated map[statement]string

// ungatedStatements collects the declarations of every file.
func ungatedStatements() []ungated {
	return []ungated{batchUngated(), changeUngated(), datasetUngated(), degreeUngated(),
		duplicateUngated(), entityUngated(), keyUngated(), mergeUngated(), migrateUngated(), relationUngated(), savedQueryUngated(), viewUngated(),
		sourceUngated(), storeUngated(), writeUngated(), writeGateUngated(), citationUngated()}
}

// readable is the gate's test that the caller may read the dataset of a
// node (an entity, a source) or of a relation, an expression.
func readable(v string) string {
	return "($readAll OR " + v + ".dataset IN $readable)"
}

// hidden is the test that an entity (an expression) is protected and the
// caller has no clearance: the caller sees it redacted, and finds it only
// by its opaque id. Clearance is asked first, so that a cleared caller's
// statement reads no property for it.
func hidden(v string) string {
	return "(NOT $callerCleared AND coalesce(" + v + ".protected, false))"
}

// lookupMatch finds the entity that a key names, for lookupEntity, each
// way through the gate: by its id (never a protected entity hidden from
// the caller), as a merged-away id's survivor (likewise), or by its
// opaque id (only an entity hidden from the caller); each of a dataset
// the caller may read.
func lookupMatch(key, v string) string {
	d, s, m := v+"_direct", v+"_survivor", v+"_masked"
	return "OPTIONAL MATCH (" + d + ":Entity {id: " + key + "})\n" +
		"  WHERE " + readable(d) + " AND NOT " + hidden(d) + "\n" +
		"OPTIONAL MATCH (:MergedEntity {id: " + key + "})-[:MERGED_INTO]->(" + s + ":Entity)\n" +
		"  WHERE " + readable(s) + " AND NOT " + hidden(s) + "\n" +
		"OPTIONAL MATCH (" + m + ":Entity {redactedId: " + key + "})\n" +
		"  WHERE " + readable(m) + " AND " + hidden(m)
}

// lookupEntity is the entity that lookupMatch found (null for none): a
// protected entity hidden from the caller is found by its opaque id only,
// never by its real one (nor a real one merged into it); every other
// entity by its id (or a merged-away id), never by its opaque id.
func lookupEntity(v string) string {
	return "coalesce(" + v + "_direct, " + v + "_survivor, " + v + "_masked)"
}

// entityProjection is the map projection of an entity variable: its id,
// the properties (of casegraph.EntityProperties), its kind and whether it
// is redacted. A protected entity read by a caller without clearance
// ($callerCleared false) is redacted inside the statement: its opaque id
// (redactedId), the name "Protected person", its dataset and sources, and
// nothing else (every other property null).
func entityProjection(v string, props []string) string {
	kind := "kind: [l IN labels(" + v + ") WHERE l <> 'Entity'][0]"
	var b strings.Builder
	b.WriteString("CASE WHEN " + hidden(v) + " THEN {id: " + v + ".redactedId, ")
	for _, p := range props {
		switch {
		case p == "name":
			b.WriteString("name: '" + casegraph.RedactedName + "', ")
		case slices.Contains(redactedEntityKeeps, p):
			b.WriteString(p + ": " + v + "." + p + ", ")
		default:
			b.WriteString(p + ": null, ")
		}
	}
	b.WriteString(kind + ", redacted: true} ELSE ")
	b.WriteString(projection(v, append([]string{"id"}, props...), kind+", redacted: false"))
	b.WriteString(" END")
	return b.String()
}

// notPad is the test that v, a value of a list planList made, is not its
// padding (planPad), which names nothing. Lists of property names
// ($entityProps, $relationProps) keep to the names asked for with it:
// reading a padded name would still read the property chain, a database
// hit for nothing (on an entity's page of 20 relations with their other
// ends, about half of the statement's hits). The names asked for come
// first, so each value keeps its place. ReadEntities drops padded ids with
// it before seeking them.
func notPad(v string) string { return v + " <> '" + planPad + "'" }

// notPadded is the filter of a list comprehension over p with notPad.
var notPadded = "WHERE " + notPad("p")

// redactedEntityKeeps are the properties a redacted entity still shows:
// what it cites and how well, never the words.
var redactedEntityKeeps = []string{"dataset", "sourceIds", "citationCredibility", "citationGrades"}

// entityValues is entityProjection with the properties named by the
// statement's parameter $entityProps rather than written in its text, so
// that one text (and one plan in Neo4j's query cache) serves every
// selection of properties: the map holds the id, kind and redaction as
// entityProjection has them, and "values", the properties' values in the
// parameter's order (read by name, v[p]), redacted as entityProjection
// redacts them. The decoder (valuesByName) makes the properties of the
// map again.
func entityValues(v string) string {
	kind := "kind: [l IN labels(" + v + ") WHERE l <> 'Entity'][0]"
	return "CASE WHEN " + hidden(v) + " THEN {id: " + v + ".redactedId, " + kind + ", redacted: true, " +
		"values: [p IN $entityProps | CASE WHEN p IN " + cypherList(redactedEntityKeeps) + " THEN " + v + "[p]" +
		" WHEN p = 'name' THEN '" + casegraph.RedactedName + "' END]} " +
		"ELSE {id: " + v + ".id, " + kind + ", redacted: false, values: [p IN $entityProps " + notPadded + " | " + v + "[p]]} END"
}

// relationValuesOf is relationProjectionOf with the properties named by
// the statement's parameter $relationProps (entityValues says why): the
// map holds the id, type and ends as relationProjectionOf has them, and
// "values", the properties' values in the parameter's order, those of
// redactedRelationProperty null where an end is hidden (redact).
func relationValuesOf(r, redact, key string) string {
	var redacted []string
	for _, p := range casegraph.RelationProperties {
		if redactedRelationProperty(p) {
			redacted = append(redacted, p)
		}
	}
	return "CASE WHEN " + r + " IS NULL THEN null ELSE {id: " + key + ", " +
		"values: [p IN $relationProps " + notPadded + " | CASE WHEN " + redact + " AND p IN " + cypherList(redacted) + " THEN null ELSE " + r + "[p] END], " +
		relationTypeAndEnds(r, redact) + "} END"
}

// relationTypeAndEnds is what a relation's projection shows besides its
// id and properties: its type and its ends' ids as the caller sees them.
// Only a relation with a hidden end (redact) has an end to show by its
// opaque id.
func relationTypeAndEnds(r, redact string) string {
	from, to := "startNode("+r+")", "endNode("+r+")"
	return "type: type(" + r + "), " +
		"from: CASE WHEN " + redact + " THEN " + endID(from) + " ELSE " + from + ".id END, " +
		"to: CASE WHEN " + redact + " THEN " + endID(to) + " ELSE " + to + ".id END"
}

// cypherList is a list literal of names from the vocabulary (never a
// client's text).
func cypherList(names []string) string {
	return "['" + strings.Join(names, "', '") + "']"
}

// relationProjection is the map projection of a relationship variable:
// its id, the properties (of casegraph.RelationProperties), its type and
// its ends' ids. A relation with a protected end, read by a caller without
// clearance, shows its opaque id and its ends' ids as the caller sees
// them (a protected end's opaque id), and neither its quotes, their
// locators, its role nor its type-specific properties
// (redactedRelationProperty).
func relationProjection(r string, props []string) string {
	return relationProjectionOf(r, props, relationHidden(r), relationKey(r))
}

// relationProjectionOf is relationProjection with the relation's test
// (relationHidden) and id as the caller sees it (relationKey) given as
// expressions, for a statement that has computed them once already.
func relationProjectionOf(r string, props []string, redact, key string) string {
	var b strings.Builder
	// Null for no relation (an optional match's), as a map projection is.
	b.WriteString("CASE WHEN " + r + " IS NULL THEN null ELSE {id: " + key + ", ")
	for _, p := range props {
		if redactedRelationProperty(p) {
			b.WriteString(p + ": CASE WHEN " + redact + " THEN null ELSE " + r + "." + p + " END, ")
		} else {
			b.WriteString(p + ": " + r + "." + p + ", ")
		}
	}
	b.WriteString(relationTypeAndEnds(r, redact) + "} END")
	return b.String()
}

// redactedRelationProperty reports whether a relation with an end hidden
// from the caller shows the property as null: its quote and role, and
// every type-specific property (a post, a rank, a family relationship, an
// amount or a share can say who the hidden end is).
func redactedRelationProperty(p string) bool {
	switch p {
	case "quote", "citationQuotes", "citationLocators", "role":
		return true
	}
	for rp := range casegraph.RelationPropertyRows() {
		if rp.Name == p {
			return true
		}
	}
	return false
}

// relationHidden is the test that a relation has an end hidden from the
// caller (hidden), who sees it by its opaque id, without quote or role.
// Clearance is asked first, so that a cleared caller's statement reads
// neither end's flag.
func relationHidden(r string) string {
	return "(NOT $callerCleared AND (coalesce(startNode(" + r + ").protected, false) OR coalesce(endNode(" + r + ").protected, false)))"
}

// relationKey is a relation's id as the caller sees it (the opaque one
// when an end is hidden from the caller): what it is shown, paged and
// ordered by.
func relationKey(r string) string {
	return relationKeyOf(r, relationHidden(r))
}

// relationOrder is relationKey read from the relation alone, a page's
// sort key and cursor: the record the writes keep of whether an end is
// protected (protectedEnd: UpsertRelation, CreateRelations, MergeEntity,
// and UpsertEntities when an end's protection changes), so that a page of
// a hub's relations reads none of their other ends to sort them; the
// ends' test (relationHidden) only for a relation written before the
// record was kept (BackfillProtectedEnds fills it). What is shown is
// still relationKey, of the ends, for the page's relations alone; the
// two agree wherever the record does.
func relationOrder(r string) string {
	return "CASE WHEN $callerCleared THEN " + r + ".id WHEN coalesce(" + r + ".protectedEnd, " + relationHidden(r) + ") THEN " + r + ".redactedId ELSE " + r + ".id END"
}

// relationKeyOf is relationKey with the relation's test already computed.
func relationKeyOf(r, redact string) string {
	return "CASE WHEN " + redact + " THEN " + r + ".redactedId ELSE " + r + ".id END"
}

// endID is an entity's id as the caller sees it.
func endID(v string) string {
	return "CASE WHEN " + hidden(v) + " THEN " + v + ".redactedId ELSE " + v + ".id END"
}

// projection is a map projection of a variable: the properties (checked
// against the vocabulary's lists, never a client's text) and an extra.
func projection(v string, props []string, extra string) string {
	var b strings.Builder
	b.WriteString(v + " {")
	for _, p := range props {
		b.WriteString("." + p + ", ")
	}
	b.WriteString(extra + "}")
	return b.String()
}
