package duplicate_test

import (
	"context"
	"testing"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/duplicate"
)

// pairScore scores two people named alike, each as set makes them.
func pairScore(t *testing.T, setA, setB func(*casegraph.Entity)) duplicate.Candidate {
	t.Helper()
	a := casegraph.Entity{ID: "p:1", Kind: casegraph.KindPerson, Name: "Mohammed Haddad"}
	b := casegraph.Entity{ID: "p:2", Kind: casegraph.KindPerson, Name: "Muhammad Haddad"}
	setA(&a)
	setB(&b)
	names, ok := duplicate.ScoreNames(a, b)
	if !ok {
		t.Fatal("names not alike")
	}
	return duplicate.Score(a, b, names, nil)
}

// reasonOf is the weight of a candidate's reasons of kind k, and whether
// it has one.
func reasonOf(c duplicate.Candidate, k duplicate.ReasonKind) (float64, bool) {
	var w float64
	found := false
	for _, r := range c.Reasons {
		if r.Kind == k {
			w += r.Weight
			found = true
		}
	}
	return w, found
}

// TestScoreFields: each field raises the score when the two agree, lowers
// it when they conflict, and says nothing when either lacks it, with a
// reason of its kind.
func TestScoreFields(t *testing.T) {
	passport := func(issuer, v string) []casegraph.Identifier {
		return []casegraph.Identifier{{Type: casegraph.IdentifierPassport, Issuer: issuer, Value: v}}
	}
	for _, tc := range []struct {
		kind             duplicate.ReasonKind
		a, agree, differ func(*casegraph.Entity)
	}{
		{duplicate.ReasonIdentifier, func(e *casegraph.Entity) { e.Identifiers = passport("SY", "N0123456") },
			func(e *casegraph.Entity) { e.Identifiers = passport("SY", "n 0123-456") },
			func(e *casegraph.Entity) { e.Identifiers = passport("SY", "N9999999") }},
		{duplicate.ReasonBirthDate, func(e *casegraph.Entity) { e.BirthDate = "1961-04-12" },
			func(e *casegraph.Entity) { e.BirthDate = "1961-04-12" }, func(e *casegraph.Entity) { e.BirthDate = "1975-09-30" }},
		{duplicate.ReasonDeathDate, func(e *casegraph.Entity) { e.DeathDate = "2013-08" },
			func(e *casegraph.Entity) { e.DeathDate = "2013-08-21" }, func(e *casegraph.Entity) { e.DeathDate = "2015" }},
		{duplicate.ReasonNationality, func(e *casegraph.Entity) { e.Nationality = "SY" },
			func(e *casegraph.Entity) { e.Nationality = "SY" }, func(e *casegraph.Entity) { e.Nationality = "GB" }},
		{duplicate.ReasonBirthPlace, func(e *casegraph.Entity) { e.BirthPlace = "Daraa, Syria" },
			func(e *casegraph.Entity) { e.BirthPlace = "Deraa" }, func(e *casegraph.Entity) { e.BirthPlace = "Homs, Syria" }},
		{duplicate.ReasonAddress, func(e *casegraph.Entity) { e.Address = "12 Baghdad Street, Damascus" },
			func(e *casegraph.Entity) { e.Address = "12 BAGHDAD ST., Damascus" }, func(e *casegraph.Entity) { e.Address = "4 Mill Road, Homs" }},
		{duplicate.ReasonGender, func(e *casegraph.Entity) { e.Gender = casegraph.GenderMale },
			func(e *casegraph.Entity) { e.Gender = casegraph.GenderMale }, func(e *casegraph.Entity) { e.Gender = casegraph.GenderFemale }},
	} {
		t.Run(string(tc.kind), func(t *testing.T) {
			none := func(*casegraph.Entity) {}
			missing := pairScore(t, tc.a, none)
			if _, ok := reasonOf(missing, tc.kind); ok {
				t.Errorf("one side without the field: a %s reason %+v", tc.kind, missing.Reasons)
			}
			agree, differ := pairScore(t, tc.a, tc.agree), pairScore(t, tc.a, tc.differ)
			wa, oka := reasonOf(agree, tc.kind)
			wd, okd := reasonOf(differ, tc.kind)
			if !oka || !okd || wa < 0 || wd >= 0 {
				t.Errorf("%s weighs %v when alike (%v), %v when not (%v); want at least 0, and below 0", tc.kind, wa, oka, wd, okd)
			}
			if !(agree.Score >= missing.Score && missing.Score > differ.Score) {
				t.Errorf("scores: alike %v, one missing %v, other %v; want them in that order, the last below", agree.Score, missing.Score, differ.Score)
			}
		})
	}
}

