package dataset

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/text/language"

	casegraph "github.com/casegraph/casegraph"
)

// FollowTheMoney (FtM) is the entity format OCCRP Aleph, OpenSanctions and
// nomenklatura exchange: one JSON object a line, {id, schema, properties},
// every property a list of strings. The mapping is the tables below (the
// README shows them too); what FtM has no property for is carried in a
// property it has (the status and confidence of a relation in its
// description, an organization's category in keywords) and counted in the
// export's report, never dropped.

// FtMEntity is one FtM entity.
type FtMEntity struct {
	ID         string              `json:"id"`
	Schema     string              `json:"schema"`
	Properties map[string][]string `json:"properties"`
	Datasets   []string            `json:"datasets,omitempty"`
}

func (e *FtMEntity) add(prop string, values ...string) {
	for _, v := range values {
		if v != "" {
			e.Properties[prop] = append(e.Properties[prop], v)
		}
	}
}

// FtMReport counts what the export carried in a property not its own, or
// as a looser schema than the type says.
type FtMReport struct {
	Entities, Relations, Sources int
	// UnknownLinks are relations written as UnknownLink, by type.
	UnknownLinks map[string]int
	// InDescription counts relations whose status or confidence went into
	// their description, which FtM has no property for.
	InDescription int
	// CategoriesAsKeywords counts entities whose category went into
	// keywords.
	CategoriesAsKeywords int
	// PagesInNotes counts documents whose page count went into notes.
	PagesInNotes int
	// PropertiesInRole counts relations with a type-specific property
	// that their schema has no property for, written among the role's
	// values ("post: ...").
	PropertiesInRole int
	// SourceFieldsNotInFtM counts sources with a kind, archived URL,
	// SHA-256 or reliability that FtM has no property for (left out).
	SourceFieldsNotInFtM int
	// CitationsNotInFtM counts entities and relations whose citations say
	// more than FtM's proof (the sources) and summary (a relation's first
	// quote) hold: other quotes, locators, credibility.
	CitationsNotInFtM int
	// Protected counts protected people exported (with their names: an
	// operator's export holds everything).
	Protected int
	// Identifications counts the identifiers written as Identification
	// entities (each also as its holder's property of its type).
	Identifications int
	// LanguagesDropped counts documents whose language FtM has no code
	// for (an ISO 639-1 code without an ISO 639-3 one), written without it.
	LanguagesDropped int
}

// FtMWriter writes a graph as FtM entities: sources as Documents (the
// proof of what cites them), entities by kindSchemata, relations as
// interval schemata by relationSchemata. It remembers each entity's kind
// (a relation's schema depends on its ends), so entities go before the
// relations that join them, as Store.Export streams them.
type FtMWriter struct {
	enc    *json.Encoder
	kinds  map[string]casegraph.Kind
	Report FtMReport
}

// NewFtMWriter writes FtM JSON lines to w.
func NewFtMWriter(w io.Writer) *FtMWriter {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return &FtMWriter{enc: enc, kinds: map[string]casegraph.Kind{}, Report: FtMReport{UnknownLinks: map[string]int{}}}
}

// FtMID is the FtM id of an entity or relation id. FtM ids are letters,
// digits, '.' and '-' (a letter or digit at each end); an id that is one
// and does not start with "cg-" is kept, any other is "cg-x" and its bytes
// in hex, so that every id maps to one FtM id and back (ParseFtMID).
func FtMID(id string) string {
	if ftmIDPattern.MatchString(id) && !strings.HasPrefix(id, "cg-") {
		return id
	}
	return "cg-x" + hex.EncodeToString([]byte(id))
}

// SourceFtMID is the FtM id of a source's Document: sources and entities
// have ids of their own, which may be equal.
func SourceFtMID(id string) string { return "cg-s-" + FtMID(id) }

// ProtectedKeyword marks a protected person in FtM's keywords.
const ProtectedKeyword = "casegraph: protected person"

var ftmIDPattern = regexp.MustCompile(`^[0-9a-zA-Z]([0-9a-zA-Z.\-]*[0-9a-zA-Z])?$`)

// schemataWithStatus are the link schemata with a status property; the
// others carry a relation's status in their description.
var schemataWithStatus = map[string]bool{"Membership": true, "Employment": true, "Representation": true,
	"Directorship": true, "UnknownLink": true, "Documentation": true}

