package cypher

// Export: the sources, entities and relations of datasets streamed in id
// order.

import (
	"context"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
)

// Statements of this file (statements/NAME.cypher or NAME.cypher.tmpl).
const (
	stmtExportSources   statement = "ExportSources"
	stmtExportEntities  statement = "ExportEntities"
	stmtExportRelations statement = "ExportRelations"
)

// Exporter receives what Export streams (casegraph.ExportSink: the HTTP
// edge streams exports too, and declares no dependency on this package).
type Exporter = casegraph.ExportSink

// Export streams the sources, entities and relations of the datasets (all
// when datasets is empty), each in id order, to the exporter's functions:
// records are read as they arrive, so an export of any size runs in little
// memory. It reads in one transaction, so what it streams is one snapshot.
//
// It streams what the caller may read, through the gate inside each
// statement: its datasets' sources and entities, and a relation only when
// the caller may read both its ends (one to an entity of a dataset it may
// not read is left out). A protected person the caller may not see is left
// out, with his relations, rather than redacted as GraphQL shows him: an
// export is a file to import again, and holds no opaque id. The
// operator's command (casegraph export) reads everything.
func (s *Store) Export(ctx context.Context, datasets []string, out Exporter) error {
	var ds any
	if len(datasets) > 0 {
		ds = datasets
	}
	params := withScope(ctx, map[string]any{"datasets": ds})
	session, err := s.session(ctx, neo4j.AccessModeRead)
	if err != nil {
		return err
	}
	defer session.Close(ctx)
	tx, err := session.BeginTransaction(ctx)
	if err != nil {
		return mapError(ctx, "Export", err)
	}
	defer tx.Close(ctx)

	stream := func(stmt statement, each func(*neo4j.Record) error) error {
		stmt = stmt.byDatasets(datasets)
		name := string(stmt)
		done := s.roundTrip(ctx, name)
		res, err := tx.Run(ctx, s.statement(stmt), params)
		if err != nil {
			done(err)
			return mapError(ctx, name, err)
		}
		for res.Next(ctx) {
			if err := each(res.Record()); err != nil {
				done(err)
				return err
			}
		}
		err = res.Err()
		done(err)
		if err != nil {
			return mapError(ctx, name, err)
		}
		return nil
	}
	if err := stream(stmtExportSources, func(rec *neo4j.Record) error {
		src, err := sourceFrom(rec)
		if err != nil {
			return internalError("ExportSources", err)
		}
		return out.Source(src)
	}); err != nil {
		return err
	}
	if err := stream(stmtExportEntities, func(rec *neo4j.Record) error {
		e, err := entityFrom(rec)
		if err != nil {
			return internalError("ExportEntities", err)
		}
		return out.Entity(e)
	}); err != nil {
		return err
	}
	return stream(stmtExportRelations, func(rec *neo4j.Record) error {
		r, err := relationFromRecord(rec)
		if err != nil {
			return err
		}
		return out.Relation(r)
	})
}
