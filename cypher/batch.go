package cypher

import (
	"context"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
)

// Statements of this file (queries/NAME.cypher or NAME.cypher.tmpl).
const (
	stmtExistingRelations statement = "ExistingRelations"
	stmtCreateRelations   statement = "CreateRelations"
	stmtUpdateRelations   statement = "UpdateRelations"
	stmtEntityKinds       statement = "EntityKinds"
)

// batchUngated: the statements of this file that return no graph data to a
// caller, and why (see ungated): every other goes through the gate.
func batchUngated() ungated {
	return ungated{
		stmtExistingRelations: "a write of WriteBatch (an import): which relation ids of the batch exist, read in its transaction",
		stmtCreateRelations:   "a write of WriteBatch (an import), which returns counts",
		stmtUpdateRelations:   "a write of WriteBatch (an import), which returns counts",
		stmtEntityKinds:       "an import's check of its batch before it writes (dataset.Check): the kinds of the ids it links to, for the import's write plan to judge, never shown as graph data",
	}
}

// WriteBatch writes sources, entities and relations in one transaction,
// with one statement per kind of row (UNWIND). The rows must be validated
// and checked against the graph (dataset.Check) first; as a last guard, an
// entity whose kind would change, or a relation whose ends are missing,
// makes the whole batch fail, as does a relation id that names a relation
// between other ends, or one that another writer creates while the batch
// is written (CONFLICT: write the batch again). Writing the same rows again
// changes nothing; changed is how many rows changed something (the others
// were already stored as they are).
func (s *Store) WriteBatch(ctx context.Context, sources []casegraph.Source, entities []casegraph.Entity, relations []casegraph.Relation) (changed int, err error) {
	err = s.inWrite(ctx, "WriteBatch", func(run txRunner) error {
		changed = 0 // the transaction may be retried
		count := func(stmt string, rec *neo4j.Record) error {
			n, err := getInt(rec, "changed")
			if err != nil {
				return internalError(stmt, err)
			}
			changed += int(n)
			return nil
		}
		if len(sources) > 0 {
			rows := make([]map[string]any, len(sources))
			for i, src := range sources {
				rows[i] = sourceParams(src)
			}
			recs, err := run(stmtUpsertSources, map[string]any{"rows": rows})
			if err != nil {
				return err
			}
			if err := count("UpsertSources", recs[0]); err != nil {
				return err
			}
		}
		if len(entities) > 0 {
			n, conflict, err := upsertEntities(run, entities)
			if err != nil {
				return err
			}
			if conflict != "" {
				return casegraph.Errorf(casegraph.CodeConflict, "entity %q exists with another kind (a kind never changes)", conflict)
			}
			changed += n
		}
		if len(relations) > 0 {
			n, err := writeRelations(run, relations)
			if err != nil {
				return err
			}
			changed += n
		}
		return nil
	})
	return changed, err
}

// upsertEntities writes entities with one UpsertEntities, for an import's
// batch and a single upsert alike. It returns how many changed something,
// and the id of one whose stored kind differs (nothing is written for it;
// the caller refuses the transaction), or "".
func upsertEntities(run txRunner, entities []casegraph.Entity) (changed int, conflict string, err error) {
	rows := make([]map[string]any, len(entities))
	for i, e := range entities {
		rows[i] = entityParams(e)
	}
	recs, err := run(stmtUpsertEntities, map[string]any{"rows": rows})
	if err != nil {
		return 0, "", err
	}
	conflicts, err := getStrings(recs[0], "kindConflicts")
	if err != nil {
		return 0, "", internalError(string(stmtUpsertEntities), err)
	}
	n, err := getInt(recs[0], "changed")
	if err != nil {
		return 0, "", internalError(string(stmtUpsertEntities), err)
	}
	if len(conflicts) > 0 {
		conflict = conflicts[0]
	}
	return int(n), conflict, nil
}

