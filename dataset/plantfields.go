package dataset

import (
	"fmt"
	"math/rand/v2"
	"strings"

	casegraph "github.com/casegraph/casegraph"
)

// What identifies the people and organizations of a planting run
// (GenOptions.PlantDuplicates), and the noise of a second record of them.
//
// An original person has a gender (by the first name, most of the time),
// a birth date (four in five: a day, a month or only a year), rarely a
// death date, a birth place (a city, often with its country), a passport
// and a national id (some), an address (a third). An organization has a
// jurisdiction, a registration number, an address and a founding date,
// each often. A second record keeps each field or loses it, and what it
// keeps it may write otherwise, as a second source would: a birth date
// with day and month swapped, one digit off or only its year; a city in
// another transliteration (Daraa, Deraa); an identifier in lower case or
// with spaces and dashes; an address abbreviated, or a new one (moved);
// rarely another gender or nationality (a clerk's error, a second
// passport); an identifier with a typo (a digit off, two digits swapped)
// or, for a passport, another number (renewed since).

// city is a place people are born and live in, with its other spellings.
type city struct {
	name    string
	country string // its ISO 3166 code
	spelled []string
}

var cities = []city{
	{"Daraa", "SY", []string{"Deraa", "Dar'a"}}, {"Homs", "SY", []string{"Hims"}}, {"Aleppo", "SY", []string{"Halab"}},
	{"Deir ez-Zor", "SY", []string{"Dayr az-Zawr", "Deir al-Zour"}}, {"Idlib", "SY", []string{"Edlib"}},
	{"Hama", "SY", []string{"Hamah"}}, {"Latakia", "SY", []string{"Lattakia", "Al-Ladhiqiyah"}},
	{"Raqqa", "SY", []string{"Ar-Raqqah", "Rakka"}}, {"Damascus", "SY", []string{"Dimashq"}},
	{"Mosul", "IQ", []string{"Al-Mawsil"}}, {"Baghdad", "IQ", []string{"Bagdad"}}, {"Basra", "IQ", []string{"Basrah"}},
	{"Doha", "QA", []string{"Ad-Dawhah"}}, {"Kharkiv", "UA", []string{"Kharkov"}}, {"Kyiv", "UA", []string{"Kiev"}},
	{"Belgrade", "RS", []string{"Beograd"}}, {"Sarajevo", "BA", []string{"Sarajewo"}}, {"Freetown", "SL", []string{"Free Town"}},
	{"Kigali", "RW", []string{"Kigale"}}, {"Goma", "CD", []string{"Ngoma"}}, {"London", "GB", nil}, {"Paris", "FR", nil},
	{"Munich", "DE", []string{"München", "Muenchen"}}, {"Tripoli", "LY", []string{"Tarabulus"}},
}

var countryNames = map[string]string{"SY": "Syria", "IQ": "Iraq", "QA": "Qatar", "UA": "Ukraine", "RS": "Serbia",
	"BA": "Bosnia and Herzegovina", "SL": "Sierra Leone", "RW": "Rwanda", "CD": "DR Congo", "GB": "United Kingdom",
	"FR": "France", "DE": "Germany", "LY": "Libya"}

var streets = []string{"Baghdad", "Revolution", "Martyrs", "Nile", "Victoria", "Station", "Mill", "Garden", "Market",
	"Palestine", "Unity", "Independence", "Church", "Mosque", "Old Harbour", "Cedar", "Olive", "Union", "King", "Tito"}

// femaleNames are the first names of planting given to women.
var femaleNames = map[string]bool{"Fatima": true, "Aisha": true, "Olga": true, "Natalia": true, "Carla": true,
	"Élodie": true, "Ines": true, "Leila": true, "Nadia": true, "Rania": true, "Tatiana": true, "Ngozi": true, "Mei": true}

// nicknamesOf are the short forms a second record may call a person by.
var nicknamesOf = map[string]string{"Aleksandr": "Sasha", "Dmitri": "Dima", "Yevgeny": "Zhenya", "Sergei": "Seryozha",
	"Natalia": "Natasha", "Tatiana": "Tanya", "Olga": "Olya", "Pavel": "Pasha", "Mohammed": "Hamoudi",
	"Abdullah": "Abdo", "José": "Pepe", "Ibrahim": "Barhoum", "Hussein": "Hassouna", "Mustafa": "Mistu"}

// chance is true with probability p.
func chance(rng *rand.Rand, p float64) bool { return rng.Float64() < p }

