package dataset

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	casegraph "github.com/casegraph/casegraph"
)

// Store is what an import checks and writes through, with the rights of
// the context's principal (the operator's for the command line, the
// caller's over HTTP): the store's one write gate, the one every mutation
// passes too. *cypher.Store has it.
type Store interface {
	// CheckWrites judges a whole file as the gate would, writing nothing,
	// and returns every row it refuses.
	CheckWrites(ctx context.Context, w casegraph.Writes, more *casegraph.MoreWrites) ([]casegraph.Refusal, error)
	// ApplyWrites writes rows in one transaction, through the gate, and
	// says how many changed something.
	ApplyWrites(ctx context.Context, w casegraph.Writes) (changed int, err error)
}

// Options tune an import.
type Options struct {
	// Dataset, when set, confines the import to one dataset (an import
	// over HTTP into it): a record of another dataset is a bad line, and
	// an id that another dataset's entity, relation or source holds is
	// taken (casegraph.Writes.Dataset).
	Dataset string
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

// Check finds what is wrong with a batch as a whole: in the file, ids given
// twice and relations whose end is on a bad line; against the graph,
// whatever the store's write gate refuses of it with the rights of the
// context's principal (a kind that would change, an id merged away or
// taken, an end or a source that does not exist for the caller, a
// protection it may not set or lift, a reserved id, ...). It returns a
// *LinesError (nil when the batch is sound) that lists these together
// with the lines Read found bad, and writes nothing.
func Check(ctx context.Context, b Batch, store Store, opts Options) error {
	bad := b.Bad
	bad.Lines = slices.Clone(b.Bad.Lines)
	// Every line Check refuses holds a row of the batch.
	report := func(kind casegraph.RowKind, line int, err error) {
		switch kind {
		case casegraph.RowSource:
			bad.rows.Sources++
		case casegraph.RowEntity:
			bad.rows.Entities++
		case casegraph.RowRelation:
			bad.rows.Relations++
		}
		bad.add(line, err)
	}
	reportf := func(kind casegraph.RowKind, line int, field, format string, args ...any) {
		e := casegraph.Errorf(casegraph.CodeBadUserInput, format, args...)
		e.Field = field
		report(kind, line, e)
	}

	// Every row goes to the graph check, the caller's own (no copy of a
	// file's rows), but for a row reported here (an id given twice, a
	// relation whose end is on a bad line and nowhere else in the file):
	// sources whole, entities and relations a part at a time, those of a
	// batch that ReadFile left in its file read again for it. An id given
	// twice is found by sorting the rows' places, not with a set of every
	// id.
	reported := map[casegraph.RowKind]map[int]bool{}
	drop := func(kind casegraph.RowKind, i int) {
		if reported[kind] == nil {
			reported[kind] = map[int]bool{}
		}
		reported[kind][i] = true
	}
	sources, entities := byID(len(b.Sources), func(i int) string { return b.Sources[i].ID }), byID(b.EntityCount(), b.entityID)
	for _, i := range repeated(sources, func(i int) string { return b.Sources[i].ID }) {
		reportf(casegraph.RowSource, b.SourceLines[i], "id", "%s %q is given twice", casegraph.RowSource, b.Sources[i].ID)
		drop(casegraph.RowSource, i)
	}
	for _, i := range repeated(entities, b.entityID) {
		reportf(casegraph.RowEntity, b.EntityLines[i], "id", "%s %q is given twice", casegraph.RowEntity, b.entityID(i))
		drop(casegraph.RowEntity, i)
	}
	for _, i := range repeated(byID(b.RelationCount(), b.relationID), b.relationID) {
		reportf(casegraph.RowRelation, b.RelationLines[i], "id", "%s %q is given twice", casegraph.RowRelation, b.relationID(i))
		drop(casegraph.RowRelation, i)
	}
	// first is the place of the file's first entity of the id (on a good
	// line), if any.
	first := func(id string) (int, bool) {
		k, ok := slices.BinarySearchFunc(entities, id, func(i int32, id string) int { return strings.Compare(b.entityID(int(i)), id) })
		if !ok {
			return 0, false
		}
		return int(entities[k]), true // byID keeps the rows of an id in file order
	}
	given := func(id string) bool { _, ok := first(id); return ok }
	// onBadLine refuses relation i when an end of it is an entity on a bad
	// line (and on no good one).
	onBadLine := func(i int, r casegraph.Relation) bool {
		line := b.RelationLines[i]
		if at, ok := b.badEntities[r.FromID]; ok && !given(r.FromID) {
			reportf(casegraph.RowRelation, line, "from", "relation %q: from: entity %q is on bad line %d", r.ID, r.FromID, at)
			return true
		} else if at, ok := b.badEntities[r.ToID]; ok && !given(r.ToID) {
			reportf(casegraph.RowRelation, line, "to", "relation %q: to: entity %q is on bad line %d", r.ID, r.ToID, at)
			return true
		}
		return false
	}
	var judgedEntities, judgedRelations []int32 // the place in the batch of each row judged
	more := &casegraph.MoreWrites{
		Kind: func(id string) (casegraph.Kind, bool) {
			i, ok := first(id)
			if !ok {
				return "", false
			}
			return b.entityKind(i), true
		},
		Entities: judgedParts(b.entityChunks, func(i int, _ casegraph.Entity) bool { return reported[casegraph.RowEntity][i] }, &judgedEntities),
		Relations: judgedParts(b.relationChunks, func(i int, r casegraph.Relation) bool {
			return reported[casegraph.RowRelation][i] || onBadLine(i, r)
		}, &judgedRelations),
	}
	refused, err := store.CheckWrites(ctx, casegraph.Writes{Dataset: opts.Dataset, Sources: b.Sources}, more)
	sources, entities = nil, nil
	if err != nil {
		return err
	}
	for _, r := range refused {
		switch r.Kind {
		case casegraph.RowEntity:
			r.Index = int(judgedEntities[r.Index])
		case casegraph.RowRelation:
			r.Index = int(judgedRelations[r.Index])
		}
		if reported[r.Kind][r.Index] {
			continue
		}
		i := r.Index
		switch r.Kind {
		case casegraph.RowSource:
			report(r.Kind, b.SourceLines[i], r.Err)
		case casegraph.RowEntity:
			report(r.Kind, b.EntityLines[i], r.Err)
		case casegraph.RowRelation:
			report(r.Kind, b.RelationLines[i], relationFields(casegraph.InField(fmt.Sprintf("relation %q", b.relationID(i)), r.Err)))
		}
	}
	sortLines(bad.Lines)
	return bad.orNil()
}

// checkRows is how many entities or relations Check reads at a time, for
// the graph check (which judges them as one chunk): with the part read
// ahead of it (heldFile.chunks), 20,000 held reading 100k entities and 1M
// relations to 270 MB resident, where 50,000 took 420 MB.
const checkRows = 20000

// judgedParts yields the rows that chunks gives, checkRows at a time, but
// for those drop says Check refused itself (a part is copied only when it
// drops one of its rows), and notes the place in the batch of each row it
// yields in judged: the graph check's refusals count those.
func judgedParts[T any](chunks func(n int, fn func(start int, rows []T) error) error, drop func(i int, row T) bool, judged *[]int32) func(yield func([]T) error) error {
	return func(yield func([]T) error) error {
		return chunks(checkRows, func(start int, rows []T) error {
			kept := rows
			for k, row := range rows {
				i := start + k
				if drop(i, row) {
					if len(kept) == len(rows) { // the first dropped: the rest go in a copy
						kept = slices.Clone(rows[:k])
					}
					continue
				}
				if len(kept) < len(rows) {
					kept = append(kept, row)
				}
				*judged = append(*judged, int32(i))
			}
			return yield(kept)
		})
	}
}

// byID is the places of n rows (id(i) the id of row i) in the order of
// their ids, rows of one id in file order.
func byID(n int, id func(i int) string) []int32 {
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return strings.Compare(id(int(a)), id(int(b))) })
	return order
}

