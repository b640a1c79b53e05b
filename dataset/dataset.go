// Package dataset reads and writes Casegraph's NDJSON data files: one JSON
// object a line, each with a "type" of "source" or "entity". It embeds the
// seed dataset, the graph of the story in shared/seed/caesar-report-article.txt.
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

// Batch is what a data file holds, in file order within each type.
type Batch struct {
	Sources  []casegraph.Source
	Entities []casegraph.Entity
}

// LineError is a bad line of a data file.
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string {
	return fmt.Sprintf("line %d: %v", e.Line, e.Err)
}

func (e *LineError) Unwrap() error { return e.Err }

// record is one line of a data file, as JSON.
type record struct {
	Type string `json:"type"`

	ID          string   `json:"id"`
	Kind        string   `json:"kind,omitempty"`
	Name        string   `json:"name,omitempty"`
	Aliases     []string `json:"aliases,omitempty"`
	Description string   `json:"description,omitempty"`
	Dataset     string   `json:"dataset,omitempty"`
	SourceIDs   []string `json:"sourceIds,omitempty"`
	Category    string   `json:"category,omitempty"`
	StartDate   string   `json:"startDate,omitempty"`
	EndDate     string   `json:"endDate,omitempty"`
	PublishedAt string   `json:"publishedAt,omitempty"`
	PageCount   int      `json:"pageCount,omitempty"`
	URL         string   `json:"url,omitempty"`
	Nationality string   `json:"nationality,omitempty"`

	Title       string `json:"title,omitempty"`
	Publisher   string `json:"publisher,omitempty"`
	RetrievedAt string `json:"retrievedAt,omitempty"`
}

// MaxLineBytes bounds one line of a data file.
const MaxLineBytes = 4 << 20

// Read parses and validates a whole data file. It returns every bad line it
// finds (up to 100), not only the first, so a file is fixed in one pass.
func Read(r io.Reader) (Batch, error) {
	var b Batch
	var errs []error
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxLineBytes)
	line := 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		if err := b.add(text); err != nil {
			errs = append(errs, &LineError{Line: line, Err: err})
			if len(errs) == 100 {
				break
			}
		}
	}
	if err := sc.Err(); err != nil {
		errs = append(errs, &LineError{Line: line + 1, Err: err})
	}
	if len(errs) > 0 {
		return Batch{}, fmt.Errorf("%d bad lines:\n%w", len(errs), errors.Join(errs...))
	}
	return b, nil
}

func (b *Batch) add(text []byte) error {
	var rec record
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rec); err != nil {
		return fmt.Errorf("not a valid record: %v", err)
	}
	switch rec.Type {
	case "source":
		s := casegraph.Source{ID: rec.ID, Title: rec.Title, Publisher: rec.Publisher, URL: rec.URL,
			PublishedAt: rec.PublishedAt, RetrievedAt: rec.RetrievedAt, Dataset: rec.Dataset}
		if err := s.Validate(); err != nil {
			return err
		}
		b.Sources = append(b.Sources, s)
	case "entity":
		e := casegraph.Entity{ID: rec.ID, Kind: casegraph.Kind(rec.Kind), Name: rec.Name, Aliases: rec.Aliases,
			Description: rec.Description, Dataset: rec.Dataset, SourceIDs: rec.SourceIDs,
			Category: rec.Category, StartDate: rec.StartDate, EndDate: rec.EndDate, PublishedAt: rec.PublishedAt,
			PageCount: rec.PageCount, URL: rec.URL, Nationality: rec.Nationality}
		if err := e.Validate(); err != nil {
			return err
		}
		b.Entities = append(b.Entities, e)
	default:
		return fmt.Errorf("unknown record type %q (want source or entity)", rec.Type)
	}
	return nil
}
