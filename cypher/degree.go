package cypher

// The degree every entity keeps (how many relations it has): its backfill
// for data written before, and the check that it is right.

import (
	"context"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

// Statements of this file (statements/NAME.cypher or NAME.cypher.tmpl).
const (
	stmtBackfillDegree statement = "BackfillDegree"
	stmtWrongDegrees   statement = "WrongDegrees"
)

// degreeUngated: the statements of this file that return no graph data to a
// caller, and why (see ungated): every other goes through the gate.
func degreeUngated() ungated {
	return ungated{
		stmtBackfillDegree: "a migration's write (the operator's): returns counts",
		stmtWrongDegrees:   "the operator's check of the degrees (migrate, tests): counts and ids, never shown to a caller",
	}
}

// Every entity keeps its degree, the number of its relations, as a
// property, so that search ranking, sorting by degree and the hub cap of
// path searches read one property instead of counting relationships. Every
// statement that creates or deletes relations or entities keeps it in the
// same transaction; BackfillDegree fills it for data written before.

// BackfillDegree counts the relations of the entities of the datasets (all
// when there are none) that have no degree yet, in batches, and returns how
// many it counted. It is a data migration that `migrate` runs after the
// schema: quick when there is nothing to do, and safe to run again or while
// others write.
func (s *Store) BackfillDegree(ctx context.Context, datasets []string) (int64, error) {
	return s.inBatches(ctx, stmtBackfillDegree.byDatasets(datasets), "counted", map[string]any{"datasets": listParam(datasets)})
}

// DegreeMismatch is an entity whose degree property is not the number of
// its relations.
type DegreeMismatch struct {
	ID      string
	Degree  *int64 // nil when the entity has none
	Counted int64
}

// WrongDegrees returns the entities of the datasets whose degree is missing
// or wrong, in id order: none, when every write kept it.
func (s *Store) WrongDegrees(ctx context.Context, datasets []string) ([]DegreeMismatch, error) {
	res, err := s.read(ctx, stmtWrongDegrees, map[string]any{"datasets": datasets})
	if err != nil {
		return nil, err
	}
	out := make([]DegreeMismatch, 0, len(res.Records))
	for _, rec := range res.Records {
		var m DegreeMismatch
		if m.ID, err = getString(rec, "id"); err != nil {
			return nil, internalError("WrongDegrees", err)
		}
		degree, isNil, err := neo4j.GetRecordValue[int64](rec, "degree")
		if err != nil {
			return nil, internalError("WrongDegrees", err)
		}
		if !isNil {
			m.Degree = &degree
		}
		if m.Counted, err = getInt(rec, "counted"); err != nil {
			return nil, internalError("WrongDegrees", err)
		}
		out = append(out, m)
	}
	return out, nil
}
