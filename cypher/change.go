package cypher

// The audit log (a change's record, written in its mutation's transaction,
// and the reads of the log), the change feed that subscriptions poll, and
// the hooks called after each commit.

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
)

// Statements of this file (statements/NAME.cypher or NAME.cypher.tmpl).
const (
	stmtRecordChange statement = "RecordChange"
	stmtChanges      statement = "Changes"
	stmtCountChanges statement = "CountChanges"
)

// changeUngated: the statements of this file that return no graph data to a
// caller, and why (see ungated): every other goes through the gate.
func changeUngated() ungated {
	return ungated{
		stmtRecordChange: "a write: the audit record of a change, in the change's transaction",
	}
}

// change is what a mutation changed, for its audit record: the
// operation, the dataset (none for saved queries and keys), the ids it
// changed and the fields it set, and the other datasets it touched that
// the record cannot find from its targets when it is written (those of
// entities merged away). A mutation returns it; mutate records it in the
// mutation's transaction. An unchanged one (a write that found everything
// as it would have left it) records nothing, unless an idempotency key
// needs its record to replay the outcome.
type change struct {
	operation, dataset string
	targets            []string
	fields             []casegraph.FieldChange
	datasets           []string
	unchanged          bool
}

// idempotentChange is what the change of a mutation sent with an
// idempotency key also has: the id it claimed the key (scoped by caller)
// with, the hash of the field and its arguments, and the outcome as JSON;
// and the request's key (scoped by caller) with the hash of the operation
// it is bound to.
type idempotentChange struct {
	id, key, hash, outcome string
	request, operation     string
}

// recordChange writes the audit record of a change inside the change's
// transaction: who (the request's principal, or the operator), what
// operation, on which ids, in which dataset, and the fields it changed;
// with k, into the record that claimed its idempotency key, the hash of
// its arguments and its outcome.
func recordChange(ctx context.Context, run txRunner, c change, k *idempotentChange) error {
	if c.unchanged && k == nil {
		return nil
	}
	fields := c.fields
	if fields == nil {
		fields = []casegraph.FieldChange{}
	}
	type field struct {
		Field string `json:"field"`
		Old   string `json:"old"`
		New   string `json:"new"`
	}
	list := make([]field, len(fields))
	protected := false // a protected entity's, even one now gone
	// The datasets the record names: its own, those it was told of, and
	// a dataset an entity left (its old value); RecordChange adds those
	// of the entities among its targets. A caller reads the record only
	// when it may read every one of them (the gate's "changeReadable").
	datasets := slices.Clone(c.datasets)
	if c.dataset != "" {
		datasets = append(datasets, c.dataset)
	}
	for i, f := range fields {
		list[i] = field(f)
		protected = protected || f.Field == "protected"
		if f.Field == "dataset" {
			for _, v := range []string{f.Old, f.New} {
				var ds string
				if json.Unmarshal([]byte(v), &ds) == nil && ds != "" {
					datasets = append(datasets, ds)
				}
			}
		}
	}
	slices.Sort(datasets)
	datasets = slices.Compact(datasets)
	b, err := json.Marshal(list)
	if err != nil {
		return internalError(string(stmtRecordChange), err)
	}
	now := time.Now().UTC()
	params := map[string]any{
		"id": casegraph.NewChangeID(now), "at": now, "principal": casegraph.Actor(ctx), "operation": c.operation,
		"targets": c.targets, "dataset": c.dataset, "datasets": datasets, "fields": string(b), "protected": protected,
		"argumentsHash": nil, "outcome": nil,
	}
	if k != nil {
		params["id"], params["argumentsHash"], params["outcome"] = k.id, k.hash, k.outcome
	}
	_, err = run(stmtRecordChange, params)
	return err
}

// Changes returns one page of the audit log, newest first, and whether
// there are more: for admins all of it, for editors the changes of the
// datasets they may read; readers may not read it (FORBIDDEN).
func (s *Store) Changes(ctx context.Context, f casegraph.ChangeFilter, page casegraph.Page) ([]casegraph.Change, bool, error) {
	params, err := changeParams(ctx, f)
	if err != nil {
		return nil, false, err
	}
	params["after"], params["limit"] = nullable(page.After), pageLimit(page)
	res, err := s.read(ctx, stmtChanges.paged(page), params)
	if err != nil {
		return nil, false, err
	}
	out := make([]casegraph.Change, 0, len(res.Records))
	for _, rec := range res.Records {
		c, err := changeFrom(rec)
		if err != nil {
			return nil, false, internalError(string(stmtChanges), err)
		}
		out = append(out, c)
	}
	out, hasNext := trimPage(out, page)
	return out, hasNext, nil
}

// CountChanges counts the changes Changes pages through with the filter.
func (s *Store) CountChanges(ctx context.Context, f casegraph.ChangeFilter) (int64, error) {
	params, err := changeParams(ctx, f)
	if err != nil {
		return 0, err
	}
	return s.count(ctx, stmtCountChanges, params)
}

