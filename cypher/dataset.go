package cypher

import (
	"context"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
)

// Statements of this file (queries/NAME.cypher or NAME.cypher.tmpl).
const (
	stmtDeleteDatasetRelations statement = "DeleteDatasetRelations"
	stmtDeleteDatasetNodes     statement = "DeleteDatasetNodes"
	stmtMissingDatasets        statement = "MissingDatasets"
)

// datasetUngated: the statements of this file that return no graph data to a
// caller, and why (see ungated): every other goes through the gate.
func datasetUngated() ungated {
	return ungated{
		stmtDeleteDatasetRelations: "a write of DeleteDataset, an admin's or the operator's (every dataset): returns counts",
		stmtDeleteDatasetNodes:     "a write of DeleteDataset, an admin's or the operator's (every dataset): returns counts",
	}
}

// DeleteDataset removes every entity (with its relations) and source of a
// dataset, and returns how many nodes it removed, for an admin (who may
// see everything it removes, protected people included) or the operator.
// It commits in batches (CALL ... IN TRANSACTIONS), so it is not one
// transaction: run it again if it is interrupted.
func (s *Store) DeleteDataset(ctx context.Context, dataset string) (int64, error) {
	if err := casegraph.RequireAdmin(ctx); err != nil {
		return 0, err
	}
	if err := casegraph.ValidateID("dataset", dataset); err != nil {
		return 0, err
	}
	params := map[string]any{"dataset": dataset}
	if _, err := s.inBatches(ctx, stmtDeleteDatasetRelations, "deleted", params); err != nil {
		return 0, err
	}
	return s.inBatches(ctx, stmtDeleteDatasetNodes, "deleted", params)
}

// inBatches runs a statement that commits as it goes (CALL ... IN
// TRANSACTIONS, which runs only in an auto-commit transaction, so neither
// retried nor all-or-nothing) and returns the column of its one row.
func (s *Store) inBatches(ctx context.Context, name statement, column string, params map[string]any) (int64, error) {
	session, err := s.session(ctx, neo4j.AccessModeWrite)
	if err != nil {
		return 0, err
	}
	defer session.Close(ctx)
	done := s.roundTrip(ctx, string(name))
	res, err := session.Run(ctx, s.statement(name), params, neo4j.WithTxTimeout(remaining(ctx)))
	var rec *neo4j.Record
	if err == nil {
		rec, err = res.Single(ctx)
	}
	done(err)
	if err != nil {
		return 0, mapError(ctx, string(name), err)
	}
	n, err := getInt(rec, column)
	if err != nil {
		return 0, internalError(string(name), err)
	}
	return n, nil
}

// MissingDatasets returns the names among datasets that nothing in the
// graph belongs to: a misspelt name, or one that was deleted.
func (s *Store) MissingDatasets(ctx context.Context, datasets []string) ([]string, error) {
	res, err := s.read(ctx, stmtMissingDatasets, map[string]any{"datasets": datasets})
	if err != nil {
		return nil, err
	}
	missing, err := getStrings(res.Records[0], "missing")
	if err != nil {
		return nil, internalError("MissingDatasets", err)
	}
	return missing, nil
}
