package duplicate

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"golang.org/x/sync/singleflight"

	"github.com/casegraph/casegraph"
)

// Graph is what a run reads of the graph, each in the caller's scope (the
// Neo4j store has it): the change feed's head, the dataset's entities the
// caller may see (what blocking and scoring need of them), the pairs
// dismissed in it, the neighbours each pair shares, and entities by id.
type Graph interface {
	ChangeHead(ctx context.Context) (int64, error)
	DuplicateSubjects(ctx context.Context, q Request) ([]Subject, error)
	MissingDatasets(ctx context.Context, names []string) ([]string, error)
	DismissedPairs(ctx context.Context, dataset string) (map[Pair]bool, error)
	SharedNeighbours(ctx context.Context, pairs []Pair) (map[Pair][]SharedNeighbour, error)
	EntitiesByID(ctx context.Context, ids []string) (map[string]casegraph.Entity, error)
}

// Finder suggests a dataset's duplicates over a Graph, and keeps its last
// runs, so that paging through a list costs one run, not one a page: a
// run stands as long as no change has committed since it began (the
// change feed's head has not moved), since every write to the graph
// records a change. One Finder serves every request.
type Finder struct {
	graph  Graph
	mu     sync.Mutex
	head   int64          // the change feed's head the runs began at
	runs   map[string]run // by scope, dataset, kinds and limits
	flight singleflight.Group
}

// maxRuns bounds the runs kept (each of up to Limits.MaxCandidates).
const maxRuns = 16

// NewFinder returns a Finder that reads g.
func NewFinder(g Graph) *Finder { return &Finder{graph: g} }

// run is one run of duplicate suggestions: every candidate, ranked, and
// what blocking counted.
type run struct {
	all                     []Candidate
	compared, skippedBlocks int
	truncated               bool
}

// Candidates computes a dataset's duplicate candidates and returns one
// page of them. A run reads the dataset's entities the caller may see
// (one statement), compares the names of those that share a blocking key
// (BlockNames), leaves out the dismissed pairs (one statement), reads the
// neighbours each kept pair shares (one statement), scores and ranks
// them, and cuts the page after q.After. The run is kept for the next
// page while no change has committed since it began (the change feed's
// head, one read a page), so a page always reflects the graph as it is
// (a merge or a dismissal drops its pairs at once) and paging through an
// unchanged graph costs one run. A dataset the caller may not read, or
// that holds nothing, is NOT_FOUND.
func (f *Finder) Candidates(ctx context.Context, q Request) (Page, error) {
	if !casegraph.CanReadIn(ctx, q.Dataset) {
		return Page{}, casegraph.Errorf(casegraph.CodeNotFound, "no dataset %q", q.Dataset)
	}
	r, err := f.run(ctx, q)
	if err != nil {
		return Page{}, err
	}
	all := r.all
	out := Page{Total: len(all), Compared: r.compared, SkippedBlocks: r.skippedBlocks, Truncated: r.truncated}
	start := 0
	if q.After != nil {
		for start < len(all) && !After(all[start], q.After.Score, q.After.Pair) {
			start++
		}
	}
	end := min(len(all), start+q.First)
	// A copy: the run may be another request's too, and the page's
	// entities are filled in.
	out.Candidates, out.HasNext = slices.Clone(all[start:end]), end < len(all)
	return out, f.fillEntities(ctx, out.Candidates)
}

