package duplicate

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/casegraph/casegraph"
)

// Evidence beyond names: what identifies a person or an organization
// (casegraph.Attributes) speaks for a pair when it agrees and against it
// when it conflicts, each field once, with a reason that says what was
// compared. A field missing on either side says nothing.
//
// The weights are in the score's units (the sum of the reasons' weights
// is the score, up to Knee): each is about 0.02 for each bit of its
// log-likelihood ratio, log2(m/u), where m is the share of true pairs
// that have the reason and u the share of the other candidates of a run.
// BenchmarkSuggestions (measure_test.go, with -v) counts them on 252,500
// generated entities (101,990 people) with 2,500 planted second records,
// among 2,476 true pairs and 12,899 other candidates:
//
//	reason                    m       u        bits   weight
//	BIRTH_DATE same year      0.064   0.0023   +4.8   +0.1
//	BIRTH_DATE a typo         0.047   0.00054  +6.4   +0.13
//	BIRTH_DATE same month     0.105   0.00031  +8.4   +0.17
//	BIRTH_DATE same day       0.204   0        >12.6  +0.25 (capped)
//	BIRTH_DATE other          0.022   0.64     -4.9   -0.1
//	GENDER same, other        0.51/0.0053  0.52/0.20  0/-5.2  0/-0.1
//	NATIONALITY same, other   0.65/0.025   0.086/0.91 +2.9/-5.2  +0.06/-0.1
//	BIRTH_PLACE alike, other  0.19/0.044   0.013/0.28 +3.9/-2.7  +0.08/-0.05
//	ADDRESS alike, other      0.15/0.025   0.0007/0.12 +7.7/-2.3 +0.15/-0.05
//	IDENTIFIER equal          0.37    0.00023  +10.6  +0.35 (see below)
//	IDENTIFIER equal, 2 issuers 0     0.0012   <-3    +0.1
//	IDENTIFIER other, issuer  0       0.026    <-5.7  -0.35
//
// With identifier noise in the second records (8% of the identifiers
// they keep with a typo, 8% of their passports renewed: plantfields.go),
// among 2,472 true pairs and 12,899 others of the same run:
//
//	IDENTIFIER a typo         0.034   0        >8.8   +0.18
//	IDENTIFIER other passport 0.010   0.018    -0.8   -0.07 (see below)
//	IDENTIFIER other, issuer  0       0.0078   <-6.6  -0.35 (not a passport)
//
// Scored as another number (-0.35), the typos and renewals cost 0.015 of
// precision and recall (0.953 to 0.938); as a typo (+0.18) and a passport
// that may be renewed (-0.07), 0.001 (0.952). Another passport's -0.8 bits are counted
// over all candidates, and so also say that both records carry a
// passport of one issuer, which NATIONALITY already rewards: of pairs
// that both do, a true one holds another number one time in 12 and a
// chance namesake always, -3.6 bits, -0.07.
//
// An equal identifier weighs more than its measured bits (0.21): the
// three other candidates that had one were chance collisions of the
// generator's random numbers, which records of one issuer do not have,
// and one such field must rank a pair above any names-only pair (it
// lifts the names that blocking pairs only by their identifier). Equal
// values of two issuers (15 candidates, no true pair: the generator's
// 8-digit registration numbers of two countries) weigh little. bench/README.md ("Duplicate
// suggestions") has the measurement.
const (
	// An equal identifier of one type (normalized: case, spaces, dashes,
	// dots and slashes do not count) is near-certain; a further equal one
	// adds a little. A different value of the same type from the same
	// issuer is strongly against (a person has one national id, one
	// registration number), a passport's much less (IdentifierRenewedWeight);
	// from an unknown issuer, less so; from another issuer, nothing (two
	// countries' passports); one character off, for (IdentifierTypoWeight).
	IdentifierEqualWeight        = 0.35
	IdentifierFurtherWeight      = 0.05
	IdentifierConflictWeight     = -0.35
	IdentifierUnsureIssuerWeight = -0.1
	IdentifierOtherIssuerWeight  = 0.1

	// A value one character from the other's (a digit off, or two
	// neighbours swapped), of the same type and of the same or an unknown
	// issuer, is a likely typo of one number: for the pair, though less
	// than an equal one (registers issue numbers in sequence, so a family
	// applying together can hold numbers one digit apart). It is never the
	// strong conflict another number is. Values shorter than
	// minTypoLength are never typos (too many numbers are one character
	// from each other).
	IdentifierTypoWeight = 0.18
	minTypoLength        = 5

	// A passport is renewed every five to ten years, under a new number:
	// another passport number of the same issuer is against, but not
	// strongly (two records of one person years apart often hold two
	// passports); other types keep IdentifierConflictWeight (a national
	// id, a service or a registration number is for life).
	IdentifierRenewedWeight = -0.07

	// A birth date: the same day, the same month (one of them only knows
	// the month), the same year (one only knows the year), a likely typo
	// of the same day (day and month swapped, one digit off), or dates
	// that cannot be the same.
	BirthDayWeight      = 0.25
	BirthMonthWeight    = 0.17
	BirthYearWeight     = 0.1
	BirthTypoWeight     = 0.13
	BirthConflictWeight = -0.1

	// A death date weighs half a birth date: fewer records have one, and
	// sources disagree more about it.
	deathShare = 0.5

	// An organization's founding or dissolution date weighs as a death
	// date.
	orgDateShare = 0.5

	// Gender: the same says little (half of everyone); another is
	// strongly against.
	GenderSameWeight     = 0
	GenderConflictWeight = -0.1

	// Nationality and an organization's jurisdiction: the same, or
	// another (dual nationality and re-registration happen: against, not
	// strongly).
	NationalityWeight = 0.06
	OtherNationality  = -0.1

	// Birth place and address: their words compared after folding, with
	// each word's sound (Phonetic: Daraa and Deraa are one) and common
	// abbreviations spelled out (St. is street). The weight grows with
	// the share of words in common (of the shorter one, for a place: the
	// first part, "Daraa" of "Daraa, Syria", must share a word; of both,
	// for an address); none in common is against, a little for an
	// address (people move).
	PlaceWeight           = 0.08
	PlaceConflictWeight   = -0.05
	AddressWeight         = 0.15
	AddressConflictWeight = -0.05
	minAddressOverlap     = 0.5 // below it, an address is another one
)

