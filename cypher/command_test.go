package cypher_test

// Who was in command, against Neo4j: a fixture with a change of
// subordination within 2012, partial and overlapping tenures, gaps, an
// incident at a place several units operate in, a protected commander,
// and a superior in another dataset.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/dataset"
)

// commandFixture loads the fixture into a dataset of its own (and one
// unit into a second dataset) and returns them.
func commandFixture(t *testing.T, s *cypher.Store) (ds, other string) {
	t.Helper()
	ds, other = cyphertest.Dataset(t), cyphertest.Dataset(t)
	var lines []string
	add := func(rec map[string]any) {
		if rec["dataset"] == nil {
			rec["dataset"] = ds
		}
		if rec["type"] != "source" && rec["sourceIds"] == nil {
			rec["sourceIds"] = []string{ds + ":src"}
		}
		for _, k := range []string{"id", "from", "to"} {
			if v, ok := rec[k].(string); ok && !strings.Contains(v, ":") {
				rec[k] = ds + ":" + v
			}
		}
		b, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(b))
	}
	add(map[string]any{"type": "source", "id": "src", "title": "A fictional report (test fixture)"})
	add(map[string]any{"type": "source", "id": other + ":src", "title": "Another dataset's fictional report", "dataset": other})
	for _, u := range []string{"army", "div-north", "div-south", "bde-1", "bn-1", "bn-2"} {
		add(map[string]any{"type": "entity", "kind": "Organization", "category": "ARMED_GROUP", "id": u, "name": "Unit " + u})
	}
	add(map[string]any{"type": "entity", "kind": "Organization", "id": other + ":secret-unit", "name": "Secret unit", "dataset": other, "sourceIds": []string{other + ":src"}})
	for _, p := range []string{"col-a", "col-b", "maj-c", "gunner"} {
		add(map[string]any{"type": "entity", "kind": "Person", "id": p, "name": "Officer " + p})
	}
	add(map[string]any{"type": "entity", "kind": "Person", "id": "gen-x", "name": "General Zedwick", "protected": true})
	add(map[string]any{"type": "entity", "kind": "Place", "id": "governorate", "name": "Fictional Governorate"})
	add(map[string]any{"type": "entity", "kind": "Place", "id": "village", "name": "Fictional Village"})
	add(map[string]any{"type": "entity", "kind": "Event", "category": "ATROCITY", "id": "shelling", "name": "Shelling of the village", "startDate": "2012-06-15"})
	rel := func(id, typ, from, to, start, end string, extra ...string) {
		r := map[string]any{"type": "relation", "id": id, "relationType": typ, "from": from, "to": to, "quote": "quote of " + id}
		if start != "" {
			r["startDate"] = start
		}
		if end != "" {
			r["endDate"] = end
		}
		if len(extra) > 0 {
			r["role"] = extra[0]
		}
		add(r)
	}
	rel("bde-under-north", "SUBORDINATE_TO", "bde-1", "div-north", "2008", "2012-05")
	rel("bde-under-south", "SUBORDINATE_TO", "bde-1", "div-south", "2012-06", "2016")
	rel("north-under-army", "SUBORDINATE_TO", "div-north", "army", "2000", "2020")
	rel("south-under-army", "SUBORDINATE_TO", "div-south", "army", "", "")
	rel("bn1-under-bde", "SUBORDINATE_TO", "bn-1", "bde-1", "2009", "2018")
	rel("bn2-under-bde", "SUBORDINATE_TO", "bn-2", "bde-1", "2014", "2018")
	rel("bn1-under-secret", "SUBORDINATE_TO", "bn-1", other+":secret-unit", "2010", "2014")
	rel("col-a-bde", "COMMANDS", "col-a", "bde-1", "2012", "2012", "Colonel, commander")
	rel("col-b-bde", "COMMANDS", "col-b", "bde-1", "2012-03", "2013", "Colonel, commander")
	rel("maj-c-bn1", "COMMANDS", "maj-c", "bn-1", "2010", "2011", "Major, commander")
	rel("gen-x-army", "COMMANDS", "gen-x", "army", "2005", "2015", "General, chief of staff")
	rel("village-in-gov", "LOCATED_IN", "village", "governorate", "", "")
	rel("shelling-at", "LOCATED_IN", "shelling", "village", "", "")
	rel("bn1-did", "ALLEGEDLY_PERPETRATED", "bn-1", "shelling", "", "")
	rel("gunner-did", "PERPETRATED", "gunner", "shelling", "", "")
	rel("north-in-gov", "OPERATES_IN", "div-north", "governorate", "2008", "2013")
	rel("bde-at-village", "BASED_AT", "bde-1", "village", "", "")
	rel("bn2-in-village", "OPERATES_IN", "bn-2", "village", "2014", "")
	b, err := dataset.Read(strings.NewReader(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), time.Minute)
	defer cancel()
	if _, err := dataset.Import(ctx, b, s, dataset.Options{}); err != nil {
		t.Fatalf("load the command fixture: %v", err)
	}
	return ds, other
}

