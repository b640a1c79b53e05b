package cypher

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	casegraph "github.com/casegraph/casegraph"
)

// Statements of this file.
const (
	stmtDatasets     statement = "Datasets"
	stmtDeleteSource statement = "DeleteSource"
)

// datasetsUngated: the statements of this file that return no graph data to a
// caller, and why (see ungated): every other goes through the gate.
func datasetsUngated() ungated {
	return ungated{
		stmtDeleteSource: "a write (DeleteSource), through the write gate: returns the source, and only whether something cites it, never what",
	}
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

// DeleteSource deletes a source that nothing cites, in one transaction
// with its audit record, through the write gate (NOT_FOUND for one the
// caller may not read); one that an entity or a relation cites is refused
// (CONFLICT).
func (s *Store) DeleteSource(ctx context.Context, id string) (casegraph.Source, error) {
	p := &gatePlan{sourceIDs: []string{id}}
	if err := precheck(ctx, p); err != nil {
		return casegraph.Source{}, err
	}
	var out casegraph.Source
	err := s.mutate(ctx, "DeleteSource", &out, func(run txRunner) (change, error) {
		g, err := passGate(ctx, run, p)
		if err != nil {
			return change{}, err
		}
		stored, err := g.source(id)
		if err != nil {
			return change{}, err
		}
		recs, err := run(stmtDeleteSource, map[string]any{"id": id})
		if err != nil {
			return change{}, err
		}
		if len(recs) == 0 {
			return change{}, casegraph.Errorf(casegraph.CodeNotFound, "no source %q", id) // deleted meanwhile
		}
		rec := recs[0]
		for _, field := range []string{"citingEntity", "citingRelation"} {
			// What cites it may be in a dataset the caller cannot read:
			// the refusal does not name it.
			if by, _ := rec.AsMap()[field].(string); by != "" {
				return change{}, casegraph.Errorf(casegraph.CodeConflict, "source %q is cited by an entity or a relation: change what cites it first", id)
			}
		}
		m, err := getMap(rec, "source")
		if err != nil {
			return change{}, internalError(string(stmtDeleteSource), err)
		}
		if out, err = sourceFromMap(m); err != nil {
			return change{}, internalError(string(stmtDeleteSource), err)
		}
		title, _ := json.Marshal(out.Title)
		return change{operation: "deleteSource", dataset: stored.Dataset, targets: []string{id},
			fields: []casegraph.FieldChange{{Field: "title", Old: string(title), New: "null"}}}, nil
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
