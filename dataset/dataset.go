// Package dataset reads, checks, writes and generates Casegraph's NDJSON
// data files: one JSON object a line, each with a "type" of "source",
// "entity" or "relation" (the format is in the README). It embeds the seed
// dataset, the graph of the story in shared/seed/caesar-report-article.txt,
// and imports files through a store it is given.
package dataset

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	casegraph "github.com/casegraph/casegraph"
)

//go:embed seed.ndjson
var seed []byte

// SeedName is the dataset every seed record belongs to.
const SeedName = "caesar-report"

// Seed returns the seed dataset's NDJSON.
func Seed() io.Reader {
	return bytes.NewReader(seed)
}

// Batch is what a data file holds, in file order within each type, with
// the line each item came from.
type Batch struct {
	Sources   []casegraph.Source
	Entities  []casegraph.Entity
	Relations []casegraph.Relation

	SourceLines   []int
	EntityLines   []int
	RelationLines []int

	// Lines counts the lines read (blank ones aside).
	Lines int
	// Bad is the lines Read could not take; Check reports them with the
	// problems it finds in the rest, so one run lists every bad line.
	Bad LinesError
	// badEntities maps the id of an entity on a bad line to that line.
	badEntities map[string]int
	// file holds the rows ReadFile left in their file (Entities and
	// Relations are then empty; EntityLines and RelationLines are not).
	file *heldFile
	// strs holds one copy of each string that rows repeat (datasets,
	// entity ids as ends, source ids, dates), while Read reads.
	strs map[string]string
}

// intern is s, as the first row that gave it holds it: a file of
// millions of relations names each end, source and dataset again and
// again, and the decoder makes each a string of its own.
func (b *Batch) intern(s string) string {
	if s == "" {
		return s
	}
	if b.strs == nil {
		b.strs = map[string]string{}
	}
	if held, ok := b.strs[s]; ok {
		return held
	}
	b.strs[s] = s
	return s
}

// internAll interns each of ss in place.
func (b *Batch) internAll(ss []string) {
	for i := range ss {
		ss[i] = b.intern(ss[i])
	}
}

// internCitations interns the sources of cs in place.
func (b *Batch) internCitations(cs []casegraph.Citation) {
	for i := range cs {
		cs[i].SourceID = b.intern(cs[i].SourceID)
	}
}

// Record is one line of a data file, as JSON.
type Record struct {
	Type string `json:"type"` // source, entity or relation

	ID          string   `json:"id"`
	Kind        string   `json:"kind,omitempty"`
	Name        string   `json:"name,omitempty"`
	Aliases     []string `json:"aliases,omitempty"`
	Description string   `json:"description,omitempty"`
	// An entity's attributes, each under its property name (the table of
	// casegraph/property.go); a source's url and publishedAt and a
	// relation's startDate and endDate are the fields of the same name.
	casegraph.Attributes

	RelationType string   `json:"relationType,omitempty"`
	From         string   `json:"from,omitempty"`
	To           string   `json:"to,omitempty"`
	Role         string   `json:"role,omitempty"`
	Status       string   `json:"status,omitempty"`
	Confidence   *float64 `json:"confidence,omitempty"`
	Quote        string   `json:"quote,omitempty"`
	// A relation's type-specific properties, each under its name (the
	// table of casegraph/relationproperty.go).
	casegraph.RelationAttributes

	Title       string `json:"title,omitempty"`
	Publisher   string `json:"publisher,omitempty"`
	RetrievedAt string `json:"retrievedAt,omitempty"`
	// A source's kind is Kind and its language Attributes' (a document's
	// field of the same name); these are a source's too.
	ArchivedURL string `json:"archivedUrl,omitempty"`
	SHA256      string `json:"sha256,omitempty"`
	Reliability string `json:"reliability,omitempty"`

	Dataset string `json:"dataset"`
	// An entity's or a relation's evidence: sourceIds (and a relation's
	// quote), the old way, when its citations say nothing more
	// (casegraph.OldShape), else citations (each with its source, quote,
	// locator, typed credibility and, written out, its grade, which a
	// reader ignores: it is derived from the sources).
	SourceIDs []string             `json:"sourceIds,omitempty"`
	Citations []casegraph.Citation `json:"citations,omitempty"`

	// Protected is an entity's protection, when the line says it (it
	// stands in for Attributes' field of the name): left out, a stored
	// entity keeps its own (an import must not lift a protection by
	// saying nothing), and a new one is not protected.
	Protected *bool `json:"protected,omitempty"`
}

