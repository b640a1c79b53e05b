package dataset

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	casegraph "github.com/casegraph/casegraph"
)

// GenOptions shape a synthetic graph.
type GenOptions struct {
	Entities  int
	Relations int
	Seed      uint64
	Dataset   string
	// PlantDuplicates is how many duplicates of people and organizations
	// to plant, for measuring duplicate suggestions (plant.go); it also
	// names people from a wider space. 0: none, and the graph is the one
	// the other options always gave.
	PlantDuplicates int
}

// Generate makes a synthetic graph for tests and benchmarks: the same
// options always give the same graph. Degrees follow a power law (a few
// hubs, a long tail), kinds and relation types are mixed as in real
// investigations and always allowed by the vocabulary, and every item cites
// one or two sources, with partial dates and confidences. emit is called
// with sources first, then entities, then relations.
func Generate(opts GenOptions, emit func(Record) error) error {
	_, err := generate(opts, emit)
	return err
}

// PlantedDuplicates are the pairs (original, duplicate) that Generate
// plants with opts: the ground truth of duplicate suggestions.
func PlantedDuplicates(opts GenOptions) ([][2]string, error) {
	p, err := generate(opts, func(Record) error { return nil })
	if err != nil || p == nil {
		return nil, err
	}
	return p.pairs, nil
}

