package dataset

import (
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"

	casegraph "github.com/casegraph/casegraph"
)

// A fictional security force, for the command queries' demonstration and
// benchmarks: the army of Ruritania, a country that does not exist. Every
// name is made up (of invented forceSyllables), every description and source
// title says the data is invented, and the default dataset is demo-force:
// no real person, unit or place is given an invented fact.

// ForceDataset is the dataset of the demonstration force, and the
// default dataset of a generated one.
const ForceDataset = "demo-force"

//go:embed demoforce.ndjson
var demoForce []byte

// DemoForce returns the demonstration force's NDJSON, which the seed
// command loads beside the seed: a small curated force of the fictional
// Ruritanian Army (dataset ForceDataset), whose chains of command and one
// incident the analyst's guide walks through: a brigade that changes
// division in June 2012, tenures that overlap and that leave gaps (each
// command with its post and rank), a protected commander, places with
// coordinates in Ruritania's invented region (ruritania), a family tie.
func DemoForce() io.Reader {
	return bytes.NewReader(demoForce)
}

// ForceOptions shape a fictional force.
type ForceOptions struct {
	Units     int // at least 10: an army, its corps, divisions, brigades, battalions and companies
	Posts     int // COMMANDS relations (tenures), at least one a unit
	Incidents int
	Seed      uint64
	Dataset   string // ForceDataset when empty
}

// Invented is what every description of a generated force says.
const Invented = "Invented for Casegraph's demonstration: fictional, no real person, unit or place is meant."

// echelons of the force, from the top; a unit's is its depth in the tree
// (the deepest repeats).
var echelons = []struct{ name, rank string }{
	{"Army", "General"}, {"Corps", "Lieutenant General"}, {"Division", "Major General"},
	{"Brigade", "Brigadier General"}, {"Battalion", "Lieutenant Colonel"}, {"Company", "Captain"},
}

// GenerateForce makes a fictional force: a tree of units whose
// subordination changes through time (a tenth of the units move to
// another superior at a month-dated change), posts (COMMANDS relations
// with their post and rank) with partial-date tenures that follow each
// other with handovers that overlap and gaps that do not, bases and areas
// of operation (places located in districts and governorates, each with
// coordinates in an invented region: ruritania), incidents (events located
// in villages, perpetrated or allegedly perpetrated by units based near
// them; an event has no coordinates of its own, its place has), officers'
// family ties (FAMILY_OF with the relationship), and sources with quotes. The same options
// always give the same force. emit is called with sources first, then
// entities, then relations.
func GenerateForce(opts ForceOptions, emit func(Record) error) error {
	if opts.Units < 10 {
		return fmt.Errorf("a force has at least 10 units, not %d", opts.Units)
	}
	if opts.Posts < opts.Units {
		return fmt.Errorf("a force has at least a post a unit: %d posts for %d units", opts.Posts, opts.Units)
	}
	if opts.Dataset == "" {
		opts.Dataset = ForceDataset
	}
	g := &force{opts: opts, emit: emit, rng: rand.New(rand.NewPCG(opts.Seed, opts.Seed^0x5851f42d4c957f2d)),
		extra: rand.New(rand.NewPCG(opts.Seed^0x2545f4914f6cdd1d, opts.Seed))}
	steps := []func() error{g.sources, g.places, g.units, g.people, g.relations}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

type force struct {
	opts ForceOptions
	emit func(Record) error
	rng  *rand.Rand
	// extra draws what was added to the force later (coordinates, family
	// ties), so that the force the main stream draws is the one a seed
	// gave before them.
	extra *rand.Rand

	nSources        int
	governorates    []string
	districts       []string
	villages        []string
	parent, echelon []int
	founded         []int // a unit's founding year
	unitNames       []string
	personNames     []string
	posts           []post
	nPeople         int
	nRelations      int
}

type post struct {
	unit, person int
	start, end   string
}

func (g *force) id(kind string, n int) string {
	return fmt.Sprintf("%s:%s-%d", g.opts.Dataset, kind, n)
}

func (g *force) cite() []string { return []string{g.id("source", g.rng.IntN(g.nSources))} }

func (g *force) sources() error {
	g.nSources = max(3, g.opts.Units/50)
	for i := range g.nSources {
		kind := []string{"situation report", "witness statement", "order of battle", "press release"}[i%4]
		if err := g.emit(Record{Type: "source", ID: g.id("source", i), Dataset: g.opts.Dataset,
			Title:     fmt.Sprintf("Fictional %s %d on the Ruritanian Army (invented for Casegraph's demonstration)", kind, i),
			Publisher: "Ruritania Monitor (fictional)"}); err != nil {
			return err
		}
	}
	return nil
}

// forceSyllables of invented names.
var (
	forceSyllables = []string{"ka", "vel", "dro", "mi", "ren", "tor", "za", "qui", "lo", "bran", "sif", "ul", "mar", "ves", "to", "nir", "gal", "eth", "or", "py"}
	suffixes       = []string{"ov", "ar", "eth", "ine", "ski", "wick", "ard", "ian"}
)

func (g *force) word(n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(forceSyllables[g.rng.IntN(len(forceSyllables))])
	}
	s := b.String()
	return strings.ToUpper(s[:1]) + s[1:]
}

