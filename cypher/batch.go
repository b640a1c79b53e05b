package cypher

// Batch writes (imports, the seed): sources, entities and relations, many
// rows a statement (UNWIND), in one transaction through the write gate.

import (
	"context"
	"slices"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
)

// Statements of this file (statements/NAME.cypher or NAME.cypher.tmpl).
const (
	stmtCreateRelations statement = "CreateRelations"
	stmtUpdateRelations statement = "UpdateRelations"
)

// batchUngated: the statements of this file that return no graph data to a
// caller, and why (see ungated): every other goes through the gate.
func batchUngated() ungated {
	return ungated{
		stmtCreateRelations: "a write of ApplyWrites, through the write gate: returns counts",
		stmtUpdateRelations: "a write of ApplyWrites, through the write gate: returns counts",
	}
}

// WriteBatch is ApplyWrites of sources, entities and relations, into no
// one dataset.
func (s *Store) WriteBatch(ctx context.Context, sources []casegraph.Source, entities []casegraph.Entity, relations []casegraph.Relation) (changed int, err error) {
	return s.ApplyWrites(ctx, casegraph.Writes{Sources: sources, Entities: entities, Relations: relations})
}

// ApplyWrites writes sources, entities and relations in one transaction,
// through the write gate (writegate.go) as every mutation does, with one
// statement per kind of row (UNWIND). A refused row refuses the whole
// batch, with an error that says which row (casegraph.Refusal); so does an
// id that another writer takes while the batch is written (CONFLICT: write
// the batch again). An import checks a whole file first (CheckWrites), so
// that it writes none of it when a row is bad. Writing the same rows again
// changes nothing; changed is how many rows changed something (the others
// were already stored as they are).
func (s *Store) ApplyWrites(ctx context.Context, w casegraph.Writes) (changed int, err error) {
	p := planOf(w)
	p.holdSourcesLate = true // holdSources: writeRelations, or below
	if err := precheck(ctx, p); err != nil {
		return 0, err
	}
	err = s.inWrite(ctx, "WriteBatch", func(run txRunner) error {
		changed = 0 // the transaction may be retried
		g, err := passGate(ctx, run, p)
		if err != nil {
			return err
		}
		if len(p.Sources) > 0 {
			n, err := upsertSources(run, g, p.Sources)
			if err != nil {
				return err
			}
			changed += n
		}
		if len(p.Entities) > 0 {
			n, err := upsertEntities(run, g, p.Entities)
			if err != nil {
				return err
			}
			changed += n
		}
		if len(p.Relations) > 0 {
			n, err := writeRelations(run, g, p.Relations)
			if err != nil {
				return err
			}
			changed += n
		}
		if err := regrade(run, g, p.Sources); err != nil {
			return err
		}
		return g.holdSources(run)
	})
	return changed, err
}

// upsertEntities writes entities that passed the gate with one
// UpsertEntities, for an import's batch and a single upsert alike, and
// returns how many changed something. An id the gate found free that
// another write took since refuses the transaction (CONFLICT).
func upsertEntities(run txRunner, g *gate, entities []casegraph.Entity) (changed int, err error) {
	var stored, free []map[string]any
	for _, e := range entities {
		e.Citations = g.graded(e.Cited())
		row := entityParams(e)
		if g.entities[e.ID].entity != nil {
			row["stored"] = true
			stored = append(stored, row)
		} else {
			free = append(free, row)
		}
	}
	if len(free) > 0 {
		if changed, err = createEntities(run, free); err != nil {
			return 0, err
		}
	}
	if len(stored) > 0 {
		recs, err := run(stmtUpsertEntities, map[string]any{"rows": stored})
		if err != nil {
			return 0, err
		}
		n, err := rowsChanged(stmtUpsertEntities, recs, "entity")
		if err != nil {
			return 0, err
		}
		changed += n
	}
	cited := citingDatasets{}
	for _, e := range entities {
		cited.add(e.Dataset, e.Cited())
	}
	return changed, g.note(run, cited)
}

// createEntities writes the entities whose ids the gate found free with
// one CreateEntities, set-based: an import's entities are mostly new, and
// for them UpsertEntities' per-row subqueries and six Eager operators do
// nothing but cost (10,000 new rows, statement and commit: 0.8-2.5 s
// against 1.1-3.5 s, paired runs on a loaded machine). An id another write
// took since fails the id's uniqueness constraint, which the caller sees
// as CONFLICT.
func createEntities(run txRunner, rows []map[string]any) (int, error) {
	recs, err := run(stmtCreateEntities, map[string]any{"rows": rows})
	if violatesConstraint(err) {
		// As UpsertEntities' raced ids say it, without the database's text.
		return 0, casegraph.Errorf(casegraph.CodeConflict, "an entity this write creates was created by another write while this one was written: send it again")
	}
	if err != nil {
		return 0, err
	}
	if len(recs) != 1 {
		return 0, internalError(stmtCreateEntities, errNoRow)
	}
	n, err := getInt(recs[0], "created")
	if err != nil {
		return 0, internalError(stmtCreateEntities, err)
	}
	return int(n), nil
}

// upsertSources is upsertEntities for sources.
func upsertSources(run txRunner, g *gate, sources []casegraph.Source) (changed int, err error) {
	rows := make([]map[string]any, len(sources))
	for i, src := range sources {
		rows[i] = sourceParams(src)
		_, rows[i]["stored"] = g.sources[src.ID]
	}
	recs, err := run(stmtUpsertSources, map[string]any{"rows": rows})
	if err != nil {
		return 0, err
	}
	return rowsChanged(stmtUpsertSources, recs, "source")
}

