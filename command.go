package casegraph

import (
	"cmp"
	"slices"
)

// Who was in command: a unit's chain of command at a date (its superiors
// level by level, through SUBORDINATE_TO relations whose period may hold
// the date, each with the people whose COMMANDS tenure may hold it), and
// the units tied to an incident, each with its chain at the incident's
// date. The store reads the records (CommandRecords); the rules that make
// them a chain are here, pure: which relations count and how surely
// (Period.Overlaps), where a chain ends and why, and what a gap is.

// Limits and defaults of the command queries.
const (
	DefaultCommandLevels = 8  // CommandChainRequest.MaxLevels when a client gives none
	MaxCommandLevels     = 12 // the most levels above a unit a chain reads
	// MaxCommandUnits bounds the units one request reads: every unit of
	// every chain (the statement reads one more, to say it was cut).
	MaxCommandUnits = 500
	// DefaultIncidentUnits and MaxIncidentUnits bound the units tied to
	// an incident that whoWasInCommand returns.
	DefaultIncidentUnits = 50
	MaxIncidentUnits     = 200
	// IncidentPlaceDepth is how far up LOCATED_IN an incident's place is
	// followed (a village, its district, its governorate, its country):
	// a unit operating in any of them operated at the incident's place.
	IncidentPlaceDepth = 3
)

// CommandRead says what a command query reads besides the units,
// people and relations it must (as the GraphQL selection under it asks,
// the way EntityRead and PathRead do): the sources they cite, and which of
// their properties. It is not a client's argument, so it is not part of
// the requests.
type CommandRead struct {
	// WithSources asks for the sources its entities and relations cite;
	// without it the statement reads none. RelationSourcesOnly narrows it
	// to those its relations cite (a selection of sources on hops and
	// ties only).
	WithSources, RelationSourcesOnly bool
	// Properties names the properties read of every entity and relation
	// (nil: every one). The assembly's own needs come whatever it names:
	// the relations' and the incident's dates.
	Properties *Properties
}

// CommandChainRequest asks for the chain of command of a unit (an
// Organization) at a date: its superiors up to MaxLevels levels above it.
type CommandChainRequest struct {
	UnitID    string
	At        PartialDate
	MaxLevels int // 1 to MaxCommandLevels
	// GradeFilter keeps the hops (subordinations, tenures) one of whose
	// citations meets both minimums; the others are left out, as if not
	// recorded.
	GradeFilter
}

// NewCommandChainRequest is the chain of unitID at at with the default
// depth, DefaultCommandLevels.
func NewCommandChainRequest(unitID string, at PartialDate) CommandChainRequest {
	return CommandChainRequest{UnitID: unitID, At: at, MaxLevels: DefaultCommandLevels, GradeFilter: DefaultGradeFilter()}
}

// Validate checks the unit's id, that a date is given and the depth.
func (q CommandChainRequest) Validate() error {
	if err := ValidateID("unitId", q.UnitID); err != nil {
		return err
	}
	if q.At.IsZero() {
		return Errorf(CodeBadUserInput, "at is required: a chain of command is read at a date")
	}
	if err := q.GradeFilter.Validate(); err != nil {
		return err
	}
	return validateCommandLevels(q.MaxLevels)
}

// Period is the request's date as a period of one (partial) date.
func (q CommandChainRequest) Period() Period { return Period{Start: q.At, End: q.At} }

func validateCommandLevels(n int) error {
	if n < 1 || n > MaxCommandLevels {
		return Errorf(CodeBadUserInput, "maxLevels must be between 1 and %d, not %d", MaxCommandLevels, n)
	}
	return nil
}

// WhoWasInCommandRequest asks who was in command of the units tied to an
// incident (an Event), at the incident's date.
type WhoWasInCommandRequest struct {
	IncidentID string
	MaxLevels  int // 1 to MaxCommandLevels, of each unit's chain
	MaxUnits   int // 1 to MaxIncidentUnits tied units
	// GradeFilter keeps the ties and the chains' hops one of whose
	// citations meets both minimums; the others are left out, as if not
	// recorded.
	GradeFilter
}

// NewWhoWasInCommandRequest is the request for incidentID with the
// defaults: DefaultCommandLevels, DefaultIncidentUnits.
func NewWhoWasInCommandRequest(incidentID string) WhoWasInCommandRequest {
	return WhoWasInCommandRequest{IncidentID: incidentID, MaxLevels: DefaultCommandLevels, MaxUnits: DefaultIncidentUnits,
		GradeFilter: DefaultGradeFilter()}
}