// TestScoreOrganizationFields: an organization's jurisdiction, identifiers
// and founding date.
func TestScoreOrganizationFields(t *testing.T) {
	org := func(id, jurisdiction, number, founded string) casegraph.Entity {
		return casegraph.Entity{ID: id, Kind: casegraph.KindOrganization, Name: "Cham Wings Airlines", Attributes: casegraph.Attributes{
			Jurisdiction: jurisdiction, FoundingDate: founded,
			Identifiers: []casegraph.Identifier{{Type: casegraph.IdentifierRegistration, Issuer: jurisdiction, Value: number}}}}
	}
	score := func(a, b casegraph.Entity) duplicate.Candidate {
		names, _ := duplicate.ScoreNames(a, b)
		return duplicate.Score(a, b, names, nil)
	}
	same := score(org("o:1", "SY", "12-345", "2007"), org("o:2", "SY", "12345", "2007-03"))
	other := score(org("o:1", "SY", "12-345", "2007"), org("o:2", "AE", "99", "1990"))
	for _, k := range []duplicate.ReasonKind{duplicate.ReasonJurisdiction, duplicate.ReasonIdentifier, duplicate.ReasonDates} {
		if w, _ := reasonOf(same, k); w <= 0 {
			t.Errorf("alike organizations: %s weighs %v, want above 0 (%+v)", k, w, same.Reasons)
		}
		if w, _ := reasonOf(other, k); w >= 0 && k != duplicate.ReasonIdentifier { // another issuer: says nothing
			t.Errorf("other organizations: %s weighs %v, want below 0 (%+v)", k, w, other.Reasons)
		}
	}
	if same.Score <= other.Score {
		t.Errorf("alike %v, other %v", same.Score, other.Score)
	}
}

// TestScoreBirthDates: partial dates agree at their shared precision, and
// likely typos of a full date agree for less than the same day.
func TestScoreBirthDates(t *testing.T) {
	for _, tc := range []struct {
		name, a, b string
		want       float64
	}{
		{"same day", "1961-04-12", "1961-04-12", duplicate.BirthDayWeight},
		{"a month against a day", "1961-04", "1961-04-12", duplicate.BirthMonthWeight},
		{"a year against a day", "1961", "1961-04-12", duplicate.BirthYearWeight},
		{"day and month swapped", "1961-04-12", "1961-12-04", duplicate.BirthTypoWeight},
		{"one digit off the day", "1961-04-12", "1961-04-13", duplicate.BirthTypoWeight},
		{"one digit off the year", "1961-04-12", "1962-04-12", duplicate.BirthTypoWeight},
		{"one digit off the month", "1961-04-12", "1961-09-12", duplicate.BirthTypoWeight},
		{"another day", "1961-04-12", "1961-04-25", duplicate.BirthConflictWeight},
		{"another year", "1961", "1965-04-12", duplicate.BirthConflictWeight},
		{"another month", "1961-04", "1961-07", duplicate.BirthConflictWeight},
		{"two digits off", "1961-04-12", "1969-04-19", duplicate.BirthConflictWeight},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := pairScore(t, func(e *casegraph.Entity) { e.BirthDate = tc.a }, func(e *casegraph.Entity) { e.BirthDate = tc.b })
			if got, _ := reasonOf(c, duplicate.ReasonBirthDate); got != tc.want {
				t.Errorf("%s and %s: %v, want %v (%+v)", tc.a, tc.b, got, tc.want, c.Reasons)
			}
		})
	}
	if !(duplicate.BirthDayWeight > duplicate.BirthMonthWeight && duplicate.BirthMonthWeight > duplicate.BirthTypoWeight &&
		duplicate.BirthTypoWeight > duplicate.BirthYearWeight && duplicate.BirthYearWeight > 0 && duplicate.BirthConflictWeight < 0) {
		t.Error("the birth date's weights are not in the order of what they tell")
	}
}