// chainLines are a chain as lines: a unit's line (its id, overlap and
// records), then its commanders (name, role, overlap) and superiors.
func chainLines(c casegraph.CommandChain, ds string) []string {
	short := func(id string) string { return strings.TrimPrefix(id, ds+":") }
	var out []string
	unit := func(level int, u casegraph.ChainUnit) {
		out = append(out, strings.Repeat("  ", level)+short(u.Unit.ID)+" "+u.Overlap.String()+
			" commanders "+string(u.CommandersRecord)+" superiors "+string(u.SuperiorsRecord))
		for _, h := range u.Commanders {
			out = append(out, strings.Repeat("  ", level)+"- "+h.Entity.Name+" ("+h.Relation.Role+") "+h.Overlap.String())
		}
		for _, h := range u.Superiors {
			out = append(out, strings.Repeat("  ", level)+"^ "+short(h.Entity.ID)+" "+h.Overlap.String())
		}
	}
	unit(0, c.Unit)
	for i, level := range c.Levels {
		for _, u := range level {
			unit(i+1, u)
		}
	}
	return out
}

// bn1AtTheShelling is the battalion's chain on 2012-06-15, as an
// uncleared reader of the fixture sees it: a gap for its own commander,
// the brigade's two (sure, possible), the southern division, the
// protected general redacted.
var bn1AtTheShelling = []string{
	"bn-1 CERTAIN commanders NOT_COVERED superiors KNOWN",
	"^ bde-1 CERTAIN",
	"  bde-1 CERTAIN commanders KNOWN superiors KNOWN",
	"  - Officer col-b (Colonel, commander) CERTAIN",
	"  - Officer col-a (Colonel, commander) POSSIBLE",
	"  ^ div-south POSSIBLE",
	"    div-south POSSIBLE commanders NONE_RECORDED superiors KNOWN",
	"    ^ army POSSIBLE",
	"      army POSSIBLE commanders KNOWN superiors NONE_RECORDED",
	"      - Protected person () CERTAIN",
}