// Validate checks the incident's id and the limits.
func (q WhoWasInCommandRequest) Validate() error {
	if err := ValidateID("incidentId", q.IncidentID); err != nil {
		return err
	}
	if err := validateCommandLevels(q.MaxLevels); err != nil {
		return err
	}
	if err := q.GradeFilter.Validate(); err != nil {
		return err
	}
	if q.MaxUnits < 1 || q.MaxUnits > MaxIncidentUnits {
		return Errorf(CodeBadUserInput, "maxUnits must be between 1 and %d, not %d", MaxIncidentUnits, q.MaxUnits)
	}
	return nil
}

// Record says what the graph holds of something a chain asks about (a
// unit's superiors, its commanders) at the chain's date.
type Record string

// The records.
const (
	// RecordKnown: at least one relation may hold at the date.
	RecordKnown Record = "KNOWN"
	// RecordNotCovered: relations are recorded, but none of their
	// periods can hold the date (a gap in the record, not bridged).
	RecordNotCovered Record = "NOT_COVERED"
	// RecordNoneRecorded: no such relation is recorded at any date (that
	// the caller may read).
	RecordNoneRecorded Record = "NONE_RECORDED"
)

// Records lists the records, KNOWN first.
func Records() []Record { return []Record{RecordKnown, RecordNotCovered, RecordNoneRecorded} }

// CommandRecords are what the store reads for a chain: each unit of the
// chain (the units asked about, and every superior within the levels
// asked for) by id, with its relations that may hold at the date.
type CommandRecords struct {
	Units map[string]UnitRecords
	// Truncated says the store stopped at MaxCommandUnits units.
	Truncated bool
}

// UnitRecords are one unit's records: its SUBORDINATE_TO relations and
// its commanders' COMMANDS relations whose periods may hold the date (the
// store may return more, which the chain leaves out by Period.Overlaps),
// and how many of each are recorded at any date.
type UnitRecords struct {
	Unit               Entity
	Superiors          []Hop // SUBORDINATE_TO, the unit at the from end
	SuperiorsRecorded  int
	Commanders         []Hop // COMMANDS, the unit at the to end
	CommandersRecorded int
}

// Hop is a relation of a chain and the entity at its other end: a
// superior unit, or a commander.
type Hop struct {
	Relation Relation
	Entity   Entity
	// Overlap is how surely the relation's period holds the chain's
	// date (never OverlapNone in a chain).
	Overlap Overlap
}

// Period is a relation's period, as its partial dates give it (either
// end may be unknown).
func (r Relation) Period() Period {
	s, _ := ParsePartialDate(r.StartDate) // a stored date is valid; a bad one reads as unknown
	e, _ := ParsePartialDate(r.EndDate)
	return Period{Start: s, End: e}
}

// CommandChain is a unit's chain of command at a date.
type CommandChain struct {
	Unit   ChainUnit
	Period Period
	// Levels are the unit's superiors, level by level: Levels[0] holds
	// those directly above it, Levels[1] theirs, and so on. A unit is in
	// the level nearest to the unit asked about, once.
	Levels [][]ChainUnit
	// Truncated says the chain was cut: units at the last level have
	// superiors that were not read (MaxLevels), or the store read its
	// most units.
	Truncated bool
}

// ChainUnit is one unit of a chain, with its commanders and its
// superiors at the chain's date.
type ChainUnit struct {
	Unit Entity
	// Overlap is how surely the unit is in the chain at the date: CERTAIN
	// when every hop of a path up to it is, else POSSIBLE (the surest of
	// its paths; the unit asked about is CERTAIN).
	Overlap Overlap
	// Commanders are those whose tenure may hold the date, the surest
	// first; CommandersRecord says what the graph holds when there are
	// none (NOT_COVERED, NONE_RECORDED).
	Commanders       []Hop
	CommandersRecord Record
	// Superiors are its SUBORDINATE_TO relations that may hold the date
	// (several when a change of subordination falls within it), the
	// surest first; SuperiorsRecord says why there are none. A unit with
	// none ends its branch of the chain.
	Superiors       []Hop
	SuperiorsRecord Record
}