// MaxLineBytes bounds one line of a data file.
const MaxLineBytes = 4 << 20

// Read parses and validates a whole data file, line by line. It returns
// every bad line it finds as a *LinesError, not only the first, and every
// problem of each line (listing the first 100 problems and counting the
// rest), together with the batch of the good lines, which Import (or
// Check) checks against the graph while reporting the bad ones too: a file
// can be fixed in one pass.
func Read(r io.Reader) (Batch, error) {
	var b Batch
	err := b.read(r)
	return b, err
}

// read reads the lines of r into b (Read), and returns its bad lines.
func (b *Batch) read(r io.Reader) error {
	bad := &b.Bad
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxLineBytes)
	line := 0
	for sc.Scan() {
		line++
		raw := sc.Bytes()
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		b.Lines++
		if err := b.add(raw, line); err != nil {
			bad.add(line, err)
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			err = &casegraph.Error{Code: casegraph.CodeBadUserInput, Cause: err,
				Message: fmt.Sprintf("the line is longer than the limit of %d bytes", MaxLineBytes)}
		}
		b.Lines++
		bad.add(line+1, err)
	}
	b.strs = nil
	return b.Bad.orNil()
}

// add decodes one line (raw, as in the file) and adds its record. Text
// that is not Unicode is refused with its place rather than stored as
// U+FFFD (which JSON decoding would make of it): before the decoder's
// error, which would name an invalid byte as the Latin-1 character it is
// not.
func (b *Batch) add(raw []byte, line int) error {
	var rec Record
	dec := json.NewDecoder(bytes.NewReader(bytes.TrimSpace(raw)))
	dec.DisallowUnknownFields()
	decodeErr := dec.Decode(&rec)
	if err := checkUnicode(raw); err != nil {
		return err
	}
	if decodeErr != nil {
		return &casegraph.Error{Code: casegraph.CodeBadUserInput, Message: "not a valid record: " + decodeErr.Error(), Cause: decodeErr,
			Field: decodeField(decodeErr)}
	}
	if dec.More() {
		return casegraph.Errorf(casegraph.CodeBadUserInput, "more than one JSON value on the line")
	}
	rec.Type = casegraph.Canonical(rec.Type, recordTypes)
	if err := b.addRecord(rec, line, raw); err != nil {
		if rec.Type == "entity" && rec.ID != "" {
			if b.badEntities == nil {
				b.badEntities = map[string]int{}
			}
			b.badEntities[rec.ID] = line
		}
		return err
	}
	return nil
}

// recordTypes are the types of line, which are read in any case.
var recordTypes = []string{"source", "entity", "relation"}