// attributeReasons compares what identifies a and b beyond names.
func attributeReasons(a, b casegraph.Entity) []Reason {
	var out []Reason
	add := func(r Reason, ok bool) {
		if ok {
			out = append(out, r)
		}
	}
	out = append(out, identifierReasons(a.Identifiers, b.Identifiers)...)
	switch a.Kind {
	case casegraph.KindPerson:
		add(dayReason(ReasonBirthDate, "birth", a.BirthDate, b.BirthDate, 1))
		add(dayReason(ReasonDeathDate, "death", a.DeathDate, b.DeathDate, deathShare))
		add(genderReason(a.Gender, b.Gender))
		add(countryReason(ReasonNationality, a.Nationality, b.Nationality))
		add(placeReason(a.BirthPlace, b.BirthPlace))
	case casegraph.KindOrganization:
		add(dayReason(ReasonDates, "founding", a.FoundingDate, b.FoundingDate, orgDateShare))
		add(dayReason(ReasonDates, "dissolution", a.DissolutionDate, b.DissolutionDate, orgDateShare))
		add(countryReason(ReasonJurisdiction, a.Jurisdiction, b.Jurisdiction))
	}
	add(addressReason(a.Address, b.Address))
	return out
}

// NormalizeIdentifier is an identifier's value as compared: upper case,
// without spaces, dashes, dots and slashes ("ab 123-456" is "AB123456").
func NormalizeIdentifier(v string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '-', '.', '/', '_':
			return -1
		}
		return r
	}, strings.ToUpper(casegraph.Fold(v)))
}

