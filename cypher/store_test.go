package cypher_test

// The store's batch writes and reads, all or nothing, and migrations run
// twice.

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
)

func testContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestWriteBatchAndRead(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	ds := cyphertest.Dataset(t)
	s := cyphertest.Store(t, cypher.Options{})

	src := casegraph.Source{ID: ds + "-src", Title: "A source", Dataset: ds}
	person := casegraph.Entity{
		ID: ds + "-p", Kind: casegraph.KindPerson, Name: `Robert'); MATCH (n) DETACH DELETE n //`,
		Aliases: []string{"name:(foo* OR bar~)", "قيصر"}, Dataset: ds, SourceIDs: []string{src.ID}, Attributes: casegraph.Attributes{Nationality: "GB"},
	}
	for i, want := range []int{2, 0} { // twice: the second write changes nothing
		changed, err := s.WriteBatch(ctx, []casegraph.Source{src}, []casegraph.Entity{person}, nil)
		if err != nil {
			t.Fatalf("WriteBatch: %v", err)
		}
		if changed != want {
			t.Errorf("write %d: changed = %d, want %d", i+1, changed, want)
		}
	}
	changed, err := s.WriteBatch(ctx, []casegraph.Source{{ID: src.ID, Title: "Retitled", Dataset: ds}}, nil, nil)
	if err != nil || changed != 1 {
		t.Errorf("retitling the source: changed %d, err %v; want 1, nil", changed, err)
	}
	got, err := s.Entity(ctx, person.ID)
	if err != nil {
		t.Fatalf("Entity: %v", err)
	}
	want := person // cited the old way: each source, graded F6 (no reliability, no credibility given)
	want.Citations = []casegraph.Citation{{SourceID: src.ID, Credibility: casegraph.DefaultCredibility, Grade: "F6"}}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(casegraph.Entity{}, "Version", "CreatedAt", "UpdatedAt")); diff != "" {
		t.Errorf("Entity (-want +got):\n%s", diff)
	}
	if got.Version != 1 || got.CreatedAt.IsZero() || got.UpdatedAt.IsZero() {
		t.Errorf("after writing the same entity twice: version %d, created %s, updated %s; want version 1 and both times set",
			got.Version, got.CreatedAt, got.UpdatedAt)
	}

	_, err = s.Entity(ctx, ds+"-missing")
	if code := casegraph.ErrorCode(err); code != casegraph.CodeNotFound {
		t.Errorf("Entity(missing) code = %s, want NOT_FOUND (err %v)", code, err)
	}
}

func TestWriteBatchIsAllOrNothing(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	ds := cyphertest.Dataset(t)
	s := cyphertest.Store(t, cypher.Options{})
	src := casegraph.Source{ID: ds + "-src", Title: "A source", Dataset: ds}
	if _, err := s.WriteBatch(ctx, []casegraph.Source{src}, []casegraph.Entity{
		{ID: ds + "-a", Kind: casegraph.KindPlace, Name: "A", Dataset: ds, SourceIDs: []string{src.ID}},
	}, nil); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name     string
		entities []casegraph.Entity
		code     casegraph.Code
	}{
		{"change of kind", []casegraph.Entity{
			{ID: ds + "-b", Kind: casegraph.KindPlace, Name: "B", Dataset: ds, SourceIDs: []string{src.ID}},
			{ID: ds + "-a", Kind: casegraph.KindPerson, Name: "A", Dataset: ds, SourceIDs: []string{src.ID}},
		}, casegraph.CodeConflict},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.WriteBatch(ctx, nil, tt.entities, nil)
			if got := casegraph.ErrorCode(err); got != tt.code {
				t.Fatalf("code = %s, want %s (err %v)", got, tt.code, err)
			}
			found, err := s.EntitiesByID(ctx, []string{ds + "-a", ds + "-b"})
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := found[ds+"-b"]; ok {
				t.Errorf("entity b was written although the batch was refused")
			}
			if found[ds+"-a"].Kind != casegraph.KindPlace {
				t.Errorf("entity a kind = %s, want Place", found[ds+"-a"].Kind)
			}
		})
	}
}

