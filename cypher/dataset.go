package cypher

// Datasets: their summaries, which of some named ones are missing, their
// deletion in batches, and the audit record of an import.

import (
	"context"
	"fmt"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
)

// Statements of this file (statements/NAME.cypher or NAME.cypher.tmpl).
const (
	stmtDeleteDatasetRelations statement = "DeleteDatasetRelations"
	stmtDeleteDatasetNodes     statement = "DeleteDatasetNodes"
	stmtMissingDatasets        statement = "MissingDatasets"
	stmtDatasets               statement = "Datasets"
	stmtDatasetNames           statement = "DatasetNames"
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
// TRANSACTIONS, which runs only in an auto-commit transaction, so not
// all-or-nothing) and returns the column of its one row.
func (s *Store) inBatches(ctx context.Context, name statement, column string, params map[string]any) (int64, error) {
	rec, err := s.autoCommit(ctx, name, params)
	if err != nil {
		return 0, err
	}
	n, err := getInt(rec, column)
	if err != nil {
		return 0, internalError(string(name), err)
	}
	return n, nil
}

// autoCommit runs a statement that commits its own transactions (CALL
// ... IN TRANSACTIONS) and returns its one record. Each such statement
// does what is left to do (converts what is still in its old form,
// deletes what is still there), so one that met a transient failure (a
// deadlock beside other writes) is run again (retryOperator): what its
// batches committed before the failure stays, and the counts it returns
// are those of the run that finished.
func (s *Store) autoCommit(ctx context.Context, name statement, params map[string]any) (*neo4j.Record, error) {
	var rec *neo4j.Record
	err := retryOperator(ctx, string(name), func() error {
		session, err := s.session(ctx, neo4j.AccessModeWrite)
		if err != nil {
			return err
		}
		defer session.Close(ctx)
		done := s.roundTrip(ctx, string(name))
		res, err := session.Run(ctx, s.statement(name), params, neo4j.WithTxTimeout(remaining(ctx)))
		if err == nil {
			rec, err = res.Single(ctx)
		}
		done(err)
		return err
	})
	return rec, err
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

// Datasets returns the datasets the caller may read, with their counts and
// last change, in name order; name, when set, narrows it to that one.
func (s *Store) Datasets(ctx context.Context, name string) ([]casegraph.DatasetSummary, error) {
	res, err := s.read(ctx, stmtDatasets, map[string]any{"name": nullable(name)})
	if err != nil {
		return nil, err
	}
	out := make([]casegraph.DatasetSummary, 0, len(res.Records))
	for _, rec := range res.Records {
		var d casegraph.DatasetSummary
		if d.Name, err = getString(rec, "name"); err == nil {
			if d.Entities, err = getInt(rec, "entities"); err == nil {
				if d.Relations, err = getInt(rec, "relations"); err == nil {
					d.Sources, err = getInt(rec, "sources")
				}
			}
		}
		if err != nil {
			return nil, internalError(string(stmtDatasets), err)
		}
		if t, ok := rec.AsMap()["lastChange"].(time.Time); ok {
			d.LastChange = t.UTC()
		}
		out = append(out, d)
	}
	return out, nil
}

// DatasetNames returns the names of the datasets Datasets lists, in name
// order, without counting what they hold: a fraction of Datasets' reads
// (bench/README.md).
func (s *Store) DatasetNames(ctx context.Context) ([]string, error) {
	res, err := s.read(ctx, stmtDatasetNames, nil)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(res.Records))
	for _, rec := range res.Records {
		name, err := getString(rec, "name")
		if err != nil {
			return nil, internalError(string(stmtDatasetNames), err)
		}
		out = append(out, name)
	}
	return out, nil
}

// RemoveDataset deletes a dataset for an admin: everything DeleteDataset
// removes, in its batches (safe on a dataset of millions: no transaction
// holds more than 10,000 changes), and then its audit record, with what was
// there. Interrupted, it leaves part of the dataset; run it again.
func (s *Store) RemoveDataset(ctx context.Context, name string) (casegraph.DatasetDeletion, error) {
	if err := casegraph.RequireAdmin(ctx); err != nil {
		return casegraph.DatasetDeletion{}, err
	}
	if err := casegraph.ValidateID("name", name); err != nil {
		return casegraph.DatasetDeletion{}, err
	}
	found, err := s.Datasets(ctx, name)
	if err != nil {
		return casegraph.DatasetDeletion{}, err
	}
	if len(found) == 0 {
		return casegraph.DatasetDeletion{}, casegraph.Errorf(casegraph.CodeNotFound, "no dataset %q", name)
	}
	out := casegraph.DatasetDeletion{Name: name, Entities: found[0].Entities, Relations: found[0].Relations, Sources: found[0].Sources}
	if _, err := s.DeleteDataset(ctx, name); err != nil {
		return out, err
	}
	err = s.mutate(ctx, "DeleteDataset", nil, func(txRunner) (change, error) {
		return change{operation: "deleteDataset", dataset: name, targets: []string{name}, fields: []casegraph.FieldChange{
			{Field: "entities", Old: fmt.Sprint(out.Entities), New: "0"},
			{Field: "relations", Old: fmt.Sprint(out.Relations), New: "0"},
			{Field: "sources", Old: fmt.Sprint(out.Sources), New: "0"},
		}}, nil
	})
	return out, err
}

// RecordImport writes the audit record of an import over HTTP: who put
// how much into which dataset.
func (s *Store) RecordImport(ctx context.Context, dataset string, sources, entities, relations int) error {
	return s.mutate(ctx, "Import", nil, func(txRunner) (change, error) {
		return change{operation: "import", dataset: dataset, targets: []string{dataset}, fields: []casegraph.FieldChange{
			{Field: "sources", Old: "null", New: fmt.Sprint(sources)},
			{Field: "entities", Old: "null", New: fmt.Sprint(entities)},
			{Field: "relations", Old: "null", New: fmt.Sprint(relations)},
		}}, nil
	})
}