func newFtM(id, schema, dataset string) FtMEntity {
	return FtMEntity{ID: id, Schema: schema, Properties: map[string][]string{}, Datasets: []string{dataset}}
}

// sourceSchemata are the FtM schemata (each a Document) of the kinds of
// source FtM has one for; a source of another kind, or none, is a
// Document.
var sourceSchemata = map[casegraph.SourceKind]string{
	casegraph.SourceArticle: "Article", casegraph.SourcePhoto: "Image", casegraph.SourceVideo: "Video",
}

// ftmSourceKind is the kind of source an FtM schema says (none for a
// Document), and whether the schema is one a source is written as.
func ftmSourceKind(schema string) (casegraph.SourceKind, bool) {
	for k, s := range sourceSchemata {
		if s == schema {
			return k, true
		}
	}
	return "", schema == "Document"
}

// Source writes a source as a Document (an Article, Image or Video for
// those kinds: sourceSchemata), with its language. FtM has no property
// for its archived URL, hash (contentHash is FtM's SHA-1 of a file it
// holds), reliability, or a kind other than those: Casegraph's NDJSON keeps
// them (the report counts the sources that had one).
func (w *FtMWriter) Source(s casegraph.Source) error {
	schema, ok := sourceSchemata[s.Kind]
	if !ok {
		schema = "Document"
	}
	e := newFtM(SourceFtMID(s.ID), schema, s.Dataset)
	e.add("title", s.Title)
	e.add("publisher", s.Publisher)
	e.add("sourceUrl", s.URL)
	e.add("publishedAt", s.PublishedAt)
	e.add("retrievedAt", s.RetrievedAt)
	if code, ok := ftmLanguage(s.Language); ok {
		e.add("language", code)
	}
	if (s.Kind != "" && !ok) || s.ArchivedURL != "" || s.SHA256 != "" || (s.Reliability != "" && s.Reliability != casegraph.DefaultReliability) {
		w.Report.SourceFieldsNotInFtM++
	}
	w.Report.Sources++
	return w.enc.Encode(e)
}

// Entity writes an entity by its kind.
func (w *FtMWriter) Entity(en casegraph.Entity) error {
	schema := kindSchemata[en.Kind]
	if s, ok := organizationSchemata[en.Category]; ok && en.Kind == casegraph.KindOrganization {
		schema = s
	}
	e := newFtM(FtMID(en.ID), schema, en.Dataset)
	switch en.Kind {
	case casegraph.KindDocument:
		e.add("title", en.Name)
		e.add("publishedAt", en.PublishedAt)
		e.add("sourceUrl", en.URL)
		if en.PageCount > 0 {
			e.add("notes", fmt.Sprintf("%d pages", en.PageCount)) // FtM has no page count
			w.Report.PagesInNotes++
		}
		if en.Language != "" {
			if code, ok := ftmLanguage(en.Language); ok {
				e.add("language", code)
			} else {
				w.Report.LanguagesDropped++
			}
		}
	case casegraph.KindPlace:
		e.add("full", en.Name)
		e.add("name", en.Name)
		if c := en.Coordinates; c != nil {
			e.add("latitude", strconv.FormatFloat(c.Latitude, 'f', -1, 64))
			e.add("longitude", strconv.FormatFloat(c.Longitude, 'f', -1, 64))
		}
		e.add("country", strings.ToLower(en.CountryCode))
	default:
		e.add("name", en.Name)
	}
	e.add("birthDate", en.BirthDate)
	e.add("deathDate", en.DeathDate)
	e.add("birthPlace", en.BirthPlace)
	e.add("gender", strings.ToLower(string(en.Gender)))
	e.add("address", en.Address)
	e.add("jurisdiction", strings.ToLower(en.Jurisdiction))
	e.add("incorporationDate", en.FoundingDate)
	e.add("dissolutionDate", en.DissolutionDate)
	for _, id := range en.Identifiers {
		e.add(identifierProperty(en.Kind, id.Type), id.Value)
	}
	e.add("alias", en.Aliases...)
	e.add("description", en.Description)
	e.add("startDate", en.StartDate)
	e.add("endDate", en.EndDate)
	e.add("nationality", strings.ToLower(en.Nationality))
	if en.Category != "" {
		e.add("keywords", strings.ToLower(en.Category))
		w.Report.CategoriesAsKeywords++
	}
	for _, id := range en.SourceIDs {
		e.add("proof", SourceFtMID(id))
	}
	if _, _, old := casegraph.OldShape(en.Cited()); !old {
		w.Report.CitationsNotInFtM++
	}
	if en.Protected {
		// FtM has no such flag: a keyword keeps it, so that an import of
		// this file protects the person again.
		e.add("keywords", ProtectedKeyword)
		w.Report.Protected++
	}
	w.kinds[en.ID] = en.Kind
	w.Report.Entities++
	if err := w.enc.Encode(e); err != nil {
		return err
	}
	return w.identifications(en)
}