// identifierReasons compares two lists of identifiers type by type: an
// equal value of a type is for (the first IdentifierEqualWeight, each
// further type IdentifierFurtherWeight); a type with no equal value has
// one reason: a value one character from the other's (a likely typo) is
// for, IdentifierTypoWeight, whatever the type's other values; else a
// different one of the same issuer is against.
func identifierReasons(as, bs []casegraph.Identifier) []Reason {
	if len(as) == 0 || len(bs) == 0 {
		return nil
	}
	var out []Reason
	equal := 0
	for _, t := range casegraph.IdentifierTypes() {
		var unequal *Reason
		matched := false
		for _, x := range as {
			if x.Type != t {
				continue
			}
			for _, y := range bs {
				if y.Type != t {
					continue
				}
				if NormalizeIdentifier(x.Value) == NormalizeIdentifier(y.Value) {
					if !matched {
						w, detail := IdentifierEqualWeight, fmt.Sprintf("the same %s %s", identifierName(t), x.Value)
						switch {
						case x.Issuer != "" && y.Issuer != "" && !strings.EqualFold(x.Issuer, y.Issuer):
							w, detail = IdentifierOtherIssuerWeight, fmt.Sprintf("the same %s %s, of %s and of %s", identifierName(t), x.Value, x.Issuer, y.Issuer)
						case equal > 0:
							w = IdentifierFurtherWeight
						}
						out = append(out, Reason{Kind: ReasonIdentifier, Weight: w, Detail: detail})
						matched = true
						equal++
					}
					continue
				}
				sameIssuer := x.Issuer != "" && strings.EqualFold(x.Issuer, y.Issuer)
				unsure := x.Issuer == "" || y.Issuer == ""
				switch {
				case (sameIssuer || unsure) && oneCharacterOff(NormalizeIdentifier(x.Value), NormalizeIdentifier(y.Value)):
					if unequal == nil || unequal.Weight != IdentifierTypoWeight {
						unequal = &Reason{Kind: ReasonIdentifier, Weight: IdentifierTypoWeight,
							Detail: fmt.Sprintf("%s %s and %s: one character apart, a likely typo", identifierName(t), x.Value, y.Value)}
					}
				case unequal != nil && unequal.Weight == IdentifierTypoWeight:
					// a likely typo explains the type's other numbers
				case sameIssuer && (unequal == nil || unequal.Weight > conflictWeight(t)):
					unequal = &Reason{Kind: ReasonIdentifier, Weight: conflictWeight(t),
						Detail: fmt.Sprintf("another %s of %s: %s and %s%s", identifierName(t), x.Issuer, x.Value, y.Value, renewedNote(t))}
				case unsure && unequal == nil:
					unequal = &Reason{Kind: ReasonIdentifier, Weight: IdentifierUnsureIssuerWeight,
						Detail: fmt.Sprintf("another %s (an issuer unknown): %s and %s", identifierName(t), x.Value, y.Value)}
				}
			}
		}
		if unequal != nil && !matched {
			out = append(out, *unequal)
		}
	}
	return out
}

// conflictWeight is the weight of another number of type t from the
// same issuer.
func conflictWeight(t casegraph.IdentifierType) float64 {
	if t == casegraph.IdentifierPassport {
		return IdentifierRenewedWeight
	}
	return IdentifierConflictWeight
}

// renewedNote says why another passport weighs less.
func renewedNote(t casegraph.IdentifierType) string {
	if t == casegraph.IdentifierPassport {
		return " (or one renewed)"
	}
	return ""
}