// rowsChanged reads what an upsert of rows says: how many changed, and
// the ids another write took meanwhile (a CONFLICT).
func rowsChanged(stmt statement, recs []*neo4j.Record, what string) (int, error) {
	if len(recs) != 1 {
		return 0, internalError(stmt, errNoRow)
	}
	raced, err := getStrings(recs[0], "raced")
	if err != nil {
		return 0, internalError(stmt, err)
	}
	if len(raced) > 0 {
		return 0, casegraph.Errorf(casegraph.CodeConflict, "the %s %q was created by another write while this one was written: send it again", what, raced[0])
	}
	n, err := getInt(recs[0], "changed")
	if err != nil {
		return 0, internalError(stmt, err)
	}
	return int(n), nil
}

// writeRelations writes relations that passed the gate, inside ApplyWrites'
// transaction, and returns how many it created or changed. The gate read
// which exist (RelationStates, with the same type and ends: it refused
// the others); this creates the absent ones with CREATE, which costs less
// than a MERGE that looks each up again, updates those whose content
// changed, and leaves the others alone: two round trips at most.
func writeRelations(run txRunner, g *gate, relations []casegraph.Relation) (changed int, err error) {
	rows := make(map[string]map[string]any, len(relations))
	ids := make([]string, 0, len(relations))
	written := 0
	for _, r := range relations {
		if _, dup := rows[r.ID]; dup {
			written++ // given twice (the gate let it: the same type and ends): the last one is written
		} else {
			ids = append(ids, r.ID)
		}
		r.Citations = g.graded(r.Cited())
		rows[r.ID] = relationRow(r)
		rows[r.ID]["fromSeen"], rows[r.ID]["toSeen"] = g.seen(r.FromID), g.seen(r.ToID)
	}
	cited := citingDatasets{}
	for _, r := range relations {
		cited.add(r.Dataset, r.Cited())
	}
	if err := g.note(run, cited); err != nil {
		return 0, err
	}
	// The sources before the ends (gate.holdSources says why).
	if err := g.holdSources(run); err != nil {
		return 0, err
	}
	var creates []map[string]any
	updates := map[string][]map[string]any{} // by type
	for _, id := range ids {
		row := rows[id]
		st, ok := g.relations[id]
		switch {
		case !ok:
			creates = append(creates, row)
		case st.hash == row["properties"].(map[string]any)["contentHash"]:
			written++ // stored as it is
		default:
			updates[string(st.Type)] = append(updates[string(st.Type)], row)
		}
	}
	for _, w := range []struct {
		stmt statement
		rows any
		n    int
	}{{stmtCreateRelations, creates, len(creates)}, {stmtUpdateRelations, updates, len(updates)}} {
		if w.n == 0 {
			continue
		}
		recs, err := run(w.stmt, map[string]any{"rows": w.rows})
		if err != nil {
			return 0, err
		}
		n, err := getInt(recs[0], "written")
		if err != nil {
			return 0, internalError(string(w.stmt), err)
		}
		if w.stmt == stmtCreateRelations {
			moved, err := getStrings(recs[0], "changedEnds")
			if err != nil {
				return 0, internalError(string(w.stmt), err)
			}
			if len(moved) > 0 {
				return 0, endsChanged(moved[0])
			}
		}
		written += int(n)
		changed += int(n)
	}
	if written != len(relations) {
		return 0, casegraph.Errorf(casegraph.CodeConflict, "%d of %d relations lost an end while they were written", len(relations)-written, len(relations))
	}
	return changed, nil
}

// relationRow is a relation as CreateRelations and UpdateRelations take
// it: what finds it and its ends, and the properties they write (a null
// one is left out, or removed).
func relationRow(r casegraph.Relation) map[string]any {
	p := relationParams(r)
	props := map[string]any{"contentHash": relationHash(r)}
	for _, k := range append([]string{"id", "role", "startDate", "endDate", "status", "confidence", "sourceIds", "dataset"}, casegraph.CitationProperties...) {
		props[k] = p[k]
	}
	for rp := range casegraph.RelationPropertyRows() {
		props[rp.Name] = p[rp.Name]
	}
	props["quote"] = nil // the shape before citations (see UpsertRelation)
	return map[string]any{"id": r.ID, "type": string(r.Type), "from": r.FromID, "to": r.ToID, "properties": props}
}

// relationHash fingerprints what a relation's write sets, but for its
// grades (derived from its sources: kept current by regrade). A relation
// cited as the old shape could say (casegraph.CitationsOf) hashes as it
// did then, so that no stored relation is rewritten by the next import
// for having been migrated. A type-specific property (added later)
// enters it only when set, with its name, so that no relation stored
// before has another hash now and importing it again still changes
// nothing.
func relationHash(r casegraph.Relation) string {
	var fields []any
	cs := r.Cited()
	if ids, quote, old := casegraph.OldShape(cs); old {
		fields = []any{r.Role, r.StartDate, r.EndDate, r.Status, r.Confidence, quote, ids, r.Dataset}
	} else {
		ungraded := slices.Clone(cs)
		for i := range ungraded {
			ungraded[i].Grade = ""
		}
		fields = []any{r.Role, r.StartDate, r.EndDate, r.Status, r.Confidence, ungraded, r.Dataset}
	}
	for p := range casegraph.RelationPropertyRows() {
		if v := p.Value(r.RelationAttributes); v != nil {
			fields = append(fields, p.Name, v)
		}
	}
	return contentHash(fields...)
}
