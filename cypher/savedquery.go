package cypher

// Saved queries: a new version saved when its content changes, reads by
// name, version and node id, pages, history and counts, deletion by its
// owner or an admin, and whether a document is saved (trusted documents).

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
)

// Statements of this file (statements/NAME.cypher or NAME.cypher.tmpl).
const (
	stmtSaveQuery           statement = "SaveQuery"
	stmtSavedQueryVersion   statement = "SavedQueryVersion"
	stmtSavedQueries        statement = "SavedQueries"
	stmtCountSavedQueries   statement = "CountSavedQueries"
	stmtSavedQueryVersions  statement = "SavedQueryVersions"
	stmtDeleteSavedQuery    statement = "DeleteSavedQuery"
	stmtSavedQueryHashKnown statement = "SavedQueryHashKnown"
	stmtSavedQueryOwner     statement = "SavedQueryOwner"
	stmtSavedQueryHistory   statement = "SavedQueryHistory"
)

// savedQueryUngated: the statements of this file that return no graph data to a
// caller, and why (see ungated): every other goes through the gate.
func savedQueryUngated() ungated {
	return ungated{
		stmtSaveQuery:        "a write of a saved query (its owner or an admin), no graph data",
		stmtDeleteSavedQuery: "a write of a saved query (its owner or an admin), no graph data",
	}
}

// SaveQuery stores a saved query as its next version (version 1 for a new
// name), unless its latest version has the same content, and returns the
// version that is now the latest. The query must be validated.
func (s *Store) SaveQuery(ctx context.Context, q casegraph.SavedQuery) (casegraph.SavedQuery, error) {
	if err := casegraph.RequireEditor(ctx); err != nil {
		return casegraph.SavedQuery{}, err
	}
	defaults := string(q.DefaultVariables)
	if defaults == "" {
		defaults = "{}"
	}
	tags := q.Tags
	if tags == nil {
		tags = []string{}
	}
	visibility := q.Visibility
	if visibility == "" {
		visibility = casegraph.DefaultVisibility(ctx)
	}
	datasets := q.Datasets
	if datasets == nil {
		datasets = []string{}
	}
	if err := checkShownTo(ctx, datasets); err != nil {
		return casegraph.SavedQuery{}, err
	}
	document := casegraph.NormalizeDocument(q.Document)
	if canonical, err := canonicalJSON(defaults); err == nil {
		defaults = canonical
	}
	params := map[string]any{
		"name": q.Name, "title": q.Title, "description": nullable(q.Description), "document": document,
		"defaultVariables": defaults, "tags": tags, "hash": casegraph.DocumentHash(document),
		// A version is its document and defaults: a new title, description
		// or tags update the latest version in place.
		"contentHash": contentHash(document, defaults),
		"author":      casegraph.Actor(ctx), "note": nullable(q.Note), "visibility": string(visibility), "datasets": datasets,
	}
	var out casegraph.SavedQuery
	err := s.mutate(ctx, "SaveQuery", &out, func(run txRunner) (change, error) {
		if err := checkOwner(ctx, run, keptQueries, q.Name, false); err != nil {
			return change{}, err
		}
		recs, err := run(stmtSaveQuery, params)
		if err != nil {
			return change{}, err
		}
		if len(recs) != 1 {
			return change{}, internalError("SaveQuery", errNoRow)
		}
		if out, err = savedQueryFrom(stmtSaveQuery, recs[0]); err != nil {
			return change{}, err
		}
		unchanged, _, err := neo4j.GetRecordValue[bool](recs[0], "unchanged")
		if err != nil {
			return change{}, internalError("SaveQuery", err)
		}
		return change{operation: "saveQuery", targets: []string{out.Name}, unchanged: unchanged,
			fields: []casegraph.FieldChange{{Field: "version", Old: "null", New: fmt.Sprint(out.Version)}}}, nil
	})
	return out, err
}

// SavedQuery returns a version of a saved query (the latest when version is
// 0), or NOT_FOUND.
func (s *Store) SavedQuery(ctx context.Context, name string, version int64) (casegraph.SavedQuery, error) {
	var v any
	if version > 0 {
		v = version
	}
	res, err := s.read(ctx, stmtSavedQueryVersion, map[string]any{"name": name, "version": v})
	if err != nil {
		return casegraph.SavedQuery{}, err
	}
	if len(res.Records) == 0 {
		if version > 0 {
			return casegraph.SavedQuery{}, casegraph.Errorf(casegraph.CodeNotFound, "no saved query %q at version %d", name, version)
		}
		return casegraph.SavedQuery{}, casegraph.Errorf(casegraph.CodeNotFound, "no saved query %q", name)
	}
	return savedQueryFrom(stmtSavedQueryVersion, res.Records[0])
}

