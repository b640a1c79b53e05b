package dataset

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	casegraph "github.com/casegraph/casegraph"
)

// Store is what an import reads and writes through; *cypher.Store has it.
type Store interface {
	// EntityKinds returns the kinds of the live entities among ids, and
	// for ids that were merged away, the id they were merged into.
	EntityKinds(ctx context.Context, ids []string) (kinds map[string]casegraph.Kind, merged map[string]string, err error)
	// MissingSources returns the ids among ids that name no source.
	MissingSources(ctx context.Context, ids []string) ([]string, error)
	// WriteBatch writes sources, entities and relations in one transaction
	// and says how many rows changed something.
	WriteBatch(ctx context.Context, sources []casegraph.Source, entities []casegraph.Entity, relations []casegraph.Relation) (changed int, err error)
}

// Options tune an import.
type Options struct {
	// BatchSize is the number of rows written in one transaction.
	BatchSize int
	// Writers is how many transactions are written at once (default 2):
	// while one commits, the next is sent, and Neo4j uses more than one
	// core. Batches of one phase hold distinct ids (Check refuses an id
	// given twice), so they cannot overwrite each other; sources, entities
	// and relations are still written one phase after the other, as
	// relations need their ends. Batches of relations that share entities
	// can deadlock in Neo4j; a batch that fails so (TIMEOUT, after the
	// driver's own retries) is written again alone, while no other runs.
	Writers int
	// Progress, when set, is told after each batch how many rows of all
	// are written.
	Progress func(done, total int)
}

// Stats says what an import wrote and how long it took, in all and by
// phase.
type Stats struct {
	// Sources, Entities and Relations count the rows written; the
	// Changed counts say how many of them were new or differed from the
	// graph (the rest were already stored as they are).
	Sources, Entities, Relations                      int
	SourcesChanged, EntitiesChanged, RelationsChanged int
	Batches                                           int
	Took                                              time.Duration
	CheckTook                                         time.Duration
	EntitiesTook, RelationsTook                       time.Duration
}

// inParallel calls do(0) ... do(n-1) from at most workers goroutines and
// returns the first error; after an error no further call starts, and the
// context of those still running is cancelled.
func inParallel(ctx context.Context, workers, n int, do func(ctx context.Context, k int) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				if ctx.Err() != nil {
					continue // failed or cancelled: start nothing more
				}
				if err := do(ctx, k); err != nil {
					cancel(err)
				}
			}
		}()
	}