// identifyPerson gives an original person what identifies them.
func identifyPerson(rng *rand.Rand, r *Record) {
	first, _, _ := strings.Cut(r.Name, " ")
	if chance(rng, 0.85) {
		r.Gender = casegraph.GenderMale
		if femaleNames[first] {
			r.Gender = casegraph.GenderFemale
		}
	}
	if chance(rng, 0.8) {
		r.BirthDate = partialDay(rng, 1940+rng.IntN(61), 0.65, 0.2)
		if chance(rng, 0.06) {
			var y int
			fmt.Sscanf(r.BirthDate[:4], "%d", &y)
			r.DeathDate = partialDay(rng, min(2024, y+25+rng.IntN(50)), 0.5, 0.2)
		}
	}
	if chance(rng, 0.55) {
		c := cities[rng.IntN(len(cities))]
		r.BirthPlace = c.name
		if chance(rng, 0.5) {
			r.BirthPlace += ", " + countryNames[c.country]
		}
	}
	if chance(rng, 0.45) {
		r.Identifiers = append(r.Identifiers, casegraph.Identifier{Type: casegraph.IdentifierPassport, Issuer: r.Nationality,
			Value: passportNumber(rng)})
	}
	if chance(rng, 0.3) {
		r.Identifiers = append(r.Identifiers, casegraph.Identifier{Type: casegraph.IdentifierNationalID, Issuer: r.Nationality,
			Value: fmt.Sprintf("%03d-%04d-%04d", rng.IntN(1000), rng.IntN(10_000), rng.IntN(10_000))})
	}
	if chance(rng, 0.35) {
		r.Address = randomAddress(rng)
	}
}

// identifyOrganization gives an original organization what identifies it.
func identifyOrganization(rng *rand.Rand, r *Record) {
	if chance(rng, 0.8) {
		r.Jurisdiction = pick(rng, countries)
	}
	if chance(rng, 0.6) {
		r.Identifiers = []casegraph.Identifier{{Type: casegraph.IdentifierRegistration, Issuer: r.Jurisdiction,
			Value: fmt.Sprintf("%08d", rng.IntN(100_000_000))}}
	}
	if chance(rng, 0.4) {
		r.Address = randomAddress(rng)
	}
	if chance(rng, 0.5) {
		r.FoundingDate = partialDay(rng, 1950+rng.IntN(70), 0.4, 0.2)
	}
}

// partialDay is a date in year: a day (pDay), a month (pMonth) or the
// year alone.
func partialDay(rng *rand.Rand, year int, pDay, pMonth float64) string {
	switch p := rng.Float64(); {
	case p < pDay:
		return fmt.Sprintf("%04d-%02d-%02d", year, 1+rng.IntN(12), 1+rng.IntN(28))
	case p < pDay+pMonth:
		return fmt.Sprintf("%04d-%02d", year, 1+rng.IntN(12))
	}
	return fmt.Sprintf("%04d", year)
}

func randomAddress(rng *rand.Rand) string {
	c := cities[rng.IntN(len(cities))]
	return fmt.Sprintf("%d %s Street, %s", 1+rng.IntN(200), pick(rng, streets), c.name)
}

// noisy is a second record's copy of what identifies dup's original.
// Its identifiers' typos and renewals are drawn from ids, a stream of
// their own, so that the rest of the planting (which records, which
// fields kept) is what it was before them, and the measurements before and
// after compare the same pairs.
func noisy(rng, ids *rand.Rand, dup *Record) {
	keep := func(p float64) bool { return chance(rng, p) }
	if !keep(0.7) {
		dup.BirthDate = ""
	}
	dup.BirthDate = noisyDate(rng, dup.BirthDate)
	if !keep(0.6) {
		dup.DeathDate = ""
	}
	switch {
	case !keep(0.75):
		dup.Gender = ""
	case dup.Gender != "" && chance(rng, 0.01):
		dup.Gender = map[casegraph.Gender]casegraph.Gender{casegraph.GenderMale: casegraph.GenderFemale, casegraph.GenderFemale: casegraph.GenderMale}[dup.Gender]
	}
	if dup.BirthPlace != "" {
		dup.BirthPlace = noisyPlace(rng, dup.BirthPlace, keep(0.55))
	}
	switch {
	case !keep(0.85):
		dup.Nationality = ""
	case dup.Nationality != "" && chance(rng, 0.04):
		dup.Nationality = pick(rng, countries)
	}
	if !keep(0.8) {
		dup.Jurisdiction = ""
	}
	if !keep(0.6) {
		dup.FoundingDate = ""
	}
	dup.FoundingDate = noisyDate(rng, dup.FoundingDate)
	var kept []casegraph.Identifier
	for _, id := range dup.Identifiers {
		if !keep(0.55) {
			continue // missing on one side
		}
		id.Value = noisyIdentifier(ids, id)
		if chance(rng, 0.3) {
			id.Value = reformat(rng, id.Value)
		}
		if chance(rng, 0.3) {
			id.Issuer = "" // the second source does not say who issued it
		}
		kept = append(kept, id)
	}
	dup.Identifiers = kept
	switch {
	case dup.Address == "" || !keep(0.45):
		dup.Address = ""
	case chance(rng, 0.15):
		dup.Address = randomAddress(rng) // moved
	case chance(rng, 0.4):
		dup.Address = strings.Replace(strings.ToUpper(dup.Address[:1])+dup.Address[1:], " Street,", " St.,", 1)
	}
	// A date made earlier than the birth by its noise is dropped, as a
	// check of the second source would.
	if casegraph.ValidateDateRange("birthDate", dup.BirthDate, "deathDate", dup.DeathDate) != nil {
		dup.DeathDate = ""
	}
}

