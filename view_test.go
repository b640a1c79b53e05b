package casegraph_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	casegraph "github.com/casegraph/casegraph"
)

// TestParseViewState: the explorer's view reads back as it was written,
// and whatever it must not hold is refused with BAD_USER_INPUT at its
// field.
func TestParseViewState(t *testing.T) {
	full := `{"n":[["a",1.5,-2,"phx"],["b",0,0,""]],"r":["r1"],"p":{"f":"a","t":"b","k":3,"q":{"maxDepth":6,"relationTypes":["AUTHORED"],"excludeIds":["c"],"kinds":["PERSON"],"validAt":"2014","minConfidence":0.5,"statuses":["REPORTED"],"maxDegree":50},"c":1},"t":"2013","e":"a","b":["2011","2014-06"],"a":"degree+communities","l":1,"o":"paths","g":"hierarchy","y":{"k":["PLACE"],"t":["FUNDS"]}}`
	s, err := casegraph.ParseViewState(json.RawMessage(full))
	if err != nil {
		t.Fatal(err)
	}
	back, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(full, string(back)); diff != "" {
		t.Errorf("written back (-want +got):\n%s", diff)
	}
	if e := s.Entities[0]; !e.Pinned || !e.Hidden || !e.Expanded || e.X != 1.5 {
		t.Errorf("the first entity: %+v", e)
	}

	// A map keeps its projection.
	onMap := `{"n":[["a",1.5,-2,""]],"r":[],"g":"map","m":[180.5,700,-450.25]}`
	if s, err := casegraph.ParseViewState(json.RawMessage(onMap)); err != nil {
		t.Errorf("a map's state: %v", err)
	} else if back, _ := json.Marshal(s); string(back) != onMap {
		t.Errorf("a map's state written back: %s, want %s", back, onMap)
	}

	many := `{"n":[` + strings.Repeat(`["a",0,0,""],`, casegraph.MaxViewEntities) + `["a",0,0,""]],"r":[]}`
	for _, tt := range []struct {
		name, state, field string
	}{
		{"not an object", `[1]`, "state"},
		{"not JSON", `{"n": [}`, "state"},
		{"an unknown key", `{"n":[],"r":[],"z":1}`, "state"},
		{"no entities", `{"r":[]}`, "state.n"},
		{"an entity of three items", `{"n":[["a",0,0]],"r":[]}`, "state"},
		{"a flag twice", `{"n":[["a",0,0,"pp"]],"r":[]}`, "state"},
		{"an unknown flag", `{"n":[["a",0,0,"q"]],"r":[]}`, "state"},
		{"a bad id", `{"n":[["a b",0,0,""]],"r":[]}`, "state.n[0]"},
		{"far away", `{"n":[["a",1e9,0,""]],"r":[]}`, "state.n[0]"},
		{"too many entities", many, "state.n"},
		{"a bad relation id", `{"n":[],"r":["x/y"]}`, "state.r[0]"},
		{"k of 0", `{"n":[],"r":[],"p":{"k":0,"q":{},"c":0}}`, "state.p.k"},
		{"an unknown kind", `{"n":[],"r":[],"p":{"k":1,"q":{"kinds":["ROBOT"]},"c":0}}`, "state.p.q.kinds[0]"},
		{"a deep search", `{"n":[],"r":[],"p":{"k":1,"q":{"maxDepth":99},"c":0}}`, "state.p.q"},
		{"an unknown filter", `{"n":[],"r":[],"p":{"k":1,"q":{"datasets":["x"]},"c":0}}`, "state"},
		{"a bad date", `{"n":[],"r":[],"t":"2014-13"}`, "state.t"},
		{"a period backwards", `{"n":[],"r":[],"b":["2015","2014"]}`, "state.b"},
		{"a layout that is not a word", `{"n":[],"r":[],"g":"<script>"}`, "state.g"},
		{"live of 2", `{"n":[],"r":[],"l":2}`, "state.l"},
		{"a projection without the map", `{"n":[],"r":[],"g":"grid","m":[180,700,450]}`, "state.m"},
		{"a projection of two numbers", `{"n":[],"r":[],"g":"map","m":[180,700]}`, "state.m"},
		{"a projection of scale 0", `{"n":[],"r":[],"g":"map","m":[0,700,450]}`, "state.m"},
		{"a projection far away", `{"n":[],"r":[],"g":"map","m":[180,1e9,450]}`, "state.m"},
		{"a projection of words", `{"n":[],"r":[],"g":"map","m":["a",1,2]}`, "state"},
		{"an unknown type left out", `{"n":[],"r":[],"y":{"t":["LIKES"]}}`, "state.y.t[0]"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := casegraph.ParseViewState(json.RawMessage(tt.state))
			var coded *casegraph.Error
			if !errors.As(err, &coded) || coded.Code != casegraph.CodeBadUserInput {
				t.Fatalf("got %v, want BAD_USER_INPUT", err)
			}
			if got := coded.Field; got != tt.field && !(len(coded.Problems) > 0 && coded.Problems[0].Field == tt.field) {
				t.Errorf("field %q (%s), want %q", got, coded.Message, tt.field)
			}
		})
	}
}

