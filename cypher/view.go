package cypher

// Kept views: saved as their next version when their content changes,
// annotated, read by name, version and node id, paged, counted and
// deleted by their owner or an admin, as saved queries are
// (savedquery.go, whose owner check and dataset check they share). What
// a view names is resolved through the read gate with the saver's rights
// when it is saved (viewtargets.go), kept by real id, and shown to each
// reader through the gate again (viewshow.go): the store never returns a
// view as it is kept.

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
)

// Statements of this file (statements/NAME.cypher or NAME.cypher.tmpl).
const (
	stmtSaveView          statement = "SaveView"
	stmtSavedViewLatest   statement = "SavedViewLatest"
	stmtSavedViewOwner    statement = "SavedViewOwner"
	stmtSavedViewVersion  statement = "SavedViewVersion"
	stmtSavedViewHistory  statement = "SavedViewHistory"
	stmtSavedViews        statement = "SavedViews"
	stmtCountSavedViews   statement = "CountSavedViews"
	stmtSavedViewVersions statement = "SavedViewVersions"
	stmtDeleteSavedView   statement = "DeleteSavedView"
)

// viewUngated: the statements of this file that return no graph data to a
// caller, and why (see ungated): every other goes through the gate.
func viewUngated() ungated {
	return ungated{
		stmtSaveView:        "a write of a kept view (its owner or an admin), of ids resolved through the gate before it",
		stmtDeleteSavedView: "a write of a kept view (its owner or an admin), no graph data",
	}
}

// keptView is a version of a view as the store keeps it: its state and
// notes in real ids, and what it names (refs) by real id.
type keptView struct {
	view casegraph.SavedView
	refs viewRefs
}

// viewRefs are the entities and relations a kept version names, by real
// id (casegraph.ViewRef), as kept in its refs property.
type viewRefs struct {
	Entities  []casegraph.ViewRef `json:"e"`
	Relations []casegraph.ViewRef `json:"r"`
}

// keptNote is a note as kept in a version's notes property.
type keptNote struct {
	Kind   casegraph.NodeType `json:"kind"`
	ID     string             `json:"id"`
	Text   string             `json:"text"`
	Author string             `json:"author"`
	At     time.Time          `json:"at"`
}

// SaveView stores a view as its next version (version 1 for a new name),
// unless its latest version has the same state and notes, and returns the
// version that is now the latest, as the saver may read it. Every id the
// state and the notes name is looked up with the saver's rights first
// (NOT_FOUND at its field when the saver reads no such thing); notes nil
// keeps the latest version's notes. The view must be validated.
func (s *Store) SaveView(ctx context.Context, v casegraph.SavedView) (casegraph.SavedView, error) {
	if err := casegraph.RequireEditor(ctx); err != nil {
		return casegraph.SavedView{}, err
	}
	if v.Visibility == "" {
		v.Visibility = casegraph.DefaultVisibility(ctx)
	}
	if v.Datasets == nil {
		v.Datasets = []string{}
	}
	if err := checkShownTo(ctx, v.Datasets); err != nil {
		return casegraph.SavedView{}, err
	}
	t, err := s.viewTargets(ctx, v.State, v.Notes, func(i int) string { return fmt.Sprintf("notes[%d]", i) })
	if err != nil {
		return casegraph.SavedView{}, err
	}
	state, notes, refs := t.keep(v.State, v.Notes)
	var version int64
	err = s.mutate(ctx, "SaveView", &version, func(run txRunner) (change, error) {
		if err := checkOwner(ctx, run, keptViews, v.Name, false); err != nil {
			return change{}, err
		}
		latest, found, err := latestView(run, v.Name)
		if err != nil {
			return change{}, err
		}
		var kept []casegraph.ViewNote
		switch {
		case v.Notes == nil && found:
			kept, refs = latest.view.Notes, refs.with(latest.refs)
		case v.Notes == nil:
			kept = []casegraph.ViewNote{}
		default:
			kept = casegraph.KeepNotes(latest.view.Notes, notes, casegraph.Actor(ctx), time.Now().UTC())
		}
		v.State, v.Notes = state, kept
		return writeView(ctx, run, "saveView", v, refs, &version)
	})
	if err != nil {
		return casegraph.SavedView{}, err
	}
	return s.SavedView(ctx, v.Name, version)
}

