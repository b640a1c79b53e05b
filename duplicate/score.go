package duplicate

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/casegraph/casegraph"
)

// ReasonKind names a reason two entities may be the same.
type ReasonKind string

// The reasons.
const (
	ReasonName             ReasonKind = "NAME"              // the names are alike
	ReasonAlias            ReasonKind = "ALIAS"             // through an alias of one or both
	ReasonInitials         ReasonKind = "INITIALS"          // a word matched its initial
	ReasonTransliteration  ReasonKind = "TRANSLITERATION"   // a word matched another spelling
	ReasonWordOrder        ReasonKind = "WORD_ORDER"        // the words in another order
	ReasonSharedNeighbours ReasonKind = "SHARED_NEIGHBOURS" // related to the same entities
	ReasonSameKind         ReasonKind = "SAME_KIND"         // always: other kinds are never paired
	ReasonDates            ReasonKind = "DATES"             // compatible (or not) dates
	ReasonNationality      ReasonKind = "NATIONALITY"       // the same (or another) nationality
	ReasonIdentifier       ReasonKind = "IDENTIFIER"        // an equal identifier (or another of one issuer)
	ReasonBirthDate        ReasonKind = "BIRTH_DATE"        // compatible (or not) birth dates
	ReasonDeathDate        ReasonKind = "DEATH_DATE"        // compatible (or not) death dates
	ReasonBirthPlace       ReasonKind = "BIRTH_PLACE"       // alike (or other) birth places
	ReasonAddress          ReasonKind = "ADDRESS"           // alike (or other) addresses
	ReasonGender           ReasonKind = "GENDER"            // the same (or another) gender
	ReasonJurisdiction     ReasonKind = "JURISDICTION"      // organizations of the same (or another) jurisdiction
	ReasonNickname         ReasonKind = "NICKNAME"          // a word matched the name it is a nickname of
)

// ReasonKinds are the reasons, in the order the schema lists them.
func ReasonKinds() []ReasonKind {
	return []ReasonKind{ReasonName, ReasonAlias, ReasonInitials, ReasonTransliteration, ReasonWordOrder,
		ReasonSharedNeighbours, ReasonSameKind, ReasonDates, ReasonNationality, ReasonIdentifier,
		ReasonBirthDate, ReasonDeathDate, ReasonBirthPlace, ReasonAddress, ReasonGender, ReasonJurisdiction, ReasonNickname}
}

// The weights of the score (at most 1): the names' similarity counts for
// NameWeight, shared neighbours up to NeighbourWeight, the same kind
// SameKindWeight; compatible dates or the same nationality add a little,
// incompatible ones take much away.
const (
	NameWeight         = 0.6
	NeighbourWeight    = 0.2
	SameKindWeight     = 0.05
	CompatibleWeight   = 0.05
	IncompatibleWeight = -0.25
	MinNameSimilarity  = 0.75 // below it, a pair is not a candidate
)

// Reason is one reason in a candidate's score: its kind, what it
// saw, and what it added to the score (negative when it speaks against).
type Reason struct {
	Kind   ReasonKind
	Detail string
	Weight float64
}

// Pair is two entity ids, A before B.
type Pair struct{ A, B string }

// OrderedPair is the pair of a and b, the smaller id first.
func OrderedPair(a, b string) Pair {
	if b < a {
		a, b = b, a
	}
	return Pair{A: a, B: b}
}

// Key is the pair's key where one string is needed (the dismissals').
func (p Pair) Key() string { return p.A + "\x1f" + p.B }

// Candidate is a pair likely to be the same entity, with its
// score (0 to 1) and reasons.
type Candidate struct {
	Pair
	Score   float64
	Reasons []Reason
	// A and B's entities, filled by the store for a page.
	EntityA, EntityB casegraph.Entity
}

// SharedNeighbour is a neighbour of both entities of a pair, by its degree.
type SharedNeighbour struct{ Degree int64 }

// ScoreNames compares the names and aliases of a and b: the best match of
// any of a's names with any of b's, with its reasons; ok is false when no
// pair reaches MinNameSimilarity. The entity's own name counts before an
// alias on a tie.
func ScoreNames(a, b casegraph.Entity) (reasons []Reason, ok bool) {
	var t nameSlabs
	x, y := NewSubject(a), NewSubject(b)
	best, ok := bestNames(t.subjectNames(x), t.subjectNames(y))
	if !ok {
		return nil, false
	}
	return nameReasons(x, y, best), true
}

// subjectNames are the words of a subject's name and aliases, in order
// (its name first: the text of the k-th is Subject.name(k)).
func (t *nameSlabs) subjectNames(s Subject) []nameWords {
	aliases := s.field(fieldAliases)
	out := t.names.take(1 + strings.Count(aliases, SubjectListSeparator))
	out[0] = t.words(casegraph.Fold(s.field(fieldName)))
	i := 1
	eachValue(aliases, func(a string) {
		out[i] = t.words(casegraph.Fold(a))
		i++
	})
	return out
}

// nameScore is the best match of two entities' names: how alike, and
// which of each one's names.
type nameScore struct {
	match NameMatch
	a, b  int
}

// bestNames finds the best match of any of as with any of bs; ok is false
// below MinNameSimilarity. It writes no text: most pairs a run compares
// are not kept (see nameReasons).
func bestNames(as, bs []nameWords) (nameScore, bool) {
	var best nameScore
	for i, x := range as {
		for j, y := range bs {
			if m := compareNames(x, y); m.Similarity > best.match.Similarity {
				best = nameScore{m, i, j}
			}
		}
	}
	return best, best.match.Similarity >= MinNameSimilarity
}

