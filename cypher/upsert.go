package cypher

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	casegraph "github.com/casegraph/casegraph"
)

// Upsert writes sources and entities in one transaction: sources first, then
// entities, which must cite sources that exist (in the graph or in this
// batch). Nothing is written when any row is refused. Rows must already be
// validated.
func (s *Store) Upsert(ctx context.Context, sources []casegraph.Source, entities []casegraph.Entity) error {
	sourceRows := make([]map[string]any, len(sources))
	for i, src := range sources {
		sourceRows[i] = sourceParams(src)
	}
	entityRows := make([]map[string]any, len(entities))
	cited := map[string]bool{}
	var citedIDs []string
	for i, e := range entities {
		entityRows[i] = entityParams(e)
		for _, id := range e.SourceIDs {
			if !cited[id] {
				cited[id] = true
				citedIDs = append(citedIDs, id)
			}
		}
	}

	return s.inWrite(ctx, "Upsert", func(run txRunner) error {
		if len(sourceRows) > 0 {
			if _, err := run("UpsertSources", map[string]any{"rows": sourceRows}); err != nil {
				return err
			}
		}
		if len(entityRows) == 0 {
			return nil
		}
		recs, err := run("MissingSources", map[string]any{"ids": citedIDs})
		if err != nil {
			return err
		}
		missing, err := getStrings(recs[0], "missing")
		if err != nil {
			return internalError("MissingSources", err)
		}
		if len(missing) > 0 {
			return casegraph.Errorf(casegraph.CodeBadUserInput, "cited sources do not exist: %v", missing)
		}
		recs, err = run("UpsertEntities", map[string]any{"rows": entityRows})
		if err != nil {
			return err
		}
		conflicts, err := getStrings(recs[0], "kindConflicts")
		if err != nil {
			return internalError("UpsertEntities", err)
		}
		if len(conflicts) > 0 {
			return casegraph.Errorf(casegraph.CodeConflict, "entities exist with another kind (a kind never changes): %v", conflicts)
		}
		return nil
	})
}

func entityParams(e casegraph.Entity) map[string]any {
	aliases := e.Aliases
	if aliases == nil {
		aliases = []string{}
	}
	var pageCount any
	if e.PageCount > 0 {
		pageCount = int64(e.PageCount)
	}
	return map[string]any{
		"hash": contentHash(e.Kind, e.Name, aliases, e.Description, e.Dataset, e.SourceIDs, e.Category,
			e.StartDate, e.EndDate, e.PublishedAt, e.PageCount, e.URL, e.Nationality),
		"id": e.ID, "kind": string(e.Kind), "name": e.Name, "aliases": aliases,
		"description": nullable(e.Description), "dataset": e.Dataset, "sourceIds": e.SourceIDs,
		"category": nullable(e.Category), "startDate": nullable(e.StartDate), "endDate": nullable(e.EndDate),
		"publishedAt": nullable(e.PublishedAt), "pageCount": pageCount, "url": nullable(e.URL),
		"nationality": nullable(e.Nationality),
	}
}

// nullable stores an empty string as an absent property.
func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// contentHash fingerprints the fields a write sets, so that writing the
// same content again can be recognised and skipped.
func contentHash(fields ...any) string {
	h := sha256.New()
	if err := json.NewEncoder(h).Encode(fields); err != nil {
		panic(err) // strings, ints and string slices always encode
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}