// AssembleChain builds the chain of the unit root at period from the
// records the store read: level by level, following the superiors whose
// relations may hold the period (Period.Overlaps is not NONE), at most
// maxLevels levels above root. Relations that cannot hold it are left
// out, and a unit (or commander) with none says whether others are
// recorded (NOT_COVERED) or none (NONE_RECORDED): gaps are not bridged.
// A superior already in the chain (a cycle in the records) is listed as
// a superior, not again as a unit. ok is false when root is not in recs.
func AssembleChain(root string, period Period, maxLevels int, recs CommandRecords) (chain CommandChain, ok bool) {
	units := map[string]ChainUnit{}
	unit := func(id string) (ChainUnit, bool) {
		if u, ok := units[id]; ok {
			return u, true
		}
		r, ok := recs.Units[id]
		if !ok {
			return ChainUnit{}, false
		}
		u := ChainUnit{Unit: r.Unit}
		u.Superiors, u.SuperiorsRecord = atPeriod(r.Superiors, r.SuperiorsRecorded, period)
		u.Commanders, u.CommandersRecord = atPeriod(r.Commanders, r.CommandersRecorded, period)
		units[id] = u
		return u, true
	}
	top, ok := unit(root)
	if !ok {
		return CommandChain{}, false
	}
	top.Overlap = OverlapCertain
	chain = CommandChain{Unit: top, Period: period, Truncated: recs.Truncated}
	seen := map[string]bool{root: true}
	frontier := []ChainUnit{top}
	for level := 0; len(frontier) > 0; level++ {
		// The next level: each superior once, at the surest of the ways
		// up to it from this level.
		next := map[string]Overlap{}
		var order []string
		for _, u := range frontier {
			for _, h := range u.Superiors {
				id := h.Entity.ID
				if seen[id] {
					continue
				}
				o := min(u.Overlap, h.Overlap)
				if prev, ok := next[id]; !ok {
					order = append(order, id)
					next[id] = o
				} else if o > prev {
					next[id] = o
				}
			}
		}
		if len(order) == 0 {
			break
		}
		if level == maxLevels {
			chain.Truncated = true
			break
		}
		frontier = frontier[:0:0]
		for _, id := range order {
			seen[id] = true
			u, ok := unit(id)
			if !ok {
				// Read beyond what the store could: its unit cap.
				chain.Truncated = true
				continue
			}
			u.Overlap = next[id]
			frontier = append(frontier, u)
		}
		slices.SortStableFunc(frontier, func(a, b ChainUnit) int {
			return cmp.Or(cmp.Compare(b.Overlap, a.Overlap), cmp.Compare(a.Unit.ID, b.Unit.ID))
		})
		chain.Levels = append(chain.Levels, frontier)
	}
	return chain, true
}

// atPeriod keeps the hops whose relation may hold period, with how
// surely, the surest first (then the latest start, then by id), and says
// what the record holds when none does.
func atPeriod(hops []Hop, recorded int, period Period) ([]Hop, Record) {
	var out []Hop
	for _, h := range hops {
		if h.Overlap = h.Relation.Period().Overlaps(period); h.Overlap != OverlapNone {
			out = append(out, h)
		}
	}
	slices.SortStableFunc(out, func(a, b Hop) int {
		return cmp.Or(cmp.Compare(b.Overlap, a.Overlap),
			-a.Relation.Period().Start.Compare(b.Relation.Period().Start),
			cmp.Compare(a.Relation.ID, b.Relation.ID))
	})
	switch {
	case len(out) > 0:
		return out, RecordKnown
	case recorded > 0 || len(hops) > 0:
		return out, RecordNotCovered
	}
	return out, RecordNoneRecorded
}

// TieKind is how a unit or a person is tied to an incident.
type TieKind string

// The ties, as the relation types that make them.
const (
	TiePerpetrated          TieKind = "PERPETRATED"
	TieAllegedlyPerpetrated TieKind = "ALLEGEDLY_PERPETRATED"
	TieResponsibleFor       TieKind = "RESPONSIBLE_FOR"
	TieParticipatedIn       TieKind = "PARTICIPATED_IN"
	// TieOperatesIn and TieBasedAt tie a unit to the incident's place (or
	// a place it is located in), at the incident's date.
	TieOperatesIn TieKind = "OPERATES_IN"
	TieBasedAt    TieKind = "BASED_AT"
)

// TieKinds lists the ties, direct ones first.
func TieKinds() []TieKind {
	return []TieKind{TiePerpetrated, TieAllegedlyPerpetrated, TieResponsibleFor, TieParticipatedIn, TieOperatesIn, TieBasedAt}
}

// direct says the tie is a relation to the incident itself.
func (k TieKind) direct() bool { return k != TieOperatesIn && k != TieBasedAt }

// IncidentTie is one tie of a unit or person to an incident: the relation
// that makes it; for a tie to a place, the place and how surely the
// relation's period holds the incident's (Overlap; CERTAIN for a direct
// tie, whose relation names the incident).
type IncidentTie struct {
	Kind     TieKind
	Relation Relation
	Place    *Entity
	Overlap  Overlap
}

