package servertest

import (
	"context"

	casegraph "github.com/casegraph/casegraph"
)

// The kept views' methods, refused like the others.

func (r *Refusing) SaveView(context.Context, casegraph.SavedView) (casegraph.SavedView, error) {
	return casegraph.SavedView{}, r.refuse("SaveView")
}

func (r *Refusing) AnnotateView(context.Context, string, casegraph.ViewNote) (casegraph.SavedView, error) {
	return casegraph.SavedView{}, r.refuse("AnnotateView")
}

func (r *Refusing) SavedView(context.Context, string, int64) (casegraph.SavedView, error) {
	return casegraph.SavedView{}, r.refuse("SavedView")
}

func (r *Refusing) SavedViewHistory(context.Context, string, int) ([]casegraph.SavedView, error) {
	return nil, r.refuse("SavedViewHistory")
}

func (r *Refusing) SavedViews(context.Context, casegraph.Page) ([]casegraph.SavedView, bool, error) {
	return nil, false, r.refuse("SavedViews")
}

func (r *Refusing) CountSavedViews(context.Context) (int64, error) {
	return 0, r.refuse("CountSavedViews")
}

func (r *Refusing) SavedViewVersions(context.Context, []casegraph.NodeRef) (map[string]casegraph.SavedView, error) {
	return nil, r.refuse("SavedViewVersions")
}

func (r *Refusing) DeleteSavedView(context.Context, string) (int64, error) {
	return 0, r.refuse("DeleteSavedView")
}