// identifierProperties are the holder's FtM property of each identifier
// type that has one (a person's passport number; every LegalEntity's
// registration, tax and id numbers); the others go as idNumber.
var identifierProperties = map[casegraph.IdentifierType]string{
	casegraph.IdentifierPassport:     "passportNumber",
	casegraph.IdentifierRegistration: "registrationNumber",
	casegraph.IdentifierTax:          "taxNumber",
}

func identifierProperty(k casegraph.Kind, t casegraph.IdentifierType) string {
	if p, ok := identifierProperties[t]; ok && (k == casegraph.KindPerson || t != casegraph.IdentifierPassport) {
		return p
	}
	return "idNumber"
}

// identifications writes each of an entity's identifiers as an FtM
// Identification (holder, number, type, and its issuer as country or
// authority): its holder's property says only the number, and for a
// service number or another, not even its type.
func (w *FtMWriter) identifications(en casegraph.Entity) error {
	for i, id := range en.Identifiers {
		e := newFtM(identificationFtMID(en.ID, i), "Identification", en.Dataset)
		e.add("holder", FtMID(en.ID))
		e.add("number", id.Value)
		e.add("type", identificationType(id.Type))
		if countryCode.MatchString(id.Issuer) {
			e.add("country", strings.ToLower(id.Issuer))
		} else {
			e.add("authority", id.Issuer)
		}
		for _, src := range en.SourceIDs {
			e.add("proof", SourceFtMID(src))
		}
		w.Report.Identifications++
		if err := w.enc.Encode(e); err != nil {
			return err
		}
	}
	return nil
}

// identificationFtMID is the FtM id of an entity's i-th identifier: like
// SourceFtMID, under a prefix no entity's FtM id has.
func identificationFtMID(entityID string, i int) string {
	return "cg-i" + strconv.Itoa(i+1) + "-" + FtMID(entityID)
}

// identificationType is an identifier type as an Identification's type
// ("service number"); parseIdentificationType reads it back.
func identificationType(t casegraph.IdentifierType) string {
	return strings.ToLower(strings.ReplaceAll(string(t), "_", " "))
}

var countryCode = regexp.MustCompile(`^[A-Z]{2}$`)

// ftmLanguage is an ISO 639-1 code as FtM's language type holds it: the
// ISO 639-3 code ("ar" is "ara").
func ftmLanguage(code string) (string, bool) {
	base, err := language.ParseBase(code)
	if err != nil || base.ISO3() == "und" {
		return "", false
	}
	return base.ISO3(), true
}

// Relation writes a relation as an interval.
func (w *FtMWriter) Relation(r casegraph.Relation) error {
	link, from, to := w.link(r)
	e := newFtM(FtMID(r.ID), link.schema, r.Dataset)
	e.add(link.from, FtMID(from))
	e.add(link.to, FtMID(to))
	spec, _ := casegraph.Spec(r.Type)
	role := r.Role
	// Where one schema stands for several types, the role starts with the
	// type's label, so the import can tell which ("held a position in:
	// judge").
	if link.schema == "UnknownLink" || sharedSchemata[link.schema] {
		role = strings.TrimSpace(spec.Label + ": " + r.Role)
		role = strings.TrimSuffix(role, ":")
	}
	prop := "role"
	if p, ok := roleProperty[link.schema]; ok {
		prop = p
	}
	// The type-specific properties the schema has go first (a Family's
	// relationship before the role it shares the property with); the
	// others among the role's values, after it.
	var inRole []string
	for p := range casegraph.RelationPropertyRows() {
		if v := p.Value(r.RelationAttributes); v == nil {
			continue
		} else if native, ok := relationPropertyFtM[link.schema][p.Name]; ok {
			e.add(native, ftmValue(p.Name, v))
		} else {
			inRole = append(inRole, p.Name+": "+ftmValue(p.Name, v))
		}
	}
	e.add(prop, role)
	e.add(prop, inRole...)
	if len(inRole) > 0 {
		w.Report.PropertiesInRole++
	}
	e.add("startDate", r.StartDate)
	e.add("endDate", r.EndDate)
	e.add("summary", r.Quote)
	var facts []string
	if schemataWithStatus[link.schema] {
		e.add("status", strings.ToLower(string(r.Status)))
	} else {
		facts = append(facts, "status: "+strings.ToLower(string(r.Status)))
	}
	if r.Confidence != nil {
		facts = append(facts, "confidence: "+strconv.FormatFloat(*r.Confidence, 'f', -1, 64))
	}
	if len(facts) > 0 {
		e.add("description", strings.Join(facts, "; "))
		w.Report.InDescription++
	}
	for _, id := range r.SourceIDs {
		e.add("proof", SourceFtMID(id))
	}
	if _, _, old := casegraph.OldShape(r.Cited()); !old {
		w.Report.CitationsNotInFtM++
	}
	w.Report.Relations++
	return w.enc.Encode(e)
}

