package cypher

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"golang.org/x/sync/singleflight"

	casegraph "github.com/casegraph/casegraph"
)

// Statements of this file (queries/NAME.cypher or NAME.cypher.tmpl).
const (
	stmtDuplicateSubjects   statement = "DuplicateSubjects"
	stmtDuplicateDismissals statement = "DuplicateDismissals"
	stmtDuplicateNeighbours statement = "DuplicateNeighbours"
	stmtDismissDuplicate    statement = "DismissDuplicate"
	stmtUndismissDuplicate  statement = "UndismissDuplicate"
)

// duplicateUngated: the statements of this file that return no graph data to a
// caller, and why (see ungated): every other goes through the gate.
func duplicateUngated() ungated {
	return ungated{
		stmtDismissDuplicate:   "a write: a dismissal, after duplicatePairDataset",
		stmtUndismissDuplicate: "a write: a dismissal forgotten, after duplicatePairDataset",
	}
}

// DuplicateCandidates computes a dataset's duplicate candidates and returns
// one page of them. A run reads the dataset's entities the caller may see
// (one statement), compares the names of those that share a blocking key
// (casegraph.BlockNames, in Go), leaves out the dismissed pairs (one
// statement), reads the neighbours each kept pair shares (one statement),
// scores and ranks them, and cuts the page after q.After. The run is kept
// for the next page while no change has committed since it began (the
// change feed's head, one read a page), so a page always reflects the
// graph as it is (a merge or a dismissal drops its pairs at once) and
// paging through an unchanged graph costs one run. A dataset the caller
// may not read, or that holds nothing, is NOT_FOUND.
func (s *Store) DuplicateCandidates(ctx context.Context, q casegraph.DuplicateQuery) (casegraph.DuplicatePage, error) {
	if !casegraph.CanReadIn(ctx, q.Dataset) {
		return casegraph.DuplicatePage{}, casegraph.Errorf(casegraph.CodeNotFound, "no dataset %q", q.Dataset)
	}
	run, err := s.duplicateRun(ctx, q)
	if err != nil {
		return casegraph.DuplicatePage{}, err
	}
	all := run.all
	out := casegraph.DuplicatePage{Total: len(all), Compared: run.compared,
		SkippedBlocks: run.skippedBlocks, Truncated: run.truncated}
	start := 0
	if q.After != nil {
		for start < len(all) && !casegraph.AfterDuplicate(all[start], q.After.Score, q.After.Pair) {
			start++
		}
	}
	end := min(len(all), start+q.First)
	// A copy: the run may be another request's too, and the page's
	// entities are filled in.
	out.Candidates, out.HasNext = slices.Clone(all[start:end]), end < len(all)
	return out, s.fillDuplicateEntities(ctx, out.Candidates)
}

// duplicateRun is one run of duplicate suggestions: every candidate,
// ranked, and what blocking counted.
type duplicateRun struct {
	all                     []casegraph.DuplicateCandidate
	compared, skippedBlocks int
	truncated               bool
}

// duplicateRuns keep the last runs, so that paging through a list costs
// one run, not one a page: a run stands as long as no change has
// committed since it began (the change feed's head has not moved), since
// every write to the graph records a change.
type duplicateRuns struct {
	sync.Mutex
	head   int64                   // the change feed's head the runs began at
	runs   map[string]duplicateRun // by scope, dataset, kinds and limits
	flight singleflight.Group      // runs under way, by head and key
}

// maxDuplicateRuns bounds the runs kept (each of up to
// DuplicateLimits.MaxCandidates).
const maxDuplicateRuns = 16