func TestMigrateTwiceAndSchemaApplied(t *testing.T) {
	ctx := testContext(t)
	s := cyphertest.Store(t, cypher.Options{})
	for i := range 2 {
		applied, err := s.Migrate(ctx)
		if err != nil {
			t.Fatalf("Migrate: %v", err)
		}
		if i == 1 {
			for _, a := range applied {
				if a.Created {
					t.Errorf("second Migrate says it created %s", a.Name)
				}
			}
		}
	}
	missing, err := s.SchemaApplied(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(missing) > 0 {
		t.Errorf("after Migrate, missing %v", missing)
	}
}

// TestWriteBatchRelations writes relations as an import does: created, left
// alone when unchanged, updated when changed (a field left out is cleared),
// and refused when an id names a relation between other ends.
func TestWriteBatchRelations(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	s := cyphertest.Store(t, cypher.Options{})
	g := newDegreeGraph(t)
	if _, err := s.WriteBatch(ctx, []casegraph.Source{g.src}, g.entities, nil); err != nil {
		t.Fatal(err)
	}
	first := g.relations[0]
	withRole := first
	withRole.Role = "chair"
	moved := first
	moved.FromID = g.id("p3")

	tests := []struct {
		name      string
		relations []casegraph.Relation
		changed   int
		code      casegraph.Code
		want      casegraph.Relation // how the first relation reads afterwards
	}{
		{"create", g.relations, len(g.relations), "", first},
		{"the same again", g.relations, 0, "", first},
		{"one changed", []casegraph.Relation{withRole, g.relations[1]}, 1, "", withRole},
		{"given twice, the last wins", []casegraph.Relation{withRole, first}, 1, "", first},
		{"an id between other ends", []casegraph.Relation{moved}, 0, casegraph.CodeConflict, first},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			changed, err := s.WriteBatch(ctx, nil, nil, tt.relations)
			switch {
			case tt.code == "" && err != nil:
				t.Fatalf("WriteBatch: %v", err)
			case tt.code != "" && casegraph.ErrorCode(err) != tt.code:
				t.Fatalf("code = %q, want %q (err %v)", casegraph.ErrorCode(err), tt.code, err)
			}
			if changed != tt.changed {
				t.Errorf("changed = %d, want %d", changed, tt.changed)
			}
			got, err := s.RelationsByID(ctx, []string{first.ID})
			if err != nil {
				t.Fatal(err)
			}
			want := tt.want // cited the old way: each source, graded F6
			if want.ID != "" {
				want.Citations = casegraph.GradeCitations(casegraph.CitationsOf(want.SourceIDs, want.Quote), nil)
			}
			if diff := cmp.Diff(want, got[first.ID]); diff != "" {
				t.Errorf("relation (-want +got):\n%s", diff)
			}
			cyphertest.CheckDegrees(t, s, g.ds, g.other)
		})
	}
}

// TestIdentifyingFieldsRoundTrip writes a person, an organization, a place
// and a document with every identifying field set and reads them back as
// written: partial dates, identifiers (stored encoded), the place's point.
func TestIdentifyingFieldsRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	ds := cyphertest.Dataset(t)
	s := cyphertest.Store(t, cypher.Options{})
	src := casegraph.Source{ID: ds + "-src", Title: "A source", Dataset: ds}
	entity := func(id string, kind casegraph.Kind, a casegraph.Attributes) casegraph.Entity {
		return casegraph.Entity{ID: ds + "-" + id, Kind: kind, Name: id, Dataset: ds, SourceIDs: []string{src.ID}, Attributes: a}
	}
	want := []casegraph.Entity{
		entity("person", casegraph.KindPerson, casegraph.Attributes{BirthDate: "1970-03", DeathDate: "2013-08-21",
			BirthPlace: "Daraa, Syria", Gender: casegraph.GenderFemale, Address: "12 \"Rue\" X\nDamascus", Nationality: "SY",
			Identifiers: []casegraph.Identifier{{Type: casegraph.IdentifierPassport, Value: `N0"12]3`, Issuer: "SY"},
				{Type: casegraph.IdentifierServiceNo, Value: "4471"}}}),
		entity("org", casegraph.KindOrganization, casegraph.Attributes{Jurisdiction: "SY", FoundingDate: "1971",
			DissolutionDate: "2011-05", Identifiers: []casegraph.Identifier{{Type: casegraph.IdentifierRegistration, Value: "HRB 1"}}}),
		entity("place", casegraph.KindPlace, casegraph.Attributes{CountryCode: "SY",
			Coordinates: &casegraph.Coordinates{Latitude: 33.513807, Longitude: -36.276528}}),
		entity("doc", casegraph.KindDocument, casegraph.Attributes{Language: "ar"}),
	}
	for i, n := range []int{5, 0} { // the second write changes nothing: the hash reads the new fields alike
		changed, err := s.WriteBatch(ctx, []casegraph.Source{src}, want, nil)
		if err != nil {
			t.Fatalf("WriteBatch: %v", err)
		}
		if changed != n {
			t.Errorf("write %d: changed = %d, want %d", i+1, changed, n)
		}
	}
	for _, w := range want {
		got, err := s.Entity(ctx, w.ID)
		if err != nil {
			t.Fatalf("Entity(%s): %v", w.ID, err)
		}
		w.Citations = casegraph.GradeCitations(casegraph.CitationsOf(w.SourceIDs, ""), nil) // cited the old way: F6
		if diff := cmp.Diff(w, got, cmpopts.IgnoreFields(casegraph.Entity{}, "Version", "CreatedAt", "UpdatedAt"),
			cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("Entity(%s) (-want +got):\n%s", w.ID, diff)
		}
	}
}