// SavedQueryVersions returns the versions of saved queries that refs
// name (their ID the name) and the caller may see, by their node ids.
func (s *Store) SavedQueryVersions(ctx context.Context, refs []casegraph.NodeRef) (map[string]casegraph.SavedQuery, error) {
	keys := make([]map[string]any, len(refs))
	for i, r := range refs {
		keys[i] = map[string]any{"name": r.ID, "version": r.Version}
	}
	res, err := s.read(ctx, stmtSavedQueryVersions, map[string]any{"keys": keys})
	if err != nil {
		return nil, err
	}
	out := make(map[string]casegraph.SavedQuery, len(res.Records))
	for _, rec := range res.Records {
		q, err := savedQueryFrom(stmtSavedQueryVersions, rec)
		if err != nil {
			return nil, err
		}
		out[casegraph.SavedQueryNodeID(q.Name, q.Version)] = q
	}
	return out, nil
}

// SavedQueryHistory returns the versions of a saved query, newest first,
// at most limit, or NOT_FOUND when the caller may see no such query.
func (s *Store) SavedQueryHistory(ctx context.Context, name string, limit int) ([]casegraph.SavedQuery, error) {
	res, err := s.read(ctx, stmtSavedQueryHistory, map[string]any{"name": name, "limit": int64(limit)})
	if err != nil {
		return nil, err
	}
	if len(res.Records) == 0 {
		return nil, casegraph.Errorf(casegraph.CodeNotFound, "no saved query %q", name)
	}
	out := make([]casegraph.SavedQuery, 0, len(res.Records))
	for _, rec := range res.Records {
		q, err := savedQueryFrom(stmtSavedQueryHistory, rec)
		if err != nil {
			return nil, err
		}
		out = append(out, q)
	}
	return out, nil
}

// canonicalJSON writes a JSON value again with its object keys sorted, so
// that the same variables in another order or spacing are the same.
func canonicalJSON(s string) (string, error) {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return "", err
	}
	b, err := json.Marshal(v)
	return string(b), err
}

// SavedQueries returns one page of saved queries (latest versions) in name
// order, those with the tag when it is set, and whether there are more.
func (s *Store) SavedQueries(ctx context.Context, tag string, page casegraph.Page) ([]casegraph.SavedQuery, bool, error) {
	res, err := s.read(ctx, stmtSavedQueries.paged(page), map[string]any{"tag": nullable(tag), "after": page.After, "limit": pageLimit(page)})
	if err != nil {
		return nil, false, err
	}
	out := make([]casegraph.SavedQuery, 0, len(res.Records))
	for _, rec := range res.Records {
		q, err := savedQueryFrom(stmtSavedQueries, rec)
		if err != nil {
			return nil, false, err
		}
		out = append(out, q)
	}
	out, hasNext := trimPage(out, page)
	return out, hasNext, nil
}

// CountSavedQueries counts the saved queries SavedQueries pages through
// with the tag (any when empty).
func (s *Store) CountSavedQueries(ctx context.Context, tag string) (int64, error) {
	return s.count(ctx, stmtCountSavedQueries, map[string]any{"tag": nullable(tag)})
}

// DeleteSavedQuery removes a saved query and all its versions, and returns
// how many versions it had.
func (s *Store) DeleteSavedQuery(ctx context.Context, name string) (int64, error) {
	if err := casegraph.RequireEditor(ctx); err != nil {
		return 0, err
	}
	var n int64
	err := s.mutate(ctx, "DeleteSavedQuery", &n, func(run txRunner) (change, error) {
		if err := checkOwner(ctx, run, keptQueries, name, true); err != nil {
			return change{}, err
		}
		recs, err := run(stmtDeleteSavedQuery, map[string]any{"name": name})
		if err != nil {
			return change{}, err
		}
		if len(recs) == 0 {
			return change{}, casegraph.Errorf(casegraph.CodeNotFound, "no saved query %q", name)
		}
		if n, err = getInt(recs[0], "versions"); err != nil {
			return change{}, internalError("DeleteSavedQuery", err)
		}
		return change{operation: "deleteSavedQuery", targets: []string{name},
			fields: []casegraph.FieldChange{{Field: "versions", Old: fmt.Sprint(n), New: "null"}}}, nil
	})
	return n, err
}

// SavedDocument reports whether a document with this SHA-256 is saved.
func (s *Store) SavedDocument(ctx context.Context, hash string) (bool, error) {
	res, err := s.read(ctx, stmtSavedQueryHashKnown, map[string]any{"hash": hash})
	if err != nil {
		return false, err
	}
	v, _ := res.Records[0].Get("known")
	known, ok := v.(bool)
	if !ok {
		return false, internalError("SavedQueryHashKnown", fmt.Errorf("known: %T", v))
	}
	return known, nil
}