// duplicateRun returns the run for q in the caller's scope: the one kept,
// while the graph has not changed since it began, or a new one.
func (s *Store) duplicateRun(ctx context.Context, q casegraph.DuplicateQuery) (duplicateRun, error) {
	head, err := s.ChangeHead(ctx)
	if err != nil {
		return duplicateRun{}, err
	}
	key := fmt.Sprintf("%s %q %v %+v", casegraph.ScopeFrom(ctx).Key(), q.Dataset, q.Kinds, q.Limits)
	s.duplicates.Lock()
	run, ok := s.duplicates.runs[key]
	ok = ok && s.duplicates.head == head
	s.duplicates.Unlock()
	if ok {
		return run, nil
	}
	// Requests that ask for the same run at once share it: sixteen
	// analysts opening the list after a change cost one run, not sixteen
	// (of which all but the heavy pool's eight would be BUSY). The run
	// outlives a caller that leaves, within that caller's deadline; each
	// caller waits only within its own.
	runs := s.duplicates.flight.DoChan(fmt.Sprintf("%d %s", head, key), func() (any, error) {
		runCtx := context.WithoutCancel(ctx)
		if deadline, ok := ctx.Deadline(); ok {
			var cancel context.CancelFunc
			runCtx, cancel = context.WithDeadline(runCtx, deadline)
			defer cancel()
		}
		run, err := s.runDuplicates(runCtx, q)
		if err != nil {
			return nil, err
		}
		s.duplicates.keep(head, key, run)
		return run, nil
	})
	select {
	case r := <-runs:
		if r.Err != nil {
			return duplicateRun{}, r.Err
		}
		return r.Val.(duplicateRun), nil
	case <-ctx.Done():
		return duplicateRun{}, mapError(ctx, "DuplicateCandidates", ctx.Err())
	}
}

// keep keeps a run made at head. The head only moves forward: the runs of
// an older one can never serve again, and go.
func (d *duplicateRuns) keep(head int64, key string, run duplicateRun) {
	d.Lock()
	defer d.Unlock()
	switch {
	case head < d.head:
		return // a newer head's runs are kept already
	case head > d.head || len(d.runs) >= maxDuplicateRuns:
		d.head, d.runs = head, map[string]duplicateRun{}
	}
	d.runs[key] = run
}

// runDuplicates computes q's candidates: the dataset's entities the caller
// may see, blocked and scored, without the dismissed pairs, ranked.
func (s *Store) runDuplicates(ctx context.Context, q casegraph.DuplicateQuery) (duplicateRun, error) {
	subjects, err := s.duplicateSubjects(ctx, q)
	if err != nil {
		return duplicateRun{}, err
	}
	if len(subjects) == 0 {
		missing, err := s.MissingDatasets(ctx, []string{q.Dataset})
		if err != nil {
			return duplicateRun{}, err
		}
		if len(missing) > 0 {
			return duplicateRun{}, casegraph.Errorf(casegraph.CodeNotFound, "no dataset %q", q.Dataset)
		}
		return duplicateRun{}, nil
	}
	dismissed, err := s.dismissedPairs(ctx, q.Dataset)
	if err != nil {
		return duplicateRun{}, err
	}
	blocking, err := casegraph.BlockNames(ctx, subjects, q.Limits, func(p casegraph.DuplicatePair) bool { return dismissed[p] })
	if err != nil {
		return duplicateRun{}, mapError(ctx, "BlockNames", err)
	}
	shared, err := s.sharedNeighbours(ctx, subjects, blocking.Candidates)
	if err != nil {
		return duplicateRun{}, err
	}
	all := make([]casegraph.DuplicateCandidate, len(blocking.Candidates))
	for i, c := range blocking.Candidates {
		a, b := subjects[c.I], subjects[c.J]
		all[i] = casegraph.Score(a, b, c.Reasons, shared[casegraph.OrderedPair(a.ID, b.ID)])
	}
	casegraph.RankDuplicates(all)
	return duplicateRun{all: all, compared: blocking.Compared, skippedBlocks: blocking.SkippedBlocks, truncated: blocking.Truncated}, nil
}

// duplicateSubjects reads what blocking and scoring need of the dataset's
// entities that the caller may see.
func (s *Store) duplicateSubjects(ctx context.Context, q casegraph.DuplicateQuery) ([]casegraph.Entity, error) {
	res, err := s.readHeavy(ctx, stmtDuplicateSubjects, map[string]any{"dataset": q.Dataset, "kinds": listParam(q.Kinds)})
	if err != nil {
		return nil, err
	}
	out := make([]casegraph.Entity, len(res.Records))
	for i, rec := range res.Records {
		e := &out[i]
		var kind string
		if e.ID, err = getString(rec, "id"); err == nil {
			if kind, err = getString(rec, "kind"); err == nil {
				if e.Name, err = getString(rec, "name"); err == nil {
					e.Aliases, err = getStrings(rec, "aliases")
				}
			}
		}
		for key, dst := range map[string]*string{"startDate": &e.StartDate, "endDate": &e.EndDate, "publishedAt": &e.PublishedAt, "nationality": &e.Nationality} {
			if err == nil {
				*dst, err = getString(rec, key)
			}
		}
		if err != nil {
			return nil, internalError(string(stmtDuplicateSubjects), err)
		}
		e.Kind, e.Dataset = casegraph.Kind(kind), q.Dataset
	}
	return out, nil
}