// oneCharacterOff says whether two normalized identifiers of the same
// length, at least minTypoLength, differ by one character or by two
// neighbouring characters swapped.
func oneCharacterOff(a, b string) bool {
	x, y := []rune(a), []rune(b)
	if len(x) != len(y) || len(x) < minTypoLength {
		return false
	}
	var diff []int
	for i := range x {
		if x[i] != y[i] {
			if diff = append(diff, i); len(diff) > 2 {
				return false
			}
		}
	}
	switch len(diff) {
	case 1:
		return true
	case 2:
		i, j := diff[0], diff[1]
		return j == i+1 && x[i] == y[j] && x[j] == y[i]
	}
	return false
}

// identifierName is an identifier type as a reason writes it.
func identifierName(t casegraph.IdentifierType) string {
	return strings.ToLower(strings.ReplaceAll(string(t), "_", " "))
}

// identifierKeys are the normalized identifiers of a subject, by type,
// for blocking: "PASSPORT|N1234567".
func identifierKeys(s Subject) ([]string, error) {
	var keys []string
	var err error
	eachValue(s.field(fieldIdentifiers), func(stored string) {
		id, bad := casegraph.DecodeIdentifier(stored)
		if bad != nil {
			err = fmt.Errorf("subject %q: %w", s.ID, bad)
			return
		}
		if v := NormalizeIdentifier(id.Value); v != "" {
			keys = append(keys, string(id.Type)+"|"+v)
		}
	})
	return keys, err
}

// day is a partial date's parts (0: not known); ok is false for a date
// that is not YYYY, YYYY-MM or YYYY-MM-DD (the store holds none).
type day struct{ y, m, d int }

func parseDay(s string) (day, bool) {
	if _, err := casegraph.ParsePartialDate(s); err != nil {
		return day{}, false
	}
	var out day
	for i, p := range strings.Split(s, "-") {
		n, _ := strconv.Atoi(p)
		switch i {
		case 0:
			out.y = n
		case 1:
			out.m = n
		default:
			out.d = n
		}
	}
	return out, true
}

// dayReason compares two partial dates of one kind (birth, death,
// founding ...), tolerating typos of a full date: day and month swapped,
// or one digit off. share scales the birth date's weights.
func dayReason(kind ReasonKind, what, a, b string, share float64) (Reason, bool) {
	x, okx := parseDay(a)
	y, oky := parseDay(b)
	if !okx || !oky {
		return Reason{}, false
	}
	r := func(w float64, detail string) (Reason, bool) {
		return Reason{Kind: kind, Weight: round3(share * w), Detail: fmt.Sprintf("%s dates %s and %s: %s", what, a, b, detail)}, true
	}
	switch {
	case x.y != y.y:
		if x.m != 0 && y.m != 0 && x.d != 0 && y.d != 0 && oneDigitOff(a, b) {
			return r(BirthTypoWeight, "one digit apart")
		}
		return r(BirthConflictWeight, "cannot be the same")
	case x.m == 0 || y.m == 0:
		return r(BirthYearWeight, "the same year")
	case x.m != y.m:
		switch {
		case x.d != 0 && y.d != 0 && x.m == y.d && x.d == y.m:
			return r(BirthTypoWeight, "day and month swapped")
		case x.d != 0 && y.d != 0 && x.d == y.d && oneDigitOff(a, b):
			return r(BirthTypoWeight, "one digit apart")
		}
		return r(BirthConflictWeight, "cannot be the same")
	case x.d == 0 || y.d == 0:
		return r(BirthMonthWeight, "the same month")
	case x.d != y.d:
		if oneDigitOff(a, b) {
			return r(BirthTypoWeight, "one digit apart")
		}
		return r(BirthConflictWeight, "cannot be the same")
	}
	return r(BirthDayWeight, "the same day")
}

// oneDigitOff says whether two dates written alike differ in one digit.
func oneDigitOff(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	diff := 0
	for i := range len(a) {
		if a[i] != b[i] {
			diff++
		}
	}
	return diff == 1
}

