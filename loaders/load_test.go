package loaders

// The loaders' reads: a missing entity is no error, a failed read is.

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	casegraph "github.com/casegraph/casegraph"
)

// stubStore knows the entity "a" and the source "s"; with err set, every
// read fails with it. The loaders' own rules need no database: what the
// store reads is tested against Neo4j in package cypher.
type stubStore struct{ err error }

func (s stubStore) EntitiesByID(_ context.Context, ids []string) (map[string]casegraph.Entity, error) {
	if s.err != nil {
		return nil, s.err
	}
	out := map[string]casegraph.Entity{}
	for _, id := range ids {
		if id == "a" {
			out[id] = casegraph.Entity{ID: id, Name: "A"}
		}
	}
	return out, nil
}

func (s stubStore) SourcesByID(_ context.Context, ids []string) (map[string]casegraph.Source, error) {
	if s.err != nil {
		return nil, s.err
	}
	out := map[string]casegraph.Source{}
	for _, id := range ids {
		if id == "s" {
			out[id] = casegraph.Source{ID: id, Title: "S"}
		}
	}
	return out, nil
}

func (s stubStore) RelationsOf(context.Context, []string, casegraph.RelationFilter, casegraph.Page) (map[string]casegraph.RelationPage, error) {
	return nil, s.err
}

func TestMissingIsNotAnError(t *testing.T) {
	ctx := With(casegraph.AsOperator(context.Background()), New(stubStore{}))
	if e, found, err := Entity(ctx, "a"); err != nil || !found || e.Name != "A" {
		t.Errorf(`Entity("a") = %+v, %v, %v; want A, found`, e, found, err)
	}
	if _, found, err := Entity(ctx, "gone"); err != nil || found {
		t.Errorf(`Entity("gone") = %v, %v; want not found, no error`, found, err)
	}
	if _, found, err := Source(ctx, "gone"); err != nil || found {
		t.Errorf(`Source("gone") = %v, %v; want not found, no error`, found, err)
	}
	got := Entities(ctx, []string{"gone", "a"})
	want := []Result[casegraph.Entity]{{}, {Value: casegraph.Entity{ID: "a", Name: "A"}, Found: true}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Entities (-want +got):\n%s", diff)
	}
	sources, err := Sources(ctx, []string{"gone", "s"})
	if diff := cmp.Diff(map[string]casegraph.Source{"s": {ID: "s", Title: "S"}}, sources); err != nil || diff != "" {
		t.Errorf("Sources: %v (-want +got):\n%s", err, diff)
	}
}

func TestFailedReadIsAnError(t *testing.T) {
	down := errors.New("database down")
	ctx := With(casegraph.AsOperator(context.Background()), New(stubStore{err: down}))
	if _, found, err := Entity(ctx, "a"); !errors.Is(err, down) || found {
		t.Errorf(`Entity("a") = %v, %v; want the store's error`, found, err)
	}
	for i, r := range Entities(ctx, []string{"a", "b"}) {
		if !errors.Is(r.Err, down) || r.Found {
			t.Errorf("Entities item %d = %+v; want the store's error", i, r)
		}
	}
	if _, err := Sources(ctx, []string{"s"}); !errors.Is(err, down) {
		t.Errorf("Sources error = %v; want the store's error", err)
	}
	if _, err := Relations(ctx, "a", casegraph.RelationFilter{}, casegraph.Page{First: 1}); !errors.Is(err, down) {
		t.Errorf("Relations error = %v; want the store's error", err)
	}
}

func (s stubStore) WithRequestSlots(ctx context.Context) context.Context { return ctx }
