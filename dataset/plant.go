package dataset

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode"

	casegraph "github.com/casegraph/casegraph"
)

// Planted duplicates (GenOptions.PlantDuplicates): after the entities, the
// generator writes that many second records of existing people (four in
// five) and organizations, under new ids, as a second source would name
// them: by initials ("J. R. Smith"), in another transliteration
// (Mohammed/Muhammad, Aleksandr/Alexander, a surname respelled, with or
// without al-), in another order ("Smith, John Robert"), without the
// middle name, with a typo, or by a nickname (Sasha, Hamoudi; PlantWay
// names the way of each). A duplicate has its original's category and
// sources, and what identifies its original with a second record's noise
// (plantfields.go: fields left out, dates and spellings written otherwise);
// two in three repeat one or two of its original's relations (with the
// same other end), as a second account of the same facts would. The pairs
// are the ground truth of the duplicate suggestions' measurement
// (PlantedDuplicates).
//
// With planting on, people are named from a wider space (a first name, a
// middle name half of the time, a surname of three of 60 syllables), so
// that the dataset's chance namesakes are fewer: with the 30 x 30 names of the plain
// generator, 40,000 people share each name with 44 others, and no
// measurement could tell planted duplicates from them.

// plantFirstNames have spellings that transliteration varies.
var plantFirstNames = []string{"Mohammed", "Aleksandr", "Yusuf", "Hassan", "Omar", "Sergei", "Ahmad", "Mustafa",
	"Khalid", "Dmitri", "Fatima", "Aisha", "Ibrahim", "Yevgeny", "Olga", "Natalia", "Hussein", "Abdullah",
	"Carla", "Dragan", "Élodie", "Goran", "Ines", "José", "Karim", "Leila", "Miloš", "Nadia", "Pavel", "Rania",
	"Samir", "Tatiana", "Zoran", "Ngozi", "Kwame", "Aung", "Mei", "Søren", "Łukasz", "Ömer"}

// transliterations are other spellings of plantFirstNames.
var transliterations = map[string]string{
	"Mohammed": "Muhammad", "Aleksandr": "Alexander", "Yusuf": "Youssef", "Hassan": "Hasan", "Omar": "Umar",
	"Sergei": "Sergey", "Ahmad": "Ahmed", "Mustafa": "Moustafa", "Khalid": "Khaled", "Dmitri": "Dmitry",
	"Fatima": "Fatma", "Aisha": "Aicha", "Ibrahim": "Ebrahim", "Yevgeny": "Evgeny", "Olga": "Olha",
	"Natalia": "Natalya", "Hussein": "Husayn", "Abdullah": "Abdallah", "José": "Jose", "Miloš": "Milos",
}

var syllables = []string{"ka", "ro", "vel", "mi", "dan", "sha", "tor", "lu", "zen", "bar", "qui", "nov", "ha",
	"dad", "ri", "sen", "mo", "gal", "tes", "fu", "bek", "ran", "do", "lim", "pas", "tu", "ver", "jan", "os", "mar",
	"kel", "bo", "sul", "na", "dro", "vik", "ge", "hal", "zu", "pe", "wen", "gor", "bla", "tif", "cho", "nem",
	"sar", "pli", "dun", "kov", "tra", "mel", "yas", "bri", "gun", "fel", "zho", "rak", "lop", "stin"}

// widePersonName is a person's name in planting's wider space: first name,
// middle name (half the time) and surname.
func widePersonName(rng *rand.Rand) (first, middle, last string) {
	first = pick(rng, plantFirstNames)
	if rng.IntN(2) == 0 {
		middle = pick(rng, plantFirstNames)
	}
	var b strings.Builder
	for range 3 {
		b.WriteString(pick(rng, syllables))
	}
	s := b.String()
	return first, middle, strings.ToUpper(s[:1]) + s[1:]
}

// planted is what planting remembers of a duplicate while the relations
// are generated.
type planted struct {
	id        string
	copies    int // how many of the original's relations to repeat
	relations []Record
}

// planter chooses the originals, writes the duplicates and repeats their
// relations.
type planter struct {
	ds    string
	dups  []*planted
	byOrg map[string]*planted // by original id
	pairs [][2]string
}