func (g *force) place(kind string, n int, name string, at *casegraph.Coordinates) error {
	return g.emit(Record{Type: "entity", ID: g.id(kind, n), Kind: "Place", Name: name, Description: "A " + kind + " of Ruritania. " + Invented,
		Dataset: g.opts.Dataset, SourceIDs: g.cite(), Attributes: casegraph.Attributes{Coordinates: at}})
}

// Ruritania's coordinates: a box of open ocean in the North Atlantic (44°
// to 52° N, 42° to 30° W, far from any coast), so that no real place is
// meant by an invented one. Governorates tile it in a grid from its
// north-west corner, each a degree of latitude by a degree and a half of
// longitude (about 110 km square), smaller when so many would not fit;
// each governorate's districts are its four quarters, and a district's
// villages lie inside it. A governorate's and a district's coordinates
// are their box's centre, a village's a point drawn inside its district's.
var ruritania = box{south: 44, north: 52, west: -42, east: -30}

// governorateLat and governorateLon are a governorate's box, in degrees of latitude and
// longitude, where the region holds them.
const governorateLat, governorateLon = 1.0, 1.5

// box is a region of latitudes and longitudes, in degrees.
type box struct{ south, north, west, east float64 }

// cell is the i-th of a grid of rows x cols boxes of h by w degrees in b,
// row by row from the north-west.
func (b box) cell(i, rows, cols int, h, w float64) box {
	r, c := float64(i/cols), float64(i%cols)
	return box{south: b.north - (r+1)*h, north: b.north - r*h, west: b.west + c*w, east: b.west + (c+1)*w}
}

// point is the box's centre (rng nil) or a point drawn inside it, a tenth
// of its size from its edges; in six decimals (about 10 cm).
func (b box) point(rng *rand.Rand) *casegraph.Coordinates {
	fy, fx := 0.5, 0.5
	if rng != nil {
		fy, fx = 0.1+0.8*rng.Float64(), 0.1+0.8*rng.Float64()
	}
	return &casegraph.Coordinates{Latitude: round6(b.south + fy*(b.north-b.south)), Longitude: round6(b.west + fx*(b.east-b.west))}
}

// places: governorates of four districts, each of five villages; one
// governorate for every 200 units, at least two.
func (g *force) places() error {
	for i := range max(2, g.opts.Units/200) {
		g.governorates = append(g.governorates, g.id("governorate", i))
		for d := range 4 {
			g.districts = append(g.districts, g.id("district", i*4+d))
			for v := range 5 {
				g.villages = append(g.villages, g.id("village", (i*4+d)*5+v))
			}
		}
	}
	cols := int(math.Ceil(math.Sqrt(float64(len(g.governorates)))))
	rows := (len(g.governorates) + cols - 1) / cols
	h := min(governorateLat, (ruritania.north-ruritania.south)/float64(rows))
	w := min(governorateLon, (ruritania.east-ruritania.west)/float64(cols))
	governorate := func(i int) box { return ruritania.cell(i, rows, cols, h, w) }
	district := func(i int) box { return governorate(i/4).cell(i%4, 2, 2, h/2, w/2) }
	for i := range g.governorates {
		if err := g.place("governorate", i, g.word(2)+" Governorate", governorate(i).point(nil)); err != nil {
			return err
		}
	}
	for i := range g.districts {
		if err := g.place("district", i, g.word(2)+" District", district(i).point(nil)); err != nil {
			return err
		}
	}
	for i := range g.villages {
		if err := g.place("village", i, g.word(2)+suffixes[g.rng.IntN(len(suffixes))], district(i/5).point(g.extra)); err != nil {
			return err
		}
	}
	return nil
}