feed:
	for k := range n {
		select {
		case next <- k:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err := context.Cause(ctx); err != nil && ctx.Err() != nil {
		return err
	}
	return nil
}

// lookupChunk bounds the ids sent in one lookup.
const lookupChunk = 10000

// Check finds what is wrong with a batch as a whole, against the graph:
// ids given twice, entities whose kind would change or whose id was merged
// away, sources cited that exist neither in the file nor in the graph,
// relations whose ends do not exist or have kinds their type cannot join.
// It returns a *LinesError (nil when the batch is sound) that lists these
// together with the lines Read found bad, and writes nothing.
func Check(ctx context.Context, b Batch, store Store) error {
	bad := LinesError{Lines: slices.Clone(b.Bad.Lines), More: b.Bad.More}
	report := func(line int, format string, args ...any) {
		if len(bad.Lines) >= maxReported {
			bad.More = true
			return
		}
		bad.Lines = append(bad.Lines, &LineError{Line: line, Err: casegraph.Errorf(casegraph.CodeBadUserInput, format, args...)})
	}

	sourceInFile := map[string]bool{}
	for i, s := range b.Sources {
		if sourceInFile[s.ID] {
			report(b.SourceLines[i], "source %q is given twice", s.ID)
		}
		sourceInFile[s.ID] = true
	}
	kindInFile := map[string]casegraph.Kind{}
	entityIDs := make([]string, 0, len(b.Entities))
	for i, e := range b.Entities {
		if _, dup := kindInFile[e.ID]; dup {
			report(b.EntityLines[i], "entity %q is given twice", e.ID)
			continue
		}
		kindInFile[e.ID] = e.Kind
		entityIDs = append(entityIDs, e.ID)
	}

	// Ends of relations that the file does not define must be in the graph
	// (an entity on a bad line is reported there, not again as missing).
	var outside []string
	seen := map[string]bool{}
	for _, r := range b.Relations {
		for _, id := range []string{r.FromID, r.ToID} {
			if _, onBadLine := b.badEntities[id]; onBadLine {
				continue
			}
			if _, ok := kindInFile[id]; !ok && !seen[id] {
				seen[id] = true
				outside = append(outside, id)
			}
		}
	}
	kinds, merged, err := entityKinds(ctx, store, append(entityIDs, outside...))
	if err != nil {
		return err
	}
	for i, e := range b.Entities {
		if into, ok := merged[e.ID]; ok {
			report(b.EntityLines[i], "entity %q was merged into %q", e.ID, into)
		} else if k, ok := kinds[e.ID]; ok && k != e.Kind {
			report(b.EntityLines[i], "entity %q is a %s in the graph; the kind of an entity never changes", e.ID, k)
		}
	}

	relationIDs := map[string]bool{}
	for i, r := range b.Relations {
		line := b.RelationLines[i]
		if relationIDs[r.ID] {
			report(line, "relation %q is given twice", r.ID)
		}
		relationIDs[r.ID] = true
		from, okFrom := kindInFile[r.FromID]
		if !okFrom {
			from, okFrom = kinds[r.FromID]
		}
		to, okTo := kindInFile[r.ToID]
		if !okTo {
			to, okTo = kinds[r.ToID]
		}
		badFrom, fromOnBadLine := b.badEntities[r.FromID]
		badTo, toOnBadLine := b.badEntities[r.ToID]
		switch {
		case fromOnBadLine && !okFrom:
			report(line, "relation %q: from: entity %q is on bad line %d", r.ID, r.FromID, badFrom)
		case toOnBadLine && !okTo:
			report(line, "relation %q: to: entity %q is on bad line %d", r.ID, r.ToID, badTo)
		case !okFrom:
			report(line, "relation %q: from: no entity %q in the file or the graph", r.ID, r.FromID)
		case !okTo:
			report(line, "relation %q: to: no entity %q in the file or the graph", r.ID, r.ToID)
		default:
			spec, _ := casegraph.Spec(r.Type) // the type was validated when read
			if err := spec.CheckKinds(from, to); err != nil {
				report(line, "relation %q: %s", r.ID, casegraph.ErrorMessage(err))
			}
		}
	}

	// Cited sources must be in the file or the graph.
	citedAt := map[string]int{}
	var cited []string
	cite := func(ids []string, line int) {
		for _, id := range ids {
			if _, ok := citedAt[id]; !ok && !sourceInFile[id] {
				citedAt[id] = line
				cited = append(cited, id)
			}
		}
	}
	for i, e := range b.Entities {
		cite(e.SourceIDs, b.EntityLines[i])
	}
	for i, r := range b.Relations {
		cite(r.SourceIDs, b.RelationLines[i])
	}
	for start := 0; start < len(cited); start += lookupChunk {
		missing, err := store.MissingSources(ctx, cited[start:min(start+lookupChunk, len(cited))])
		if err != nil {
			return err
		}
		for _, id := range missing {
			report(citedAt[id], "cites source %q, which is neither in the file nor in the graph", id)
		}
	}

	if len(bad.Lines) > 0 {
		sortLines(bad.Lines)
		return &bad
	}
	return nil
}

func entityKinds(ctx context.Context, store Store, ids []string) (map[string]casegraph.Kind, map[string]string, error) {
	kinds := map[string]casegraph.Kind{}
	merged := map[string]string{}
	for start := 0; start < len(ids); start += lookupChunk {
		k, m, err := store.EntityKinds(ctx, ids[start:min(start+lookupChunk, len(ids))])
		if err != nil {
			return nil, nil, err
		}
		for id, kind := range k {
			kinds[id] = kind
		}
		for id, into := range m {
			merged[id] = into
		}
	}
	return kinds, merged, nil
}

func sortLines(lines []*LineError) {
	slices.SortStableFunc(lines, func(a, b *LineError) int { return a.Line - b.Line })
}

// Import checks a batch against the graph and, when it is sound, writes it:
// sources, then entities, then relations, BatchSize rows a transaction,
// Writers transactions at a time. Nothing is written when any line is bad,
// whether Read or Check found it. Each transaction commits whole or not at
// all; an import that fails midway (the database went away) leaves the
// batches that committed written, and running it again finishes it:
// writing the same rows twice changes nothing.
func Import(ctx context.Context, b Batch, store Store, opts Options) (Stats, error) {
	start := time.Now()
	if opts.BatchSize <= 0 {
		opts.BatchSize = 5000
	}
	if opts.Writers <= 0 {
		opts.Writers = 2
	}
	if err := Check(ctx, b, store); err != nil {
		return Stats{}, err
	}
	checked := time.Now()
	total := len(b.Sources) + len(b.Entities) + len(b.Relations)
	st := Stats{}
	progress := func() {
		if opts.Progress != nil {
			opts.Progress(st.Sources+st.Entities+st.Relations, total)
		}
	}
	n := opts.BatchSize
	var mu sync.Mutex      // guards st and progress
	var alone sync.RWMutex // held to write a batch while no other is written
	write := func(what string, rows int, lines []int, count, changed *int, batch func(ctx context.Context, i, j int) (int, error)) error {
		return inParallel(ctx, opts.Writers, (rows+n-1)/n, func(ctx context.Context, k int) error {
			i, j := k*n, min(k*n+n, rows)
			alone.RLock()
			c, err := batch(ctx, i, j)
			alone.RUnlock()
			if opts.Writers > 1 && casegraph.ErrorCode(err) == casegraph.CodeTimeout && ctx.Err() == nil {
				// Rolled back, most likely by a deadlock with another
				// batch: write it again with nothing beside it.
				alone.Lock()
				c, err = batch(ctx, i, j)
				alone.Unlock()
			}
			if err != nil {
				return fmt.Errorf("%s from line %d: %w", what, lines[i], err)
			}
			mu.Lock()
			defer mu.Unlock()
			*count += j - i
			*changed += c
			st.Batches++
			progress()
			return nil
		})
	}
	if err := write("sources", len(b.Sources), b.SourceLines, &st.Sources, &st.SourcesChanged, func(ctx context.Context, i, j int) (int, error) {
		return store.WriteBatch(ctx, b.Sources[i:j], nil, nil)
	}); err != nil {
		return st, err
	}
	entitiesStart := time.Now()
	if err := write("entities", len(b.Entities), b.EntityLines, &st.Entities, &st.EntitiesChanged, func(ctx context.Context, i, j int) (int, error) {
		return store.WriteBatch(ctx, nil, b.Entities[i:j], nil)
	}); err != nil {
		return st, err
	}
	relationsStart := time.Now()
	if err := write("relations", len(b.Relations), b.RelationLines, &st.Relations, &st.RelationsChanged, func(ctx context.Context, i, j int) (int, error) {
		return store.WriteBatch(ctx, nil, nil, b.Relations[i:j])
	}); err != nil {
		return st, err
	}
	st.CheckTook = checked.Sub(start)
	st.EntitiesTook = relationsStart.Sub(entitiesStart)
	st.RelationsTook = time.Since(relationsStart)
	st.Took = time.Since(start)
	return st, nil
}

// ImportRecorder writes the audit record of an import (*cypher.Store has
// it).
type ImportRecorder interface {
	RecordImport(ctx context.Context, dataset string, sources, entities, relations int) error
}

// RecordImport writes the audit record of an import that changed the
// graph (st), one a dataset of b, with its counts: watchers of the change
// feed hear of it. An import that changed nothing records nothing. The
// command line and an import over HTTP both call it, after the import.
func RecordImport(ctx context.Context, r ImportRecorder, b Batch, st Stats) error {
	if st.SourcesChanged+st.EntitiesChanged+st.RelationsChanged == 0 {
		return nil
	}
	counts := b.ByDataset()
	for _, ds := range slices.Sorted(maps.Keys(counts)) {
		c := counts[ds]
		if err := r.RecordImport(ctx, ds, c.Sources, c.Entities, c.Relations); err != nil {
			return fmt.Errorf("imported, but the audit record of dataset %s was not written: %w", ds, err)
		}
	}
	return nil
}
