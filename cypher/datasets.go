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
	stmtDatasets      statement = "Datasets"
	stmtDeleteSource  statement = "DeleteSource"
	stmtSourceDataset statement = "SourceDataset"
	stmtIDsElsewhere  statement = "IDsElsewhere"
)

// datasetsUngated: the statements of this file that return no graph data to a
// caller, and why (see ungated): every other goes through the gate.
func datasetsUngated() ungated {
	return ungated{
		stmtDeleteSource:  "a write (DeleteSource), after CheckWrite on the source's dataset: returns the source, and only whether something cites it, never what",
		stmtSourceDataset: "a write's look-up (DeleteSource): the dataset to check the right to write against, in its transaction",
		stmtIDsElsewhere:  "an import's check of its batch before it writes (dataset.Check): which ids another dataset holds, for the import's write plan",
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
// with its audit record; one that an entity or a relation cites is
// refused (CONFLICT), a citation committed concurrently included (both
// lock the source first: lockSources).
func (s *Store) DeleteSource(ctx context.Context, id string) (casegraph.Source, error) {
	var out casegraph.Source
	err := s.mutate(ctx, "DeleteSource", &out, func(run txRunner) (change, error) {
		recs, err := run(stmtSourceDataset, map[string]any{"id": id})
		if err != nil {
			return change{}, err
		}
		if len(recs) == 0 {
			return change{}, casegraph.Errorf(casegraph.CodeNotFound, "no source %q", id)
		}
		ds, err := getString(recs[0], "dataset")
		if err != nil {
			return change{}, internalError(string(stmtSourceDataset), err)
		}
		if err := casegraph.CheckWrite(ctx, ds); err != nil {
			return change{}, err
		}
		// Before looking for citations: a write citing the source that
		// is under way holds the lock until it commits, and its citation
		// is then seen; one that starts later waits, then finds no source.
		if err := lockSources(run, id); err != nil {
			return change{}, err
		}
		if recs, err = run(stmtDeleteSource, map[string]any{"id": id}); err != nil {
			return change{}, err
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
		return change{operation: "deleteSource", dataset: ds, targets: []string{id},
			fields: []casegraph.FieldChange{{Field: "title", Old: string(title), New: "null"}}}, nil
	})
	return out, err
}

// IDsElsewhere returns (up to 20 of) the ids of a batch that already
// belong to a dataset other than dataset: an import writes by id, and must
// not move another dataset's entity, source or relation into its own.
func (s *Store) IDsElsewhere(ctx context.Context, dataset string, sources []casegraph.Source, entities []casegraph.Entity, relations []casegraph.Relation) ([]string, error) {
	entityIDs := make([]string, len(entities))
	for i, e := range entities {
		entityIDs[i] = e.ID
	}
	sourceIDs := make([]string, len(sources))
	for i, src := range sources {
		sourceIDs[i] = src.ID
	}
	rels := make([]map[string]any, len(relations))
	for i, r := range relations {
		rels[i] = map[string]any{"id": r.ID, "type": string(r.Type)}
	}
	res, err := s.read(ctx, stmtIDsElsewhere, map[string]any{"dataset": dataset, "entityIds": entityIDs, "sourceIds": sourceIDs, "relations": rels})
	if err != nil {
		return nil, err
	}
	taken, err := getStrings(res.Records[0], "taken")
	if err != nil {
		return nil, internalError(string(stmtIDsElsewhere), err)
	}
	return taken, nil
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