// IncidentRecords are what the store reads for whoWasInCommand.
type IncidentRecords struct {
	Incident Entity
	// Places are the incident's places and those they are located in
	// (up to IncidentPlaceDepth), by id.
	Places map[string]Entity
	// Ties are the relations that tie actors to the incident or to its
	// places (whose periods may hold the incident's), by the actor's id;
	// Actors the actors.
	Ties   map[string][]IncidentTie
	Actors map[string]Entity
	// Chains are the records of the tied units' chains.
	Chains CommandRecords
	// Truncated says the store read at most its limit of ties.
	Truncated bool
}

// IncidentPeriod is an incident's period: an event without an end took
// its start's day (or month, or year), as a timeline reads it.
func IncidentPeriod(e Entity) Period {
	s, _ := ParsePartialDate(e.StartDate)
	end, _ := ParsePartialDate(e.EndDate)
	switch {
	case end.IsZero():
		end = s
	case s.IsZero():
		s = end
	}
	return Period{Start: s, End: end}
}

// IncidentCommand is whoWasInCommand's answer.
type IncidentCommand struct {
	Incident Entity
	Period   Period
	// Units are the units tied to the incident, those tied directly
	// first, each with its chain at the incident's period.
	Units []IncidentUnit
	// People are the people tied to it directly (perpetrators, ...).
	People []IncidentActor
	// Truncated says MaxUnits (or the store's limits) cut the answer.
	Truncated bool
}

// IncidentUnit is a unit tied to an incident, how, and its chain.
type IncidentUnit struct {
	Ties  []IncidentTie
	Chain CommandChain
}

// IncidentActor is a person tied to an incident, and how.
type IncidentActor struct {
	Actor Entity
	Ties  []IncidentTie
}

// AssembleIncident builds whoWasInCommand's answer from the store's
// records: the ties whose relations may hold the incident's period, the
// units (organizations) with their chains, those tied directly first
// (then by how surely, then by id), at most q.MaxUnits; and the people.
func AssembleIncident(q WhoWasInCommandRequest, recs IncidentRecords) IncidentCommand {
	period := IncidentPeriod(recs.Incident)
	out := IncidentCommand{Incident: recs.Incident, Period: period, Truncated: recs.Truncated}
	type tied struct {
		actor Entity
		ties  []IncidentTie
	}
	var units []tied
	for id, ties := range recs.Ties {
		actor, ok := recs.Actors[id]
		if !ok {
			continue
		}
		var kept []IncidentTie
		for _, t := range ties {
			if t.Kind.direct() {
				t.Overlap = OverlapCertain
			} else if t.Overlap = t.Relation.Period().Overlaps(period); t.Overlap == OverlapNone {
				continue
			}
			kept = append(kept, t)
		}
		if len(kept) == 0 {
			continue
		}
		slices.SortStableFunc(kept, compareTies)
		if actor.Kind == KindOrganization {
			units = append(units, tied{actor, kept})
		} else {
			out.People = append(out.People, IncidentActor{Actor: actor, Ties: kept})
		}
	}
	byTies := func(a, b []IncidentTie, ai, bi string) int {
		return cmp.Or(compareTies(a[0], b[0]), cmp.Compare(ai, bi))
	}
	slices.SortFunc(units, func(a, b tied) int { return byTies(a.ties, b.ties, a.actor.ID, b.actor.ID) })
	slices.SortFunc(out.People, func(a, b IncidentActor) int { return byTies(a.Ties, b.Ties, a.Actor.ID, b.Actor.ID) })
	if len(units) > q.MaxUnits {
		units, out.Truncated = units[:q.MaxUnits], true
	}
	for _, u := range units {
		chain, ok := AssembleChain(u.actor.ID, period, q.MaxLevels, recs.Chains)
		if !ok {
			// The store's unit cap left it out: the unit alone.
			chain = CommandChain{Unit: ChainUnit{Unit: u.actor, Overlap: OverlapCertain}, Period: period, Truncated: true}
		}
		out.Units = append(out.Units, IncidentUnit{Ties: u.ties, Chain: chain})
	}
	return out
}

// compareTies orders ties: direct ones first (in TieKinds' order), then
// the surer, then by relation id.
func compareTies(a, b IncidentTie) int {
	return cmp.Or(cmp.Compare(slices.Index(TieKinds(), a.Kind), slices.Index(TieKinds(), b.Kind)),
		cmp.Compare(b.Overlap, a.Overlap), cmp.Compare(a.Relation.ID, b.Relation.ID))
}