// dismissedPairs reads the pairs of the dataset dismissed as not the same.
func (s *Store) dismissedPairs(ctx context.Context, dataset string) (map[casegraph.DuplicatePair]bool, error) {
	res, err := s.read(ctx, stmtDuplicateDismissals, map[string]any{"dataset": dataset})
	if err != nil {
		return nil, err
	}
	out := make(map[casegraph.DuplicatePair]bool, len(res.Records))
	for _, rec := range res.Records {
		a, err := getString(rec, "a")
		if err != nil {
			return nil, internalError(string(stmtDuplicateDismissals), err)
		}
		b, err := getString(rec, "b")
		if err != nil {
			return nil, internalError(string(stmtDuplicateDismissals), err)
		}
		out[casegraph.OrderedPair(a, b)] = true
	}
	return out, nil
}

// sharedNeighbours reads, for every candidate, the neighbours its two
// entities share (by degree), in one statement.
func (s *Store) sharedNeighbours(ctx context.Context, subjects []casegraph.Entity, cs []casegraph.NameCandidate) (map[casegraph.DuplicatePair][]casegraph.SharedNeighbour, error) {
	out := map[casegraph.DuplicatePair][]casegraph.SharedNeighbour{}
	if len(cs) == 0 {
		return out, nil
	}
	pairs := make([]map[string]any, len(cs))
	for i, c := range cs {
		pairs[i] = map[string]any{"a": subjects[c.I].ID, "b": subjects[c.J].ID}
	}
	res, err := s.readHeavy(ctx, stmtDuplicateNeighbours, map[string]any{"pairs": pairs})
	if err != nil {
		return nil, err
	}
	for _, rec := range res.Records {
		a, err := getString(rec, "a")
		var b string
		var degrees []int
		if err == nil {
			if b, err = getString(rec, "b"); err == nil {
				degrees, err = getInts(rec, "degrees")
			}
		}
		if err != nil {
			return nil, internalError(string(stmtDuplicateNeighbours), err)
		}
		if len(degrees) == 0 {
			continue
		}
		shared := make([]casegraph.SharedNeighbour, len(degrees))
		for i, d := range degrees {
			shared[i] = casegraph.SharedNeighbour{Degree: int64(d)}
		}
		out[casegraph.OrderedPair(a, b)] = shared
	}
	return out, nil
}