// units: a tree, breadth first, three to five units under each.
func (g *force) units() error {
	g.parent, g.echelon, g.founded = []int{-1}, []int{0}, []int{1995}
	for p := 0; len(g.parent) < g.opts.Units; p++ {
		for range 3 + g.rng.IntN(3) {
			if len(g.parent) == g.opts.Units {
				break
			}
			g.parent = append(g.parent, p)
			g.echelon = append(g.echelon, min(g.echelon[p]+1, len(echelons)-1))
			g.founded = append(g.founded, max(g.founded[p], 1996+g.rng.IntN(12)))
		}
	}
	for i := range g.parent {
		e := echelons[g.echelon[i]]
		name := "Ruritanian Army"
		if i > 0 {
			name = fmt.Sprintf("%s %d, Ruritanian Army", e.name, i)
		}
		g.unitNames = append(g.unitNames, name)
		if err := g.emit(Record{Type: "entity", ID: g.id("unit", i), Kind: "Organization", Attributes: casegraph.Attributes{Category: "ARMED_GROUP"}, Name: name,
			Description: "A " + strings.ToLower(e.name) + " of the Ruritanian Army. " + Invented, Dataset: g.opts.Dataset, SourceIDs: g.cite()}); err != nil {
			return err
		}
	}
	return nil
}

// date is a partial date in year y: a year, a month or a day.
func (g *force) date(y int) string {
	switch g.rng.IntN(3) {
	case 0:
		return fmt.Sprintf("%04d", y)
	case 1:
		return fmt.Sprintf("%04d-%02d", y, 1+g.rng.IntN(12))
	}
	return fmt.Sprintf("%04d-%02d-%02d", y, 1+g.rng.IntN(12), 1+g.rng.IntN(28))
}

// people: the posts' tenures, unit by unit, one after the other from the
// unit's founding; a fifth of the posts go to someone who held one
// before (a career), the rest to someone new.
func (g *force) people() error {
	per, extra := g.opts.Posts/g.opts.Units, g.opts.Posts%g.opts.Units
	for u := range g.parent {
		n := per
		if u < extra {
			n++
		}
		year := g.founded[u]
		span := max(1, (2025-year)/n)
		for k := range n {
			p := post{unit: u}
			if g.nPeople > 0 && g.rng.IntN(5) == 0 {
				p.person = g.rng.IntN(g.nPeople)
			} else {
				p.person = g.nPeople
				g.nPeople++
			}
			p.start = g.date(year)
			end := year + span
			switch r := g.rng.IntN(10); {
			case k == n-1 && r < 5: // the last holder: no end recorded
			case r == 0: // a gap: the next holder starts a year after
				p.end = g.date(end)
				end++
			default: // a handover in the year (or month) the next starts
				p.end = g.date(end)
			}
			year = end
			g.posts = append(g.posts, p)
		}
	}
	for i := range g.nPeople {
		name := g.word(2) + " " + g.word(2) + suffixes[g.rng.IntN(len(suffixes))]
		g.personNames = append(g.personNames, name)
		if err := g.emit(Record{Type: "entity", ID: g.id("person", i), Kind: "Person", Name: name,
			Description: "An officer of the Ruritanian Army. " + Invented, Dataset: g.opts.Dataset, SourceIDs: g.cite()}); err != nil {
			return err
		}
	}
	for i := range g.opts.Incidents {
		category := []string{"ATROCITY", "ARMED_CONFLICT", "DETENTION"}[i%3]
		if err := g.emit(Record{Type: "entity", ID: g.id("incident", i), Kind: "Event", Name: fmt.Sprintf("Incident %d at %s", i, g.word(2)),
			Description: "An incident in Ruritania. " + Invented, Dataset: g.opts.Dataset, SourceIDs: g.cite(),
			Attributes: casegraph.Attributes{Category: category, StartDate: g.date(2010 + g.rng.IntN(13))}}); err != nil {
			return err
		}
	}
	return nil
}

func (g *force) relation(typ, from, to, start, end, quote string) error {
	return g.relationWith(typ, from, to, casegraph.RelationAttributes{}, start, end, quote)
}

// relationWith is a relation with its type's properties.
func (g *force) relationWith(typ, from, to string, props casegraph.RelationAttributes, start, end, quote string) error {
	g.nRelations++
	status := "REPORTED"
	if typ == "ALLEGEDLY_PERPETRATED" {
		status = "ALLEGED"
	}
	conf := float64(50+g.rng.IntN(50)) / 100
	return g.emit(Record{Type: "relation", ID: fmt.Sprintf("%s:rel-%d", g.opts.Dataset, g.nRelations), RelationType: typ,
		From: from, To: to, RelationAttributes: props, Status: status, Confidence: &conf, Quote: quote,
		Attributes: casegraph.Attributes{StartDate: start, EndDate: end}, Dataset: g.opts.Dataset, SourceIDs: g.cite()})
}