// nameReasons are the reasons of a name match of a and b.
func nameReasons(a, b Subject, s nameScore) []Reason {
	x, y, best := a.name(s.a), b.name(s.b), s.match
	kind := ReasonName
	if s.a > 0 || s.b > 0 { // an alias
		kind = ReasonAlias
	}
	detail := fmt.Sprintf("%q and %q: %.0f%% alike", x, y, 100*best.Similarity)
	if best.Similarity < MinNameSimilarity {
		detail = fmt.Sprintf("%q and %q: not alike (paired by an identifier)", x, y)
	}
	reasons := []Reason{{Kind: kind, Weight: round3(NameWeight * best.Similarity), Detail: detail}}
	for _, r := range []struct {
		on     bool
		kind   ReasonKind
		detail string
	}{
		{best.Initials, ReasonInitials, "a word matches its initial"},
		{best.Sound || best.Spelling, ReasonTransliteration, "a word matches another spelling of it"},
		{best.Reordered, ReasonWordOrder, "the words come in another order"},
		{best.Nickname, ReasonNickname, "a word is a nickname of the other's"},
	} {
		if r.on {
			reasons = append(reasons, Reason{Kind: r.kind, Detail: r.detail})
		}
	}
	return reasons
}

// Score completes a candidate whose names ScoreNames found alike: the
// same kind, the neighbours both have (each counting less the more
// neighbours it has, as in Adamic-Adar), compatible dates and
// nationality. The score is the sum of the reasons' weights, within 0 and 1.
func Score(a, b casegraph.Entity, names []Reason, shared []SharedNeighbour) Candidate {
	c := Candidate{Pair: OrderedPair(a.ID, b.ID)}
	c.Reasons = append(c.Reasons, names...)
	c.Reasons = append(c.Reasons, Reason{Kind: ReasonSameKind, Detail: "both are " + string(a.Kind), Weight: SameKindWeight})
	if len(shared) > 0 {
		var aa float64
		for _, n := range shared {
			aa += 1 / math.Log(1+float64(max(n.Degree, 2)))
		}
		c.Reasons = append(c.Reasons, Reason{Kind: ReasonSharedNeighbours,
			Detail: fmt.Sprintf("%d shared neighbour(s)", len(shared)), Weight: round3(NeighbourWeight * (1 - math.Exp(-aa)))})
	}
	if r, ok := dateReason(a, b); ok {
		c.Reasons = append(c.Reasons, r)
	}
	c.Reasons = append(c.Reasons, attributeReasons(a, b)...)
	for _, r := range c.Reasons {
		c.Score += r.Weight
	}
	c.Score = round3(squash(c.Score))
	return c
}

// Knee is where the score stops being the sum of the weights: above it,
// the score nears 1 without reaching it, so that pairs with much evidence
// still rank by how much (with a clamp at 1, 825 of the first 2,500 of
// BenchmarkSuggestions shared one score).
const Knee = 0.8

// squash is the score of a sum of weights: 0 below 0, the sum up to Knee,
// then Knee + (1 - Knee)(1 - e^-(sum-Knee)/(1-Knee)), which has the
// sum's slope at the knee.
func squash(sum float64) float64 {
	if sum <= Knee {
		return max(0, sum)
	}
	return Knee + (1-Knee)*(1-math.Exp(-(sum-Knee)/(1-Knee)))
}

// dateReason compares the dates of two events (start to end) or two
// documents (publication): the periods they allow meet, or not.
func dateReason(a, b casegraph.Entity) (Reason, bool) {
	fa, la, oka := period(a)
	fb, lb, okb := period(b)
	if !oka || !okb {
		return Reason{}, false
	}
	if fa <= lb && fb <= la {
		return Reason{Kind: ReasonDates, Detail: "their dates are compatible", Weight: CompatibleWeight}, true
	}
	return Reason{Kind: ReasonDates, Detail: "their dates cannot be the same", Weight: IncompatibleWeight}, true
}

// period is the first and last day an entity's dates allow.
func period(e casegraph.Entity) (first, last string, ok bool) {
	start, end := e.StartDate, e.EndDate
	if e.Kind == casegraph.KindDocument {
		start, end = e.PublishedAt, e.PublishedAt
	}
	if start == "" && end == "" {
		return "", "", false
	}
	if start == "" {
		start = end
	}
	if end == "" {
		end = "9999" // an event that has not ended
	}
	s, err1 := casegraph.ParsePartialDate(start)
	t, err2 := casegraph.ParsePartialDate(end)
	if err1 != nil || err2 != nil {
		return "", "", false
	}
	return s.Earliest(), t.Latest(), true
}

func round3(f float64) float64 { return math.Round(f*1000) / 1000 }

// Rank orders candidates by score, highest first, then by pair.
func Rank(cs []Candidate) {
	slices.SortFunc(cs, func(x, y Candidate) int {
		switch {
		case x.Score > y.Score:
			return -1
		case x.Score < y.Score:
			return 1
		}
		if c := strings.Compare(x.A, y.A); c != 0 {
			return c
		}
		return strings.Compare(x.B, y.B)
	})
}

// ScoreKey is a candidate's place in Rank' order, for
// cursors: its score and pair.
func ScoreKey(c Candidate) string {
	return fmt.Sprintf("%.3f", c.Score)
}

// After says whether c comes after the candidate at (score, a, b)
// in Rank' order.
func After(c Candidate, score float64, p Pair) bool {
	if c.Score != score {
		return c.Score < score
	}
	if c.A != p.A {
		return c.A > p.A
	}
	return c.B > p.B
}
