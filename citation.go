package casegraph

import (
	"fmt"
	"slices"
	"strings"

	"golang.org/x/text/unicode/norm"
)

// Evidence is graded as the NATO/Admiralty system (STANAG 2511) grades it:
// each source a reliability, A (completely reliable) to F (cannot be
// judged), and each item of information (here a citation: one source cited
// for one claim) a credibility, 1 (confirmed by other sources) to 6 (truth
// cannot be judged). A citation's grade is the two together, "B2".

// Reliability is a source's reliability, A to F.
type Reliability string

// The reliabilities, best first.
const (
	ReliabilityA Reliability = "A" // completely reliable
	ReliabilityB Reliability = "B" // usually reliable
	ReliabilityC Reliability = "C" // fairly reliable
	ReliabilityD Reliability = "D" // not usually reliable
	ReliabilityE Reliability = "E" // unreliable
	ReliabilityF Reliability = "F" // reliability cannot be judged
)

// DefaultReliability is the reliability of a source written without one:
// it cannot be judged. The schema's default for SourceInput.reliability
// spells it too (graph's TestSchemaDefaults holds them equal).
const DefaultReliability = ReliabilityF

// Reliabilities lists the reliabilities, best first.
func Reliabilities() []Reliability {
	return []Reliability{ReliabilityA, ReliabilityB, ReliabilityC, ReliabilityD, ReliabilityE, ReliabilityF}
}

// ValidateReliability refuses anything but A to F (BAD_USER_INPUT).
func ValidateReliability(field string, r Reliability) error {
	if !slices.Contains(Reliabilities(), r) {
		return Errorf(CodeBadUserInput, "%s %q is not a reliability grade A to F (A completely reliable ... F cannot be judged)", field, truncate(string(r), 10))
	}
	return nil
}

// AtLeast reports whether r is as reliable as min or more (A is the most).
func (r Reliability) AtLeast(min Reliability) bool { return r <= min }

// Credibility is a citation's credibility, 1 to 6.
type Credibility int

// The credibilities, best first. Confirmed is never typed: it is computed
// (GradeCitations).
const (
	CredibilityConfirmed  Credibility = 1 // confirmed by other (independent) sources
	CredibilityProbable   Credibility = 2 // probably true
	CredibilityPossible   Credibility = 3 // possibly true
	CredibilityDoubtful   Credibility = 4 // doubtful
	CredibilityImprobable Credibility = 5 // improbable
	CredibilityUnknown    Credibility = 6 // truth cannot be judged
)

// DefaultCredibility is the typed credibility of a citation written
// without one: its truth cannot be judged. The schema's default for
// CitationInput.credibility spells it too.
const DefaultCredibility = CredibilityUnknown

// CorroboratingCredibility is the worst typed credibility of a citation
// that confirms another (independent) one: "possibly true" or better.
const CorroboratingCredibility = CredibilityPossible

// AtLeast reports whether c is as credible as min or more (1 is the most).
func (c Credibility) AtLeast(min Credibility) bool { return c <= min }

// ValidateCredibility checks a credibility a filter names: 1 to 6.
func ValidateCredibility(field string, c Credibility) error {
	if c < CredibilityConfirmed || c > CredibilityUnknown {
		return Errorf(CodeBadUserInput, "%s %d is not a credibility grade 1 to 6", field, c)
	}
	return nil
}

// Grade is a citation's effective grade: its source's reliability and its
// effective credibility, as "B2". It is stored beside each citation (and
// kept current when a cited source changes), so that a path filter reads
// it without going to the source.
type Grade string

// GradeOf writes a grade.
func GradeOf(r Reliability, c Credibility) Grade { return Grade(fmt.Sprintf("%s%d", r, c)) }

// Reliability is the grade's reliability (F for a grade not computed).
func (g Grade) Reliability() Reliability {
	if len(g) != 2 {
		return DefaultReliability
	}
	return Reliability(g[:1])
}

// Credibility is the grade's credibility (6 for a grade not computed).
func (g Grade) Credibility() Credibility {
	if len(g) != 2 || g[1] < '1' || g[1] > '6' {
		return CredibilityUnknown
	}
	return Credibility(g[1] - '0')
}

// Meets reports whether the grade is at least min reliability and min
// credibility (either "" or 0: no minimum).
func (g Grade) Meets(minReliability Reliability, minCredibility Credibility) bool {
	return (minReliability == "" || g.Reliability().AtLeast(minReliability)) &&
		(minCredibility == 0 || g.Credibility().AtLeast(minCredibility))
}