// AnnotateView adds a note to the latest version of a view, as its next
// version (the same note twice adds nothing), and returns the view as the
// annotator may read it: only its owner or an admin may, on an entity or
// a relation it reads.
func (s *Store) AnnotateView(ctx context.Context, name string, note casegraph.ViewNote) (casegraph.SavedView, error) {
	if err := casegraph.RequireEditor(ctx); err != nil {
		return casegraph.SavedView{}, err
	}
	t, err := s.viewTargets(ctx, casegraph.ViewState{}, []casegraph.ViewNote{note}, func(int) string { return "note" })
	if err != nil {
		return casegraph.SavedView{}, err
	}
	_, notes, refs := t.keep(casegraph.ViewState{}, []casegraph.ViewNote{note})
	var version int64
	err = s.mutate(ctx, "AnnotateView", &version, func(run txRunner) (change, error) {
		if err := checkOwner(ctx, run, keptViews, name, true); err != nil {
			return change{}, err
		}
		latest, found, err := latestView(run, name)
		if err != nil {
			return change{}, err
		}
		if !found {
			return change{}, casegraph.Errorf(casegraph.CodeNotFound, "no view %q", name)
		}
		v := latest.view
		v.Name, v.Note = name, ""
		if !containsNote(v.Notes, notes[0]) { // the same note again adds nothing
			v.Notes = slices.Concat(v.Notes, casegraph.KeepNotes(nil, notes, casegraph.Actor(ctx), time.Now().UTC()))
		}
		return writeView(ctx, run, "annotateView", v, latest.refs.with(refs), &version)
	})
	if err != nil {
		return casegraph.SavedView{}, err
	}
	return s.SavedView(ctx, name, version)
}

// containsNote reports whether notes hold a note on n's target with n's text.
func containsNote(notes []casegraph.ViewNote, n casegraph.ViewNote) bool {
	for _, m := range notes {
		if m.Target == n.Target && m.Text == n.Text {
			return true
		}
	}
	return false
}

// writeView runs SaveView with a view as kept (real ids) and returns its
// change for the audit log; version is set to the latest version.
func writeView(ctx context.Context, run txRunner, operation string, v casegraph.SavedView, refs viewRefs, version *int64) (change, error) {
	state, err := json.Marshal(v.State)
	if err != nil {
		return change{}, internalError("SaveView", err)
	}
	notes := make([]keptNote, len(v.Notes))
	for i, n := range v.Notes {
		notes[i] = keptNote{Kind: n.Target.Kind, ID: n.Target.ID, Text: n.Text, Author: n.Author, At: n.CreatedAt}
	}
	notesJSON, err := json.Marshal(notes)
	if err != nil {
		return change{}, internalError("SaveView", err)
	}
	refsJSON, err := json.Marshal(refs.only(v.State, v.Notes))
	if err != nil {
		return change{}, internalError("SaveView", err)
	}
	recs, err := run(stmtSaveView, map[string]any{
		"name": v.Name, "title": v.Title, "description": nullable(v.Description), "note": nullable(v.Note),
		"state": string(state), "notes": string(notesJSON), "refs": string(refsJSON),
		"contentHash": casegraph.ViewHash(v.State, v.Notes),
		"author":      casegraph.Actor(ctx), "visibility": string(v.Visibility), "datasets": v.Datasets,
	})
	if err != nil {
		return change{}, err
	}
	if len(recs) != 1 {
		return change{}, internalError("SaveView", errNoRow)
	}
	if *version, err = getInt(recs[0], "version"); err != nil {
		return change{}, internalError("SaveView", err)
	}
	unchanged, _, err := neo4j.GetRecordValue[bool](recs[0], "unchanged")
	if err != nil {
		return change{}, internalError("SaveView", err)
	}
	return change{operation: operation, targets: []string{v.Name}, unchanged: unchanged,
		fields: []casegraph.FieldChange{{Field: "version", Old: "null", New: fmt.Sprint(*version)}}}, nil
}

// latestView reads the latest version of a view as kept, inside a write.
func latestView(run txRunner, name string) (keptView, bool, error) {
	recs, err := run(stmtSavedViewLatest, map[string]any{"name": name})
	if err != nil || len(recs) == 0 {
		return keptView{}, false, err
	}
	m, err := getMap(recs[0], "latest")
	if err == nil {
		m["name"] = name
		var k keptView
		if k, err = keptViewFromMap(m); err == nil {
			return k, true, nil
		}
	}
	return keptView{}, false, internalError(string(stmtSavedViewLatest), err)
}

// SavedView returns a version of a view (the latest when version is 0) as
// the caller may read it, or NOT_FOUND.
func (s *Store) SavedView(ctx context.Context, name string, version int64) (casegraph.SavedView, error) {
	var v any
	if version > 0 {
		v = version
	}
	views, err := s.readViews(ctx, stmtSavedViewVersion, map[string]any{"name": name, "version": v})
	if err != nil {
		return casegraph.SavedView{}, err
	}
	if len(views) == 0 {
		if version > 0 {
			return casegraph.SavedView{}, casegraph.Errorf(casegraph.CodeNotFound, "no view %q at version %d", name, version)
		}
		return casegraph.SavedView{}, casegraph.Errorf(casegraph.CodeNotFound, "no view %q", name)
	}
	return views[0], nil
}

// SavedViewHistory returns the versions of a view, newest first, at most
// limit, or NOT_FOUND when the caller may see no such view.
func (s *Store) SavedViewHistory(ctx context.Context, name string, limit int) ([]casegraph.SavedView, error) {
	views, err := s.readViews(ctx, stmtSavedViewHistory, map[string]any{"name": name, "limit": int64(limit)})
	if err == nil && len(views) == 0 {
		err = casegraph.Errorf(casegraph.CodeNotFound, "no view %q", name)
	}
	return views, err
}

