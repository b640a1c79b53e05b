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

// kindSchemata is the FtM schema of each kind; organizations go by their
// category (organizationSchemata) when it has one.
var kindSchemata = map[casegraph.Kind]string{
	casegraph.KindPerson:       "Person",
	casegraph.KindOrganization: "Organization",
	casegraph.KindEvent:        "Event",
	casegraph.KindDocument:     "Document",
	casegraph.KindPlace:        "Address",
}

// organizationSchemata are the organizations that FtM has a narrower
// schema for.
var organizationSchemata = map[string]string{
	"GOVERNMENT":        "PublicBody",
	"INTERGOVERNMENTAL": "PublicBody",
	"TRIBUNAL":          "PublicBody",
	"COMPANY":           "Company",
	"LAW_FIRM":          "Company",
	"MEDIA":             "Company",
}

// ftmLink says how a relation type becomes an FtM interval: its schema,
// and the properties that hold its from and to ends. Documentation takes
// the document end as its document whichever way the relation reads.
type ftmLink struct {
	schema, from, to string
}

// relationSchemata maps each relation type that FtM has a schema for (the
// vocabulary's FtM column); a type missing here, or whose ends FtM's
// schema would not take, is an UnknownLink (subject, object) with the
// relation's reading label as its role.
var relationSchemata = func() map[casegraph.RelationType]ftmLink {
	out := map[casegraph.RelationType]ftmLink{}
	for _, spec := range casegraph.Vocabulary() {
		if spec.FtM.Schema != "" {
			out[spec.Type] = ftmLink{spec.FtM.Schema, spec.FtM.From, spec.FtM.To}
		}
	}
	return out
}()

// sharedSchemata are the FtM schemata that stand for more than one
// relation type (the vocabulary's FtM column), whose role carries the
// type's label.
var sharedSchemata = func() map[string]bool {
	types := map[string]int{}
	for _, l := range relationSchemata {
		types[l.schema]++
	}
	out := map[string]bool{}
	for schema, n := range types {
		out[schema] = n > 1
	}
	return out
}()

// roleProperty is the property that holds a relation's role in the
// schemata that have no "role" (ftmRelation reads them back).
var roleProperty = map[string]string{"Payment": "purpose", "Associate": "relationship", "Family": "relationship"}

// linkEnds are the kinds an FtM link schema's ends take: a relation whose
// ends are of other kinds goes as an UnknownLink.
var linkEnds = map[string][2][]casegraph.Kind{
	"Membership":     {{casegraph.KindPerson, casegraph.KindOrganization}, {casegraph.KindOrganization}},
	"Employment":     {{casegraph.KindPerson}, {casegraph.KindOrganization}},
	"Representation": {{casegraph.KindPerson, casegraph.KindOrganization}, {casegraph.KindPerson, casegraph.KindOrganization}},
	"Directorship":   {{casegraph.KindPerson, casegraph.KindOrganization}, {casegraph.KindOrganization}},
	"Payment":        {{casegraph.KindPerson, casegraph.KindOrganization}, {casegraph.KindPerson, casegraph.KindOrganization}},
	"Associate":      {{casegraph.KindPerson}, {casegraph.KindPerson}},
	"Family":         {{casegraph.KindPerson}, {casegraph.KindPerson}},
	"Ownership":      {{casegraph.KindPerson, casegraph.KindOrganization}, {casegraph.KindOrganization}},
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

// ftmLanguage is an ISO 639-1 code as FtM spells a language (ISO 639-3,
// "eng"); "" for none.
func ftmLanguage(code string) string {
	base, err := language.ParseBase(code)
	if code == "" || err != nil {
		return ""
	}
	return base.ISO3()
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
	e.add("language", ftmLanguage(s.Language))
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
	case casegraph.KindPlace:
		e.add("full", en.Name)
		e.add("name", en.Name)
	default:
		e.add("name", en.Name)
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
	return w.enc.Encode(e)
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
	e.add(prop, role)
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
	return b.String()
}