// changeParams are the parameters of the audit log's filter, for an
// editor or an admin only.
func changeParams(ctx context.Context, f casegraph.ChangeFilter) (map[string]any, error) {
	if err := casegraph.RequireEditor(ctx); err != nil {
		return nil, casegraph.Errorf(casegraph.CodeForbidden, "only editors and admins may read the audit log")
	}
	var since any
	if !f.Since.IsZero() {
		since = f.Since
	}
	return map[string]any{"entityId": nullable(f.EntityID), "dataset": nullable(f.Dataset),
		"byPrincipal": nullable(f.Principal), "since": since}, nil
}

func changeFrom(rec *neo4j.Record) (casegraph.Change, error) {
	m, err := getMap(rec, "change")
	if err != nil {
		return casegraph.Change{}, err
	}
	var c casegraph.Change
	for key, dst := range map[string]*string{"id": &c.ID, "principal": &c.Principal, "operation": &c.Operation, "dataset": &c.Dataset} {
		if *dst, err = mapString(m, key); err != nil {
			return c, err
		}
	}
	if c.Targets, err = mapStrings(m, "targets"); err != nil {
		return c, err
	}
	if seq, ok := m["seq"].(int64); ok {
		c.Seq = seq
	}
	if t, ok := m["at"].(time.Time); ok {
		c.At = t
	}
	fields, err := mapString(m, "fields")
	if err != nil {
		return c, err
	}
	var list []struct{ Field, Old, New string }
	if err := json.Unmarshal([]byte(fields), &list); err != nil {
		return c, fmt.Errorf("change %s: fields: %w", c.ID, err)
	}
	for _, f := range list {
		c.Fields = append(c.Fields, casegraph.FieldChange{Field: f.Field, Old: f.Old, New: f.New})
	}
	return c, nil
}

// The change feed: the audit records in the order they committed, for
// watchers (package watch). Each change takes the next number of one
// counter in its own transaction (RecordChange), so a watcher that has
// read every change up to a number misses none below it, whichever
// replica or command wrote it.

// Statements of this file (statements/NAME.cypher).
const (
	stmtChangeFeed statement = "ChangeFeed"
	stmtChangeHead statement = "ChangeHead"
)

// MaxFeedPage bounds the changes one ChangeFeed call returns.
const MaxFeedPage = 1000

// ChangeFeed returns up to limit changes numbered after after, in the
// order they committed, within the caller's scope (its readable datasets,
// and protected entities only with clearance) and datasets (nil: all).
// Who may follow the feed is the watcher's decision: the statement
// applies the scope, not the role.
func (s *Store) ChangeFeed(ctx context.Context, after int64, datasets []string, limit int) ([]casegraph.Change, error) {
	limit = min(max(limit, 1), MaxFeedPage)
	var ds any
	if datasets != nil {
		ds = datasets
	}
	res, err := s.read(ctx, stmtChangeFeed, map[string]any{"after": after, "datasets": ds, "limit": limit})
	if err != nil {
		return nil, err
	}
	out := make([]casegraph.Change, 0, len(res.Records))
	for _, rec := range res.Records {
		c, err := changeFrom(rec)
		if err != nil {
			return nil, internalError(string(stmtChangeFeed), err)
		}
		out = append(out, c)
	}
	return out, nil
}

// ChangeHead returns the number of the last committed change (0 before
// the first): a watcher starts after it.
func (s *Store) ChangeHead(ctx context.Context) (int64, error) {
	res, err := s.read(ctx, stmtChangeHead, nil)
	if err != nil {
		return 0, err
	}
	if len(res.Records) != 1 {
		return 0, internalError(string(stmtChangeHead), errNoRow)
	}
	n, err := getInt(res.Records[0], "seq")
	if err != nil {
		return 0, internalError(string(stmtChangeHead), err)
	}
	return n, nil
}

// OnCommit adds a function called after every write transaction of this
// Store commits, and returns a function that removes it: the watchers of
// this process hear of a change at once, rather than at their next poll.
// fn must not block.
func (s *Store) OnCommit(fn func()) (remove func()) {
	s.hooks.Lock()
	defer s.hooks.Unlock()
	id := s.hooks.next
	s.hooks.next++
	if s.hooks.fns == nil {
		s.hooks.fns = map[int]func(){}
	}
	s.hooks.fns[id] = fn
	return func() {
		s.hooks.Lock()
		defer s.hooks.Unlock()
		delete(s.hooks.fns, id)
	}
}

// commitHooks are the functions OnCommit added.
type commitHooks struct {
	sync.Mutex
	next int
	fns  map[int]func()
}

// committed calls the OnCommit functions.
func (s *Store) committed() {
	s.hooks.Lock()
	defer s.hooks.Unlock()
	for _, fn := range s.hooks.fns {
		fn()
	}
}