func generate(opts GenOptions, emit func(Record) error) (*planter, error) {
	if opts.Entities < 10 {
		return nil, fmt.Errorf("generate at least 10 entities, not %d", opts.Entities)
	}
	if opts.Dataset == "" {
		opts.Dataset = "synthetic"
	}
	rng := rand.New(rand.NewPCG(opts.Seed, opts.Seed^0x9e3779b97f4a7c15))
	// Streams of their own for what was added to the generated graph
	// later (places' coordinates, type-specific relation properties, the
	// planted identifiers' noise): the graph the main stream draws (which
	// entities, relations and fields) is the one it drew before them.
	typed := rand.New(rand.NewPCG(opts.Seed^0xd1b54a32d192ed03, opts.Seed))
	idNoise := rand.New(rand.NewPCG(opts.Seed^0x94d049bb133111eb, opts.Seed^0xbf58476d1ce4e5b9))
	ds := opts.Dataset
	id := func(kind string, n int) string { return fmt.Sprintf("%s:%s-%d", ds, kind, n) }

	nSources := max(1, opts.Entities/100)
	for i := range nSources {
		if err := emit(Record{Type: "source", ID: id("source", i), Title: fmt.Sprintf("Source document %d", i),
			Publisher: publishers[i%len(publishers)], Dataset: ds,
			Attributes: casegraph.Attributes{URL: fmt.Sprintf("https://example.org/sources/%d", i), PublishedAt: randomDate(rng)}}); err != nil {
			return nil, err
		}
	}
	cite := func() []string {
		ids := []string{id("source", rng.IntN(nSources))}
		if rng.IntN(4) == 0 {
			if other := id("source", rng.IntN(nSources)); other != ids[0] {
				ids = append(ids, other)
			}
		}
		return ids
	}

	// Kinds in proportion; each kind's entities are listed so relations can
	// pick an end of an allowed kind.
	kindShare := []struct {
		kind  casegraph.Kind
		share int
	}{{casegraph.KindPerson, 40}, {casegraph.KindOrganization, 25}, {casegraph.KindEvent, 15}, {casegraph.KindDocument, 15}, {casegraph.KindPlace, 5}}
	byKind := map[casegraph.Kind][]string{}
	wide := opts.PlantDuplicates > 0
	var entities []Record // kept only for planting
	kindOf := make([]casegraph.Kind, opts.Entities)
	for i := range opts.Entities {
		r := rng.IntN(100)
		for _, ks := range kindShare {
			if r < ks.share {
				kindOf[i] = ks.kind
				break
			}
			r -= ks.share
		}
		k := kindOf[i]
		eid := id(string(k), i)
		byKind[k] = append(byKind[k], eid)
		rec := Record{Type: "entity", ID: eid, Kind: string(k), Dataset: ds, SourceIDs: cite()}
		rec.Name, rec.Aliases = entityName(rng, k, i, wide)
		switch k {
		case casegraph.KindOrganization:
			rec.Category = pick(rng, casegraph.Categories(k))
		case casegraph.KindEvent:
			rec.Category = pick(rng, casegraph.Categories(k))
			rec.StartDate = randomDate(rng)
			if rng.IntN(2) == 0 {
				rec.EndDate = laterDate(rng, rec.StartDate)
			}
		case casegraph.KindDocument:
			rec.Category = pick(rng, casegraph.Categories(k))
			rec.PublishedAt = randomDate(rng)
			rec.PageCount = 1 + rng.IntN(400)
		case casegraph.KindPerson:
			rec.Nationality = pick(rng, countries)
		case casegraph.KindPlace:
			rec.Coordinates = placeCoordinates(typed, rec.Name)
		}
		if wide {
			switch k {
			case casegraph.KindPerson:
				identifyPerson(rng, &rec)
			case casegraph.KindOrganization:
				identifyOrganization(rng, &rec)
			}
		}
		if err := emit(rec); err != nil {
			return nil, err
		}
		if wide {
			entities = append(entities, rec)
		}
	}
	var plants *planter
	if wide {
		var err error
		if plants, err = plant(rng, idNoise, ds, opts.PlantDuplicates, entities, emit); err != nil {
			return nil, err
		}
	}

	// Power-law ends: a Zipf rank over each kind's list, which is in
	// creation order, so the first entities of a kind are its hubs.
	zipfs := map[casegraph.Kind]*rand.Zipf{}
	for k, ids := range byKind {
		zipfs[k] = rand.NewZipf(rng, 1.3, 8, uint64(len(ids)-1))
	}
	endOf := func(kinds []casegraph.Kind) string {
		var candidates []casegraph.Kind
		for _, k := range kinds {
			if len(byKind[k]) > 0 {
				candidates = append(candidates, k)
			}
		}
		if len(candidates) == 0 {
			return ""
		}
		k := candidates[rng.IntN(len(candidates))]
		return byKind[k][zipfs[k].Uint64()]
	}
	vocab := casegraph.Vocabulary()
	seen := map[[2]string]bool{}
	for i := 0; i < opts.Relations; {
		spec := vocab[rng.IntN(len(vocab))]
		from, to := endOf(spec.FromKinds), endOf(spec.ToKinds)
		if from == "" || to == "" || from == to || seen[[2]string{from, to}] {
			continue
		}
		seen[[2]string{from, to}] = true
		conf := float64(30+rng.IntN(71)) / 100
		rec := Record{Type: "relation", ID: fmt.Sprintf("%s:rel-%d", ds, i), RelationType: string(spec.Type),
			From: from, To: to, Status: string(casegraph.Statuses()[rng.IntN(4)]), Confidence: &conf,
			Dataset: ds, SourceIDs: cite()}
		if rng.IntN(3) > 0 {
			rec.StartDate = randomDate(rng)
			if rng.IntN(2) == 0 {
				rec.EndDate = laterDate(rng, rec.StartDate)
			}
		}
		if rng.IntN(5) == 0 {
			if role := pick(rng, roles); !slices.Contains(spec.Properties, "post") {
				rec.Role = role // a post has a property of its own (typedProperties)
			}
		}
		rec.RelationAttributes = typedProperties(typed, spec)
		if err := emit(rec); err != nil {
			return nil, err
		}
		if plants != nil {
			plants.observe(rec)
		}
		i++
	}
	if plants != nil {
		return plants, plants.emitRelations(emit)
	}
	return nil, nil
}

func pick(rng *rand.Rand, from []string) string { return from[rng.IntN(len(from))] }

