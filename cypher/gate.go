package cypher

// The gate: the one way a statement finds, for a caller, the entities,
// relations, sources and audit records it returns. Its tests are written
// here once, and every statement template of queries/ applies them inside
// its match (never by filtering results afterwards), with the caller's
// scope as parameters (withScope):
//
//   - readable: an entity, a source or a relation of a dataset the caller
//     may read ($readable, null for every one);
//   - a relation only with both its ends readable: its pattern's end nodes
//     are gated, or its ends are tested (the "relationEnds" definition of
//     queries/shared.tmpl);
//   - hidden: a protected person seen by a caller without clearance
//     ($callerCleared), who finds it by its opaque id only (lookup) and
//     sees it redacted (the projections, read.go), or not at all (lists,
//     counts, search, exports);
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
		duplicateUngated(), entityUngated(), keyUngated(), migrateUngated(), relationUngated(), savedQueryUngated(),
		sourceUngated(), storeUngated(), writeUngated(), writeGateUngated()}
}

// readable is the gate's test that the caller may read the dataset of a
// node (an entity, a source) or of a relation, an expression.
func readable(v string) string {
	return "($readable IS NULL OR " + v + ".dataset IN $readable)"
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
