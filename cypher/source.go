package cypher

// Sources: reads by id, pages and counts, upsert and delete under the
// write plan, and their record mapping and parameters.

import (
	"context"
	"encoding/json"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
)

// Statements of this file (statements/NAME.cypher or NAME.cypher.tmpl).
const (
	stmtSourcesByID   statement = "SourcesByID"
	stmtSources       statement = "Sources"
	stmtCountSources  statement = "CountSources"
	stmtUpsertSources statement = "UpsertSources"
	stmtLockSources   statement = "LockSources"
	stmtHoldSources   statement = "HoldSources"
	stmtDeleteSource  statement = "DeleteSource"
)

// sourceUngated: the statements of this file that return no graph data to a
// caller, and why (see ungated): every other goes through the gate.
func sourceUngated() ungated {
	return ungated{
		stmtUpsertSources: "a write of the write gate's plan (ApplyWrites, UpsertSource), after its checks",
		stmtLockSources:   "the write gate's lock on the sources a write cites or deletes, in its transaction: returns nothing",
		stmtHoldSources:   "the write gate's late lock on the sources a write cites, in its transaction: what it reads is compared with what the gate judged, in Go, and never goes back to the caller",
		stmtDeleteSource:  "a write (DeleteSource), through the write gate: returns the source, and only whether something cites it, never what",
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

// UpsertSource creates or updates one source, through the write gate
// (gaterules.go), and returns it as stored.
func (s *Store) UpsertSource(ctx context.Context, src casegraph.Source) (casegraph.Source, error) {
	p := planOf(casegraph.Writes{Sources: []casegraph.Source{src}})
	if err := precheck(ctx, p); err != nil {
		return casegraph.Source{}, err
	}
	var out casegraph.Source
	err := s.mutate(ctx, "UpsertSource", &out, func(run txRunner) (change, error) {
		g, err := passGate(ctx, run, p)
		if err != nil {
			return change{}, err
		}
		var before *casegraph.Source // for the audit record
		if old, ok := g.sources[src.ID]; ok {
			before = &old
		}
		if _, err := upsertSources(run, g, p.Sources); err != nil {
			return change{}, err
		}
		if err := regrade(run, g, p.Sources); err != nil {
			return change{}, err
		}
		recs, err := run(stmtSourcesByID, map[string]any{"ids": []string{src.ID}})
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
		"hash": sourceHash(src),
		"id":   src.ID, "title": src.Title, "publisher": nullable(src.Publisher), "url": nullable(src.URL),
		"publishedAt": nullable(src.PublishedAt), "retrievedAt": nullable(src.RetrievedAt),
		"dataset": src.Dataset, "kind": nullable(string(src.Kind)), "language": nullable(src.Language),
		"archivedUrl": nullable(src.ArchivedURL), "sha256": nullable(src.SHA256),
		"reliability": string(reliabilityOf(src)),
	}
}

// sourceHash fingerprints what UpsertSources writes of a source. The
// fields added with citations (kind, language, archivedUrl, sha256, a
// reliability other than the default) enter it only when set, with their
// names, so that no source stored before them is rewritten.
func sourceHash(src casegraph.Source) string {
	fields := []any{src.Title, src.Publisher, src.URL, src.PublishedAt, src.RetrievedAt, src.Dataset}
	for _, f := range []struct{ name, value string }{
		{"kind", string(src.Kind)}, {"language", src.Language}, {"archivedUrl", src.ArchivedURL}, {"sha256", src.SHA256},
		{"reliability", string(src.Reliability)},
	} {
		if f.value != "" && !(f.name == "reliability" && f.value == string(casegraph.DefaultReliability)) {
			fields = append(fields, f.name, f.value)
		}
	}
	return contentHash(fields...)
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
	var kind, reliability string
	for key, dst := range map[string]*string{
		"id": &src.ID, "title": &src.Title, "publisher": &src.Publisher, "url": &src.URL,
		"publishedAt": &src.PublishedAt, "retrievedAt": &src.RetrievedAt, "dataset": &src.Dataset,
		"kind": &kind, "language": &src.Language, "archivedUrl": &src.ArchivedURL, "sha256": &src.SHA256,
		"reliability": &reliability,
	} {
		v, err := mapString(m, key)
		if err != nil {
			return src, err
		}
		*dst = v
	}
	// A source stored before reliabilities has none: it cannot be judged.
	src.Kind, src.Reliability = casegraph.SourceKind(kind), reliabilityOf(casegraph.Source{Reliability: casegraph.Reliability(reliability)})
	return src, nil
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
		stmt, err := byCitingDatasets(run, stmtDeleteSource)
		if err != nil {
			return change{}, err
		}
		recs, err := run(stmt, map[string]any{"id": id})
		if err != nil {
			return change{}, err
		}
		if len(recs) == 0 {
			return change{}, casegraph.Errorf(casegraph.CodeNotFound, "no source %q", id) // deleted meanwhile
		}
		rec := recs[0]
		// What cites it may be in a dataset the caller cannot read: the
		// refusal does not name it.
		if by, _ := rec.AsMap()["citing"].(string); by != "" {
			return change{}, casegraph.Errorf(casegraph.CodeConflict, "source %q is cited by an entity or a relation: change what cites it first", id)
		}
		m, err := getMap(rec, "source")
		if err != nil {
			return change{}, internalError(string(stmt), err)
		}
		if out, err = sourceFromMap(m); err != nil {
			return change{}, internalError(string(stmt), err)
		}
		title, _ := json.Marshal(out.Title)
		return change{operation: "deleteSource", dataset: stored.Dataset, targets: []string{id},
			fields: []casegraph.FieldChange{{Field: "title", Old: string(title), New: "null"}}}, nil
	})
	return out, err
}