// plant writes n duplicates of the people and organizations of entities
// (in creation order), right after them; ids draws their identifiers'
// noise (noisy).
func plant(rng, ids *rand.Rand, ds string, n int, entities []Record, emit func(Record) error) (*planter, error) {
	p := &planter{ds: ds, byOrg: map[string]*planted{}}
	var people, orgs []int
	for i, e := range entities {
		switch casegraph.Kind(e.Kind) {
		case casegraph.KindPerson:
			people = append(people, i)
		case casegraph.KindOrganization:
			orgs = append(orgs, i)
		}
	}
	if n > (len(people)+len(orgs))/2 {
		return nil, fmt.Errorf("cannot plant %d duplicates among %d people and organizations", n, len(people)+len(orgs))
	}
	taken := map[bool]int{} // originals drawn, of organizations or not
	for i := range n {
		org := (i%5 == 4 && len(orgs) > 0) || len(people) == 0
		from, what := people, "people"
		if org {
			from, what = orgs, "organizations"
		}
		// The draw below retries until it finds an original without a
		// duplicate: there must be one left.
		if taken[org] == len(from) {
			return nil, fmt.Errorf("cannot plant %d duplicates: every one of the %d %s has one already", n, len(from), what)
		}
		taken[org]++
		var orig Record
		for {
			orig = entities[from[rng.IntN(len(from))]]
			if p.byOrg[orig.ID] == nil {
				break
			}
		}
		dup := orig
		dup.ID = fmt.Sprintf("%s:dup-%d", ds, i)
		dup.Name, dup.Aliases = variant(rng, orig, i), nil
		noisy(rng, ids, &dup)
		d := &planted{id: dup.ID}
		if rng.IntN(3) > 0 {
			d.copies = 1 + rng.IntN(2)
		}
		p.dups = append(p.dups, d)
		p.byOrg[orig.ID] = d
		p.pairs = append(p.pairs, [2]string{orig.ID, dup.ID})
		if err := emit(dup); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// observe remembers a relation of a planted original that its duplicate
// will repeat.
func (p *planter) observe(r Record) {
	for _, end := range []string{r.From, r.To} {
		if d := p.byOrg[end]; d != nil && len(d.relations) < d.copies {
			c := r
			c.ID = fmt.Sprintf("%s-of-%s", r.ID, strings.TrimPrefix(d.id, p.ds+":"))
			if c.From == end {
				c.From = d.id
			} else {
				c.To = d.id
			}
			d.relations = append(d.relations, c)
		}
	}
}

// emitRelations writes the relations the duplicates repeat.
func (p *planter) emitRelations(emit func(Record) error) error {
	for _, d := range p.dups {
		for _, r := range d.relations {
			if r.From == r.To {
				continue
			}
			if err := emit(r); err != nil {
				return err
			}
		}
	}
	return nil
}

// variant is how another source names orig: the planted duplicates take
// the ways in turn.
func variant(rng *rand.Rand, orig Record, i int) string {
	words := strings.Fields(orig.Name)
	if casegraph.Kind(orig.Kind) == casegraph.KindOrganization {
		switch i / 5 % 3 {
		case 0:
			return "The " + orig.Name
		case 1:
			return strings.Join(append([]string{words[1] + ","}, append(words[:1:1], words[2:]...)...), " ")
		}
		words[0] = typo(rng, words[0])
		return strings.Join(words, " ")
	}
	first, last := words[0], words[len(words)-1]
	middle := slices.Clone(words[1 : len(words)-1])
	switch personWay(i) {
	case 0: // initials
		out := []string{initial(first) + "."}
		for _, m := range middle {
			out = append(out, initial(m)+".")
		}
		return strings.Join(append(out, last), " ")
	case 1: // transliteration
		first = transliterate(first)
		for k, m := range middle {
			middle[k] = transliterate(m)
		}
		last = respell(last)
		if _, arabic := transliterations[words[0]]; arabic && rng.IntN(2) == 0 {
			last = "al-" + last
		}
		return strings.Join(append(append([]string{first}, middle...), last), " ")
	case 2: // another order
		return last + ", " + strings.Join(append([]string{first}, middle...), " ")
	case 3: // no middle name, upper case
		return strings.ToUpper(first + " " + last)
	case 5: // a nickname (else a transliteration)
		if n, ok := nicknamesOf[first]; ok {
			return strings.Join(append(append([]string{n}, middle...), last), " ")
		}
		return strings.Join(append(append([]string{transliterate(first)}, middle...), respell(last)), " ")
	}
	return strings.Join(append(append([]string{first}, middle...), typo(rng, last)), " ")
}

// personWays name the ways a person's duplicate is named, by personWay.
var personWays = []string{"initials", "transliteration", "order", "no-middle-name", "typo", "nickname"}

// personWay is the way of the i-th duplicate, when it is a person's:
// every fifth duplicate is an organization's, so the people's are counted
// without them and take the ways in turn.
func personWay(i int) int { return (i - (i+1)/5) % len(personWays) }

// PlantWay names the way the i-th planted duplicate (the duplicate of
// PlantedDuplicates' i-th pair) was named: "organization", or one of the
// people's ways (initials, transliteration, order, no-middle-name, typo,
// nickname).
func PlantWay(i int) string {
	if i%5 == 4 {
		return "organization"
	}
	return personWays[personWay(i)]
}

func transliterate(w string) string {
	if t, ok := transliterations[w]; ok {
		return t
	}
	return w
}

func initial(w string) string { return string([]rune(w)[:1]) }

// respell writes a surname as another transliteration might: a vowel
// changed, or a doubled consonant made single, or a single one doubled.
func respell(w string) string {
	r := []rune(w)
	for i := 1; i+1 < len(r); i++ {
		if r[i] == r[i+1] {
			return string(append(r[:i:i], r[i+1:]...))
		}
	}
	swap := map[rune]rune{'a': 'e', 'e': 'a', 'o': 'u', 'u': 'o', 'i': 'y'}
	for i := len(r) - 1; i > 0; i-- {
		if s, ok := swap[unicode.ToLower(r[i])]; ok {
			r[i] = s
			return string(r)
		}
	}
	return w + w[len(w)-1:]
}

// typo swaps two different letters inside a word (never the first).
func typo(rng *rand.Rand, w string) string {
	r := []rune(w)
	if len(r) < 4 {
		return w
	}
	i := 1 + rng.IntN(len(r)-2)
	for range len(r) {
		if r[i] != r[i+1] {
			break
		}
		i = 1 + i%(len(r)-2)
	}
	r[i], r[i+1] = r[i+1], r[i]
	return string(r)
}