// repeated is the rows (in file order) whose id an earlier row gives,
// of rows in the order of their ids (byID).
func repeated(order []int32, id func(i int) string) []int {
	var out []int
	for k := 1; k < len(order); k++ {
		if id(int(order[k])) == id(int(order[k-1])) {
			out = append(out, int(order[k]))
		}
	}
	slices.Sort(out)
	return out
}

// inParts calls fn with rows n at a time (the last part may hold fewer),
// each with the index of its first.
func inParts[T any](rows []T, n int, fn func(start int, rows []T) error) error {
	for start := 0; start < len(rows); start += n {
		if err := fn(start, rows[start:min(start+n, len(rows))]); err != nil {
			return err
		}
	}
	return nil
}

// refusedRow counts one refused row of the phase what.
func refusedRow(what string) Counts {
	switch what {
	case "sources":
		return Counts{Sources: 1}
	case "entities":
		return Counts{Entities: 1}
	}
	return Counts{Relations: 1}
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
	if err := Check(ctx, b, store, opts); err != nil {
		return Stats{}, err
	}
	checked := time.Now()
	total := len(b.Sources) + b.EntityCount() + b.RelationCount()
	st := Stats{}
	progress := func() {
		if opts.Progress != nil {
			opts.Progress(st.Sources+st.Entities+st.Relations, total)
		}
	}
	n := opts.BatchSize
	var mu sync.Mutex      // guards st and progress
	var alone sync.RWMutex // held to write a batch while no other is written
	// write writes a phase's rows (rows of them, each part that parts
	// yields) in batches of n, opts.Writers at a time, each part with apply.
	write := func(what string, rows int, lines []int, count, changed *int, parts func(n int, fn func(start int, rows int, apply func(ctx context.Context) (int, error)) error) error) error {
		type batch struct {
			start, rows int
			apply       func(ctx context.Context) (int, error)
		}
		ctx, stop := context.WithCancel(ctx)
		defer stop()
		// The parts are read in order, by one goroutine, and taken by the
		// writers as they come (a part of a file read again is not held
		// longer than its write).
		next := make(chan batch)
		var readErr error // the reading's, once next is closed
		go func() {
			defer close(next)
			readErr = parts(n, func(start, rows int, apply func(ctx context.Context) (int, error)) error {
				if err := ctx.Err(); err != nil { // stopped: read no further
					return err
				}
				select {
				case next <- batch{start, rows, apply}:
					return nil
				case <-ctx.Done():
					return ctx.Err()
				}
			})
		}()
		err := inParallel(ctx, opts.Writers, (rows+n-1)/n, func(ctx context.Context, _ int) error {
			var b batch
			select {
			case bt, ok := <-next:
				if !ok {
					return readErr // the reading failed
				}
				b = bt
			case <-ctx.Done():
				return ctx.Err()
			}
			alone.RLock()
			c, err := b.apply(ctx)
			alone.RUnlock()
			if opts.Writers > 1 && casegraph.ErrorCode(err) == casegraph.CodeTimeout && ctx.Err() == nil {
				// Rolled back, most likely by a deadlock with another
				// batch: write it again with nothing beside it.
				alone.Lock()
				c, err = b.apply(ctx)
				alone.Unlock()
			}
			var refused casegraph.Refusal
			if errors.As(err, &refused) {
				// The gate of the batch's transaction refused a row that
				// the check let through: the graph changed meanwhile.
				bad := &LinesError{rows: refusedRow(what)}
				bad.add(lines[b.start+refused.Index], refused.Err)
				return bad
			}
			if err != nil {
				return fmt.Errorf("%s from line %d: %w", what, lines[b.start], err)
			}
			mu.Lock()
			defer mu.Unlock()
			*count += b.rows
			*changed += c
			st.Batches++
			progress()
			return nil
		})
		stop()
		for range next { // the reading ends once stopped
		}
		if err == nil && readErr != nil {
			err = readErr
		}
		return err
	}
	if err := write("sources", len(b.Sources), b.SourceLines, &st.Sources, &st.SourcesChanged, func(n int, fn func(int, int, func(context.Context) (int, error)) error) error {
		return inParts(b.Sources, n, func(start int, rows []casegraph.Source) error {
			return fn(start, len(rows), func(ctx context.Context) (int, error) {
				return store.ApplyWrites(ctx, casegraph.Writes{Dataset: opts.Dataset, Sources: rows})
			})
		})
	}); err != nil {
		return st, err
	}
	entitiesStart := time.Now()
	if err := write("entities", b.EntityCount(), b.EntityLines, &st.Entities, &st.EntitiesChanged, func(n int, fn func(int, int, func(context.Context) (int, error)) error) error {
		return b.entityChunks(n, func(start int, rows []casegraph.Entity) error {
			return fn(start, len(rows), func(ctx context.Context) (int, error) {
				return store.ApplyWrites(ctx, casegraph.Writes{Dataset: opts.Dataset, Entities: rows})
			})
		})
	}); err != nil {
		return st, err
	}
	relationsStart := time.Now()
	if err := write("relations", b.RelationCount(), b.RelationLines, &st.Relations, &st.RelationsChanged, func(n int, fn func(int, int, func(context.Context) (int, error)) error) error {
		return b.relationChunks(n, func(start int, rows []casegraph.Relation) error {
			return fn(start, len(rows), func(ctx context.Context) (int, error) {
				return store.ApplyWrites(ctx, casegraph.Writes{Dataset: opts.Dataset, Relations: rows})
			})
		})
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