// link chooses a relation's schema and which end goes where.
func (w *FtMWriter) link(r casegraph.Relation) (ftmLink, string, string) {
	fromKind, toKind := w.kinds[r.FromID], w.kinds[r.ToID]
	l, ok := relationSchemata[r.Type]
	if ok && l.schema == "Documentation" {
		// The document end is the document, whichever way the type reads.
		switch {
		case toKind == casegraph.KindDocument:
			return ftmLink{"Documentation", "entity", "document"}, r.FromID, r.ToID
		case fromKind == casegraph.KindDocument:
			return ftmLink{"Documentation", "document", "entity"}, r.FromID, r.ToID
		}
		ok = false
	}
	if ends, typed := linkEnds[l.schema]; ok && typed && (!kindIn(fromKind, ends[0]) || !kindIn(toKind, ends[1])) {
		ok = false
	}
	if !ok {
		w.Report.UnknownLinks[string(r.Type)]++
		return ftmLink{"UnknownLink", "subject", "object"}, r.FromID, r.ToID
	}
	return l, r.FromID, r.ToID
}

func kindIn(k casegraph.Kind, kinds []casegraph.Kind) bool {
	for _, x := range kinds {
		if x == k {
			return true
		}
	}
	return false
}

// String reports the export in a few lines, for the operator.
func (r FtMReport) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "ftm: %d sources (as Document), %d entities, %d relations\n", r.Sources, r.Entities, r.Relations)
	if r.InDescription > 0 {
		fmt.Fprintf(&b, "ftm: the confidence (or, where the schema has no status, the status) of %d relations is in their description: FtM has no property for it\n", r.InDescription)
	}
	if r.PropertiesInRole > 0 {
		fmt.Fprintf(&b, "ftm: %d relations have a post, rank, share or amount among their role's values (\"post: ...\"): their schema has no property for it\n", r.PropertiesInRole)
	}
	if r.PagesInNotes > 0 {
		fmt.Fprintf(&b, "ftm: the page count of %d documents is in their notes\n", r.PagesInNotes)
	}
	if r.CategoriesAsKeywords > 0 {
		fmt.Fprintf(&b, "ftm: the category of %d entities is in their keywords\n", r.CategoriesAsKeywords)
	}
	if len(r.UnknownLinks) > 0 {
		var types []string
		for t, n := range r.UnknownLinks {
			types = append(types, fmt.Sprintf("%s %d", t, n))
		}
		sort.Strings(types)
		fmt.Fprintf(&b, "ftm: as UnknownLink (no FtM schema for the type, or its ends): %s\n", strings.Join(types, ", "))
	}
	if r.Protected > 0 {
		fmt.Fprintf(&b, "ftm: %d protected people are in the export with their names\n", r.Protected)
	}
	if r.Identifications > 0 {
		fmt.Fprintf(&b, "ftm: %d identifiers as Identification entities (and their holders' numbers)\n", r.Identifications)
	}
	if r.LanguagesDropped > 0 {
		fmt.Fprintf(&b, "ftm: the language of %d documents has no ISO 639-3 code: left out\n", r.LanguagesDropped)
	}
	return b.String()
}
