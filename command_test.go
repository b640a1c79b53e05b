package casegraph_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	casegraph "github.com/casegraph/casegraph"
)

func TestCommandRequestsValidate(t *testing.T) {
	at := casegraph.MustPartialDate("2012-06-15")
	chain := func(change func(*casegraph.CommandChainRequest)) casegraph.CommandChainRequest {
		q := casegraph.NewCommandChainRequest("unit-1", at)
		change(&q)
		return q
	}
	incident := func(change func(*casegraph.WhoWasInCommandRequest)) casegraph.WhoWasInCommandRequest {
		q := casegraph.NewWhoWasInCommandRequest("incident-1")
		change(&q)
		return q
	}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"chain: the defaults", chain(func(*casegraph.CommandChainRequest) {}).Validate(), ""},
		{"chain: no unit", chain(func(q *casegraph.CommandChainRequest) { q.UnitID = "" }).Validate(), "unitId is required"},
		{"chain: a bad unit id", chain(func(q *casegraph.CommandChainRequest) { q.UnitID = "a b" }).Validate(), "not a valid id"},
		{"chain: no date", chain(func(q *casegraph.CommandChainRequest) { q.At = casegraph.PartialDate{} }).Validate(), "at is required"},
		{"chain: no levels", chain(func(q *casegraph.CommandChainRequest) { q.MaxLevels = 0 }).Validate(), "maxLevels must be between 1 and 12, not 0"},
		{"chain: too many levels", chain(func(q *casegraph.CommandChainRequest) { q.MaxLevels = casegraph.MaxCommandLevels + 1 }).Validate(), "maxLevels"},
		{"chain: the most levels", chain(func(q *casegraph.CommandChainRequest) { q.MaxLevels = casegraph.MaxCommandLevels }).Validate(), ""},
		{"incident: the defaults", incident(func(*casegraph.WhoWasInCommandRequest) {}).Validate(), ""},
		{"incident: no id", incident(func(q *casegraph.WhoWasInCommandRequest) { q.IncidentID = "" }).Validate(), "incidentId is required"},
		{"incident: no units", incident(func(q *casegraph.WhoWasInCommandRequest) { q.MaxUnits = 0 }).Validate(), "maxUnits must be between 1 and 200, not 0"},
		{"incident: too many units", incident(func(q *casegraph.WhoWasInCommandRequest) { q.MaxUnits = casegraph.MaxIncidentUnits + 1 }).Validate(), "maxUnits"},
		{"incident: too many levels", incident(func(q *casegraph.WhoWasInCommandRequest) { q.MaxLevels = 13 }).Validate(), "maxLevels"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkErr(t, tt.err, tt.want) })
	}
}

// force is a small fixture of records: a battalion under one brigade until
// 2012-05 and another from 2012-06 (a change within 2012), the brigades
// under a division (one with no dates), the division with superiors
// recorded only before the date, and tenures partial, overlapping and
// missing.
func force() casegraph.CommandRecords {
	unit := func(id string) casegraph.Entity {
		return casegraph.Entity{ID: id, Kind: casegraph.KindOrganization, Name: id}
	}
	person := func(id string) casegraph.Entity {
		return casegraph.Entity{ID: id, Kind: casegraph.KindPerson, Name: id}
	}
	hop := func(id string, to casegraph.Entity, start, end string) casegraph.Hop {
		return casegraph.Hop{Relation: casegraph.Relation{ID: id, StartDate: start, EndDate: end}, Entity: to}
	}
	return casegraph.CommandRecords{Units: map[string]casegraph.UnitRecords{
		"bn": {Unit: unit("bn"),
			Superiors: []casegraph.Hop{
				hop("bn-under-north", unit("north"), "2008", "2012-05"),
				hop("bn-under-south", unit("south"), "2012-06", "2014"),
				hop("bn-under-old", unit("old"), "2001", "2004"),
			}, SuperiorsRecorded: 3,
			Commanders: []casegraph.Hop{
				hop("cmd-year", person("year"), "2012", "2012"),
				hop("cmd-sure", person("sure"), "2012-03", "2013"),
				hop("cmd-before", person("before"), "2009", "2011-12"),
			}, CommandersRecorded: 3},
		"north": {Unit: unit("north"), Superiors: []casegraph.Hop{hop("north-under-div", unit("div"), "2005", "2015")}, SuperiorsRecorded: 1},
		"south": {Unit: unit("south"), Superiors: []casegraph.Hop{hop("south-under-div", unit("div"), "", "")}, SuperiorsRecorded: 1,
			Commanders: []casegraph.Hop{hop("cmd-south", person("southern"), "2010", "2014")}, CommandersRecorded: 1},
		"div": {Unit: unit("div"), SuperiorsRecorded: 2, CommandersRecorded: 0},
	}}
}