// SavedViews returns one page of views (latest versions) in name order,
// and whether there are more.
func (s *Store) SavedViews(ctx context.Context, page casegraph.Page) ([]casegraph.SavedView, bool, error) {
	views, err := s.readViews(ctx, stmtSavedViews.paged(page), map[string]any{"after": page.After, "limit": pageLimit(page)})
	if err != nil {
		return nil, false, err
	}
	views, hasNext := trimPage(views, page)
	return views, hasNext, nil
}

// CountSavedViews counts the views SavedViews pages through.
func (s *Store) CountSavedViews(ctx context.Context) (int64, error) {
	return s.count(ctx, stmtCountSavedViews, nil)
}

// SavedViewVersions returns the versions of views that refs name (their
// ID the name) and the caller may see, by their node ids.
func (s *Store) SavedViewVersions(ctx context.Context, refs []casegraph.NodeRef) (map[string]casegraph.SavedView, error) {
	keys := make([]map[string]any, len(refs))
	for i, r := range refs {
		keys[i] = map[string]any{"name": r.ID, "version": r.Version}
	}
	views, err := s.readViews(ctx, stmtSavedViewVersions, map[string]any{"keys": keys})
	if err != nil {
		return nil, err
	}
	out := make(map[string]casegraph.SavedView, len(views))
	for _, v := range views {
		out[casegraph.SavedViewNodeID(v.Name, v.Version)] = v
	}
	return out, nil
}

// DeleteSavedView removes a view and all its versions, and returns how
// many versions it had.
func (s *Store) DeleteSavedView(ctx context.Context, name string) (int64, error) {
	if err := casegraph.RequireEditor(ctx); err != nil {
		return 0, err
	}
	var n int64
	err := s.mutate(ctx, "DeleteSavedView", &n, func(run txRunner) (change, error) {
		if err := checkOwner(ctx, run, keptViews, name, true); err != nil {
			return change{}, err
		}
		recs, err := run(stmtDeleteSavedView, map[string]any{"name": name})
		if err != nil {
			return change{}, err
		}
		if len(recs) == 0 {
			return change{}, casegraph.Errorf(casegraph.CodeNotFound, "no view %q", name)
		}
		if n, err = getInt(recs[0], "versions"); err != nil {
			return change{}, internalError("DeleteSavedView", err)
		}
		return change{operation: "deleteSavedView", targets: []string{name},
			fields: []casegraph.FieldChange{{Field: "versions", Old: fmt.Sprint(n), New: "null"}}}, nil
	})
	return n, err
}

// readViews runs a statement that returns versions of views (column
// "view") and shows them to the caller (showViews).
func (s *Store) readViews(ctx context.Context, name statement, params map[string]any) ([]casegraph.SavedView, error) {
	res, err := s.read(ctx, name, params)
	if err != nil {
		return nil, err
	}
	kept := make([]keptView, 0, len(res.Records))
	for _, rec := range res.Records {
		m, err := getMap(rec, "view")
		if err != nil {
			return nil, internalError(string(name), err)
		}
		k, err := keptViewFromMap(m)
		if err != nil {
			return nil, internalError(string(name), err)
		}
		kept = append(kept, k)
	}
	return s.showViews(ctx, kept)
}

// keptViewFromMap reads a version as the savedView projection (or
// SavedViewLatest) returns it.
func keptViewFromMap(m map[string]any) (keptView, error) {
	var k keptView
	v := &k.view
	var state, refs, notes string
	var err error
	for key, dst := range map[string]*string{
		"name": &v.Name, "title": &v.Title, "description": &v.Description, "note": &v.Note, "author": &v.Author,
		"state": &state, "refs": &refs, "notes": &notes,
	} {
		if *dst, err = mapString(m, key); err != nil {
			return k, err
		}
	}
	if n, ok := m["version"].(int64); ok {
		v.Version = n
	}
	if t, ok := m["createdAt"].(time.Time); ok {
		v.CreatedAt = t.UTC()
	}
	if _, ok := m["owner"]; ok {
		var visibility string
		if v.Owner, err = mapString(m, "owner"); err == nil {
			if visibility, err = mapString(m, "visibility"); err == nil {
				v.Datasets, err = mapStrings(m, "datasets")
			}
		}
		if err != nil {
			return k, err
		}
		v.Visibility = casegraph.Visibility(visibility)
	}
	if err := json.Unmarshal([]byte(state), &v.State); err != nil {
		return k, fmt.Errorf("state: %w", err)
	}
	if err := json.Unmarshal([]byte(refs), &k.refs); err != nil {
		return k, fmt.Errorf("refs: %w", err)
	}
	var kn []keptNote
	if err := json.Unmarshal([]byte(notes), &kn); err != nil {
		return k, fmt.Errorf("notes: %w", err)
	}
	v.Notes = make([]casegraph.ViewNote, len(kn))
	for i, n := range kn {
		v.Notes[i] = casegraph.ViewNote{Target: casegraph.ViewTarget{Kind: n.Kind, ID: n.ID}, Text: n.Text, Author: n.Author, CreatedAt: n.At}
	}
	return k, nil
}
