package cypher

// Duplicate suggestions in the graph: what the duplicate.Finder reads (the
// subjects, the dismissed pairs, shared neighbours), and a pair dismissed
// or undismissed.

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/duplicate"
)

// Statements of this file (statements/NAME.cypher or NAME.cypher.tmpl).
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

// DuplicateCandidates returns one page of a dataset's duplicate
// candidates (duplicate.Finder.Candidates: the store's finder keeps its
// runs over the methods below).
func (s *Store) DuplicateCandidates(ctx context.Context, q duplicate.Request) (duplicate.Page, error) {
	return s.duplicates.Candidates(ctx, q)
}

// duplicateGraph is what a duplicate.Finder reads of the store, kept off
// the Store's own methods: these reads serve a run that
// DuplicateCandidates has let through (the dataset the caller may read),
// and nothing else.
type duplicateGraph struct{ *Store }

// duplicateRow is the template function of DuplicateSubjects' row of an
// entity variable: one string, its id, its kind, then
// duplicate.SubjectProperties, each after duplicate.SubjectSeparator (a
// list's values each after duplicate.SubjectListSeparator), which
// duplicate.NewSubject writes alike.
func duplicateRow(v string) string {
	sep, listSep := cypherString(duplicate.SubjectSeparator), cypherString(duplicate.SubjectListSeparator)
	parts := []string{v + ".id", "[l IN labels(" + v + ") WHERE l <> 'Entity'][0]"}
	for _, p := range duplicate.SubjectColumns() {
		if p.Type() == casegraph.PropertyList {
			parts = append(parts, "reduce(s = '', x IN coalesce("+v+"."+p.Name+", []) | s + "+listSep+" + x)")
		} else {
			parts = append(parts, "coalesce("+v+"."+p.Name+", '')")
		}
	}
	return strings.Join(parts, "\n    + "+sep+" + ")
}

// cypherString is a Cypher string literal of s, its characters below
// U+0020 and quotes escaped (\uXXXX).
func cypherString(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for _, r := range s {
		if r < 0x20 || r == '\'' || r == '\\' {
			fmt.Fprintf(&b, "\\u%04X", r)
		} else {
			b.WriteRune(r)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// DuplicateSubjects reads what blocking and scoring need of the dataset's
// entities that the caller may see. The statement returns them in batches
// of rows, each one string (a subject's row): a record of its own for
// each of a hundred thousand entities cost the driver a record, a map
// and two racing reads of the connection each, and a list of every
// property a value of its own each, most of what a run allocated; a
// subject keeps the row the driver read.
func (s duplicateGraph) DuplicateSubjects(ctx context.Context, q duplicate.Request) ([]duplicate.Subject, error) {
	res, err := s.readHeavy(ctx, stmtDuplicateSubjects, map[string]any{"dataset": q.Dataset, "kinds": listParam(q.Kinds), "batch": duplicateBatch})
	if err != nil {
		return nil, err
	}
	batches := make([][]any, len(res.Records))
	n := 0
	for i, rec := range res.Records {
		if batches[i], _, err = neo4j.GetRecordValue[[]any](rec, "batch"); err != nil {
			return nil, internalError(string(stmtDuplicateSubjects), err)
		}
		n += len(batches[i])
	}
	out, i := make([]duplicate.Subject, n), 0
	for _, batch := range batches {
		for _, raw := range batch {
			row, ok := raw.(string)
			if !ok {
				return nil, internalError(string(stmtDuplicateSubjects), fmt.Errorf("a row of %T, want a string", raw))
			}
			if out[i], err = duplicate.ParseSubject(row); err != nil {
				return nil, internalError(string(stmtDuplicateSubjects), err)
			}
			i++
		}
	}
	return out, nil
}

// duplicateBatch is how many entities a record of DuplicateSubjects holds.
const duplicateBatch = 2000

// DismissedPairs reads the pairs of the dataset dismissed as not the same.
func (s duplicateGraph) DismissedPairs(ctx context.Context, dataset string) (map[duplicate.Pair]bool, error) {
	res, err := s.read(ctx, stmtDuplicateDismissals, map[string]any{"dataset": dataset})
	if err != nil {
		return nil, err
	}
	out := make(map[duplicate.Pair]bool, len(res.Records))
	for _, rec := range res.Records {
		a, err := getString(rec, "a")
		if err != nil {
			return nil, internalError(string(stmtDuplicateDismissals), err)
		}
		b, err := getString(rec, "b")
		if err != nil {
			return nil, internalError(string(stmtDuplicateDismissals), err)
		}
		out[duplicate.OrderedPair(a, b)] = true
	}
	return out, nil
}

// SharedNeighbours reads, for every pair, the neighbours its two entities
// share (by degree), in one statement.
func (s duplicateGraph) SharedNeighbours(ctx context.Context, ps []duplicate.Pair) (map[duplicate.Pair][]duplicate.SharedNeighbour, error) {
	out := map[duplicate.Pair][]duplicate.SharedNeighbour{}
	if len(ps) == 0 {
		return out, nil
	}
	pairs := make([]map[string]any, len(ps))
	for i, p := range ps {
		pairs[i] = map[string]any{"a": p.A, "b": p.B}
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
		shared := make([]duplicate.SharedNeighbour, len(degrees))
		for i, d := range degrees {
			shared[i] = duplicate.SharedNeighbour{Degree: int64(d)}
		}
		out[duplicate.OrderedPair(a, b)] = shared
	}
	return out, nil
}

// DismissDuplicate remembers that a and b (ordered) are not the same, so
// the pair is never suggested again: in one transaction with its audit
// record, for a caller who may write their dataset (FORBIDDEN otherwise).
// Both must be entities of one dataset that the caller may see
// (NOT_FOUND, BAD_USER_INPUT). Dismissing a pair again changes nothing
// but the audit log.
func (s *Store) DismissDuplicate(ctx context.Context, p duplicate.Pair) (duplicate.Dismissal, error) {
	var out duplicate.Dismissal
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
		out = duplicate.Dismissal{Pair: p}
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
func (s *Store) UndismissDuplicate(ctx context.Context, p duplicate.Pair) (bool, error) {
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
func duplicatePairDataset(ctx context.Context, run txRunner, p *gatePlan, pair duplicate.Pair) (string, bool, error) {
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
func duplicateChange(op, dataset string, p duplicate.Pair, protected bool, old, new string) change {
	fields := []casegraph.FieldChange{{Field: "duplicate", Old: fmt.Sprintf("%q", old), New: fmt.Sprintf("%q", new)}}
	if protected {
		fields = append(fields, casegraph.FieldChange{Field: "protected", Old: "true", New: "true"})
	}
	return change{operation: op, dataset: dataset, targets: []string{p.A, p.B}, fields: fields}
}