func TestCommandChain(t *testing.T) {
	t.Parallel()
	s := cyphertest.Store(t, cypher.Options{})
	ds, other := commandFixture(t, s)
	reader := func(cleared bool, datasets ...string) context.Context {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		t.Cleanup(cancel)
		return casegraph.WithPrincipal(ctx, casegraph.Principal{ID: "test:reader", Role: casegraph.RoleReader, Datasets: datasets, Cleared: cleared})
	}
	chain := func(ctx context.Context, unit, at string, levels int) (casegraph.CommandChain, []casegraph.Source, error) {
		q := casegraph.NewCommandChainRequest(ds+":"+unit, casegraph.MustPartialDate(at))
		q.MaxLevels = levels
		if err := q.Validate(); err != nil {
			t.Fatal(err)
		}
		return s.CommandChain(ctx, q, casegraph.CommandRead{WithSources: true})
	}
	tests := []struct {
		name   string
		ctx    context.Context
		unit   string
		at     string
		levels int
		want   []string
	}{
		{"a day: a gap for the battalion's commander, the brigade's two (sure, possible), the southern division, the protected general redacted",
			reader(false, ds), "bn-1", "2012-06-15", 8, bn1AtTheShelling},
		{"cleared, the general is named, with his post", reader(true, ds), "bde-1", "2012-06-15", 8, []string{
			"bde-1 CERTAIN commanders KNOWN superiors KNOWN",
			"- Officer col-b (Colonel, commander) CERTAIN",
			"- Officer col-a (Colonel, commander) POSSIBLE",
			"^ div-south POSSIBLE",
			"  div-south POSSIBLE commanders NONE_RECORDED superiors KNOWN",
			"  ^ army POSSIBLE",
			"    army POSSIBLE commanders KNOWN superiors NONE_RECORDED",
			"    - General Zedwick (General, chief of staff) CERTAIN",
		}},
		{"the year of the change: both divisions, possibly, and the army once", reader(true, ds), "bde-1", "2012", 8, []string{
			"bde-1 CERTAIN commanders KNOWN superiors KNOWN",
			"- Officer col-b (Colonel, commander) POSSIBLE",
			"- Officer col-a (Colonel, commander) POSSIBLE",
			"^ div-south POSSIBLE",
			"^ div-north POSSIBLE",
			"  div-north POSSIBLE commanders NONE_RECORDED superiors KNOWN",
			"  ^ army CERTAIN",
			"  div-south POSSIBLE commanders NONE_RECORDED superiors KNOWN",
			"  ^ army POSSIBLE",
			"    army POSSIBLE commanders KNOWN superiors NONE_RECORDED",
			"    - General Zedwick (General, chief of staff) CERTAIN",
		}},
		{"before any subordination: the chain ends, saying the records do not cover the date", reader(false, ds), "bn-2", "2012-06-15", 8, []string{
			"bn-2 CERTAIN commanders NONE_RECORDED superiors NOT_COVERED",
		}},
		{"a reader of both datasets sees the other's unit above the battalion", reader(false, ds, other), "bn-1", "2012-06-15", 1,
			// A level's units go by how surely they are in it, then by id.
			append([]string{
				"bn-1 CERTAIN commanders NOT_COVERED superiors KNOWN",
				"^ " + other + ":secret-unit CERTAIN",
				"^ bde-1 CERTAIN",
			}, ordered(ds < other, []string{
				"  bde-1 CERTAIN commanders KNOWN superiors KNOWN",
				"  - Officer col-b (Colonel, commander) CERTAIN",
				"  - Officer col-a (Colonel, commander) POSSIBLE",
				"  ^ div-south POSSIBLE",
			}, []string{"  " + other + ":secret-unit CERTAIN commanders NONE_RECORDED superiors NONE_RECORDED"})...)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, sources, err := chain(tt.ctx, tt.unit, tt.at, tt.levels)
			if err != nil {
				t.Fatalf("%v (%v)", err, errors.Unwrap(err))
			}
			if diff := cmp.Diff(tt.want, chainLines(c, ds)); diff != "" {
				t.Errorf("chain (-want +got):\n%s", diff)
			}
			if len(sources) == 0 {
				t.Error("no sources came with the chain")
			}
		})
	}
	t.Run("maxLevels cuts the chain and says so", func(t *testing.T) {
		c, _, err := chain(reader(false, ds), "bn-1", "2012-06-15", 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Levels) != 1 || !c.Truncated {
			t.Errorf("got %d levels, truncated %v; want 1, truncated", len(c.Levels), c.Truncated)
		}
	})
	t.Run("a unit the caller may not read is not found", func(t *testing.T) {
		_, _, err := chain(reader(true, other), "bn-1", "2012", 8)
		if casegraph.ErrorCode(err) != casegraph.CodeNotFound {
			t.Errorf("got %v, want NOT_FOUND", err)
		}
	})
	t.Run("a person is not a unit", func(t *testing.T) {
		_, _, err := chain(reader(true, ds), "col-a", "2012", 8)
		if casegraph.ErrorCode(err) != casegraph.CodeBadUserInput || !strings.Contains(err.Error(), "is a Person") {
			t.Errorf("got %v, want BAD_USER_INPUT saying it is a Person", err)
		}
	})
}

// ordered is a then b, or b then a.
func ordered(first bool, a, b []string) []string {
	if first {
		return append(a, b...)
	}
	return append(b, a...)
}