// Type-specific relation properties of the generated graph: posts by
// relation type, ranks, currencies.
var (
	postsOf = map[casegraph.RelationType][]string{
		"COMMANDS":      {"commander", "deputy commander", "chief of staff", "acting commander"},
		"HELD_POSITION": {"minister", "governor", "head of security", "spokesperson", "chair", "head of investigations"},
		"DIRECTOR_OF":   {"director", "managing director", "chair of the board", "board member"},
	}
	ranks      = []string{"general", "major general", "brigadier general", "colonel", "lieutenant colonel", "major", "captain"}
	currencies = []string{"USD", "EUR", "GBP", "QAR", "CHF", "SYP"}
	shares     = []float64{100, 51, 50, 49, 33.3, 25, 20, 10, 5}
)

// typedProperties are a generated relation's type-specific properties
// (those spec carries), each most of the time: a post (by type) and a
// rank, an ownership's share, a payment's amount (from a thousand to ten
// million, rounded) and mostly its currency, a family tie's relationship.
func typedProperties(rng *rand.Rand, spec casegraph.RelationSpec) casegraph.RelationAttributes {
	var a casegraph.RelationAttributes
	for _, p := range spec.Properties {
		switch p {
		case "post":
			if chance(rng, 0.7) {
				a.Post = pick(rng, postsOf[spec.Type])
			}
		case "rank":
			if p := map[bool]float64{true: 0.7, false: 0.3}[spec.Type == "COMMANDS"]; chance(rng, p) {
				a.Rank = pick(rng, ranks)
			}
		case "share":
			if chance(rng, 0.8) {
				v := shares[rng.IntN(len(shares))]
				if chance(rng, 0.3) {
					v = float64(1+rng.IntN(990)) / 10
				}
				a.Share = &v
			}
		case "amount":
			if chance(rng, 0.8) {
				v := math.Round(math.Pow(10, 3+4*rng.Float64())/100) * 100
				a.Amount = &v
			}
		case "currency":
			if a.Amount != nil && chance(rng, 0.85) {
				a.Currency = pick(rng, currencies)
			}
		case "relationship":
			if chance(rng, 0.9) {
				rels := casegraph.FamilyRelationships()
				a.Relationship = rels[rng.IntN(len(rels))]
			}
		}
	}
	return a
}

// placeCoordinates are a generated place's: near the city it is named
// after (within about 10 km), or nil when the name is none of places.
func placeCoordinates(rng *rand.Rand, name string) *casegraph.Coordinates {
	for i, p := range places {
		if strings.HasPrefix(name, p+" ") {
			c := placeAt[i]
			return &casegraph.Coordinates{Latitude: round6(c[0] + 0.18*(rng.Float64()-0.5)),
				Longitude: round6(c[1] + 0.18*(rng.Float64()-0.5))}
		}
	}
	return nil
}

// round6 rounds degrees to six decimals (about 10 cm).
func round6(v float64) float64 { return math.Round(v*1e6) / 1e6 }

// randomDate is a partial date between 1990 and 2024: a year, a month or a day.
func randomDate(rng *rand.Rand) string {
	y := 1990 + rng.IntN(35)
	switch rng.IntN(3) {
	case 0:
		return fmt.Sprintf("%04d", y)
	case 1:
		return fmt.Sprintf("%04d-%02d", y, 1+rng.IntN(12))
	}
	return fmt.Sprintf("%04d-%02d-%02d", y, 1+rng.IntN(12), 1+rng.IntN(28))
}

// laterDate is a year, 0 to 5 years after start's year.
func laterDate(rng *rand.Rand, start string) string {
	var y int
	fmt.Sscanf(start[:4], "%d", &y)
	return fmt.Sprintf("%04d", y+rng.IntN(6))
}