// run returns the run for q in the caller's scope: the one kept, while
// the graph has not changed since it began, or a new one.
func (f *Finder) run(ctx context.Context, q Request) (run, error) {
	head, err := f.graph.ChangeHead(ctx)
	if err != nil {
		return run{}, err
	}
	key := fmt.Sprintf("%s %q %v %+v", casegraph.ScopeFrom(ctx).Key(), q.Dataset, q.Kinds, q.Limits)
	f.mu.Lock()
	r, ok := f.runs[key]
	ok = ok && f.head == head
	f.mu.Unlock()
	if ok {
		return r, nil
	}
	// Requests that ask for the same run at once share it: sixteen
	// analysts opening the list after a change cost one run, not sixteen
	// (of which all but the heavy pool's eight would be BUSY). The run
	// outlives a caller that leaves, within that caller's deadline; each
	// caller waits only within its own.
	runs := f.flight.DoChan(fmt.Sprintf("%d %s", head, key), func() (any, error) {
		runCtx := context.WithoutCancel(ctx)
		if deadline, ok := ctx.Deadline(); ok {
			var cancel context.CancelFunc
			runCtx, cancel = context.WithDeadline(runCtx, deadline)
			defer cancel()
		}
		r, err := f.compute(runCtx, q)
		if err != nil {
			return nil, err
		}
		f.keep(head, key, r)
		return r, nil
	})
	select {
	case res := <-runs:
		if res.Err != nil {
			return run{}, res.Err
		}
		return res.Val.(run), nil
	case <-ctx.Done():
		return run{}, casegraph.Ended(ctx, ctx.Err(), ctx.Err())
	}
}

// keep keeps a run made at head. The head only moves forward: the runs of
// an older one can never serve again, and go.
func (f *Finder) keep(head int64, key string, r run) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case head < f.head:
		return // a newer head's runs are kept already
	case head > f.head || len(f.runs) >= maxRuns || f.runs == nil:
		f.head, f.runs = head, map[string]run{}
	}
	f.runs[key] = r
}

// compute computes q's candidates: the dataset's entities the caller may
// see, blocked and scored, without the dismissed pairs, ranked.
func (f *Finder) compute(ctx context.Context, q Request) (run, error) {
	subjects, err := f.graph.DuplicateSubjects(ctx, q)
	if err != nil {
		return run{}, err
	}
	if len(subjects) == 0 {
		missing, err := f.graph.MissingDatasets(ctx, []string{q.Dataset})
		if err != nil {
			return run{}, err
		}
		if len(missing) > 0 {
			return run{}, casegraph.Errorf(casegraph.CodeNotFound, "no dataset %q", q.Dataset)
		}
		return run{}, nil
	}
	dismissed, err := f.graph.DismissedPairs(ctx, q.Dataset)
	if err != nil {
		return run{}, err
	}
	blocking, err := BlockSubjects(ctx, subjects, q.Limits, func(p Pair) bool { return dismissed[p] })
	if err != nil {
		if ctx.Err() != nil {
			return run{}, casegraph.Ended(ctx, ctx.Err(), ctx.Err())
		}
		return run{}, err
	}
	pairs := make([]Pair, len(blocking.Candidates))
	for i, c := range blocking.Candidates {
		pairs[i] = OrderedPair(subjects[c.I].ID, subjects[c.J].ID)
	}
	shared, err := f.graph.SharedNeighbours(ctx, pairs)
	if err != nil {
		return run{}, err
	}
	all := make([]Candidate, len(blocking.Candidates))
	for i, c := range blocking.Candidates {
		a, err := subjects[c.I].Entity()
		if err != nil {
			return run{}, err
		}
		b, err := subjects[c.J].Entity()
		if err != nil {
			return run{}, err
		}
		all[i] = Score(a, b, c.Reasons, shared[pairs[i]])
	}
	Rank(all)
	return run{all: all, compared: blocking.Compared, skippedBlocks: blocking.SkippedBlocks, truncated: blocking.Truncated}, nil
}

// fillEntities reads the entities of a page's candidates.
func (f *Finder) fillEntities(ctx context.Context, cs []Candidate) error {
	if len(cs) == 0 {
		return nil
	}
	ids := make([]string, 0, 2*len(cs))
	for _, c := range cs {
		ids = append(ids, c.A, c.B)
	}
	found, err := f.graph.EntitiesByID(ctx, ids)
	if err != nil {
		return err
	}
	for i := range cs {
		a, okA := found[cs[i].A]
		b, okB := found[cs[i].B]
		if !okA || !okB {
			// Deleted between the run's statements: a bug would look the same.
			return casegraph.Errorf(casegraph.CodeConflict, "the dataset changed while its duplicates were computed: ask again")
		}
		cs[i].EntityA, cs[i].EntityB = a, b
	}
	return nil
}