// addRecord adds the record of a line (raw, as in the file).
func (b *Batch) addRecord(rec Record, line int, raw []byte) error {
	if (rec.Type == "source" || rec.Type == "entity") && rec.RelationAttributes != (casegraph.RelationAttributes{}) {
		return casegraph.Errorf(casegraph.CodeBadUserInput, "%s has none of a relation's properties (%v)", map[string]string{"source": "a source", "entity": "an entity"}[rec.Type],
			casegraph.RelationPropertyNames())
	}
	// Of a row ReadFile leaves in its file only its id (and an entity's
	// kind) is kept: its strings are not interned.
	held := b.file != nil && rec.Type != "source"
	if !held {
		rec.Dataset = b.intern(rec.Dataset)
		b.internAll(rec.SourceIDs)
		b.internCitations(rec.Citations)
	}
	switch rec.Type {
	case "source":
		rec.ID = b.intern(rec.ID) // cited by entities and relations
		s := casegraph.Source{ID: rec.ID, Title: rec.Title, Publisher: rec.Publisher, URL: rec.URL,
			PublishedAt: rec.PublishedAt, RetrievedAt: rec.RetrievedAt, Dataset: rec.Dataset,
			Kind: casegraph.SourceKind(rec.Kind), Language: rec.Attributes.Language, ArchivedURL: rec.ArchivedURL, SHA256: rec.SHA256,
			Reliability: casegraph.Reliability(rec.Reliability)}
		if err := s.Normalize(); err != nil {
			return err
		}
		b.Sources, b.SourceLines = append(b.Sources, s), append(b.SourceLines, line)
	case "entity":
		if !held {
			rec.ID = b.intern(rec.ID) // the end of relations
		}
		e := casegraph.Entity{ID: rec.ID, Kind: casegraph.Kind(rec.Kind), Name: rec.Name, Aliases: rec.Aliases,
			Description: rec.Description, Dataset: rec.Dataset, SourceIDs: rec.SourceIDs, Citations: rec.Citations,
			Attributes: rec.Attributes, KeepProtection: rec.Protected == nil}
		e.Protected = rec.Protected != nil && *rec.Protected
		if err := e.Normalize(); err != nil {
			return err
		}
		if b.file != nil {
			b.file.keepEntity(e, raw) // left in the file
		} else {
			b.Entities = append(b.Entities, e)
		}
		b.EntityLines = append(b.EntityLines, line)
	case "relation":
		if !held {
			rec.From, rec.To = b.intern(rec.From), b.intern(rec.To)
			rec.StartDate, rec.EndDate = b.intern(rec.StartDate), b.intern(rec.EndDate)
		}
		r := casegraph.Relation{ID: rec.ID, Type: casegraph.RelationType(rec.RelationType), FromID: rec.From, ToID: rec.To,
			Role: rec.Role, StartDate: rec.StartDate, EndDate: rec.EndDate, Status: casegraph.Status(rec.Status),
			Confidence: rec.Confidence, Quote: rec.Quote, SourceIDs: rec.SourceIDs, Citations: rec.Citations, Dataset: rec.Dataset,
			RelationAttributes: rec.RelationAttributes}
		if err := r.Normalize(); err != nil { // no status: casegraph.DefaultStatus
			return relationFields(err)
		}
		if b.file != nil {
			b.file.keepRelation(r, raw) // left in the file
		} else {
			b.Relations = append(b.Relations, r)
		}
		b.RelationLines = append(b.RelationLines, line)
	default:
		e := casegraph.Errorf(casegraph.CodeBadUserInput, "unknown record type %q (want source, entity or relation)", rec.Type)
		e.Field, e.Accepted = "type", recordTypes
		e.Suggestion = casegraph.Nearest(rec.Type, recordTypes)
		return e
	}
	return nil
}

// SourceRecord is a source as a line of a data file.
func SourceRecord(s casegraph.Source) Record {
	r := Record{Type: "source", ID: s.ID, Title: s.Title, Publisher: s.Publisher, Kind: string(s.Kind),
		Attributes: casegraph.Attributes{URL: s.URL, PublishedAt: s.PublishedAt, Language: s.Language}, RetrievedAt: s.RetrievedAt,
		Dataset: s.Dataset, ArchivedURL: s.ArchivedURL, SHA256: s.SHA256}
	if s.Reliability != casegraph.DefaultReliability {
		r.Reliability = string(s.Reliability) // the default goes without saying, as before reliabilities
	}
	return r
}

// evidence is a claim's citations as a line says them: the old way
// (sourceIds, and a quote) when they say nothing more, else citations.
func evidence(cs []casegraph.Citation) (ids []string, quote string, citations []casegraph.Citation) {
	if ids, quote, old := casegraph.OldShape(cs); old {
		return ids, quote, nil
	}
	return nil, "", cs
}