// chainView is a chain as the tests read it: each level's units with
// their overlap, commanders and superiors (ids and overlaps) and records.
type chainView struct {
	Levels    [][]unitView
	Truncated bool
}

type unitView struct {
	ID, Overlap                  string
	Commanders, Superiors        []string
	CommandersRecord, SupsRecord casegraph.Record
}

func viewOf(c casegraph.CommandChain) chainView {
	unit := func(u casegraph.ChainUnit) unitView {
		v := unitView{ID: u.Unit.ID, Overlap: u.Overlap.String(), CommandersRecord: u.CommandersRecord, SupsRecord: u.SuperiorsRecord}
		for _, h := range u.Commanders {
			v.Commanders = append(v.Commanders, h.Entity.ID+" "+h.Overlap.String())
		}
		for _, h := range u.Superiors {
			v.Superiors = append(v.Superiors, h.Entity.ID+" "+h.Overlap.String())
		}
		return v
	}
	out := chainView{Levels: [][]unitView{{unit(c.Unit)}}, Truncated: c.Truncated}
	for _, level := range c.Levels {
		var l []unitView
		for _, u := range level {
			l = append(l, unit(u))
		}
		out.Levels = append(out.Levels, l)
	}
	return out
}

func TestAssembleChain(t *testing.T) {
	period := func(s string) casegraph.Period {
		d := casegraph.MustPartialDate(s)
		return casegraph.Period{Start: d, End: d}
	}
	bn := func(sups []string, cmds []string) unitView {
		return unitView{ID: "bn", Overlap: "CERTAIN", Commanders: cmds, Superiors: sups, CommandersRecord: casegraph.RecordKnown, SupsRecord: casegraph.RecordKnown}
	}
	div := unitView{ID: "div", CommandersRecord: casegraph.RecordNoneRecorded, SupsRecord: casegraph.RecordNotCovered}
	tests := []struct {
		name      string
		at        string
		maxLevels int
		want      chainView
	}{
		{"a day: the one superior then, the commanders that may hold it, the surest first", "2012-08-15", 8, chainView{Levels: [][]unitView{
			{bn([]string{"south CERTAIN"}, []string{"sure CERTAIN", "year POSSIBLE"})},
			{{ID: "south", Overlap: "CERTAIN", Commanders: []string{"southern CERTAIN"}, Superiors: []string{"div POSSIBLE"},
				CommandersRecord: casegraph.RecordKnown, SupsRecord: casegraph.RecordKnown}},
			{withOverlap(div, "POSSIBLE")},
		}}},
		{"a year across the change: both superiors, possibly (the later first); the division once", "2012", 8, chainView{Levels: [][]unitView{
			{bn([]string{"south POSSIBLE", "north POSSIBLE"}, []string{"sure POSSIBLE", "year POSSIBLE"})},
			{{ID: "north", Overlap: "POSSIBLE", Superiors: []string{"div CERTAIN"}, CommandersRecord: casegraph.RecordNoneRecorded, SupsRecord: casegraph.RecordKnown},
				{ID: "south", Overlap: "POSSIBLE", Commanders: []string{"southern CERTAIN"}, Superiors: []string{"div POSSIBLE"},
					CommandersRecord: casegraph.RecordKnown, SupsRecord: casegraph.RecordKnown}},
			{withOverlap(div, "POSSIBLE")},
		}}},
		{"before the first superior: a gap, not bridged", "2006", 8, chainView{Levels: [][]unitView{
			{{ID: "bn", Overlap: "CERTAIN", CommandersRecord: casegraph.RecordNotCovered, SupsRecord: casegraph.RecordNotCovered}},
		}}},
		{"maxLevels cuts the chain and says so", "2012-08-15", 1, chainView{Truncated: true, Levels: [][]unitView{
			{bn([]string{"south CERTAIN"}, []string{"sure CERTAIN", "year POSSIBLE"})},
			{{ID: "south", Overlap: "CERTAIN", Commanders: []string{"southern CERTAIN"}, Superiors: []string{"div POSSIBLE"},
				CommandersRecord: casegraph.RecordKnown, SupsRecord: casegraph.RecordKnown}},
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			chain, ok := casegraph.AssembleChain("bn", period(tt.at), tt.maxLevels, force())
			if !ok {
				t.Fatal("bn not found")
			}
			if diff := cmp.Diff(tt.want, viewOf(chain)); diff != "" {
				t.Errorf("chain (-want +got):\n%s", diff)
			}
		})
	}
	if _, ok := casegraph.AssembleChain("nowhere", period("2012"), 8, force()); ok {
		t.Error("a unit not in the records: got a chain")
	}
}

func withOverlap(u unitView, o string) unitView {
	u.Overlap = o
	return u
}

func TestAssembleChainCycle(t *testing.T) {
	recs := casegraph.CommandRecords{Units: map[string]casegraph.UnitRecords{
		"a": {Unit: casegraph.Entity{ID: "a"}, SuperiorsRecorded: 1, Superiors: []casegraph.Hop{{Relation: casegraph.Relation{ID: "a-b"}, Entity: casegraph.Entity{ID: "b"}}}},
		"b": {Unit: casegraph.Entity{ID: "b"}, SuperiorsRecorded: 1, Superiors: []casegraph.Hop{{Relation: casegraph.Relation{ID: "b-a"}, Entity: casegraph.Entity{ID: "a"}}}},
	}}
	chain, _ := casegraph.AssembleChain("a", casegraph.Period{}, 8, recs)
	if len(chain.Levels) != 1 || chain.Levels[0][0].Unit.ID != "b" || len(chain.Levels[0][0].Superiors) != 1 || chain.Truncated {
		t.Errorf("a cycle: got %+v, want b once above a, its superior a listed, not again as a level", viewOf(chain))
	}
}

func TestAssembleIncident(t *testing.T) {
	incident := casegraph.Entity{ID: "shelling", Kind: casegraph.KindEvent, Attributes: casegraph.Attributes{StartDate: "2012-08-15"}}
	village := casegraph.Entity{ID: "village", Kind: casegraph.KindPlace}
	org := func(id string) casegraph.Entity { return casegraph.Entity{ID: id, Kind: casegraph.KindOrganization} }
	recs := casegraph.IncidentRecords{
		Incident: incident,
		Actors: map[string]casegraph.Entity{"bn": org("bn"), "south": org("south"), "north": org("north"),
			"gunner": {ID: "gunner", Kind: casegraph.KindPerson}},
		Ties: map[string][]casegraph.IncidentTie{
			"south":  {{Kind: casegraph.TieOperatesIn, Place: &village, Relation: casegraph.Relation{ID: "south-in", StartDate: "2012"}}},
			"north":  {{Kind: casegraph.TieOperatesIn, Place: &village, Relation: casegraph.Relation{ID: "north-in", StartDate: "2008", EndDate: "2011"}}},
			"bn":     {{Kind: casegraph.TieBasedAt, Place: &village, Relation: casegraph.Relation{ID: "bn-at"}}, {Kind: casegraph.TieAllegedlyPerpetrated, Relation: casegraph.Relation{ID: "bn-did"}}},
			"gunner": {{Kind: casegraph.TiePerpetrated, Relation: casegraph.Relation{ID: "gunner-did"}}},
		},
		Chains: force(),
	}
	got := casegraph.AssembleIncident(casegraph.NewWhoWasInCommandRequest("shelling"), recs)
	var units []string
	for _, u := range got.Units {
		line := u.Chain.Unit.Unit.ID + ":"
		for _, t := range u.Ties {
			line += " " + string(t.Kind) + " " + t.Overlap.String()
		}
		units = append(units, line)
	}
	want := []string{"bn: ALLEGEDLY_PERPETRATED CERTAIN BASED_AT POSSIBLE", "south: OPERATES_IN POSSIBLE"}
	if diff := cmp.Diff(want, units); diff != "" {
		t.Errorf("units (-want +got):\n%s", diff)
	}
	if len(got.People) != 1 || got.People[0].Actor.ID != "gunner" {
		t.Errorf("people: got %+v, want the gunner", got.People)
	}
	if len(got.Units[0].Chain.Levels) != 2 || got.Units[0].Chain.Levels[0][0].Unit.ID != "south" {
		t.Errorf("bn's chain at the incident's day: got %+v, want south, then the division", viewOf(got.Units[0].Chain))
	}
	one := casegraph.NewWhoWasInCommandRequest("shelling")
	one.MaxUnits = 1
	if cut := casegraph.AssembleIncident(one, recs); len(cut.Units) != 1 || !cut.Truncated {
		t.Errorf("maxUnits 1: got %d units, truncated %v; want 1, truncated", len(cut.Units), cut.Truncated)
	}
}

func TestIncidentPeriod(t *testing.T) {
	for _, tt := range []struct{ start, end, want string }{
		{"2012-08-15", "", "2012-08-15..2012-08-15"},
		{"", "2012-08", "2012-08..2012-08"},
		{"2012-08", "2012-09", "2012-08..2012-09"},
		{"", "", ".."},
	} {
		p := casegraph.IncidentPeriod(casegraph.Entity{Attributes: casegraph.Attributes{StartDate: tt.start, EndDate: tt.end}})
		if got := p.Start.String() + ".." + p.End.String(); got != tt.want {
			t.Errorf("%q to %q: got %s, want %s", tt.start, tt.end, got, tt.want)
		}
	}
}
