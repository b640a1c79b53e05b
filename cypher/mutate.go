package cypher

import (
	"context"
	"slices"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
)

// Every mutation here is one write transaction: it checks what it needs of
// the graph, refuses with a coded error (which rolls the transaction back),
// or writes, and reads back what it wrote. Inputs are validated by the
// caller before any of this runs.

// UpsertEntity creates the entity, or updates the one with its id. A
// change of kind is refused (CONFLICT), as is an id that was merged into
// another entity. When expected is set, the stored version must equal it
// (optimistic concurrency: CONFLICT when it does not, NOT_FOUND when there
// is nothing to update).
func (s *Store) UpsertEntity(ctx context.Context, e casegraph.Entity, expected *int64) (casegraph.Entity, error) {
	var out casegraph.Entity
	err := s.inWrite(ctx, "UpsertEntity", func(run txRunner) error {
		recs, err := run("LockEntity", map[string]any{"id": e.ID})
		if err != nil {
			return err
		}
		kind, err := getString(recs[0], "kind")
		if err != nil {
			return internalError("LockEntity", err)
		}
		version, err := getInt(recs[0], "version")
		if err != nil {
			return internalError("LockEntity", err)
		}
		mergedInto, err := getString(recs[0], "mergedInto")
		if err != nil {
			return internalError("LockEntity", err)
		}
		switch {
		case mergedInto != "":
			return casegraph.Errorf(casegraph.CodeConflict, "entity %q was merged into %q; update that one", e.ID, mergedInto)
		case kind == "" && expected != nil:
			return casegraph.Errorf(casegraph.CodeNotFound, "no entity with id %q to update at version %d", e.ID, *expected)
		case kind != "" && kind != string(e.Kind):
			return casegraph.Errorf(casegraph.CodeConflict, "entity %q is a %s; the kind of an entity never changes", e.ID, kind)
		case expected != nil && *expected != version:
			return casegraph.Errorf(casegraph.CodeConflict, "entity %q is at version %d, not %d: reload it and apply the change again", e.ID, version, *expected)
		}
		if err := checkSources(run, e.SourceIDs); err != nil {
			return err
		}
		recs, err = run("UpsertEntities", map[string]any{"rows": []map[string]any{entityParams(e)}})
		if err != nil {
			return err
		}
		// A concurrent create of the same id may have won with another kind.
		conflicts, err := getStrings(recs[0], "kindConflicts")
		if err != nil {
			return internalError("UpsertEntities", err)
		}
		if len(conflicts) > 0 {
			return casegraph.Errorf(casegraph.CodeConflict, "entity %q was just created as another kind; the kind of an entity never changes", e.ID)
		}
		out, err = readEntity(run, e.ID)
		return err
	})
	return out, err
}

// DeleteEntity removes the entity and its relations, and returns how many
// relations went with it.
func (s *Store) DeleteEntity(ctx context.Context, id string) (int64, error) {
	var n int64
	err := s.inWrite(ctx, "DeleteEntity", func(run txRunner) error {
		recs, err := run("DeleteEntity", map[string]any{"id": id})
		if err != nil {
			return err
		}
		if len(recs) == 0 {
			return casegraph.Errorf(casegraph.CodeNotFound, "no entity with id %q", id)
		}
		if n, err = getInt(recs[0], "relations"); err != nil {
			return internalError("DeleteEntity", err)
		}
		return nil
	})
	return n, err
}

// Link creates a relation, or updates the one with its id when that one has
// the same type and ends (a client that retries with its id gets one
// relation). Ends must exist (an id merged away resolves to its survivor),
// their kinds must be ones the type may join, and the sources must exist.
func (s *Store) Link(ctx context.Context, r casegraph.Relation) (casegraph.Relation, error) {
	spec, err := casegraph.Spec(r.Type)
	if err != nil {
		return casegraph.Relation{}, err
	}
	var out casegraph.Relation
	err = s.inWrite(ctx, "Link", func(run txRunner) error {
		recs, err := run("EntitiesByID", map[string]any{"ids": []string{r.FromID, r.ToID}})
		if err != nil {
			return err
		}
		ends, err := entitiesByKey("EntitiesByID", recs)
		if err != nil {
			return err
		}
		from, ok := ends[r.FromID]
		if !ok {
			return casegraph.Errorf(casegraph.CodeNotFound, "from: no entity with id %q", r.FromID)
		}
		to, ok := ends[r.ToID]
		if !ok {
			return casegraph.Errorf(casegraph.CodeNotFound, "to: no entity with id %q", r.ToID)
		}
		r.FromID, r.ToID = from.ID, to.ID // survivors of merges
		if r.FromID == r.ToID {
			return casegraph.Errorf(casegraph.CodeBadUserInput, "from and to are the same entity, %q", r.FromID)
		}
		if err := spec.CheckKinds(from.Kind, to.Kind); err != nil {
			return err
		}
		if err := checkSources(run, r.SourceIDs); err != nil {
			return err
		}
		recs, err = run("RelationsByID", map[string]any{"ids": []string{r.ID}})
		if err != nil {
			return err
		}
		if len(recs) > 0 {
			old, err := relationFromRecord(recs[0])
			if err != nil {
				return err
			}
			if old.Type != r.Type || old.FromID != r.FromID || old.ToID != r.ToID {
				return casegraph.Errorf(casegraph.CodeConflict,
					"relation %q exists as %s from %q to %q; an id names one relation", r.ID, old.Type, old.FromID, old.ToID)
			}
		}
		upsert := "UpsertRelation/" + string(r.Type)
		recs, err = run(upsert, relationParams(r))
		if err != nil {
			return err
		}
		if len(recs) != 1 {
			return internalError(upsert, errNoRow)
		}
		out, err = relationFromRecord(recs[0])
		return err
	})
	return out, err
}

