package dataset

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/text/language"

	casegraph "github.com/casegraph/casegraph"
)

// FtMReadOptions say where FtM entities go.
type FtMReadOptions struct {
	// Dataset receives everything read (required).
	Dataset string
	// IDPrefix goes before every id read, so that a file can be imported
	// beside the graph it came from (ids are unique across datasets).
	IDPrefix string
	// SourceTitle titles the source that entities and relations without
	// proof cite (every Casegraph entity and relation cites one):
	// "FollowTheMoney import" when empty.
	SourceTitle string
}

// FtMNote is what the reader did with a line it could not take as it was:
// mapped loosely (an Ownership as RELATED_TO), or skipped and why.
type FtMNote struct {
	Line    int
	Skipped bool
	Message string
}

func (n FtMNote) String() string {
	verb := "mapped"
	if n.Skipped {
		verb = "skipped"
	}
	return fmt.Sprintf("line %d: %s: %s", n.Line, verb, n.Message)
}

// ftmKind is kindSchemata read back, with the FtM schemata that are
// organizations too.
// casegraphLanguage is an FtM language (ISO 639-3, "eng") as an ISO
// 639-1 code; "" for one that has none.
func casegraphLanguage(code string) string {
	base, err := language.ParseBase(code)
	if code == "" || err != nil || len(base.String()) != 2 {
		return ""
	}
	return base.String()
}

func ftmKind(schema string) (casegraph.Kind, bool) {
	for k, s := range kindSchemata {
		if s == schema {
			return k, true
		}
	}
	for _, s := range organizationSchemata {
		if s == schema {
			return casegraph.KindOrganization, true
		}
	}
	if schema == "LegalEntity" {
		return casegraph.KindOrganization, true
	}
	return "", false
}

// looseLinks are interval schemata Casegraph has no type for, read as
// RELATED_TO with the schema's word for it as the role.
var looseLinks = map[string]ftmLink{
	"Succession": {"succeeded by", "predecessor", "successor"},
}

type ftmLine struct {
	line int
	e    FtMEntity
}