// relations: the places' nesting, subordination (changing for a tenth of
// the units), posts, bases and areas of operation, the incidents, and
// some officers' family ties.
func (g *force) relations() error {
	for i, d := range g.districts {
		if err := g.relation("LOCATED_IN", d, g.governorates[i/4], "", "", ""); err != nil {
			return err
		}
	}
	for i, v := range g.villages {
		if err := g.relation("LOCATED_IN", v, g.districts[i/5], "", "", ""); err != nil {
			return err
		}
	}
	for u := 1; u < len(g.parent); u++ {
		unit, up := g.id("unit", u), g.id("unit", g.parent[u])
		start := g.date(g.founded[u])
		quote := fmt.Sprintf("The fictional report places the %s under the %s.", g.unitNames[u], g.unitNames[g.parent[u]])
		other := u - 1 // another unit of the parent's echelon
		for other > 0 && g.echelon[other] != g.echelon[g.parent[u]] {
			other--
		}
		if g.rng.IntN(10) == 0 && other > 0 && other != g.parent[u] {
			// A change of subordination, dated to the month on both sides:
			// within that month, either superior is possible.
			change := fmt.Sprintf("%04d-%02d", max(g.founded[u]+1, 2010+g.rng.IntN(10)), 1+g.rng.IntN(12))
			if err := g.relation("SUBORDINATE_TO", unit, up, start, change, quote); err != nil {
				return err
			}
			if err := g.relation("SUBORDINATE_TO", unit, g.id("unit", other), change, "",
				fmt.Sprintf("A fictional order moves the %s under the %s.", g.unitNames[u], g.unitNames[other])); err != nil {
				return err
			}
			continue
		}
		if err := g.relation("SUBORDINATE_TO", unit, up, start, "", quote); err != nil {
			return err
		}
	}
	for _, p := range g.posts {
		rank := echelons[g.echelon[p.unit]].rank
		post := casegraph.RelationAttributes{Post: "commander", Rank: rank}
		if err := g.relationWith("COMMANDS", g.id("person", p.person), g.id("unit", p.unit), post, p.start, p.end,
			fmt.Sprintf("The fictional gazette names %s %s, commander of the %s.", rank, g.personNames[p.person], g.unitNames[p.unit])); err != nil {
			return err
		}
	}
	// Bases and areas: companies and battalions in villages, brigades in
	// districts, the rest in governorates; every unit above a battalion
	// operates in its area from its founding.
	areaOf := func(u int) string {
		switch e := g.echelon[u]; {
		case e >= 4:
			return g.villages[u%len(g.villages)]
		case e == 3:
			return g.districts[u%len(g.districts)]
		}
		return g.governorates[u%len(g.governorates)]
	}
	for u := range g.parent {
		if err := g.relation("BASED_AT", g.id("unit", u), areaOf(u), g.date(g.founded[u]), "", ""); err != nil {
			return err
		}
		if g.echelon[u] <= 3 && g.echelon[u] > 0 {
			if err := g.relation("OPERATES_IN", g.id("unit", u), g.governorates[u%len(g.governorates)], g.date(g.founded[u]), "", ""); err != nil {
				return err
			}
		}
	}
	for i := range g.opts.Incidents {
		// A unit at the bottom, and the village it is based at.
		u := len(g.parent) - 1 - g.rng.IntN(max(1, len(g.parent)/2))
		ev := g.id("incident", i)
		if err := g.relation("LOCATED_IN", ev, areaOf(u), "", "", ""); err != nil {
			return err
		}
		typ := "ALLEGEDLY_PERPETRATED"
		if g.rng.IntN(3) == 0 {
			typ = "PERPETRATED"
		}
		if err := g.relation(typ, g.id("unit", u), ev, "", "",
			fmt.Sprintf("A fictional witness says soldiers of the %s carried it out.", g.unitNames[u])); err != nil {
			return err
		}
	}
	return g.families()
}

// families: one officer in 25 is a relative of another (a brother, a
// son, a cousin ...), as patronage in a force is researched; last, so
// that the rest of the force is the one a seed gave before them.
func (g *force) families() error {
	rels := []casegraph.FamilyRelationship{casegraph.FamilySibling, casegraph.FamilyParent, casegraph.FamilyChild,
		casegraph.FamilyCousin, casegraph.FamilyUncleOrAunt, casegraph.FamilyInLaw, casegraph.FamilySpouse}
	for range g.nPeople / 25 {
		a, b := g.extra.IntN(g.nPeople), g.extra.IntN(g.nPeople)
		if a == b {
			continue
		}
		rel := rels[g.extra.IntN(len(rels))]
		if err := g.relationWith("FAMILY_OF", g.id("person", a), g.id("person", b), casegraph.RelationAttributes{Relationship: rel}, "", "",
			fmt.Sprintf("A fictional profile names %s as %s's %s.", g.personNames[a], g.personNames[b],
				strings.NewReplacer("_or_", " or ", "_", "-").Replace(strings.ToLower(string(rel))))); err != nil {
			return err
		}
	}
	return nil
}