// Citation is one source cited for one claim (a relation or an entity),
// with the words it has for the claim, where in it they are, and how
// credible the analyst judged them. A claim may cite several sources,
// each with its own quote, and one source more than once (two pages of
// one report).
type Citation struct {
	SourceID string `json:"sourceId"`
	Quote    string `json:"quote,omitempty"`
	// Locator says where in the source: a short free text such as
	// "p. 12", "para 4", "00:12:31" or "chars 120-180".
	Locator string `json:"locator,omitempty"`
	// Credibility is the typed credibility, 2 to 6 (Normalize gives
	// DefaultCredibility to one without); 1 is computed, never typed.
	Credibility Credibility `json:"credibility,omitempty"`
	// Grade is the effective grade (GradeCitations), as stored; read only.
	Grade Grade `json:"grade,omitempty"`
}

// Limits on citations.
const (
	MaxLocatorLength = 100
	MaxCitations     = MaxSourceIDs // the most citations of one claim
)

var locatorRule = TextRule{Max: MaxLocatorLength}

// EffectiveCredibility is the citation's credibility as graded: 1 when
// GradeCitations found it confirmed, else the typed one.
func (c Citation) EffectiveCredibility() Credibility {
	if c.Grade != "" {
		return c.Grade.Credibility()
	}
	return c.Credibility
}

// CitationsOf is how a claim written the old way (a list of sources and
// at most one quote, before citations) is cited: each source once, in
// order, with DefaultCredibility, and the quote on the first source's
// citation only. The old shape could not say which source the quote was
// from; Casegraph's writers and the seed gave the quoted source first, so
// the quote stays with it, and the other sources are cited without words
// (never given a quote they may not hold). Nothing is lost: every source
// stays cited, and the quote is kept once.
func CitationsOf(sourceIDs []string, quote string) []Citation {
	out := make([]Citation, 0, len(sourceIDs))
	for i, id := range sourceIDs {
		c := Citation{SourceID: id, Credibility: DefaultCredibility}
		if i == 0 {
			c.Quote = quote
		}
		out = append(out, c)
	}
	return out
}

// LegacyQuote is what the old single quote of a claim reads as: the first
// citation's quote that is not empty.
func LegacyQuote(cs []Citation) string {
	for _, c := range cs {
		if c.Quote != "" {
			return c.Quote
		}
	}
	return ""
}

// OldShape says a claim's citations as the shape before citations did
// (sources, and at most one quote), when they say nothing more: each
// source cited once, in order, with the quote (if any) on the first, no
// locator and the default credibility, as CitationsOf makes them. ok is
// false when they say more (a quote on another source, a locator, a
// credibility given). Grades are not compared: they are derived.
func OldShape(cs []Citation) (sourceIDs []string, quote string, ok bool) {
	sourceIDs, quote = CitedSourceIDs(cs), LegacyQuote(cs)
	old := CitationsOf(sourceIDs, quote)
	if len(old) != len(cs) {
		return sourceIDs, quote, false
	}
	for i, c := range cs {
		c.Grade = ""
		if c.Credibility == 0 {
			c.Credibility = DefaultCredibility
		}
		if c != old[i] {
			return sourceIDs, quote, false
		}
	}
	return sourceIDs, quote, true
}

// CitedSourceIDs are the sources cited, each once, in order.
func CitedSourceIDs(cs []Citation) []string {
	if len(cs) == 0 {
		return nil
	}
	ids := make([]string, len(cs))
	for i, c := range cs {
		ids[i] = c.SourceID
	}
	return uniqueExcept(ids, "")
}

// normalizeCitations settles a claim's citations from what a write gave:
// citations, or (the old way) source ids and a quote, which become
// citations (CitationsOf); both at once is refused. Each citation gets
// DefaultCredibility when it has none, its text in NFC, and the same
// citation given twice is cited once.
func normalizeCitations(cs []Citation, sourceIDs []string, quote string) ([]Citation, error) {
	if len(cs) > 0 && (len(sourceIDs) > 0 || quote != "") {
		same := slices.Equal(CitedSourceIDs(cs), uniqueExcept(sourceIDs, "")) && (quote == "" || quote == LegacyQuote(cs))
		if !same {
			return nil, Errorf(CodeBadUserInput, "give citations, or sourceIds and quote (each source cited, the quote on the first), not both")
		}
	}
	if len(cs) == 0 {
		if err := validateSourceIDs(sourceIDs); err != nil {
			return nil, err
		}
		cs = CitationsOf(sourceIDs, quote)
	}
	out := make([]Citation, 0, len(cs))
	for _, c := range cs {
		c.Quote, c.Locator = norm.NFC.String(c.Quote), norm.NFC.String(c.Locator)
		if c.Credibility == 0 {
			c.Credibility = DefaultCredibility
		}
		c.Grade = ""
		if !slices.ContainsFunc(out, func(o Citation) bool { return o == c }) {
			out = append(out, c)
		}
	}
	return out, validateCitations(out)
}

