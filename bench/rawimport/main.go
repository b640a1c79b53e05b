// Command rawimport writes the rows of a Casegraph data file (NDJSON, as
// `casegraph gen` writes it) into Neo4j with the Go driver alone: no
// write gate, no registry of relation ids, no degree upkeep, no audit
// record, only UNWIND batches of MERGE (sources, entities) and CREATE
// (relations, their ends found by the entity id index), with the rows'
// properties. It measures what Neo4j itself takes to write the same rows
// on a machine, the limit `casegraph import` can come near
// (bench/README.md, "Raw import"). With -model the relations are written
// as Casegraph's model keeps them (their :RelationId registry nodes, their
// ends' degrees, in CreateRelations' shape), still without the write gate:
// the limit for what an import writes, not only for the rows.
//
//	go run ./bench/rawimport -file /tmp/bench-1m.ndjson -prefix raw- -batch 5000 -writers 2
//
// Every id (and every id a row names: ends, sources) is written with
// -prefix before it and every dataset as -prefix before it, so that the
// rows go into a dataset of their own beside the file's, under the same
// constraints and indexes (`casegraph migrate`'s): a relation meets the
// same four indexes of its type (id, dataset, dataset with start, with
// end) as an import's. It prints the rows and rows a second of each
// phase, and the wall time.
package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/casegraph/casegraph/bench/internal/benchdb"
	"github.com/casegraph/casegraph/cypher"
)

// The statements, one a phase. An entity's and a relation's properties are
// set as a map (the file's fields, with what an import adds: a content
// hash, creation and update times); the label and relationship type come
// from the row (dynamic labels and types, Neo4j 5.26).
const (
	writeSources = `UNWIND $rows AS row
MERGE (s:Source {id: row.id})
SET s += row.props`
	writeEntities = `UNWIND $rows AS row
MERGE (e:Entity {id: row.id})
  ON CREATE SET e:$(row.kind), e.createdAt = datetime(), e.version = 1, e.degree = 0
SET e += row.props, e.updatedAt = datetime()`
	writeRelations = `UNWIND $rows AS row
MATCH (a:Entity {id: row.from}), (b:Entity {id: row.to})
CREATE (a)-[r:$(row.type)]->(b)
SET r = row.props, r.createdAt = datetime(), r.updatedAt = datetime(), r.protectedEnd = false`
	// writeModelRelations (-model) writes what Casegraph's model keeps of a
	// relation beside the relationship, as an import's batch does: each
	// id's :RelationId node, claimed first (RelationStates/write), and,
	// as CreateRelations, the ends' degrees (once an end for all its rows,
	// in id order) and the registry node's type, ends, page key and
	// relationship. Nothing is read to judge the rows (no write gate).
	writeModelRelations = `CALL () {
  UNWIND $rows AS row
  MERGE (c:RelationId {id: row.props.id})
    ON CREATE SET c.type = row.type
}
UNWIND $rows AS row
MATCH (a:Entity {id: row.from}), (b:Entity {id: row.to})
WITH collect({row: row, a: a, b: b}) AS found
CALL (found) {
  UNWIND found AS f
  UNWIND CASE WHEN f.a = f.b THEN [f.a] ELSE [f.a, f.b] END AS n
  WITH n, count(*) AS added
  ORDER BY n.id
  SET n.degree = n.degree + added
}
CALL (found) {
  UNWIND found AS f
  WITH f.row AS row, f.a AS a, f.b AS b
  CREATE (a)-[r:$(row.type)]->(b)
  SET r = row.props, r.createdAt = datetime(), r.updatedAt = datetime(),
      r.redactedId = 'protected-' + left(replace(randomUUID(), '-', ''), 16),
      r.protectedEnd = coalesce(a.protected, false) OR coalesce(b.protected, false)
  WITH row, r, a, b
  MATCH (c:RelationId {id: row.props.id})
  SET c.fromId = a.id, c.toId = b.id, c.pageKey = CASE WHEN r.protectedEnd THEN r.redactedId ELSE r.id END,
      c.rel = elementId(r)
}
RETURN size(found) AS written`
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Getenv, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "rawimport:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	fs := flag.NewFlagSet("rawimport", flag.ContinueOnError)
	var db benchdb.Flags
	db.Register(fs, "neo4j", getenv)
	database := fs.String("database", "neo4j", "the database to write into")
	file := fs.String("file", "", "the NDJSON data file (required)")
	prefix := fs.String("prefix", "raw-", "written before every id and dataset, so that the rows do not meet the file's own")
	batch := fs.Int("batch", 5000, "rows a transaction")
	writers := fs.Int("writers", 2, "transactions written at once")
	model := fs.Bool("model", false, "write relations as Casegraph's model keeps them: with their :RelationId registry nodes and their ends' degrees")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *file == "" {
		return errors.New("-file is required")
	}
	if *batch < 1 || *writers < 1 {
		return errors.New("-batch and -writers must be at least 1")
	}
	start := time.Now()
	rows, err := read(*file, *prefix)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "read %d sources, %d entities, %d relations in %s\n",
		len(rows.sources), len(rows.entities), len(rows.relations), time.Since(start).Round(time.Millisecond))

	driver, err := db.Open(ctx)
	if err != nil {
		return err
	}
	defer driver.Close(ctx)
	written := time.Now()
	for _, phase := range []struct {
		name, stmt string
		rows       []map[string]any
	}{{"sources", writeSources, rows.sources}, {"entities", writeEntities, rows.entities}, {"relations", relationsStatement(*model), rows.relations}} {
		took, err := write(ctx, driver, *database, phase.stmt, phase.rows, *batch, *writers)
		if err != nil {
			return fmt.Errorf("%s: %w", phase.name, err)
		}
		fmt.Fprintf(stdout, "%-9s %9d rows in %10s: %8.0f rows/s (batch %d, writers %d)\n",
			phase.name, len(phase.rows), took.Round(time.Millisecond), float64(len(phase.rows))/took.Seconds(), *batch, *writers)
	}
	fmt.Fprintf(stdout, "written in %s (%s with reading)\n", time.Since(written).Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	return nil
}