func entityName(rng *rand.Rand, k casegraph.Kind, n int, wide bool) (string, []string) {
	switch k {
	case casegraph.KindPerson:
		var name, first, last string
		if wide {
			var middle string
			first, middle, last = widePersonName(rng)
			name = strings.Join(strings.Fields(first+" "+middle+" "+last), " ")
		} else {
			first, last = pick(rng, firstNames), pick(rng, lastNames)
			name = first + " " + last
		}
		if rng.IntN(3) == 0 {
			return name, []string{string([]rune(first)[:1]) + ". " + last}
		}
		return name, nil
	case casegraph.KindOrganization:
		return fmt.Sprintf("%s %s %d", pick(rng, orgWords), pick(rng, orgKinds), n), nil
	case casegraph.KindEvent:
		return fmt.Sprintf("%s in %s %d", pick(rng, eventWords), pick(rng, places), n), nil
	case casegraph.KindDocument:
		return fmt.Sprintf("%s on %s %d", pick(rng, docWords), pick(rng, places), n), nil
	}
	return fmt.Sprintf("%s %d", pick(rng, places), n), nil
}

var (
	firstNames = []string{"Ahmad", "Amina", "Bashir", "Carla", "Dragan", "Élodie", "Fatima", "Goran", "Hassan", "Ines",
		"José", "Karim", "Leila", "Miloš", "Nadia", "Omar", "Pavel", "Rania", "Samir", "Tatiana", "Yusuf", "Zoran",
		"Ngozi", "Kwame", "Aung", "Mei", "Søren", "Łukasz", "Ömer", "Đorđe"}
	lastNames = []string{"al-Hassan", "Haddad", "Petrović", "Kovač", "Mansour", "Okafor", "Nguyen", "García", "Ibrahim",
		"Jovanović", "Khalil", "Mensah", "Novak", "Osei", "Rahman", "Said", "Tahir", "Umar", "Volkov", "Wright",
		"Yilmaz", "Zeidan", "Müller", "Dupont", "Silva", "Ferreira", "Kamara", "Conteh", "Sesay", "Bangura"}
	orgWords   = []string{"National", "Northern", "United", "Free", "Popular", "Independent", "Central", "Eastern", "Revolutionary", "Democratic"}
	orgKinds   = []string{"Front", "Brigade", "Council", "Ministry", "Commission", "Agency", "Movement", "Party", "Group", "Bank"}
	eventWords = []string{"Massacre", "Siege", "Conference", "Trial", "Election", "Protest", "Detentions", "Ceasefire", "Summit", "Offensive"}
	docWords   = []string{"Report", "Witness statement", "Indictment", "Judgment", "Memo", "Article", "Cable", "Testimony", "Photograph set", "Leak"}
	places     = []string{"Aleppo", "Homs", "Freetown", "Sarajevo", "Srebrenica", "Geneva", "The Hague", "Doha", "London", "Kigali", "Goma", "Mosul"}
	// placeAt are the latitude and longitude of each of places.
	placeAt = [][2]float64{{36.2021, 37.1343}, {34.7324, 36.7137}, {8.4657, -13.2317}, {43.8563, 18.4131}, {44.1064, 19.2975},
		{46.2044, 6.1432}, {52.0705, 4.3007}, {25.2854, 51.5310}, {51.5072, -0.1276}, {-1.9441, 30.0619}, {-1.6792, 29.2228}, {36.3350, 43.1189}}
	publishers = []string{"Reuters", "Associated Press", "Human Rights Watch", "Amnesty International", "UN OHCHR", "BBC", "Al Jazeera"}
	countries  = []string{"SY", "QA", "GB", "US", "RS", "BA", "SL", "FR", "DE", "IQ", "RW", "CD"}
	roles      = []string{"commander", "spokesperson", "witness", "financier", "legal counsel", "author", "member", "chair"}
)

// GenerateBatch generates a graph and reads it back as a validated Batch,
// as an import of the generated file would (for tests and benchmarks).
func GenerateBatch(opts GenOptions) (Batch, error) {
	var buf bytes.Buffer
	enc := NewEncoder(&buf)
	if err := Generate(opts, enc.Encode); err != nil {
		return Batch{}, err
	}
	return Read(&buf)
}