func savedQueryFromMap(m map[string]any) (casegraph.SavedQuery, error) {
	var q casegraph.SavedQuery
	var defaults string
	var err error
	for key, dst := range map[string]*string{
		"name": &q.Name, "title": &q.Title, "description": &q.Description, "document": &q.Document, "defaultVariables": &defaults,
	} {
		if *dst, err = mapString(m, key); err != nil {
			return q, err
		}
	}
	if defaults != "" && json.Valid([]byte(defaults)) {
		q.DefaultVariables = json.RawMessage(defaults)
	}
	if q.Tags, err = mapStrings(m, "tags"); err != nil {
		return q, err
	}
	v, ok := m["version"].(int64)
	if !ok {
		return q, fmt.Errorf("version: %T", m["version"])
	}
	q.Version = v
	if t, ok := m["createdAt"].(time.Time); ok {
		q.CreatedAt = t.UTC()
	}
	var visibility string
	if q.Owner, err = mapString(m, "owner"); err == nil {
		if visibility, err = mapString(m, "visibility"); err == nil {
			q.Datasets, err = mapStrings(m, "datasets")
		}
	}
	q.Visibility = casegraph.Visibility(visibility)
	if err == nil {
		if q.Author, err = mapString(m, "author"); err == nil {
			q.Note, err = mapString(m, "note")
		}
	}
	return q, err
}

// checkShownTo refuses the datasets a saved query or a kept view is to be
// shown to unless the caller reads each: a writer elsewhere may not plant
// queries or views in their readers' lists, nor learn from the answer
// whether a dataset exists.
func checkShownTo(ctx context.Context, datasets []string) error {
	for i, ds := range datasets {
		if !casegraph.CanReadIn(ctx, ds) {
			return casegraph.InField(fmt.Sprintf("datasets[%d]", i), casegraph.Errorf(casegraph.CodeNotFound, "no dataset %q", ds))
		}
	}
	return nil
}

// kept is what checkOwner checks: saved queries or kept views, whose
// owner statement reads who owns one and who may see it.
type kept struct {
	noun  string // in errors: "saved query", "view"
	owner statement
}

var (
	keptQueries = kept{"saved query", stmtSavedQueryOwner}
	keptViews   = kept{"view", stmtSavedViewOwner}
)

// checkOwner lets only a saved query's or a kept view's owner or an admin
// save a new version of it or delete it (the operator, an admin, passes):
// the rule is Principal.MayChangeKept, which SavedView.mayChange asks too.
// One the caller may not see is not there: a new save finds its name
// taken, a delete finds nothing.
func checkOwner(ctx context.Context, run txRunner, k kept, name string, deleting bool) error {
	p, err := casegraph.Caller(ctx)
	if err != nil {
		return err
	}
	recs, err := run(k.owner, map[string]any{"name": name})
	if err != nil {
		return err
	}
	found, _, err := neo4j.GetRecordValue[bool](recs[0], "found")
	if err != nil {
		return internalError(string(k.owner), err)
	}
	if !found {
		if deleting {
			return casegraph.Errorf(casegraph.CodeNotFound, "no %s %q", k.noun, name)
		}
		return nil
	}
	var owner, visibility string
	var datasets []string
	if owner, err = getString(recs[0], "owner"); err == nil {
		if visibility, err = getString(recs[0], "visibility"); err == nil {
			datasets, err = getStrings(recs[0], "datasets")
		}
	}
	if err != nil {
		return internalError(string(k.owner), err)
	}
	if p.MayChangeKept(owner) {
		return nil
	}
	visible := visibility == string(casegraph.VisibilityPublic)
	for _, ds := range datasets {
		visible = visible || (visibility == string(casegraph.VisibilityDatasets) && p.CanRead(ds))
	}
	switch {
	case visible:
		return casegraph.Errorf(casegraph.CodeForbidden, "%s %q is %s's: only its owner or an admin may change or delete it", k.noun, name, owner)
	case deleting:
		return casegraph.Errorf(casegraph.CodeNotFound, "no %s %q", k.noun, name)
	default:
		return casegraph.Errorf(casegraph.CodeConflict, "the name %q is taken; choose another", name)
	}
}

// savedQueryFrom reads the "query" column of a statement's record.
func savedQueryFrom(name statement, rec *neo4j.Record) (casegraph.SavedQuery, error) {
	m, err := getMap(rec, "query")
	if err != nil {
		return casegraph.SavedQuery{}, internalError(string(name), err)
	}
	q, err := savedQueryFromMap(m)
	if err != nil {
		return q, internalError(string(name), err)
	}
	return q, nil
}
