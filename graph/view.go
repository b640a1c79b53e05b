package graph

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/99designs/gqlgen/graphql"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/graph/model"
	"github.com/casegraph/casegraph/loaders"
)

// Glue for kept views. The store shows a view to its caller (every id as
// the caller reads it, nothing it may not read); this turns what it shows
// into models, and reads the view's entities with what is selected under
// them as nodes(ids) would.

// toSavedView is a view as the store showed it to the caller.
func toSavedView(v casegraph.SavedView) *model.SavedView {
	relations := make([]model.Relation, len(v.Relations))
	for i, r := range v.Relations {
		relations[i] = *toRelation(r)
	}
	notes := make([]model.ViewNote, len(v.Notes))
	for i, n := range v.Notes {
		notes[i] = model.ViewNote{TargetKind: model.ViewNoteTarget(casegraph.EnumName(n.Target.Kind)), TargetID: casegraph.NodeID(n.Target.Kind, n.Target.ID), Text: n.Text, Author: n.Author, CreatedAt: n.CreatedAt}
	}
	return &model.SavedView{
		ID: casegraph.SavedViewNodeID(v.Name, v.Version), Name: v.Name, Version: int(v.Version), Title: v.Title,
		Description: optional(v.Description), State: stateJSON(v.State), Relations: relations, Notes: notes,
		Note: optional(v.Note), CreatedAt: v.CreatedAt, Owner: v.Owner, Visibility: model.QueryVisibility(v.Visibility),
		Datasets: nonNil(v.Datasets), Author: v.Author, View: v,
	}
}

// shownView is one view as the store showed it, its entities primed in
// the request's loaders: the ends of its relations are among them, read
// through the gate with the view, and are not read again (from and to
// read each end once more, two statements for a view of 500 entities).
func shownView(ctx context.Context, v casegraph.SavedView) *model.SavedView {
	loaders.Prime(ctx, v.Entities, nil)
	return toSavedView(v)
}

// stateJSON is a shown state as the API writes it: a relation by its node
// id (relation~ID), as Relation.id and nodes(ids) name it.
func stateJSON(s casegraph.ViewState) model.JSON {
	s.Relations = slices.Clone(s.Relations)
	for i, id := range s.Relations {
		s.Relations[i] = casegraph.NodeID(casegraph.NodeRelation, id)
	}
	b, err := json.Marshal(s)
	if err != nil {
		panic(err) // a ViewState always marshals
	}
	return model.JSON(b)
}

// savedViewFromInput is a save's view, checked: its fields, its notes and
// its state.
func savedViewFromInput(in model.SaveViewInput) (casegraph.SavedView, error) {
	v := casegraph.SavedView{Name: in.Name, Title: in.Title, Description: deref(in.Description), Datasets: in.Datasets, Note: deref(in.Note)}
	if in.Visibility != nil {
		v.Visibility = casegraph.Visibility(*in.Visibility)
	}
	if in.Notes != nil {
		v.Notes = make([]casegraph.ViewNote, len(in.Notes))
		for i, n := range in.Notes {
			v.Notes[i] = noteFromInput(n)
		}
	}
	if err := v.Validate(); err != nil {
		return v, err
	}
	var err error
	v.State, err = casegraph.ParseViewState(json.RawMessage(in.State))
	return v, err
}

// noteFromInput is a note as given: a relation by its id or its node id.
func noteFromInput(in model.ViewNoteInput) casegraph.ViewNote {
	t := casegraph.ViewTarget{Kind: casegraph.NodeType(strings.ToLower(string(in.TargetKind))), ID: in.TargetID}
	if ref, err := casegraph.ParseNodeID("targetId", in.TargetID); err == nil && ref.Type == casegraph.NodeRelation && t.Kind == casegraph.NodeRelation {
		t.ID = ref.ID
	}
	return casegraph.ViewNote{Target: t, Text: in.Text}
}

// toSavedViews converts views in their order.
func toSavedViews(views []casegraph.SavedView) []model.SavedView {
	out := make([]model.SavedView, len(views))
	for i, v := range views {
		out[i] = *toSavedView(v)
	}
	return out
}

// viewEntitiesRead names one entities field's read of one view.
type viewEntitiesRead struct {
	view, path string
}

// viewEntities are a view's entities with what is selected under them:
// as the store read them when nothing is (it read them through the
// compiled read, as nodes(ids) does), else read again by the compiled
// read with the selection, once per field.
func (r *Resolver) viewEntities(ctx context.Context, obj *model.SavedView) ([]model.Entity, error) {
	shown := obj.View.Entities
	read := readHere(ctx)
	if read == nil {
		loaders.Prime(ctx, shown, nil)
		out := make([]model.Entity, len(shown))
		for i, e := range shown {
			out[i] = toEntity(e)
		}
		return out, nil
	}
	ids := make([]string, len(shown))
	for i, e := range shown {
		ids[i] = e.ID
	}
	key := viewEntitiesRead{view: obj.ID, path: graphql.GetFieldContext(ctx).Path().String()}
	res, err := loaders.Read(ctx, key, func() (casegraph.ReadResult, error) {
		return r.EntityStore.ReadEntities(ctx, ids, read)
	})
	if err != nil {
		return nil, err
	}
	out := make([]model.Entity, 0, len(ids))
	for _, id := range ids {
		if e, ok := res.Roots[id]; ok {
			out = append(out, toEntity(e))
		}
	}
	return out, nil
}

// savedViewVersionsQueryOf is the request of savedViewVersions, with the
// same default as savedQueryVersions.
func savedViewVersionsQueryOf(name string, first *int) casegraph.VersionsRequest {
	q := casegraph.NewVersionsRequest(name)
	given(&q.First, first)
	return q
}