// Unlink removes the relation with the id and returns it as it was.
func (s *Store) Unlink(ctx context.Context, id string) (casegraph.Relation, error) {
	var out casegraph.Relation
	err := s.inWrite(ctx, "Unlink", func(run txRunner) error {
		recs, err := run("RelationsByID", map[string]any{"ids": []string{id}})
		if err != nil {
			return err
		}
		if len(recs) == 0 {
			return casegraph.Errorf(casegraph.CodeNotFound, "no relation with id %q", id)
		}
		if out, err = relationFromRecord(recs[0]); err != nil {
			return err
		}
		_, err = run("DeleteRelation/"+string(out.Type), map[string]any{"id": id, "from": out.FromID, "to": out.ToID})
		return err
	})
	return out, err
}

// MergeEntities folds the entities fromIDs into the entity into: their
// relations move to it, their names and aliases become its aliases, their
// sources its sources, and their ids resolve to it from then on. All must
// exist and be of one kind.
func (s *Store) MergeEntities(ctx context.Context, into string, fromIDs []string) (casegraph.Entity, error) {
	var out casegraph.Entity
	err := s.inWrite(ctx, "MergeEntities", func(run txRunner) error {
		ids := append([]string{into}, fromIDs...)
		// Lock in id order, so two merges over the same entities cannot
		// deadlock each other.
		locks := slices.Clone(ids)
		slices.Sort(locks)
		for _, id := range locks {
			if _, err := run("LockEntity", map[string]any{"id": id}); err != nil {
				return err
			}
		}
		recs, err := run("EntitiesByID", map[string]any{"ids": ids})
		if err != nil {
			return err
		}
		found, err := entitiesByKey("EntitiesByID", recs)
		if err != nil {
			return err
		}
		survivor, ok := found[into]
		if !ok || survivor.ID != into {
			return casegraph.Errorf(casegraph.CodeNotFound, "into: no entity with id %q", into)
		}
		merged := make([]casegraph.Entity, len(fromIDs))
		for i, id := range fromIDs {
			f, ok := found[id]
			if !ok || f.ID != id {
				return casegraph.Errorf(casegraph.CodeNotFound, "from: no entity with id %q", id)
			}
			merged[i] = f
		}
		plan, err := casegraph.PlanMerge(survivor, merged)
		if err != nil {
			return err
		}
		for _, id := range fromIDs {
			if _, err := run("MergeEntity", map[string]any{"into": into, "from": id, "aliases": plan.Aliases,
				"searchAliases": searchAliases(plan.Aliases), "sourceIds": plan.SourceIDs}); err != nil {
				return err
			}
		}
		out, err = readEntity(run, into)
		return err
	})
	return out, err
}

// checkSources refuses (BAD_USER_INPUT) when a cited source does not exist.
func checkSources(run txRunner, ids []string) error {
	recs, err := run("MissingSources", map[string]any{"ids": ids})
	if err != nil {
		return err
	}
	missing, err := getStrings(recs[0], "missing")
	if err != nil {
		return internalError("MissingSources", err)
	}
	if len(missing) > 0 {
		return casegraph.Errorf(casegraph.CodeBadUserInput, "sourceIds: no source with id %q (create it with upsertSource first)", missing[0])
	}
	return nil
}

func readEntity(run txRunner, id string) (casegraph.Entity, error) {
	recs, err := run("EntitiesByID", map[string]any{"ids": []string{id}})
	if err != nil {
		return casegraph.Entity{}, err
	}
	found, err := entitiesByKey("EntitiesByID", recs)
	if err != nil {
		return casegraph.Entity{}, err
	}
	e, ok := found[id]
	if !ok {
		return casegraph.Entity{}, internalError("readEntity", errNoRow)
	}
	return e, nil
}

func relationFromRecord(rec *neo4j.Record) (casegraph.Relation, error) {
	m, err := getMap(rec, "relation")
	if err != nil {
		return casegraph.Relation{}, internalError("relation", err)
	}
	r, err := relationFromMap(m)
	if err != nil {
		return r, internalError("relation", err)
	}
	return r, nil
}
