package cypher

// The merge of entities under the write plan: the survivor takes the
// merged entities' relations, names and citations (as the pure
// casegraph.PlanMerge computes them), and their ids resolve to it.

import (
	"context"

	casegraph "github.com/casegraph/casegraph"
)

// Statements of this file (statements/NAME.cypher).
const stmtMergeEntity statement = "MergeEntity"

// mergeUngated: the statements of this file that return no graph data to a
// caller, and why (see ungated).
func mergeUngated() ungated {
	return ungated{stmtMergeEntity: "a write under the write plan, after its checks: returns a count"}
}

// MergeEntities folds the entities fromIDs into the entity into: their
// relations move to it, their names and aliases become its aliases, their
// sources its sources, and their ids resolve to it from then on. All must
// exist for the caller (the gate locks them, in id order, so two merges
// over the same entities queue) and be of one kind.
func (s *Store) MergeEntities(ctx context.Context, into string, fromIDs []string) (casegraph.Entity, error) {
	ids := append([]string{into}, fromIDs...)
	p := &gatePlan{entityIDs: ids}
	if err := precheck(ctx, p); err != nil {
		return casegraph.Entity{}, err
	}
	var out casegraph.Entity
	err := s.mutate(ctx, "MergeEntities", &out, func(run txRunner) (change, error) {
		g, err := passGate(ctx, run, p)
		if err != nil {
			return change{}, err
		}
		survivor, err := g.entity(into)
		if err != nil {
			return change{}, casegraph.InField("into", err)
		}
		merged := make([]casegraph.Entity, len(fromIDs))
		for i, id := range fromIDs {
			if merged[i], err = g.entity(id); err != nil {
				return change{}, casegraph.InField("from", err)
			}
		}
		plan, err := casegraph.PlanMerge(survivor, merged)
		if err != nil {
			return change{}, err
		}
		graded, err := gradeStored(run, plan.Citations, nil)
		if err != nil {
			return change{}, err
		}
		for _, id := range fromIDs {
			if _, err := run(stmtMergeEntity, map[string]any{"into": into, "from": id, "aliases": plan.Aliases,
				"searchAliases": searchAliases(plan.Aliases, survivor.Identifiers),
				"rankAliases":   rankTexts(plan.Aliases), "citations": citationParams(graded)}); err != nil {
				return change{}, err
			}
		}
		if out, err = readEntity(run, into); err != nil {
			return change{}, err
		}
		cited := citingDatasets{}
		cited.add(out.Dataset, out.Cited())
		if err := cited.note(run); err != nil {
			return change{}, err
		}
		// The merged-away entities' datasets: their ids name tombstones
		// when the record is written.
		datasets := make([]string, len(merged))
		for i, e := range merged {
			datasets[i] = e.Dataset
		}
		return change{operation: "mergeEntities", dataset: out.Dataset, targets: ids,
			fields: casegraph.Diff(&survivor, &out), datasets: datasets}, nil
	})
	return out, err
}