func TestWhoWasInCommand(t *testing.T) {
	t.Parallel()
	s := cyphertest.Store(t, cypher.Options{})
	ds, _ := commandFixture(t, s)
	ask := func(cleared bool, id string) (casegraph.IncidentCommand, []casegraph.Source, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		ctx = casegraph.WithPrincipal(ctx, casegraph.Principal{ID: "test:reader", Role: casegraph.RoleReader, Datasets: []string{ds}, Cleared: cleared})
		return s.WhoWasInCommand(ctx, casegraph.NewWhoWasInCommandRequest(ds+":"+id), casegraph.CommandRead{WithSources: true})
	}
	got, sources, err := ask(false, "shelling")
	if err != nil {
		t.Fatalf("%v (%v)", err, errors.Unwrap(err))
	}
	short := func(id string) string { return strings.TrimPrefix(id, ds+":") }
	var lines []string
	for _, u := range got.Units {
		line := short(u.Chain.Unit.Unit.ID) + ":"
		for _, tie := range u.Ties {
			line += " " + string(tie.Kind)
			if tie.Place != nil {
				line += " " + short(tie.Place.ID)
			}
			line += " " + tie.Overlap.String()
		}
		lines = append(lines, line)
	}
	for _, p := range got.People {
		lines = append(lines, "person "+short(p.Actor.ID)+": "+string(p.Ties[0].Kind))
	}
	want := []string{
		"bn-1: ALLEGEDLY_PERPETRATED CERTAIN",
		"div-north: OPERATES_IN governorate CERTAIN",
		"bde-1: BASED_AT village POSSIBLE",
		"person gunner: PERPETRATED",
	}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("ties (-want +got):\n%s", diff)
	}
	if p := got.Period; p.Start.String() != "2012-06-15" || p.End.String() != "2012-06-15" {
		t.Errorf("period: got %v, want the incident's day", p)
	}
	// The perpetrating battalion's chain at the incident's day.
	if diff := cmp.Diff(bn1AtTheShelling, chainLines(got.Units[0].Chain, ds)); diff != "" {
		t.Errorf("bn-1's chain (-want +got):\n%s", diff)
	}
	if len(sources) == 0 {
		t.Error("no sources came with the answer")
	}
	if _, _, err := ask(false, "ghost"); casegraph.ErrorCode(err) != casegraph.CodeNotFound {
		t.Errorf("an unknown incident: got %v, want NOT_FOUND", err)
	}
	if _, _, err := ask(false, "bn-1"); casegraph.ErrorCode(err) != casegraph.CodeBadUserInput {
		t.Errorf("a unit as the incident: got %v, want BAD_USER_INPUT", err)
	}
}