// relationsStatement is the relations' statement: with the model's
// registry and degrees, or the relationships alone.
func relationsStatement(model bool) string {
	if model {
		return writeModelRelations
	}
	return writeRelations
}

// write writes rows in batches of n, w transactions at once, each
// written again after a transient error, a deadlock among them
// (writeBatch), and returns how long it took.
func write(ctx context.Context, driver neo4j.DriverWithContext, database, stmt string, rows []map[string]any, n, w int) (time.Duration, error) {
	start := time.Now()
	batches := make(chan []map[string]any)
	errs := make(chan error, w)
	var wg sync.WaitGroup
	for range w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			session := driver.NewSession(ctx, neo4j.SessionConfig{DatabaseName: database, AccessMode: neo4j.AccessModeWrite})
			defer session.Close(ctx)
			for b := range batches {
				if err := writeBatch(ctx, session, stmt, b); err != nil {
					errs <- err
					for range batches { // drain: write nothing more
					}
					return
				}
			}
		}()
	}
	for i := 0; i < len(rows); i += n {
		batches <- rows[i:min(i+n, len(rows))]
	}
	close(batches)
	wg.Wait()
	close(errs)
	return time.Since(start), <-errs
}

// batchRetryTime bounds how long a batch that failed with a transient
// error (a deadlock with the other writers' batches, mostly: -model's
// relations lock their ends) is tried again. The driver's own retries
// stop after cypher.DriverConfig's second, which a batch of thousands of
// rows outlasts on its first try.
const batchRetryTime = time.Minute

// writeBatch writes one batch in a transaction of its own, again while it
// fails with an error a retry may mend, for at most batchRetryTime
// (cypher.Retry, as Casegraph's own statements are retried).
func writeBatch(ctx context.Context, session neo4j.SessionWithContext, stmt string, rows []map[string]any) error {
	return cypher.Retry(ctx, batchRetryTime, func() error {
		_, err := session.ExecuteWrite(ctx, func(tx neo4j.ManagedTransaction) (any, error) {
			res, err := tx.Run(ctx, stmt, map[string]any{"rows": rows})
			if err != nil {
				return nil, err
			}
			return res.Consume(ctx)
		})
		return err
	})
}

// fileRows are the file's rows as the statements take them.
type fileRows struct{ sources, entities, relations []map[string]any }

// read reads the data file: each line an object with "type" (source,
// entity or relation). The properties are the line's fields but those
// that say what a row is (type, kind, relationType, from, to); a field
// holding an object (none in a generated file) is written as its JSON.
func read(path, prefix string) (fileRows, error) {
	f, err := os.Open(path)
	if err != nil {
		return fileRows{}, err
	}
	defer f.Close()
	var rows fileRows
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for line := 1; sc.Scan(); line++ {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			return fileRows{}, fmt.Errorf("line %d: %w", line, err)
		}
		sum := sha256.Sum256(sc.Bytes())
		kind, _ := m["type"].(string)
		props := map[string]any{"contentHash": hex.EncodeToString(sum[:16])}
		for k, v := range m {
			switch k {
			case "type", "kind", "relationType", "from", "to":
				continue
			case "id", "dataset":
				v = prefix + v.(string)
			case "sourceIds":
				v = prefixed(prefix, v)
			}
			props[k] = property(v)
		}
		switch kind {
		case "source":
			rows.sources = append(rows.sources, map[string]any{"id": props["id"], "props": props})
		case "entity":
			rows.entities = append(rows.entities, map[string]any{"id": props["id"], "kind": m["kind"], "props": props})
		case "relation":
			rows.relations = append(rows.relations, map[string]any{"type": m["relationType"],
				"from": prefix + m["from"].(string), "to": prefix + m["to"].(string), "props": props})
		default:
			return fileRows{}, fmt.Errorf("line %d: unknown type %q", line, kind)
		}
	}
	return rows, sc.Err()
}

// prefixed puts prefix before each id of a list.
func prefixed(prefix string, v any) any {
	list, ok := v.([]any)
	if !ok {
		return v
	}
	out := make([]string, len(list))
	for i, x := range list {
		out[i] = prefix + fmt.Sprint(x)
	}
	return out
}

// property is a JSON value as a Neo4j property: a list of strings or
// numbers as such, an object as its JSON text.
func property(v any) any {
	switch v := v.(type) {
	case map[string]any:
		b, _ := json.Marshal(v)
		return string(b)
	case []any:
		all := make([]string, len(v))
		for i, x := range v {
			if s, ok := x.(string); ok {
				all[i] = s
				continue
			}
			b, _ := json.Marshal(x)
			all[i] = strings.TrimSpace(string(b))
		}
		return all
	}
	return v
}