// fillDuplicateEntities reads the entities of a page's candidates.
func (s *Store) fillDuplicateEntities(ctx context.Context, cs []casegraph.DuplicateCandidate) error {
	if len(cs) == 0 {
		return nil
	}
	ids := make([]string, 0, 2*len(cs))
	for _, c := range cs {
		ids = append(ids, c.A, c.B)
	}
	found, err := s.EntitiesByID(ctx, ids)
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

// DismissDuplicate remembers that a and b (ordered) are not the same, so
// the pair is never suggested again: in one transaction with its audit
// record, for a caller who may write their dataset (FORBIDDEN otherwise).
// Both must be entities of one dataset that the caller may see
// (NOT_FOUND, BAD_USER_INPUT). Dismissing a pair again changes nothing
// but the audit log.
func (s *Store) DismissDuplicate(ctx context.Context, p casegraph.DuplicatePair) (casegraph.DuplicateDismissal, error) {
	var out casegraph.DuplicateDismissal
	plan := &gatePlan{entityIDs: []string{p.A, p.B}}
	if err := precheck(ctx, plan); err != nil {
		return out, err
	}
	err := s.mutate(ctx, "DismissDuplicate", &out, func(run txRunner) (change, error) {
		ds, protected, err := duplicatePairDataset(ctx, run, plan, p)
		if err != nil {
			return change{}, err
		}
		recs, err := run(stmtDismissDuplicate, map[string]any{"pair": p.Key(), "a": p.A, "b": p.B,
			"dataset": ds, "by": casegraph.Actor(ctx), "at": time.Now().UTC()})
		if err != nil {
			return change{}, err
		}
		if len(recs) != 1 {
			return change{}, internalError(string(stmtDismissDuplicate), errNoRow)
		}
		out = casegraph.DuplicateDismissal{DuplicatePair: p}
		if out.By, err = getString(recs[0], "by"); err != nil {
			return change{}, internalError(string(stmtDismissDuplicate), err)
		}
		if out.At, _, err = neo4j.GetRecordValue[time.Time](recs[0], "at"); err != nil {
			return change{}, internalError(string(stmtDismissDuplicate), err)
		}
		out.At = out.At.UTC()
		created, _, err := neo4j.GetRecordValue[bool](recs[0], "created")
		if err != nil {
			return change{}, internalError(string(stmtDismissDuplicate), err)
		}
		old := "dismissed"
		if created {
			old = "suggested"
		}
		return duplicateChange("dismissDuplicate", ds, p, protected, old, "dismissed"), nil
	})
	return out, err
}

// UndismissDuplicate forgets a dismissal, with the rights DismissDuplicate
// needs, and says whether there was one.
func (s *Store) UndismissDuplicate(ctx context.Context, p casegraph.DuplicatePair) (bool, error) {
	var removed bool
	plan := &gatePlan{entityIDs: []string{p.A, p.B}}
	if err := precheck(ctx, plan); err != nil {
		return removed, err
	}
	err := s.mutate(ctx, "UndismissDuplicate", &removed, func(run txRunner) (change, error) {
		ds, protected, err := duplicatePairDataset(ctx, run, plan, p)
		if err != nil {
			return change{}, err
		}
		recs, err := run(stmtUndismissDuplicate, map[string]any{"pair": p.Key()})
		if err != nil {
			return change{}, err
		}
		n, err := getInt(recs[0], "removed")
		if err != nil {
			return change{}, internalError(string(stmtUndismissDuplicate), err)
		}
		removed = n > 0
		old := "suggested"
		if removed {
			old = "dismissed"
		}
		return duplicateChange("undismissDuplicate", ds, p, protected, old, "suggested"), nil
	})
	return removed, err
}

// duplicatePairDataset judges a (un)dismissal in its transaction, through
// the write gate: both entities must exist for the caller (NOT_FOUND), in
// one dataset (BAD_USER_INPUT), which it may write (FORBIDDEN). It returns
// that dataset and whether either is protected.
func duplicatePairDataset(ctx context.Context, run txRunner, p *gatePlan, pair casegraph.DuplicatePair) (string, bool, error) {
	g, err := passGate(ctx, run, p)
	if err != nil {
		return "", false, err
	}
	a, err := g.entity(pair.A)
	if err != nil {
		return "", false, err
	}
	b, err := g.entity(pair.B)
	if err != nil {
		return "", false, err
	}
	if a.Dataset != b.Dataset {
		return "", false, casegraph.Errorf(casegraph.CodeBadUserInput,
			"%q and %q are in different datasets (%q, %q): duplicates are suggested within a dataset", pair.A, pair.B, a.Dataset, b.Dataset)
	}
	return a.Dataset, a.Protected || b.Protected, nil
}

// duplicateChange is the audit record of a (un)dismissal. One that
// involves a protected person carries the "protected" field, which keeps
// the record from callers without clearance, as the person's own are.
func duplicateChange(op, dataset string, p casegraph.DuplicatePair, protected bool, old, new string) change {
	fields := []casegraph.FieldChange{{Field: "duplicate", Old: fmt.Sprintf("%q", old), New: fmt.Sprintf("%q", new)}}
	if protected {
		fields = append(fields, casegraph.FieldChange{Field: "protected", Old: "true", New: "true"})
	}
	return change{operation: op, dataset: dataset, targets: []string{p.A, p.B}, fields: fields}
}