// writeRelations writes relations inside WriteBatch's transaction and
// returns how many it created or changed. It asks first which exist
// (ExistingRelations), then creates the absent ones with CREATE, which
// costs less than a MERGE that looks each up again, updates those whose
// content changed, and leaves the others alone: three round trips at most.
func writeRelations(run txRunner, relations []casegraph.Relation) (changed int, err error) {
	// A relation id is unique within its type (relation_id_<type>).
	type key struct{ typ, id string }
	rows := make(map[key]map[string]any, len(relations))
	keys := make([]key, 0, len(relations))
	ids := map[string][]string{} // by type
	written := 0
	for _, r := range relations {
		k := key{string(r.Type), r.ID}
		if _, dup := rows[k]; dup {
			written++ // given twice: the last one is written
		} else {
			keys = append(keys, k)
			ids[k.typ] = append(ids[k.typ], k.id)
		}
		rows[k] = relationRow(r)
	}
	recs, err := run(stmtExistingRelations, map[string]any{"ids": ids})
	if err != nil {
		return 0, err
	}
	stored := make(map[key]storedRelation, len(recs))
	for _, rec := range recs {
		var st storedRelation
		var k key
		for col, dst := range map[string]*string{"id": &k.id, "type": &k.typ, "from": &st.from, "to": &st.to, "hash": &st.hash} {
			if *dst, err = getString(rec, col); err != nil {
				return 0, internalError("ExistingRelations", err)
			}
		}
		stored[k] = st
	}
	var creates []map[string]any
	updates := map[string][]map[string]any{} // by type
	for _, k := range keys {
		row := rows[k]
		st, ok := stored[k]
		switch {
		case !ok:
			creates = append(creates, row)
		case st.from != row["from"] || st.to != row["to"]:
			return 0, casegraph.Errorf(casegraph.CodeConflict, "relation %q exists from %q to %q; an id names one relation", k.id, st.from, st.to)
		case st.hash == row["properties"].(map[string]any)["contentHash"]:
			written++ // stored as it is
		default:
			updates[k.typ] = append(updates[k.typ], row)
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
		written += int(n)
		changed += int(n)
	}
	if written != len(relations) {
		return 0, casegraph.Errorf(casegraph.CodeConflict, "%d of %d relations lost an end while they were written", len(relations)-written, len(relations))
	}
	return changed, nil
}

// storedRelation is what ExistingRelations says of a stored relation.
type storedRelation struct{ from, to, hash string }

// relationRow is a relation as CreateRelations and UpdateRelations take
// it: what finds it and its ends, and the properties they write (a null
// one is left out, or removed).
func relationRow(r casegraph.Relation) map[string]any {
	p := relationParams(r)
	props := map[string]any{"contentHash": relationHash(r)}
	for _, k := range []string{"id", "role", "startDate", "endDate", "status", "confidence", "quote", "sourceIds", "dataset"} {
		props[k] = p[k]
	}
	return map[string]any{"id": r.ID, "type": string(r.Type), "from": r.FromID, "to": r.ToID, "properties": props}
}

// EntityKinds returns the kinds of the live entities among ids, and for ids
// merged away, their survivor.
func (s *Store) EntityKinds(ctx context.Context, ids []string) (map[string]casegraph.Kind, map[string]string, error) {
	res, err := s.read(ctx, stmtEntityKinds, map[string]any{"ids": ids})
	if err != nil {
		return nil, nil, err
	}
	kinds := map[string]casegraph.Kind{}
	merged := map[string]string{}
	for _, rec := range res.Records {
		key, err := getString(rec, "key")
		if err != nil {
			return nil, nil, internalError("EntityKinds", err)
		}
		into, err := getString(rec, "mergedInto")
		if err != nil {
			return nil, nil, internalError("EntityKinds", err)
		}
		if into != "" {
			merged[key] = into
			continue
		}
		kind, err := getString(rec, "kind")
		if err != nil {
			return nil, nil, internalError("EntityKinds", err)
		}
		kinds[key] = casegraph.Kind(kind)
	}
	return kinds, merged, nil
}

func relationHash(r casegraph.Relation) string {
	return contentHash(r.Role, r.StartDate, r.EndDate, r.Status, r.Confidence, r.Quote, r.SourceIDs, r.Dataset)
}