// TestViewShow: a reader is shown every id by the id it reads it by, and
// nothing it may not read: an entity, a relation, a path end, an id kept
// out of paths, the entity open, a note on any of them; a note on a
// protected person (or a relation of one) hidden from it goes too.
func TestViewShow(t *testing.T) {
	kept := casegraph.SavedView{
		State: casegraph.ViewState{
			Entities:  []casegraph.ViewEntity{{ID: "caesar", X: 1}, {ID: "secret", X: 2}, {ID: "photos", X: 3}, {ID: "merged", X: 4}},
			Relations: []string{"rel-caesar", "rel-secret"},
			Path:      &casegraph.ViewPath{From: "caesar", To: "secret", K: 1, Filter: casegraph.ViewPathFilter{ExcludeIDs: []string{"secret", "photos"}}},
			Open:      "secret",
		},
		Notes: []casegraph.ViewNote{
			{Target: casegraph.ViewTarget{Kind: casegraph.NodeEntity, ID: "caesar"}, Text: "him"},
			{Target: casegraph.ViewTarget{Kind: casegraph.NodeEntity, ID: "secret"}, Text: "not yours"},
			{Target: casegraph.ViewTarget{Kind: casegraph.NodeEntity, ID: "photos"}, Text: "the photographs"},
			{Target: casegraph.ViewTarget{Kind: casegraph.NodeRelation, ID: "rel-caesar"}, Text: "his"},
		},
	}
	entities := map[string]casegraph.Shown{
		"caesar": {ID: "protected-1", Hidden: true},
		"photos": {ID: "photos"},
		"merged": {ID: "photos"}, // merged into the photographs: drawn once
	}
	relations := map[string]casegraph.Shown{"rel-caesar": {ID: "protected-2", Hidden: true}}
	got := kept.Show(entities, relations)
	want := casegraph.ViewState{
		Entities:  []casegraph.ViewEntity{{ID: "protected-1", X: 1}, {ID: "photos", X: 3}},
		Relations: []string{"protected-2"},
		Path:      &casegraph.ViewPath{From: "protected-1", K: 1, Filter: casegraph.ViewPathFilter{ExcludeIDs: []string{"photos"}}},
	}
	if diff := cmp.Diff(want, got.State); diff != "" {
		t.Errorf("state (-want +got):\n%s", diff)
	}
	wantNotes := []casegraph.ViewNote{{Target: casegraph.ViewTarget{Kind: casegraph.NodeEntity, ID: "photos"}, Text: "the photographs"}}
	if diff := cmp.Diff(wantNotes, got.Notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
	if kept.State.Entities[0].ID != "caesar" || kept.State.Path.From != "caesar" {
		t.Error("Show changed the kept view")
	}
}

// TestKeepNotes: a note kept with its target and text keeps who wrote it
// and when; a new one, or one changed, is the saver's, now.
func TestKeepNotes(t *testing.T) {
	then, now := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	on := func(id, text string) casegraph.ViewNote {
		return casegraph.ViewNote{Target: casegraph.ViewTarget{Kind: casegraph.NodeEntity, ID: id}, Text: text}
	}
	old := on("a", "kept")
	old.Author, old.CreatedAt = "key:first", then
	got := casegraph.KeepNotes([]casegraph.ViewNote{old, on("b", "dropped")}, []casegraph.ViewNote{on("a", "kept"), on("a", "changed")}, "key:second", now)
	changed := on("a", "changed")
	changed.Author, changed.CreatedAt = "key:second", now
	if diff := cmp.Diff([]casegraph.ViewNote{old, changed}, got); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
}

// TestSavedViewValidate: a view's own fields and its notes are checked
// at their fields, all at once.
func TestSavedViewValidate(t *testing.T) {
	v := casegraph.SavedView{Name: "Not A Slug", Title: "", Visibility: "SECRET",
		Notes: []casegraph.ViewNote{{Target: casegraph.ViewTarget{Kind: "SOURCE", ID: "x"}, Text: " "}}}
	err := v.Validate()
	var coded *casegraph.Error
	if !errors.As(err, &coded) || coded.Code != casegraph.CodeBadUserInput {
		t.Fatalf("got %v, want BAD_USER_INPUT", err)
	}
	var fields []string
	for _, p := range coded.Problems {
		fields = append(fields, p.Field)
	}
	want := []string{"name", "title", "visibility", "notes[0].targetKind", "notes[0].text"}
	if diff := cmp.Diff(want, fields); diff != "" {
		t.Errorf("fields (-want +got):\n%s", diff)
	}
	ok := casegraph.SavedView{Name: "a-view", Title: "A view", Visibility: casegraph.VisibilityDatasets, Datasets: []string{"caesar-report"}}
	if err := ok.Validate(); err != nil {
		t.Errorf("a valid view: %v", err)
	}
}
