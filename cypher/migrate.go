package cypher

// Migrations: the schema statements of migrations/ applied in order,
// whether the schema is applied (readiness), and the data migrations and
// reports that `casegraph migrate` runs after it (search fields, reserved
// ids, relation ids).

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"maps"
	"regexp"
	"sort"
	"strings"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
)

//go:embed migrations/*.cypher migrations/*.cypher.tmpl
var migrationFiles embed.FS

// Migration is one schema statement: a named constraint or index, created
// IF NOT EXISTS so that applying the schema twice changes nothing.
type Migration struct {
	// Name is the constraint or index name, also the file name after its
	// number: 001_entity_id.cypher creates entity_id.
	Name      string
	File      string
	Statement string
}

var schemaName = regexp.MustCompile(`(?i)\bCREATE\s+(?:FULLTEXT\s+|RANGE\s+|TEXT\s+|POINT\s+)?(?:CONSTRAINT|INDEX)\s+([A-Za-z_][A-Za-z0-9_]*)\s+IF\s+NOT\s+EXISTS\b`)

// Migrations returns the schema statements in the order they apply.
func Migrations() ([]Migration, error) {
	entries, err := fs.ReadDir(migrationFiles, "migrations")
	if err != nil {
		return nil, fmt.Errorf("read migrations: %w", err)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	// Numbered files first, in order; templates (unnumbered) after them.
	sort.Strings(names)

	var out []Migration
	for _, file := range names {
		b, err := fs.ReadFile(migrationFiles, "migrations/"+file)
		if err != nil {
			return nil, fmt.Errorf("read migration %s: %w", file, err)
		}
		if strings.HasSuffix(file, ".tmpl") {
			// One statement for each relation type, named by the template.
			for _, t := range vocabularyData().Types {
				text, err := render(file, string(b), t)
				if err != nil {
					return nil, err
				}
				m := schemaName.FindStringSubmatch(text)
				if m == nil {
					return nil, fmt.Errorf("migration %s: want one CREATE ... <name> IF NOT EXISTS statement", file)
				}
				out = append(out, Migration{Name: m[1], File: file, Statement: strings.TrimSpace(text)})
			}
			continue
		}
		text := string(b)
		m := schemaName.FindStringSubmatch(text)
		if m == nil {
			return nil, fmt.Errorf("migration %s: want one CREATE ... <name> IF NOT EXISTS statement", file)
		}
		_, want, ok := strings.Cut(strings.TrimSuffix(file, ".cypher"), "_")
		if !ok || m[1] != want {
			return nil, fmt.Errorf("migration %s creates %q; the file must be named NNN_%s.cypher", file, m[1], m[1])
		}
		out = append(out, Migration{Name: m[1], File: file, Statement: strings.TrimSpace(text)})
	}
	return out, nil
}

// The statements of readiness, the search backfill and the report of
// reserved ids.
const (
	stmtReservedIDs           statement = "ReservedIDs"
	stmtSharedRelationIDs     statement = "SharedRelationIDs"
	stmtBackfillRelationIDs   statement = "BackfillRelationIDs"
	stmtBackfillProtectedEnds statement = "BackfillProtectedEnds"
	stmtBackfillRelationEnds  statement = "BackfillRelationEnds"
	stmtSchemaState           statement = "SchemaState"
	stmtEntitiesWithoutSearch statement = "EntitiesWithoutSearch"
	stmtSetSearchFields       statement = "SetSearchFields"
	stmtDataMigrationDone     statement = "DataMigrationDone"
	stmtMarkDataMigration     statement = "MarkDataMigration"

	stmtMigrateRelationCitations statement = "MigrateRelationCitations"
	stmtMigrateEntityCitations   statement = "MigrateEntityCitations"
	stmtBackfillCitingDatasets   statement = "BackfillCitingDatasets"
)

// migrateUngated: the statements of this file that return no graph data to a
// caller, and why (see ungated): every other goes through the gate.
func migrateUngated() ungated {
	return ungated{
		stmtEntitiesWithoutSearch: "a migration's read (the operator's), for its write: never shown to a caller",
		stmtSetSearchFields:       "a migration's write (the operator's)",
		stmtReservedIDs:           "migrate's report (the operator's) of reserved ids that data already holds",
		stmtSharedRelationIDs:     "migrate's report (the operator's) of relation ids that more than one relation holds",
		stmtBackfillRelationIDs:   "a migration's write (the operator's): the relation id registry",
		stmtBackfillProtectedEnds: "a migration's write (the operator's): whether a relation's end is protected; returns a count",
		stmtBackfillRelationEnds:  "a migration's write (the operator's): the relation id registry's ends and page keys; returns a count",
		stmtMarkDataMigration:     "a migration's mark that it ran to its end (the operator's): returns its name",

		stmtMigrateRelationCitations: "a migration's write (the operator's): relations' quote and sourceIds become citations; returns counts",
		stmtMigrateEntityCitations:   "a migration's write (the operator's): entities' sourceIds become citations; returns a count",
		stmtBackfillCitingDatasets:   "a migration's write (the operator's): the datasets citing each source; returns a count",
	}
}

// Applied is one schema statement that Migrate ran, and whether it created
// its constraint or index or found it already there.
type Applied struct {
	Migration
	Created bool
}

// Migrate applies every schema statement. Each is IF NOT EXISTS, so running
// it again, or from two processes at once, is safe; what it reports tells
// the ones it created from those already present.
func (s *Store) Migrate(ctx context.Context) ([]Applied, error) {
	migrations, err := Migrations()
	if err != nil {
		return nil, err
	}
	applied := make([]Applied, 0, len(migrations))
	for _, m := range migrations {
		created, err := s.runSchema(ctx, m)
		if err != nil {
			return nil, err
		}
		applied = append(applied, Applied{Migration: m, Created: created})
	}
	return applied, nil
}

// SchemaApplied reports whether every index and constraint of the schema
// exists and is online; it is what readiness waits for. It returns the
// names still missing.
func (s *Store) SchemaApplied(ctx context.Context) (missing []string, err error) {
	migrations, err := Migrations()
	if err != nil {
		return nil, err
	}
	names := make([]string, len(migrations))
	for i, m := range migrations {
		names[i] = m.Name
	}
	res, err := s.read(ctx, stmtSchemaState, map[string]any{"names": names})
	if err != nil {
		return nil, err
	}
	online := make(map[string]bool, len(res.Records))
	for _, rec := range res.Records {
		name, err := getString(rec, "name")
		if err != nil {
			return nil, err
		}
		state, err := getString(rec, "state")
		if err != nil {
			return nil, err
		}
		online[name] = state == "ONLINE"
	}
	for _, n := range names {
		if !online[n] {
			missing = append(missing, n)
		}
	}
	return missing, nil
}

// BackfillSearch writes the folded search fields (see casegraph.Fold), and
// the texts a search ranks by (rankFields), of entities that lack them, in batches, and returns how many it completed.
// It is a data migration that `migrate` runs after the schema: quick when
// there is nothing to do, and safe to run again.
func (s *Store) BackfillSearch(ctx context.Context) (int, error) {
	const batch = 5000
	total, after := 0, ""
	for {
		res, err := s.read(ctx, stmtEntitiesWithoutSearch, map[string]any{"limit": int64(batch), "after": after})
		if err != nil {
			return total, err
		}
		if len(res.Records) == 0 {
			return total, nil
		}
		rows := make([]map[string]any, 0, len(res.Records))
		for _, rec := range res.Records {
			id, err := getString(rec, "id")
			if err != nil {
				return total, internalError("EntitiesWithoutSearch", err)
			}
			name, err := getString(rec, "name")
			if err != nil {
				return total, internalError("EntitiesWithoutSearch", err)
			}
			aliases, err := getStrings(rec, "aliases")
			if err != nil {
				return total, internalError("EntitiesWithoutSearch", err)
			}
			encoded, err := getStrings(rec, "identifiers")
			if err != nil {
				return total, internalError("EntitiesWithoutSearch", err)
			}
			ids := make([]casegraph.Identifier, len(encoded))
			for i, v := range encoded {
				if ids[i], err = casegraph.DecodeIdentifier(v); err != nil {
					return total, internalError("EntitiesWithoutSearch", err)
				}
			}
			desc, err := getString(rec, "description")
			if err != nil {
				return total, internalError("EntitiesWithoutSearch", err)
			}
			kind, err := getString(rec, "kind")
			if err != nil {
				return total, internalError("EntitiesWithoutSearch", err)
			}
			dataset, err := getString(rec, "dataset")
			if err != nil {
				return total, internalError("EntitiesWithoutSearch", err)
			}
			after = id
			row := map[string]any{"id": id, "searchName": casegraph.Fold(name),
				"searchAliases": searchAliases(aliases, ids), "searchDescription": nullable(casegraph.Fold(desc)),
				"searchScope": casegraph.SearchScope(dataset, casegraph.Kind(kind))}
			maps.Copy(row, rankFields(name, aliases, ids))
			rows = append(rows, row)
		}
		if _, err := s.write(ctx, stmtSetSearchFields, map[string]any{"rows": rows}); err != nil {
			return total, err
		}
		total += len(rows)
	}
}

// ReservedIDs counts the entities (merged away too), relations and sources
// whose id is of a reserved form (casegraph.IsReservedID), which data
// written before the write gate refused them may hold, and returns the
// first sample of them in id order: migrate reports them. Such an id is
// read, and deleted, by what may see it; no write creates or updates one.
func (s *Store) ReservedIDs(ctx context.Context, sample int) (int64, []string, error) {
	return s.idsReport(ctx, stmtReservedIDs, map[string]any{"prefixes": casegraph.ReservedIDPrefixes(), "sample": sample})
}

// SharedRelationIDs counts the relation ids that more than one relation
// holds (of the datasets' entities; all when datasets is empty), which data
// written before the write gate refused that may hold, and returns the
// first sample of them in id order: migrate reports them.
func (s *Store) SharedRelationIDs(ctx context.Context, datasets []string, sample int) (int64, []string, error) {
	return s.idsReport(ctx, stmtSharedRelationIDs.byDatasets(datasets), map[string]any{"datasets": listParam(datasets), "sample": sample})
}

// idsReport runs a statement that counts ids (total) and names a few
// (sample).
func (s *Store) idsReport(ctx context.Context, stmt statement, params map[string]any) (int64, []string, error) {
	res, err := s.read(ctx, stmt, params)
	if err != nil {
		return 0, nil, err
	}
	total, err := getInt(res.Records[0], "total")
	if err != nil {
		return 0, nil, internalError(stmt, err)
	}
	ids, err := getStrings(res.Records[0], "sample")
	if err != nil {
		return 0, nil, internalError(stmt, err)
	}
	return total, ids, nil
}

// BackfillRelationIDs registers the ids of relations (of the datasets'
// entities; all when datasets is empty) written before the write gate kept
// its registry of relation ids (RelationStates), in batches, and returns
// how many it registered; run again, it registers none. Over all the data
// it scans every relationship once: when it has run to its end, it says
// so in the graph (every write since registers its own ids), and later
// runs return at once.
func (s *Store) BackfillRelationIDs(ctx context.Context, datasets []string) (int64, error) {
	return s.dataMigration(ctx, "relation-id-registry", stmtBackfillRelationIDs, "registered", datasets)
}

// BackfillProtectedEnds records on every relation of the datasets'
// entities (all when datasets is empty) written before it was kept
// whether an end is protected (protectedEnd: the order of a page of
// relations without reading their ends, relationOrder), in batches, and
// returns how many it recorded; run again, it records none. Over all the
// data, once it has run to its end it says so in the graph, and later
// runs return at once.
func (s *Store) BackfillProtectedEnds(ctx context.Context, datasets []string) (int64, error) {
	return s.dataMigration(ctx, "relation-protected-ends", stmtBackfillProtectedEnds, "recorded", datasets)
}

// BackfillRelationEnds puts on the :RelationId registry node of every
// relation of the datasets' entities (all when datasets is empty) written
// before it was kept its ends' ids, its page key and its relationship's
// element id (fromId, toId, pageKey: a page of an entity's relations read
// in order from the registry; rel: each row's relationship found by a
// seek), in batches, and returns how many it recorded; run again, it
// records none. Run it after BackfillRelationIDs and
// BackfillProtectedEnds. Over all the data, once it has run to its end it
// says so in the graph, and later runs return at once. (Its name changed
// when rel was added, so that a database it had run over runs it again.)
func (s *Store) BackfillRelationEnds(ctx context.Context, datasets []string) (int64, error) {
	return s.dataMigration(ctx, "relation-id-ends-rel", stmtBackfillRelationEnds, "recorded", datasets)
}

// dataMigration runs the data migration of that name, the statement stmt
// (a datasetVariants one, that returns its count in column), over the
// datasets' data; over all the data when datasets is empty, unless it has
// run to its end before (then it returns at once), and then records that
// it has (MarkDataMigration).
func (s *Store) dataMigration(ctx context.Context, name string, stmt statement, column string, datasets []string) (int64, error) {
	if len(datasets) == 0 {
		if done, err := s.dataMigrationDone(ctx, name); err != nil || done {
			return 0, err
		}
	}
	n, err := s.inBatches(ctx, stmt.byDatasets(datasets), column, map[string]any{"datasets": listParam(datasets)})
	if err != nil || len(datasets) > 0 {
		return n, err
	}
	_, err = s.write(ctx, stmtMarkDataMigration, map[string]any{"name": name})
	return n, err
}

// dataMigrationDone reports whether the data migration of that name ran
// to its end over all the data (MarkDataMigration).
func (s *Store) dataMigrationDone(ctx context.Context, name string) (bool, error) {
	res, err := s.read(ctx, stmtDataMigrationDone, map[string]any{"name": name})
	if err != nil {
		return false, err
	}
	done, _, err := neo4j.GetRecordValue[bool](res.Records[0], "done")
	if err != nil {
		return false, internalError(string(stmtDataMigrationDone), err)
	}
	return done, nil
}

// CitationMigration is what MigrateCitations did: how many relations and
// entities it gave citations, how many of those relations had a quote,
// and how many of those cited more than one source (whose quote went to
// the first source's citation only: casegraph.CitationsOf).
type CitationMigration struct {
	Relations, Quoted, QuotedOfSeveral, Entities int64
}

// MigrateCitations turns the evidence of data written before citations
// into citations (MigrateRelationCitations, MigrateEntityCitations) for the
// datasets' entities and their relations (all when datasets is empty),
// nothing lost: every source stays cited, every quote kept. When it has
// run to its end over all the data it says so in the graph, and later
// runs cost one read.
func (s *Store) MigrateCitations(ctx context.Context, datasets []string) (CitationMigration, error) {
	const migration = "citations"
	var out CitationMigration
	if len(datasets) == 0 {
		if done, err := s.dataMigrationDone(ctx, migration); err != nil || done {
			return out, err
		}
	}
	params := map[string]any{"credibility": int64(casegraph.DefaultCredibility), "reliability": string(casegraph.DefaultReliability),
		"datasets": listParam(datasets)}
	stmt := stmtMigrateRelationCitations.byDatasets(datasets)
	rec, err := s.autoCommit(ctx, stmt, params)
	if err != nil {
		return out, err
	}
	for col, dst := range map[string]*int64{"relations": &out.Relations, "quoted": &out.Quoted, "quotedOfSeveral": &out.QuotedOfSeveral} {
		if *dst, err = getInt(rec, col); err != nil {
			return out, internalError(stmt, err)
		}
	}
	if out.Entities, err = s.inBatches(ctx, stmtMigrateEntityCitations.byDatasets(datasets), "entities", params); err != nil || len(datasets) > 0 {
		return out, err
	}
	_, err = s.write(ctx, stmtMarkDataMigration, map[string]any{"name": migration})
	return out, err
}

// citingDatasetsMigration names the data migration BackfillCitingDatasets.
const citingDatasetsMigration = "citing-datasets"

// BackfillCitingDatasets records on every source the datasets whose
// entities and relations cite it (for the datasets' entities and their
// relations; all when datasets is empty), for data written before sources
// recorded them (every write since records its own: citingDatasets), and
// returns how many sources it completed. Once it has run to its end over
// all the data it says so in the graph, and from then on regrade reads
// only the claims of the datasets a changed source records (CitingClaims),
// not every claim; later runs cost one read.
func (s *Store) BackfillCitingDatasets(ctx context.Context, datasets []string) (int64, error) {
	return s.dataMigration(ctx, citingDatasetsMigration, stmtBackfillCitingDatasets, "sources", datasets)
}