// noisyDate is a date as a second record writes it: the same most of the
// time; or day and month swapped (when both can be months), one digit
// off, or less precise.
func noisyDate(rng *rand.Rand, s string) string {
	if s == "" {
		return ""
	}
	parts := strings.Split(s, "-")
	switch p := rng.Float64(); {
	case p < 0.08 && len(parts) == 3 && parts[2] <= "12" && parts[2] != parts[1]:
		return parts[0] + "-" + parts[2] + "-" + parts[1]
	case p < 0.16:
		for range 10 { // a digit that makes a valid date
			b := []byte(s)
			i := rng.IntN(len(b))
			if b[i] == '-' || i < 2 {
				continue
			}
			b[i] = '0' + (b[i]-'0'+1+byte(rng.IntN(8)))%10
			if _, err := casegraph.ParsePartialDate(string(b)); err == nil {
				return string(b)
			}
		}
	case p < 0.31 && len(parts) > 1:
		return strings.Join(parts[:len(parts)-1], "-")
	}
	return s
}

// noisyPlace is a birth place as a second record writes it, or "" when
// it is not kept: in another spelling, with or without its country.
func noisyPlace(rng *rand.Rand, place string, kept bool) string {
	if !kept {
		return ""
	}
	name, country, hasCountry := strings.Cut(place, ", ")
	for _, c := range cities {
		if c.name == name && len(c.spelled) > 0 && chance(rng, 0.35) {
			name = pick(rng, c.spelled)
		}
		if c.name == place || c.name == name {
			country = countryNames[c.country]
		}
	}
	if chance(rng, 0.3) {
		hasCountry = !hasCountry
	}
	if hasCountry && country != "" {
		return name + ", " + country
	}
	return name
}

// Identifier noise: how often a second record's identifier (one it
// keeps) is copied with a typo, and how often its passport is another
// one, renewed since (same type and issuer, a new number).
const (
	identifierTypoRate = 0.08
	passportRenewRate  = 0.08
)

// noisyIdentifier is an identifier's value as a second record writes it:
// the same most of the time; or with a typo (IdentifierTypo); or, for a
// passport, the number of a renewed one.
func noisyIdentifier(rng *rand.Rand, id casegraph.Identifier) string {
	switch p := rng.Float64(); {
	case p < identifierTypoRate:
		return identifierTypo(rng, id.Value)
	case p < identifierTypoRate+passportRenewRate && id.Type == casegraph.IdentifierPassport:
		return passportNumber(rng)
	}
	return id.Value
}

// identifierTypo is v with one digit off (replaced by another) or, half
// the time, two neighbouring different digits swapped; v unchanged when
// it has no digit.
func identifierTypo(rng *rand.Rand, v string) string {
	b := []byte(v)
	var digits []int
	for i, c := range b {
		if c >= '0' && c <= '9' {
			digits = append(digits, i)
		}
	}
	if len(digits) == 0 {
		return v
	}
	if rng.IntN(2) == 0 {
		var swaps []int // digits followed by another digit
		for _, i := range digits {
			if i+1 < len(b) && b[i+1] >= '0' && b[i+1] <= '9' && b[i] != b[i+1] {
				swaps = append(swaps, i)
			}
		}
		if len(swaps) > 0 {
			i := swaps[rng.IntN(len(swaps))]
			b[i], b[i+1] = b[i+1], b[i]
			return string(b)
		}
	}
	i := digits[rng.IntN(len(digits))]
	b[i] = '0' + (b[i]-'0'+1+byte(rng.IntN(9)))%10
	return string(b)
}

// passportNumber is a passport's number as the generator issues them: a
// letter and seven digits.
func passportNumber(rng *rand.Rand) string {
	return fmt.Sprintf("%c%07d", 'A'+rune(rng.IntN(26)), rng.IntN(10_000_000))
}

// reformat writes an identifier otherwise: in lower case, or with spaces
// for its dashes, or grouped by spaces.
func reformat(rng *rand.Rand, v string) string {
	switch rng.IntN(3) {
	case 0:
		return strings.ToLower(v)
	case 1:
		if strings.Contains(v, "-") {
			return strings.ReplaceAll(v, "-", " ")
		}
	}
	plain := strings.ReplaceAll(v, "-", "")
	if len(plain) < 6 {
		return plain
	}
	return plain[:3] + " " + plain[3:6] + " " + plain[6:]
}