// ReadFtM reads FtM entities (JSON lines) into a batch for opts.Dataset:
// the entities of the schemata in kindSchemata and organizationSchemata,
// Documents that are Casegraph sources (ids cg-s-...), the links of
// relationSchemata (and looseLinks, as RELATED_TO), and Identifications
// and Passports as their holders' identifiers, every id read back by
// ParseFtMID and prefixed. What it cannot take is in the notes, by line;
// a line that is not an FtM entity at all is a bad line: every one is in
// the *LinesError returned with the batch of the others, for Import to
// report with what the graph check finds.
func ReadFtM(r io.Reader, opts FtMReadOptions) (Batch, []FtMNote, error) {
	var b Batch
	var notes []FtMNote
	if err := casegraph.ValidateID("dataset", opts.Dataset); err != nil {
		return b, nil, err
	}
	var things, links []ftmLine
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		b.Lines++
		var e FtMEntity
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.ID == "" || e.Schema == "" {
			// Every such line is reported, with the rest of the file's.
			msg := `not an FtM entity (want {"id", "schema", "properties"})`
			if err != nil {
				msg += ": " + err.Error()
			}
			b.Bad.add(n, &casegraph.Error{Code: casegraph.CodeBadUserInput, Message: msg, Cause: err})
			continue
		}
		_, source := ftmSourceKind(e.Schema)
		if _, ok := ftmKind(e.Schema); ok || source {
			things = append(things, ftmLine{n, e})
		} else {
			links = append(links, ftmLine{n, e})
		}
	}
	if err := sc.Err(); err != nil {
		return b, nil, err
	}
	id := func(ftmID string) string { return opts.IDPrefix + ParseFtMID(ftmID) }
	sourceTitle := opts.SourceTitle
	if sourceTitle == "" {
		sourceTitle = "FollowTheMoney import"
	}
	fallback := casegraph.Source{ID: opts.IDPrefix + opts.Dataset + "-ftm-import", Title: sourceTitle, Dataset: opts.Dataset}
	usedFallback := false
	proof := func(e FtMEntity) []string {
		var out []string
		for _, p := range e.Properties["proof"] {
			if src, ok := strings.CutPrefix(p, "cg-s-"); ok {
				out = append(out, opts.IDPrefix+ParseFtMID(src))
			}
		}
		if len(out) == 0 {
			usedFallback = true
			out = []string{fallback.ID}
		}
		return out
	}
	kinds := map[string]casegraph.Kind{}
	for _, t := range things {
		e := t.e
		if src, ok := strings.CutPrefix(e.ID, "cg-s-"); ok {
			kind, _ := ftmSourceKind(e.Schema)
			b.Sources = append(b.Sources, casegraph.Source{ID: opts.IDPrefix + ParseFtMID(src), Title: first(e, "title"),
				Publisher: first(e, "publisher"), URL: first(e, "sourceUrl"), PublishedAt: ftmDate(first(e, "publishedAt")),
				RetrievedAt: ftmDate(first(e, "retrievedAt")), Dataset: opts.Dataset, Kind: kind,
				Language: casegraphLanguage(first(e, "language")), Reliability: casegraph.DefaultReliability})
			b.SourceLines = append(b.SourceLines, t.line)
			continue
		}
		kind, ok := ftmKind(e.Schema)
		if !ok {
			kind = casegraph.KindDocument // a Document that is not a source
		}
		en := casegraph.Entity{ID: id(e.ID), Kind: kind, Dataset: opts.Dataset, Description: first(e, "description"), SourceIDs: proof(e)}
		names := e.Properties["name"]
		switch kind {
		case casegraph.KindDocument:
			names = append(slices.Clone(e.Properties["title"]), names...)
			en.PublishedAt = ftmDate(first(e, "publishedAt"))
			en.URL = first(e, "sourceUrl")
			for _, note := range e.Properties["notes"] {
				if pages, ok := strings.CutSuffix(note, " pages"); ok {
					en.PageCount, _ = strconv.Atoi(pages)
				}
			}
			en.Language = languageOfFtM(first(e, "language"))
		case casegraph.KindPlace:
			names = append(slices.Clone(e.Properties["full"]), names...)
			en.Coordinates = coordinatesOfFtM(e)
			en.CountryCode = strings.ToUpper(first(e, "country"))
		case casegraph.KindEvent:
			en.StartDate, en.EndDate = ftmDate(first(e, "startDate")), ftmDate(first(e, "endDate"))
		case casegraph.KindPerson:
			en.Nationality = strings.ToUpper(first(e, "nationality"))
			en.BirthDate, en.DeathDate = ftmDate(first(e, "birthDate")), ftmDate(first(e, "deathDate"))
			en.BirthPlace = first(e, "birthPlace")
			if g := casegraph.Gender(strings.ToUpper(first(e, "gender"))); slices.Contains(casegraph.Genders(), g) {
				en.Gender = g
			}
		case casegraph.KindOrganization:
			en.Jurisdiction = strings.ToUpper(first(e, "jurisdiction"))
			en.FoundingDate, en.DissolutionDate = ftmDate(first(e, "incorporationDate")), ftmDate(first(e, "dissolutionDate"))
		}
		if kind == casegraph.KindPerson || kind == casegraph.KindOrganization {
			en.Address = first(e, "address")
			en.Identifiers = identifiersOfFtM(e)
		}
		if len(names) == 0 {
			notes = append(notes, FtMNote{t.line, true, fmt.Sprintf("%s %s has no name", e.Schema, e.ID)})
			continue
		}
		en.Name = names[0]
		for _, a := range append(slices.Clone(names[1:]), e.Properties["alias"]...) {
			if a != en.Name && !slices.Contains(en.Aliases, a) {
				en.Aliases = append(en.Aliases, a)
			}
		}
		for _, k := range e.Properties["keywords"] {
			if c := strings.ToUpper(k); slices.Contains(casegraph.Categories(kind), c) {
				en.Category = c
			}
			en.Protected = en.Protected || k == ProtectedKeyword
		}
		// FtM can say that a person is protected, not that it is not: one
		// without the keyword keeps what is stored (an import never lifts
		// a protection).
		en.KeepProtection = !en.Protected
		if en.Category == "" && kind == casegraph.KindOrganization {
			en.Category = map[string]string{"PublicBody": "GOVERNMENT", "Company": "COMPANY"}[e.Schema]
		}
		kinds[en.ID] = kind
		b.Entities = append(b.Entities, en)
		b.EntityLines = append(b.EntityLines, t.line)
	}
	entityAt := make(map[string]int, len(b.Entities))
	for i, en := range b.Entities {
		entityAt[en.ID] = i
	}
	identified := map[string]int{} // how many of an entity's identifiers its Identifications gave
	for _, l := range links {
		if l.e.Schema == "Identification" || l.e.Schema == "Passport" {
			holder, ok := entityAt[id(first(l.e, "holder"))]
			if !ok {
				notes = append(notes, FtMNote{l.line, true, fmt.Sprintf("%s %s: its holder %q is not a person or organization of the file", l.e.Schema, l.e.ID, first(l.e, "holder"))})
				continue
			}
			if first(l.e, "number") == "" {
				notes = append(notes, FtMNote{l.line, true, fmt.Sprintf("%s %s has no number", l.e.Schema, l.e.ID)})
				continue
			}
			en := &b.Entities[holder]
			en.Identifiers = identification(en.Identifiers, identified[en.ID], l.e)
			identified[en.ID]++
			continue
		}
		rel, note, ok := ftmRelation(l.e, kinds, id)
		if note != "" {
			notes = append(notes, FtMNote{l.line, !ok, note})
		}
		if !ok {
			continue
		}
		rel.ID, rel.Dataset, rel.SourceIDs = id(l.e.ID), opts.Dataset, proof(l.e)
		b.Relations = append(b.Relations, rel)
		b.RelationLines = append(b.RelationLines, l.line)
	}
	if usedFallback {
		b.Sources = append(b.Sources, fallback)
		b.SourceLines = append(b.SourceLines, 0)
	}
	return b, notes, b.Bad.orNil()
}