// TestScoreIdentifierIssuers: an equal value is near-certain; of two
// issuers, it says less; another value of the same issuer is strongly
// against (a passport less: it is renewed), of an unknown issuer less so,
// of another issuer nothing; a
// value one character off (a digit, or two neighbours swapped) of the
// same or an unknown issuer is a likely typo, for the pair, never against.
func TestScoreIdentifierIssuers(t *testing.T) {
	id := func(issuer, v string) func(*casegraph.Entity) {
		return func(e *casegraph.Entity) {
			e.Identifiers = []casegraph.Identifier{{Type: casegraph.IdentifierNationalID, Issuer: issuer, Value: v}}
		}
	}
	for _, tc := range []struct {
		name string
		a, b func(*casegraph.Entity)
		want float64
		has  bool
	}{
		{"equal", id("SY", "123-45"), id("", "12345"), duplicate.IdentifierEqualWeight, true},
		{"equal, of two issuers", id("SY", "12345"), id("IQ", "12345"), duplicate.IdentifierOtherIssuerWeight, true},
		{"another of the issuer", id("SY", "12345"), id("sy", "54321"), duplicate.IdentifierConflictWeight, true},
		{"another, an issuer unknown", id("SY", "12345"), id("", "54321"), duplicate.IdentifierUnsureIssuerWeight, true},
		{"another of another issuer", id("SY", "12345"), id("IQ", "54321"), 0, false},
		{"one digit off, of the issuer", id("SY", "12345"), id("SY", "12355"), duplicate.IdentifierTypoWeight, true},
		{"neighbours swapped, an issuer unknown", id("SY", "123-45"), id("", "12 354"), duplicate.IdentifierTypoWeight, true},
		{"one digit off, of another issuer", id("SY", "12345"), id("IQ", "12355"), 0, false},
		{"two digits off", id("SY", "12345"), id("SY", "12366"), duplicate.IdentifierConflictWeight, true},
		{"swapped apart, not neighbours", id("SY", "12345"), id("SY", "52341"), duplicate.IdentifierConflictWeight, true},
		{"a character more", id("SY", "12345"), id("SY", "123456"), duplicate.IdentifierConflictWeight, true},
		{"one digit off, too short to tell", id("SY", "1234"), id("SY", "1235"), duplicate.IdentifierConflictWeight, true},
		{"a typo beside another number", id("SY", "12345"), func(e *casegraph.Entity) {
			e.Identifiers = []casegraph.Identifier{{Type: casegraph.IdentifierNationalID, Issuer: "SY", Value: "99999"},
				{Type: casegraph.IdentifierNationalID, Issuer: "SY", Value: "12346"}}
		}, duplicate.IdentifierTypoWeight, true},
		{"another passport of the issuer: renewed, perhaps", func(e *casegraph.Entity) {
			e.Identifiers = []casegraph.Identifier{{Type: casegraph.IdentifierPassport, Issuer: "SY", Value: "N0123456"}}
		}, func(e *casegraph.Entity) {
			e.Identifiers = []casegraph.Identifier{{Type: casegraph.IdentifierPassport, Issuer: "SY", Value: "K7654321"}}
		}, duplicate.IdentifierRenewedWeight, true},
		{"another type", id("SY", "12345"), func(e *casegraph.Entity) {
			e.Identifiers = []casegraph.Identifier{{Type: casegraph.IdentifierPassport, Issuer: "SY", Value: "12345"}}
		}, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := pairScore(t, tc.a, tc.b)
			if got, has := reasonOf(c, duplicate.ReasonIdentifier); got != tc.want || has != tc.has {
				t.Errorf("%v (a reason: %v), want %v (%v): %+v", got, has, tc.want, tc.has, c.Reasons)
			}
		})
	}
}