// TestCommandGrades: the command queries keep only the hops and ties one of
// whose citations meets the minimum grades; the others are left out as if
// not recorded. In the fixture every relation cites an ungraded (F) report,
// but for col-b's command of the brigade, cited from a B source too, and
// the battalion's alleged part in the shelling, cited from it alone.
func TestCommandGrades(t *testing.T) {
	t.Parallel()
	s := cyphertest.Store(t, cypher.Options{})
	ds, _ := commandFixture(t, s)
	graded := fmt.Sprintf(`{"type":"source","id":"%[1]s:graded","title":"A graded fictional report","publisher":"Fictional Monitor","reliability":"B","dataset":"%[1]s"}
{"type":"relation","id":"%[1]s:col-b-bde","relationType":"COMMANDS","from":"%[1]s:col-b","to":"%[1]s:bde-1","startDate":"2012-03","endDate":"2013","role":"Colonel, commander","dataset":"%[1]s","citations":[{"sourceId":"%[1]s:src","quote":"quote of col-b-bde"},{"sourceId":"%[1]s:graded","quote":"col-b took command","locator":"p. 3","credibility":2}]}
{"type":"relation","id":"%[1]s:bn1-did","relationType":"ALLEGEDLY_PERPETRATED","from":"%[1]s:bn-1","to":"%[1]s:shelling","dataset":"%[1]s","citations":[{"sourceId":"%[1]s:graded","quote":"the battalion's guns","credibility":3}]}`, ds)
	b, err := dataset.Read(strings.NewReader(graded))
	if err != nil {
		t.Fatal(err)
	}
	// Minutes, not seconds: the grade filters' statements are each planned
	// for the first time here, which on CI's fresh database under load
	// once ran 30 seconds out. The test is about what the grades keep.
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 3*time.Minute)
	defer cancel()
	if _, err := dataset.Import(ctx, b, s, dataset.Options{}); err != nil {
		t.Fatal(err)
	}
	reader, cancelReader := context.WithTimeout(casegraph.WithPrincipal(context.Background(),
		casegraph.Principal{ID: "test:reader", Role: casegraph.RoleReader, Datasets: []string{ds}, Cleared: true}), 3*time.Minute)
	defer cancelReader()

	q := casegraph.NewCommandChainRequest(ds+":bde-1", casegraph.MustPartialDate("2012-06-15"))
	q.GradeFilter = casegraph.GradeFilter{MinReliability: casegraph.ReliabilityB, MinCredibility: 2}
	if err := q.Validate(); err != nil {
		t.Fatal(err)
	}
	chain, _, err := s.CommandChain(reader, q, casegraph.CommandRead{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"bde-1 CERTAIN commanders KNOWN superiors NONE_RECORDED", "- Officer col-b (Colonel, commander) CERTAIN"}
	if diff := cmp.Diff(want, chainLines(chain, ds)); diff != "" {
		t.Errorf("the brigade's chain at B2 (-want +got):\n%s", diff)
	}
	q.MinCredibility = 3 // col-b's B citation is 2, better than 3: kept
	q.MinReliability = casegraph.ReliabilityA
	if chain, _, err = s.CommandChain(reader, q, casegraph.CommandRead{}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"bde-1 CERTAIN commanders NONE_RECORDED superiors NONE_RECORDED"}, chainLines(chain, ds)); diff != "" {
		t.Errorf("the brigade's chain at A3 (-want +got):\n%s", diff)
	}

	w := casegraph.NewWhoWasInCommandRequest(ds + ":shelling")
	w.GradeFilter = casegraph.GradeFilter{MinReliability: casegraph.ReliabilityB}
	answer, _, err := s.WhoWasInCommand(reader, w, casegraph.CommandRead{})
	if err != nil {
		t.Fatal(err)
	}
	var tied []string
	for _, u := range answer.Units {
		tied = append(tied, strings.TrimPrefix(u.Chain.Unit.Unit.ID, ds+":"))
	}
	if diff := cmp.Diff([]string{"bn-1"}, tied); diff != "" {
		t.Errorf("units tied to the shelling at B (-want +got):\n%s", diff)
	}
	if len(answer.People) != 0 {
		t.Errorf("people tied at B: %v, want none (the gunner's tie cites the F report only)", answer.People)
	}

	bad := casegraph.NewCommandChainRequest(ds+":bde-1", casegraph.MustPartialDate("2012"))
	bad.MinCredibility = 7
	if err := bad.Validate(); casegraph.ErrorCode(err) != casegraph.CodeBadUserInput {
		t.Errorf("minCredibility 7: %v, want BAD_USER_INPUT", err)
	}
}