// identifierTypeOfProperty is the identifier type of each FtM property
// that holds one (the writer's identifierProperties read back): idNumber,
// "ID of any kind", is OTHER.
var identifierTypeOfProperty = []struct {
	prop string
	typ  casegraph.IdentifierType
}{
	{"passportNumber", casegraph.IdentifierPassport},
	{"idNumber", casegraph.IdentifierOther},
	{"registrationNumber", casegraph.IdentifierRegistration},
	{"taxNumber", casegraph.IdentifierTax},
}

// identifiersOfFtM are a person's or organization's numbers as its
// properties give them (no issuer); an Identification of the same number
// replaces one with what it says (identification).
func identifiersOfFtM(e FtMEntity) []casegraph.Identifier {
	var out []casegraph.Identifier
	for _, p := range identifierTypeOfProperty {
		for _, v := range e.Properties[p.prop] {
			id := casegraph.Identifier{Type: p.typ, Value: v}
			if !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
	}
	return out
}

// identification adds an FtM Identification (or Passport) to its
// holder's identifiers: its type (Casegraph's, written as the writer's
// identificationType, else OTHER; a Passport is a passport), number and
// issuer (its authority, else its country). The first done of the
// holder's identifiers came from Identifications; a later one with the
// Identification's number came from a property, and is replaced by it.
func identification(ids []casegraph.Identifier, done int, e FtMEntity) []casegraph.Identifier {
	typ := casegraph.IdentifierType(strings.ToUpper(strings.ReplaceAll(first(e, "type"), " ", "_")))
	if e.Schema == "Passport" {
		typ = casegraph.IdentifierPassport
	}
	if !slices.Contains(casegraph.IdentifierTypes(), typ) {
		typ = casegraph.IdentifierOther
	}
	issuer := first(e, "authority")
	if issuer == "" {
		issuer = strings.ToUpper(first(e, "country"))
	}
	id := casegraph.Identifier{Type: typ, Value: first(e, "number"), Issuer: issuer}
	for i := done; i < len(ids); i++ {
		if ids[i].Value == id.Value {
			ids = slices.Delete(ids, i, i+1)
			break
		}
	}
	return slices.Insert(ids, done, id)
}

// coordinatesOfFtM are an Address's latitude and longitude (nil without
// both as numbers).
func coordinatesOfFtM(e FtMEntity) *casegraph.Coordinates {
	lat, errLat := strconv.ParseFloat(first(e, "latitude"), 64)
	lon, errLon := strconv.ParseFloat(first(e, "longitude"), 64)
	if errLat != nil || errLon != nil {
		return nil
	}
	return &casegraph.Coordinates{Latitude: lat, Longitude: lon}
}

// languageOfFtM is an FtM language (ISO 639-3, "ara") as Casegraph's ISO
// 639-1 code ("ar"), or "" for a language without one.
func languageOfFtM(code string) string {
	if code == "" {
		return ""
	}
	base, err := language.ParseBase(code)
	if s := base.String(); err == nil && len(s) == 2 {
		return s
	}
	return ""
}

// ParseFtMID reads an FtM id back: "cg-x" and hex is the id it encodes;
// any other is the id itself.
func ParseFtMID(id string) string {
	if h, ok := strings.CutPrefix(id, "cg-x"); ok {
		if b, err := hex.DecodeString(h); err == nil {
			return string(b)
		}
	}
	return id
}

func first(e FtMEntity, prop string) string {
	if v := e.Properties[prop]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// ftmDate is an FtM date (an ISO 8601 prefix, maybe with a time) as a
// partial date.
func ftmDate(s string) string {
	if len(s) > 10 {
		s = s[:10]
	}
	return s
}
