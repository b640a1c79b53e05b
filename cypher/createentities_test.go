package cypher_test

import (
	"slices"
	"testing"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
)

// TestNewEntitiesCreatedSetBased: a write's entities whose ids the gate
// found free are created by CreateEntities (set-based, no per-row
// subquery), those stored are updated by UpsertEntities, one statement
// each, in the same transaction; what is created is what an upsert
// creates (version 1, degree 0, an opaque id for a protected person,
// findable by search), and writing the same rows again changes nothing.
func TestNewEntitiesCreatedSetBased(t *testing.T) {
	sent := &statementNames{}
	s := cyphertest.Store(t, cypher.Options{Observer: sent})
	ctx := casegraph.AsOperator(testContext(t))
	ds := cyphertest.Dataset(t)
	src := casegraph.Source{ID: ds + ":src", Title: "Source", Dataset: ds}
	person := func(id, name string, protected bool) casegraph.Entity {
		return casegraph.Entity{ID: ds + ":" + id, Kind: casegraph.KindPerson, Name: name, Dataset: ds, SourceIDs: []string{src.ID},
			Attributes: casegraph.Attributes{Protected: protected}}
	}
	if _, err := s.WriteBatch(ctx, []casegraph.Source{src}, []casegraph.Entity{person("stored", "Stored Once", false)}, nil); err != nil {
		t.Fatal(err)
	}
	batch := []casegraph.Entity{person("stored", "Stored Twice", false), person("new", "Newly Made", false), person("witness", "Hidden Witness", true)}
	sent.reset()
	changed, err := s.WriteBatch(ctx, nil, batch, nil)
	if err != nil || changed != 3 {
		t.Fatalf("WriteBatch: %d changed, %v; want 3", changed, err)
	}
	count := func(name string) int {
		return len(slices.DeleteFunc(sent.names(), func(n string) bool { return n != name }))
	}
	if c, u := count("CreateEntities"), count("UpsertEntities"); c != 1 || u != 1 {
		t.Errorf("sent CreateEntities %d times and UpsertEntities %d times (%v); want once each", c, u, sent.names())
	}
	got, err := s.EntitiesByID(ctx, []string{ds + ":stored", ds + ":new", ds + ":witness"})
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]int64{"stored": 2, "new": 1, "witness": 1} {
		if e := got[ds+":"+id]; e.Version != want {
			t.Errorf("%s: version %d, want %d (%+v)", id, e.Version, want, e)
		}
	}
	if w := got[ds+":witness"]; !w.Protected {
		t.Errorf("the witness is not protected: %+v", w)
	}
	cyphertest.CheckDegrees(t, s, ds)
	sent.reset()
	if changed, err := s.WriteBatch(ctx, nil, batch, nil); err != nil || changed != 0 {
		t.Errorf("the same rows again: %d changed, %v; want none", changed, err)
	}
	if c := count("CreateEntities"); c != 0 {
		t.Errorf("the same rows again sent CreateEntities %d times; want none", c)
	}
}