// EntityRecord is an entity as a line of a data file. An entity that is
// not protected says nothing of it (read back, it keeps what is stored).
func EntityRecord(e casegraph.Entity) Record {
	ids, _, citations := evidence(e.Cited())
	r := Record{Type: "entity", ID: e.ID, Kind: string(e.Kind), Name: e.Name, Aliases: e.Aliases,
		Description: e.Description, Attributes: e.Attributes, Dataset: e.Dataset, SourceIDs: ids, Citations: citations}
	if e.Protected {
		r.Protected = &e.Protected
	}
	return r
}

// RelationRecord is a relation as a line of a data file.
func RelationRecord(r casegraph.Relation) Record {
	ids, quote, citations := evidence(r.Cited())
	return Record{Type: "relation", ID: r.ID, RelationType: string(r.Type), From: r.FromID, To: r.ToID,
		Role: r.Role, Attributes: casegraph.Attributes{StartDate: r.StartDate, EndDate: r.EndDate}, Status: string(r.Status),
		Confidence: r.Confidence, Quote: quote, RelationAttributes: r.RelationAttributes, Dataset: r.Dataset, SourceIDs: ids, Citations: citations}
}

// Encoder writes records one a line.
type Encoder struct {
	enc *json.Encoder
}

// NewEncoder returns an Encoder writing to w.
func NewEncoder(w io.Writer) *Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return &Encoder{enc: enc}
}

// Sink is what an export streams into the encoder: each source, entity
// and relation as its record.
func (e *Encoder) Sink() casegraph.ExportSink {
	return casegraph.ExportSink{
		Source:   func(s casegraph.Source) error { return e.Encode(SourceRecord(s)) },
		Entity:   func(en casegraph.Entity) error { return e.Encode(EntityRecord(en)) },
		Relation: func(r casegraph.Relation) error { return e.Encode(RelationRecord(r)) },
	}
}

// Encode writes one record and a newline.
func (e *Encoder) Encode(r Record) error {
	return e.enc.Encode(r)
}

//go:embed savedqueries.json
var seedSavedQueries []byte

// SeedSavedQueries returns the example saved queries over the seed dataset.
func SeedSavedQueries() ([]casegraph.SavedQuery, error) {
	var raw []struct {
		Name, Title, Description, Document string
		DefaultVariables                   json.RawMessage
		Tags                               []string
	}
	if err := json.Unmarshal(seedSavedQueries, &raw); err != nil {
		return nil, fmt.Errorf("seed queries: %w", err)
	}
	out := make([]casegraph.SavedQuery, len(raw))
	for i, r := range raw {
		out[i] = casegraph.SavedQuery{Name: r.Name, Title: r.Title, Description: r.Description, Document: r.Document,
			DefaultVariables: r.DefaultVariables, Tags: r.Tags}
		if err := out[i].Validate(); err != nil {
			return nil, fmt.Errorf("seed query %s: %w", r.Name, err)
		}
	}
	return out, nil
}

// Counts are how many records of each kind a batch holds for one dataset.
type Counts struct {
	Sources, Entities, Relations int
}

// ByDataset counts the batch's records by their dataset, for the audit
// record of its import (one a dataset).
func (b Batch) ByDataset() map[string]Counts {
	out := map[string]Counts{}
	for _, s := range b.Sources {
		c := out[s.Dataset]
		c.Sources++
		out[s.Dataset] = c
	}
	for _, e := range b.Entities {
		c := out[e.Dataset]
		c.Entities++
		out[e.Dataset] = c
	}
	for _, r := range b.Relations {
		c := out[r.Dataset]
		c.Relations++
		out[r.Dataset] = c
	}
	if b.file != nil {
		for ds, n := range b.file.datasets {
			c := out[ds]
			c.Entities += n.Entities
			c.Relations += n.Relations
			out[ds] = c
		}
	}
	return out
}
