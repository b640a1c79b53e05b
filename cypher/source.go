package cypher

import (
	"context"
	"slices"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
)

// Statements of this file (queries/NAME.cypher or NAME.cypher.tmpl).
const (
	stmtSourcesByID    statement = "SourcesByID"
	stmtSources        statement = "Sources"
	stmtCountSources   statement = "CountSources"
	stmtUpsertSources  statement = "UpsertSources"
	stmtMissingSources statement = "MissingSources"
	stmtLockSources    statement = "LockSources"
)

// sourceUngated: the statements of this file that return no graph data to a
// caller, and why (see ungated): every other goes through the gate.
func sourceUngated() ungated {
	return ungated{
		stmtUpsertSources:  "a write under the write plan (WriteBatch, UpsertSource), after its checks",
		stmtLockSources:    "a write's lock on the sources it cites or deletes (UpsertEntity, Link, DeleteSource, WriteBatch), in its transaction: returns nothing",
		stmtMissingSources: "a write's check that the sources it cites exist, in its transaction (and an import's, dataset.Check): ids only, for the write plan",
	}
}

// SourcesByID returns the sources with the given ids, in one round trip.
func (s *Store) SourcesByID(ctx context.Context, ids []string) (map[string]casegraph.Source, error) {
	res, err := s.read(ctx, stmtSourcesByID, map[string]any{"ids": ids})
	if err != nil {
		return nil, err
	}
	out := make(map[string]casegraph.Source, len(res.Records))
	for _, rec := range res.Records {
		src, err := sourceFrom(rec)
		if err != nil {
			return nil, internalError("SourcesByID", err)
		}
		out[src.ID] = src
	}
	return out, nil
}

// Sources returns one page of sources in id order, and whether there are more.
func (s *Store) Sources(ctx context.Context, page casegraph.Page) ([]casegraph.Source, bool, error) {
	res, err := s.read(ctx, stmtSources.paged(page), map[string]any{"after": page.After, "limit": pageLimit(page)})
	if err != nil {
		return nil, false, err
	}
	out := make([]casegraph.Source, 0, len(res.Records))
	for _, rec := range res.Records {
		src, err := sourceFrom(rec)
		if err != nil {
			return nil, false, internalError("Sources", err)
		}
		out = append(out, src)
	}
	out, hasNext := trimPage(out, page)
	return out, hasNext, nil
}

// CountSources counts every source.
func (s *Store) CountSources(ctx context.Context) (int64, error) {
	return s.count(ctx, stmtCountSources, nil)
}

// count runs a statement that returns one count, total.
func (s *Store) count(ctx context.Context, name statement, params map[string]any) (int64, error) {
	res, err := s.read(ctx, name, params)
	if err != nil {
		return 0, err
	}
	n, err := getInt(res.Records[0], "total")
	if err != nil {
		return 0, internalError(string(name), err)
	}
	return n, nil
}

// UpsertSource creates or updates one source and returns it as stored.
func (s *Store) UpsertSource(ctx context.Context, src casegraph.Source) (casegraph.Source, error) {
	var out casegraph.Source
	err := s.mutate(ctx, "UpsertSource", &out, func(run txRunner) (change, error) {
		recs, err := run(stmtSourcesByID, map[string]any{"ids": []string{src.ID}})
		if err != nil {
			return change{}, err
		}
		var before *casegraph.Source // for the audit record
		if len(recs) == 1 {
			old, err := sourceFrom(recs[0])
			if err != nil {
				return change{}, internalError("UpsertSource", err)
			}
			before = &old
			if !casegraph.CanReadIn(ctx, old.Dataset) {
				return change{}, casegraph.Errorf(casegraph.CodeConflict, "the source id %q is taken; choose another", src.ID)
			}
			if err := casegraph.CheckWrite(ctx, old.Dataset); err != nil {
				return change{}, err
			}
		}
		if err := casegraph.CheckWrite(ctx, src.Dataset); err != nil {
			return change{}, err
		}
		if _, err := run(stmtUpsertSources, map[string]any{"rows": []map[string]any{sourceParams(src)}}); err != nil {
			return change{}, err
		}
		recs, err = run(stmtSourcesByID, map[string]any{"ids": []string{src.ID}})
		if err != nil {
			return change{}, err
		}
		if len(recs) != 1 {
			return change{}, internalError("UpsertSource", errNoRow)
		}
		out, err = sourceFrom(recs[0])
		if err != nil {
			return change{}, internalError("UpsertSource", err)
		}
		return change{operation: "upsertSource", dataset: out.Dataset, targets: []string{out.ID},
			fields: casegraph.Diff(before, &out)}, nil
	})
	return out, err
}

func sourceParams(src casegraph.Source) map[string]any {
	return map[string]any{
		"hash": contentHash(src.Title, src.Publisher, src.URL, src.PublishedAt, src.RetrievedAt, src.Dataset),
		"id":   src.ID, "title": src.Title, "publisher": nullable(src.Publisher), "url": nullable(src.URL),
		"publishedAt": nullable(src.PublishedAt), "retrievedAt": nullable(src.RetrievedAt),
		"dataset": src.Dataset,
	}
}

// sourceFrom reads the "source" column, a projection by the shared
// "source" template.
func sourceFrom(rec *neo4j.Record) (casegraph.Source, error) {
	m, err := getMap(rec, "source")
	if err != nil {
		return casegraph.Source{}, err
	}
	return sourceFromMap(m)
}

func sourceFromMap(m map[string]any) (casegraph.Source, error) {
	var src casegraph.Source
	for key, dst := range map[string]*string{
		"id": &src.ID, "title": &src.Title, "publisher": &src.Publisher, "url": &src.URL,
		"publishedAt": &src.PublishedAt, "retrievedAt": &src.RetrievedAt, "dataset": &src.Dataset,
	} {
		v, err := mapString(m, key)
		if err != nil {
			return src, err
		}
		*dst = v
	}
	return src, nil
}

// checkSources refuses (BAD_USER_INPUT) when a cited source does not
// exist. It first locks the sources (lockSources) until the write commits,
// so that a deleteSource under way either ends before the look (and the
// source is missing) or waits until the citation is committed (and sees
// it): never a citation of a source deleted meanwhile.
func checkSources(run txRunner, ids []string) error {
	if err := lockSources(run, ids...); err != nil {
		return err
	}
	recs, err := run(stmtMissingSources, map[string]any{"ids": ids})
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

// lockSources takes the write locks of the sources ids, in id order, for
// the rest of the transaction (LockSources).
func lockSources(run txRunner, ids ...string) error {
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	_, err := run(stmtLockSources, map[string]any{"ids": slices.Compact(sorted)})
	return err
}

func sourcesFromRecord(rec *neo4j.Record) ([]casegraph.Source, error) {
	maps, err := getMaps(rec, "sources")
	if err != nil {
		return nil, err
	}
	out := make([]casegraph.Source, 0, len(maps))
	for _, m := range maps {
		src, err := sourceFromMap(m)
		if err != nil {
			return nil, err
		}
		out = append(out, src)
	}
	return out, nil
}

// MissingSources returns the ids among ids that name no source.
func (s *Store) MissingSources(ctx context.Context, ids []string) ([]string, error) {
	res, err := s.read(ctx, stmtMissingSources, map[string]any{"ids": ids})
	if err != nil {
		return nil, err
	}
	missing, err := getStrings(res.Records[0], "missing")
	if err != nil {
		return nil, internalError("MissingSources", err)
	}
	return missing, nil
}