func genderReason(a, b casegraph.Gender) (Reason, bool) {
	switch {
	case a == "" || b == "":
		return Reason{}, false
	case a == b:
		return Reason{Kind: ReasonGender, Weight: GenderSameWeight, Detail: "both " + strings.ToLower(string(a))}, true
	}
	return Reason{Kind: ReasonGender, Weight: GenderConflictWeight,
		Detail: strings.ToLower(string(a)) + " and " + strings.ToLower(string(b))}, true
}

// countryReason compares two ISO 3166 codes (nationality, jurisdiction).
func countryReason(kind ReasonKind, a, b string) (Reason, bool) {
	switch {
	case a == "" || b == "":
		return Reason{}, false
	case a == b:
		return Reason{Kind: kind, Detail: "both " + a, Weight: NationalityWeight}, true
	}
	return Reason{Kind: kind, Detail: a + " and " + b, Weight: OtherNationality}, true
}

// placeWords are the words of a place or an address as compared: folded,
// without particles and stop words, abbreviations spelled out, each as
// its sound (Phonetic; a number as it is).
func placeWords(s string) []string {
	var out []string
	for _, w := range casegraph.Words(s) {
		if nameParticles[w] {
			continue
		}
		if long, ok := abbreviations[w]; ok {
			w = long
		}
		if k := Phonetic(w); k != "" {
			w = k
		}
		out = append(out, w)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// abbreviations are the short forms of addresses' words.
var abbreviations = map[string]string{
	"st": "street", "str": "street", "rd": "road", "ave": "avenue", "av": "avenue", "blvd": "boulevard",
	"sq": "square", "ln": "lane", "dr": "drive", "bldg": "building", "apt": "apartment", "fl": "floor",
	"po": "post", "no": "number", "nr": "number",
}

// overlap counts the words two sorted lists share.
func overlap(a, b []string) int {
	n := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch c := strings.Compare(a[i], b[j]); {
		case c == 0:
			n++
			i++
			j++
		case c < 0:
			i++
		default:
			j++
		}
	}
	return n
}

// placeReason compares birth places: the first part of each ("Daraa" of
// "Daraa, Syria": the most precise) must share a word; the weight is the
// share of the shorter place's words that the other has.
func placeReason(a, b string) (Reason, bool) {
	if a == "" || b == "" {
		return Reason{}, false
	}
	first := func(s string) []string { p, _, _ := strings.Cut(s, ","); return placeWords(p) }
	wa, wb := placeWords(a), placeWords(b)
	if len(wa) == 0 || len(wb) == 0 {
		return Reason{}, false
	}
	if overlap(first(a), first(b)) == 0 {
		return Reason{Kind: ReasonBirthPlace, Weight: PlaceConflictWeight, Detail: fmt.Sprintf("born in %s and in %s", a, b)}, true
	}
	share := float64(overlap(wa, wb)) / float64(min(len(wa), len(wb)))
	return Reason{Kind: ReasonBirthPlace, Weight: round3(PlaceWeight * share),
		Detail: fmt.Sprintf("born in %s and in %s: %.0f%% alike", a, b, 100*share)}, true
}

// addressReason compares addresses by the share of their words in
// common (of all the words of both, Jaccard's).
func addressReason(a, b string) (Reason, bool) {
	if a == "" || b == "" {
		return Reason{}, false
	}
	wa, wb := placeWords(a), placeWords(b)
	if len(wa) == 0 || len(wb) == 0 {
		return Reason{}, false
	}
	n := overlap(wa, wb)
	share := float64(n) / float64(len(wa)+len(wb)-n)
	if share < minAddressOverlap {
		return Reason{Kind: ReasonAddress, Weight: AddressConflictWeight, Detail: fmt.Sprintf("%s and %s: other addresses", a, b)}, true
	}
	return Reason{Kind: ReasonAddress, Weight: round3(AddressWeight * share),
		Detail: fmt.Sprintf("%s and %s: %.0f%% alike", a, b, 100*share)}, true
}