// validateCitations checks a claim's citations: at least one, at most
// MaxCitations, each of a valid source id, a quote and a locator within
// their limits, and a typed credibility of 2 to 6.
func validateCitations(cs []Citation) error {
	if len(cs) == 0 {
		return Errorf(CodeBadUserInput, "citations: cite at least one source")
	}
	if len(cs) > MaxCitations {
		return Errorf(CodeBadUserInput, "%d citations; the limit is %d", len(cs), MaxCitations)
	}
	for i, c := range cs {
		at := fmt.Sprintf("citations[%d]", i)
		if err := ValidateID(at+".sourceId", c.SourceID); err != nil {
			return err
		}
		if err := quoteRule.Check(at+".quote", c.Quote); err != nil {
			return err
		}
		if err := locatorRule.Check(at+".locator", c.Locator); err != nil {
			return err
		}
		if c.Credibility == CredibilityConfirmed {
			return Errorf(CodeBadUserInput, "%s.credibility: 1 (confirmed by other sources) is not typed; it is computed when an independent source with a credibility of %d or better cites the same claim", at, CorroboratingCredibility)
		}
		if c.Credibility < CredibilityProbable || c.Credibility > CredibilityUnknown {
			return Errorf(CodeBadUserInput, "%s.credibility %d is not a credibility grade 2 to 6", at, c.Credibility)
		}
	}
	return nil
}

// Independent reports whether two sources are independent of each other
// for corroboration: different sources whose publishers are both known and
// differ (PublisherKey: as search compares names, case, accents, spacing
// and punctuation aside). Two articles of one newspaper, or a source of
// unknown publisher, confirm nothing.
func Independent(a, b Source) bool {
	ka, kb := PublisherKey(a.Publisher), PublisherKey(b.Publisher)
	return a.ID != b.ID && ka != "" && kb != "" && ka != kb
}

// PublisherKey is a publisher as independence compares it: its words,
// folded ("The Guardian", "the guardian." are one publisher).
func PublisherKey(publisher string) string {
	return strings.Join(Words(publisher), " ")
}

// GradeCitations sets the effective grade of each of a claim's citations,
// from the sources they cite (by id; one missing grades as F): the
// source's reliability, and the citation's typed credibility, or 1
// (confirmed) when another citation of the same claim cites an
// independent source (Independent) with a typed credibility of
// CorroboratingCredibility or better. The citation confirmed need not be
// credible itself: the claim is, from elsewhere.
func GradeCitations(cs []Citation, sources map[string]Source) []Citation {
	out := slices.Clone(cs)
	for i, c := range cs {
		src, ok := sources[c.SourceID]
		reliability := DefaultReliability
		if ok && src.Reliability != "" {
			reliability = src.Reliability
		}
		credibility := c.Credibility
		if credibility == 0 {
			credibility = DefaultCredibility
		}
		for j, o := range cs {
			other, found := sources[o.SourceID]
			if j != i && ok && found && o.Credibility != 0 && o.Credibility.AtLeast(CorroboratingCredibility) && Independent(src, other) {
				credibility = CredibilityConfirmed
				break
			}
		}
		out[i].Grade = GradeOf(reliability, credibility)
	}
	return out
}

// Grades are the citations' grades, in order.
func Grades(cs []Citation) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = string(c.Grade)
	}
	return out
}

// GradeFilter keeps claims (a hop of a path, a relation of a
// neighbourhood, a commander's tenure) by the grades of their citations:
// one qualifies when at least one of its citations meets both minimums.
// The zero filter keeps everything. PathFilter carries one; the command
// queries can take one too.
type GradeFilter struct {
	MinReliability Reliability // "" for no minimum
	MinCredibility Credibility // 0 for no minimum
}

// DefaultGradeFilter is the grade filter of a request that gives none:
// the weakest grades, F and 6, which every citation meets (the schema's
// defaults for PathFilter.minReliability and minCredibility spell them).
func DefaultGradeFilter() GradeFilter {
	return GradeFilter{MinReliability: ReliabilityF, MinCredibility: CredibilityUnknown}
}

// Set reports whether the filter asks for more than every citation meets
// (a minimum of F, or of 6, or none, asks for nothing).
func (f GradeFilter) Set() bool {
	return f.reliabilitySet() || f.credibilitySet()
}

func (f GradeFilter) reliabilitySet() bool {
	return f.MinReliability != "" && f.MinReliability != ReliabilityF
}

func (f GradeFilter) credibilitySet() bool {
	return f.MinCredibility != 0 && f.MinCredibility != CredibilityUnknown
}

// Validate checks the filter's minimums: A to F, 1 to 6.
func (f GradeFilter) Validate() error {
	if f.MinReliability != "" {
		if err := ValidateReliability("minReliability", f.MinReliability); err != nil {
			return err
		}
	}
	if f.MinCredibility != 0 {
		return ValidateCredibility("minCredibility", f.MinCredibility)
	}
	return nil
}

// Keeps reports whether a claim of these citations qualifies: one of them
// meets both minimums (every claim, when the filter is not set).
func (f GradeFilter) Keeps(cs []Citation) bool {
	if !f.Set() {
		return true
	}
	return slices.ContainsFunc(cs, func(c Citation) bool { return c.Grade.Meets(f.MinReliability, f.MinCredibility) })
}