// TestBlockIdentifiers: an equal identifier pairs two people whose names
// the comparison does not take (a transliteration), within the limits.
func TestBlockIdentifiers(t *testing.T) {
	passport := []casegraph.Identifier{{Type: casegraph.IdentifierPassport, Issuer: "SY", Value: "N0123456"}}
	es := []casegraph.Entity{
		{ID: "p0", Kind: casegraph.KindPerson, Name: "Abdulkarim Khaddour", Attributes: casegraph.Attributes{Identifiers: passport}},
		{ID: "p1", Kind: casegraph.KindPerson, Name: "Abd al-Karim Haddur", Attributes: casegraph.Attributes{
			Identifiers: []casegraph.Identifier{{Type: casegraph.IdentifierPassport, Value: "n 012 3456"}}}},
		{ID: "o2", Kind: casegraph.KindOrganization, Name: "Khaddour Trading", Attributes: casegraph.Attributes{Identifiers: passport}},
	}
	if _, ok := duplicate.ScoreNames(es[0], es[1]); ok {
		t.Fatal("the names are alike: the test needs names that are not")
	}
	got, err := duplicate.BlockNames(context.Background(), es, duplicate.DefaultLimits(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Candidates) != 1 || got.Candidates[0].I != 0 || got.Candidates[0].J != 1 || !got.Candidates[0].Identified {
		t.Fatalf("candidates %+v, want p0 and p1, by their passport", got.Candidates)
	}
	c := duplicate.Score(es[0], es[1], got.Candidates[0].Reasons, nil)
	if w, _ := reasonOf(c, duplicate.ReasonIdentifier); w != duplicate.IdentifierEqualWeight {
		t.Errorf("identifier weighs %v, want %v: %+v", w, duplicate.IdentifierEqualWeight, c.Reasons)
	}
	if w, _ := reasonOf(c, duplicate.ReasonName); w != 0 {
		t.Errorf("names not alike weigh %v, want 0: %+v", w, c.Reasons)
	}
}

// TestNicknames: a nickname matches the name it stands for, and blocking
// brings them together.
func TestNicknames(t *testing.T) {
	m := duplicate.CompareNames(duplicate.NameWords("Sasha Volkov"), duplicate.NameWords("Alexander Volkov"))
	if !m.Nickname || m.Similarity < duplicate.MinNameSimilarity {
		t.Errorf("Sasha Volkov and Alexander Volkov: %+v, want alike by a nickname", m)
	}
	var es []casegraph.Entity
	for _, name := range []string{"Sasha Volkov", "Aleksandr Volkov", "Boris Volkov", "Igor Volkov"} {
		es = append(es, casegraph.Entity{ID: name, Kind: casegraph.KindPerson, Name: name})
	}
	got, err := duplicate.BlockNames(context.Background(), es, duplicate.Limits{MaxBlock: 3, MaxComparisons: 10, MaxCandidates: 10}, nil)
	if err != nil || len(got.Candidates) != 1 || got.Candidates[0].I != 0 || got.Candidates[0].J != 1 {
		t.Errorf("blocking with Volkov's block skipped: %+v, %v; want Sasha and Aleksandr, by the nickname's key", got, err)
	}
}

// TestScoreIdentifierTypo: a typo'd identifier ranks a pair below an
// equal one and above one without identifiers, and its reason says what
// was compared.
func TestScoreIdentifierTypo(t *testing.T) {
	passport := func(v string) func(*casegraph.Entity) {
		return func(e *casegraph.Entity) {
			e.Identifiers = []casegraph.Identifier{{Type: casegraph.IdentifierPassport, Issuer: "SY", Value: v}}
		}
	}
	equal := pairScore(t, passport("N0123456"), passport("N0123456"))
	typo := pairScore(t, passport("N0123456"), passport("N0132456"))
	none := pairScore(t, passport("N0123456"), func(*casegraph.Entity) {})
	other := pairScore(t, passport("N0123456"), passport("K7654321"))
	if !(equal.Score > typo.Score && typo.Score > none.Score && none.Score > other.Score) {
		t.Errorf("scores: equal %v, a typo %v, one without %v, another %v; want them in that order", equal.Score, typo.Score, none.Score, other.Score)
	}
	for _, r := range typo.Reasons {
		if r.Kind == duplicate.ReasonIdentifier {
			if want := "passport N0123456 and N0132456: one character apart, a likely typo"; r.Detail != want {
				t.Errorf("detail %q, want %q", r.Detail, want)
			}
			return
		}
	}
	t.Errorf("no identifier reason: %+v", typo.Reasons)
}