// TestCommandNarrowRead: a read that names its properties (as a selection
// of names and roles does) gives the same chains and ties as one of every
// property, reads no sources when none are asked for, projects no property
// it was not asked for, and still redacts the protected general for an
// uncleared reader; and the assembly's dates come whatever it names.
func TestCommandNarrowRead(t *testing.T) {
	t.Parallel()
	s := cyphertest.Store(t, cypher.Options{})
	ds, _ := commandFixture(t, s)
	narrow := casegraph.CommandRead{Properties: &casegraph.Properties{Entity: []string{"name"}, Relation: []string{"role"}}}
	reader := func(cleared bool) context.Context {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		t.Cleanup(cancel)
		return casegraph.WithPrincipal(ctx, casegraph.Principal{ID: "test:reader", Role: casegraph.RoleReader, Datasets: []string{ds}, Cleared: cleared})
	}
	w := casegraph.NewWhoWasInCommandRequest(ds + ":shelling")
	full, _, err := s.WhoWasInCommand(reader(false), w, casegraph.CommandRead{WithSources: true})
	if err != nil {
		t.Fatal(err)
	}
	lean, sources, err := s.WhoWasInCommand(reader(false), w, narrow)
	if err != nil {
		t.Fatalf("%v (%v)", err, errors.Unwrap(err))
	}
	if len(sources) != 0 {
		t.Errorf("a read without sources read %d", len(sources))
	}
	if text, _, err := s.WhoWasInCommandText(w, narrow); err != nil || strings.Contains(text, ":Source") {
		t.Errorf("the statement without sources looks sources up (err %v)", err)
	}
	hops := narrow
	hops.WithSources, hops.RelationSourcesOnly = true, true
	if _, cited, err := s.WhoWasInCommand(reader(false), w, hops); err != nil || len(cited) == 0 {
		t.Errorf("the sources of the relations only: %d sources (err %v), want the report", len(cited), err)
	}
	if text, _, err := s.WhoWasInCommandText(w, hops); err != nil || !strings.Contains(text, ":Source") || strings.Contains(text, "[ev] + places") {
		t.Errorf("the statement reading the relations' sources only: err %v, or it looks up the entities'", err)
	}
	if lean.Period != full.Period || len(lean.Units) != len(full.Units) || len(lean.People) != len(full.People) {
		t.Fatalf("narrow: period %v, %d units, %d people; full: %v, %d, %d", lean.Period, len(lean.Units), len(lean.People), full.Period, len(full.Units), len(full.People))
	}
	for i := range full.Units {
		if diff := cmp.Diff(chainLines(full.Units[i].Chain, ds), chainLines(lean.Units[i].Chain, ds)); diff != "" {
			t.Errorf("unit %d's chain, narrow against full (-full +narrow):\n%s", i, diff)
		}
		for j, tie := range full.Units[i].Ties {
			if got := lean.Units[i].Ties[j]; got.Kind != tie.Kind || got.Overlap != tie.Overlap || got.Relation.ID != tie.Relation.ID {
				t.Errorf("unit %d's tie %d: got %v %v %s, want %v %v %s", i, j, got.Kind, got.Overlap, got.Relation.ID, tie.Kind, tie.Overlap, tie.Relation.ID)
			}
		}
	}
	if diff := cmp.Diff(bn1AtTheShelling, chainLines(lean.Units[0].Chain, ds)); diff != "" {
		t.Errorf("bn-1's chain, narrow (-want +got):\n%s", diff)
	}
	if u := lean.Units[0].Chain.Unit.Unit; u.Category != "" || u.Name != "Unit bn-1" {
		t.Errorf("the battalion, narrow: category %q, name %q; want no category (not asked for), its name", u.Category, u.Name)
	}
	// The general, as the uncleared reader sees him with a narrow read.
	top := lean.Units[0].Chain.Levels[len(lean.Units[0].Chain.Levels)-1][0]
	if len(top.Commanders) != 1 {
		t.Fatalf("the army's commanders: %v", top.Commanders)
	}
	gen := top.Commanders[0]
	if !gen.Entity.Redacted || gen.Entity.Name != casegraph.RedactedName || strings.Contains(gen.Entity.ID, "gen-x") ||
		gen.Relation.Role != "" || strings.Contains(gen.Relation.FromID, "gen-x") {
		t.Errorf("the protected general, narrow, uncleared: %+v, relation from %q role %q", gen.Entity, gen.Relation.FromID, gen.Relation.Role)
	}

	// Nothing tied, nothing read: still a row, which says what it is.
	if _, _, err := s.WhoWasInCommand(reader(false), casegraph.NewWhoWasInCommandRequest(ds+":col-a"), narrow); casegraph.ErrorCode(err) != casegraph.CodeBadUserInput {
		t.Errorf("a person as the incident, narrow, without sources: got %v, want BAD_USER_INPUT", err)
	}

	q := casegraph.NewCommandChainRequest(ds+":bde-1", casegraph.MustPartialDate("2012"))
	for _, cleared := range []bool{false, true} {
		fullChain, _, err := s.CommandChain(reader(cleared), q, casegraph.CommandRead{})
		if err != nil {
			t.Fatal(err)
		}
		leanChain, _, err := s.CommandChain(reader(cleared), q, narrow)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(chainLines(fullChain, ds), chainLines(leanChain, ds)); diff != "" {
			t.Errorf("the brigade's chain in 2012, cleared %v, narrow against full (-full +narrow):\n%s", cleared, diff)
		}
	}
}
