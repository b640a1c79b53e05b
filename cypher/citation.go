package cypher

// Citations: a write's citations graded from the sources they cite, and
// the stored claims that cite a source whose reliability or publisher a
// write changes graded again in its transaction, so that the grades stored
// beside every citation (what a path's grade filter reads, with no hop to
// the sources) stay current.

import (
	"maps"
	"slices"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
)

// Statements of this file (statements/NAME.cypher or NAME.cypher.tmpl).
const (
	stmtCitingClaims       statement = "CitingClaims"
	stmtSetCitationGrades  statement = "SetCitationGrades"
	stmtNoteCitingDatasets statement = "NoteCitingDatasets"
)

// citationUngated: the statements of this file that return no graph data
// to a caller, and why (see ungated).
func citationUngated() ungated {
	return ungated{
		stmtCitingClaims:       "regrade's look-up, in a write's transaction after the write gate: what it reads (ids, cited source ids, credibility) is graded in Go and never goes back to the caller",
		stmtSetCitationGrades:  "regrade's write of derived grades, after the write gate passed the write that changed the sources: returns counts",
		stmtNoteCitingDatasets: "a write's record, after the write gate passed it, of the datasets whose claims cite each source it cites (CitingClaims' key): returns a count",
	}
}

// graded is cs with their grades, from the cited sources as the write
// leaves them: its own over the stored ones the gate read.
func (g *gate) graded(cs []casegraph.Citation) []casegraph.Citation {
	if g.citable == nil {
		g.citable = maps.Clone(g.sources)
		maps.Copy(g.citable, g.written)
	}
	return casegraph.GradeCitations(cs, g.citable)
}

// gradeStored grades cs from the sources known (nil: none) and, for the
// others, the stored ones, read in the transaction (SourceStates); it
// adds what it reads to known when known is not nil.
func gradeStored(run txRunner, cs []casegraph.Citation, known map[string]casegraph.Source) ([]casegraph.Citation, error) {
	if known == nil {
		known = map[string]casegraph.Source{}
	}
	var missing []string
	for _, id := range casegraph.CitedSourceIDs(cs) {
		if _, ok := known[id]; !ok {
			missing = append(missing, id)
		}
	}
	if err := readSources(run, sortedOnce(missing), known); err != nil {
		return nil, err
	}
	return casegraph.GradeCitations(cs, known), nil
}

// readSources reads the stored sources of ids into known.
func readSources(run txRunner, ids []string, known map[string]casegraph.Source) error {
	return inChunks(run, stmtSourceStates, "ids", ids, func(rec *neo4j.Record) error {
		src, err := sourceFrom(rec)
		if err == nil {
			known[src.ID] = src
		}
		return err
	})
}

// regradesFor are the sources among written whose stored reliability or
// publisher the write changes (a publisher decides independence): the
// claims that cite them must be graded again.
func regradesFor(g *gate, written []casegraph.Source) []string {
	var ids []string
	for _, src := range written {
		old, ok := g.sources[src.ID]
		if ok && (reliabilityOf(old) != reliabilityOf(src) || casegraph.PublisherKey(old.Publisher) != casegraph.PublisherKey(src.Publisher)) {
			ids = append(ids, src.ID)
		}
	}
	return ids
}

func reliabilityOf(s casegraph.Source) casegraph.Reliability {
	if s.Reliability == "" {
		return casegraph.DefaultReliability
	}
	return s.Reliability
}

// citingDatasets are, by source id, the datasets of the claims that a
// write makes cite it: every write that stores citations (of entities and
// relations, by a mutation, an import's batch or a merge) records them on
// the sources it cites (note), in its transaction, so that regrade finds
// every claim citing a source among those datasets' claims alone.
type citingDatasets map[string]map[string]bool

// add records that a claim of dataset cites the sources of cs.
func (c citingDatasets) add(dataset string, cs []casegraph.Citation) {
	for _, id := range casegraph.CitedSourceIDs(cs) {
		if c[id] == nil {
			c[id] = map[string]bool{}
		}
		c[id][dataset] = true
	}
}

// note adds the datasets to the sources' citingDatasets
// (NoteCitingDatasets), in source id order (the order in which the write
// gate locks them).
func (c citingDatasets) note(run txRunner) error {
	rows := make([]map[string]any, 0, len(c))
	for _, id := range slices.Sorted(maps.Keys(c)) {
		rows = append(rows, map[string]any{"id": id, "datasets": slices.Sorted(maps.Keys(c[id]))})
	}
	return inChunks(run, stmtNoteCitingDatasets, "rows", rows, func(*neo4j.Record) error { return nil })
}

// byCitingDatasets is the variant of a statement rendered by
// datasetVariants that looks for the claims citing a source: through the
// datasets the source records as citing it once migrate has recorded them
// for data written before (BackfillCitingDatasets), through every claim
// until then.
func byCitingDatasets(run txRunner, stmt statement) (statement, error) {
	done, err := run(stmtDataMigrationDone, map[string]any{"name": citingDatasetsMigration})
	if err != nil {
		return "", err
	}
	indexed, _, err := neo4j.GetRecordValue[bool](done[0], "done")
	if err != nil {
		return "", internalError(stmtDataMigrationDone, err)
	}
	if indexed {
		return stmt.byDatasets([]string{"citing"}), nil
	}
	return stmt.byDatasets(nil), nil
}

// regrade grades again, in a write's transaction and after its writes,
// every stored entity and relation that cites a source whose reliability
// or publisher the write changed (regradesFor), and stores the grades that
// differ. It updates claims of every dataset, the caller's or not: a grade
// is derived from the sources, as the write gate let the caller change
// them, and says nothing else of the claim. It reads only the claims of
// the datasets that each changed source records as citing it
// (citingDatasets, CitingClaims), found by the dataset indexes: its cost
// grows with those datasets, not with the graph, and it runs only when
// such a source changes.
func regrade(run txRunner, g *gate, written []casegraph.Source) error {
	ids := regradesFor(g, written)
	if len(ids) == 0 {
		return nil
	}
	stmt, err := byCitingDatasets(run, stmtCitingClaims)
	if err != nil {
		return err
	}
	recs, err := run(stmt, map[string]any{"ids": ids})
	if err != nil {
		return err
	}
	known := maps.Clone(g.sources)
	maps.Copy(known, g.written)
	entities := []map[string]any{}
	relations := map[string][]map[string]any{}
	for _, rec := range recs {
		m, err := getMap(rec, "claim")
		if err != nil {
			return internalError(stmtCitingClaims, err)
		}
		cs, err := citationsFromMap(m)
		if err != nil {
			return internalError(stmtCitingClaims, err)
		}
		stored := casegraph.Grades(cs)
		graded, err := gradeStored(run, cs, known)
		if err != nil {
			return err
		}
		grades := casegraph.Grades(graded)
		if slices.Equal(grades, stored) {
			continue
		}
		id, _ := m["id"].(string)
		row := map[string]any{"id": id, "grades": grades}
		if typ, ok := m["type"].(string); ok {
			relations[typ] = append(relations[typ], row)
		} else {
			entities = append(entities, row)
		}
	}
	if len(entities) == 0 && len(relations) == 0 {
		return nil
	}
	_, err = run(stmtSetCitationGrades, map[string]any{"entities": entities, "relations": relations})
	return err
}
