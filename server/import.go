package server

// POST /datasets/{name}/import: an NDJSON or FtM file into one dataset,
// through the write gate, with its audit record.

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/rs/zerolog"
	"github.com/vektah/gqlparser/v2/gqlerror"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/dataset"
)

// Imports is what the import route asks of the store: what dataset.Import
// checks and writes with (the store's write gate, with the caller's
// rights), and the audit record.
type Imports interface {
	dataset.Store
	dataset.ImportRecorder
}

// importResult is what an import over HTTP answers.
type importResult struct {
	Dataset   string   `json:"dataset"`
	Sources   int      `json:"sources"`
	Entities  int      `json:"entities"`
	Relations int      `json:"relations"`
	Notes     []string `json:"notes"`
}

// writeLinesError answers an import refused for its bad lines: one error
// for each problem (the first 100; then one that counts the rest, reason
// TOO_MANY_ERRORS, with their number in extensions.omitted), its code in
// extensions.code, and its line, field, accepted values and suggestion in
// extensions; the answer's extensions.summary counts the lines read and
// refused. The status is that of the code the problems share (400 when
// they differ).
func writeLinesError(w http.ResponseWriter, ctx context.Context, b dataset.Batch, bad *dataset.LinesError) {
	list, omitted := bad.Problems()
	errs := make(gqlerror.List, 0, len(list)+1)
	for _, p := range list {
		e := presentError(ctx, &casegraph.Error{Code: p.Code, Message: p.String()})
		e.Extensions["line"] = p.Line
		if p.Field != "" {
			e.Extensions["field"] = p.Field
		}
		if p.Accepted != nil {
			e.Extensions["accepted"] = p.Accepted
		}
		if p.Suggestion != "" {
			e.Extensions["suggestion"] = p.Suggestion
		}
		errs = append(errs, e)
	}
	if omitted > 0 {
		last := codedError(casegraph.CodeBadUserInput, "TOO_MANY_ERRORS", "%d more errors not shown", omitted)
		last.Extensions["omitted"] = omitted
		errs = append(errs, last)
	}
	countErrors(ctx, errs)
	sum := dataset.Summarize(b, bad)
	writeJSON(w, statusOf(string(casegraph.ErrorCode(bad))), graphql.Response{Errors: errs, Extensions: map[string]any{
		"summary": importSummary{Text: sum.String() + "; nothing was imported", Lines: sum.Lines, Sources: sum.Sources,
			Entities: sum.Entities, Relations: sum.Relations, Refused: sum.Refused, Errors: sum.Errors},
	}})
}

// importSummary is extensions.summary of a refused import.
type importSummary struct {
	Text      string `json:"text"`
	Lines     int    `json:"lines"`
	Sources   int    `json:"sources"`
	Entities  int    `json:"entities"`
	Relations int    `json:"relations"`
	Refused   int    `json:"refused"`
	Errors    int    `json:"errors"`
}

// importDataset serves POST /datasets/{name}/import?format=ndjson|ftm
// (&idPrefix=P for FtM): a file into one dataset, by a caller who may
// write it, with the caller's rights: every row passes the write gate that
// every mutation passes (clearance for protected people, ends and sources
// the caller may read, ids that are free or its own, no reserved id).
// Every record must belong to that dataset, and no id may belong to
// another one already (dataset.Options.Dataset): the import writes by id.
// It is checked whole before anything is written (dataset.Import), each
// bad line said with its code (4xx, never 500), and recorded in the audit
// log. The body may be up to MaxImportBytes.
func (s *Server) importDataset(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	name := r.PathValue("name")
	q := r.URL.Query()
	fail := func(err error) { writeCodedError(w, ctx, err) }
	format := q.Get("format")
	if format == "" {
		format = "ndjson"
	}
	if format != "ndjson" && format != "ftm" {
		fail(casegraph.Errorf(casegraph.CodeBadUserInput, "format must be ndjson or ftm, not %q", format))
		return
	}
	if err := casegraph.ValidateID("name", name); err != nil {
		fail(err)
		return
	}
	if err := casegraph.CheckWrite(ctx, name); err != nil {
		fail(err)
		return
	}
	release, err := s.takeTransfer(r, s.transfers.imports, "import")
	if err != nil {
		fail(err)
		return
	}
	defer release()
	body := http.MaxBytesReader(w, r.Body, s.cfg.MaxImportBytes)
	var b dataset.Batch
	var notes []string
	if format == "ftm" {
		var ftmNotes []dataset.FtMNote
		b, ftmNotes, err = dataset.ReadFtM(body, dataset.FtMReadOptions{Dataset: name, IDPrefix: q.Get("idPrefix")})
		for _, n := range ftmNotes {
			notes = append(notes, n.String())
		}
	} else {
		var remove func()
		b, remove, err = spool(body)
		defer remove()
	}
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		writeReasonedErrorCode(w, http.StatusRequestEntityTooLarge, casegraph.CodeBadUserInput, "BODY_TOO_LARGE",
			"the file is larger than the import limit; import it with casegraph import")
		return
	}
	var bad *dataset.LinesError
	if casegraph.ErrorCode(err) == casegraph.CodeInternal && errors.As(err, new(*casegraph.Error)) {
		fail(err) // the server's (spool)
		return
	}
	if err != nil && !errors.As(err, &bad) {
		fail(casegraph.Errorf(casegraph.CodeBadUserInput, "%s", strings.TrimSpace(err.Error())))
		return
	}
	// Bad lines are reported with what the graph check finds in the
	// others, in one list; Import writes nothing while any is bad.
	st, err := dataset.Import(ctx, b, s.store, dataset.Options{Dataset: name})
	if errors.As(err, &bad) {
		writeLinesError(w, ctx, b, bad)
		return
	}
	if err != nil {
		fail(err)
		return
	}
	if notes == nil {
		notes = []string{}
	}
	if err := dataset.RecordImport(ctx, s.store, b, st); err != nil {
		// The file is in: saying it failed would be wrong; the answer and
		// the log say what is missing.
		logErr(zerolog.Ctx(ctx).Error(), err).Str("dataset", name).Msg("import without its audit record")
		notes = append(notes, "imported, but the audit record was not written: "+casegraph.ErrorMessage(err))
	}
	writeJSON(w, http.StatusOK, importResult{Dataset: name, Sources: len(b.Sources), Entities: b.EntityCount(), Relations: b.RelationCount(), Notes: notes})
}

// spool copies an NDJSON import's body into a temporary file (in
// os.TempDir: TMPDIR) and reads it there (dataset.ReadFile): its entities
// and relations are left in the file and read again a part at a time, so
// that an import holds the memory of their ids rather than of its rows
// (some 300 MB for a body of 64 MiB). A failure of the file (a full disk)
// is the server's (INTERNAL, its cause logged, not answered); one of the
// body is the client's, as when it is read whole. remove deletes the file;
// the caller calls it once the import is done, whatever happened.
func spool(body io.Reader) (b dataset.Batch, remove func(), err error) {
	remove = func() {}
	kept := func(err error) error {
		return &casegraph.Error{Code: casegraph.CodeInternal, Message: "the import could not be kept on the server's disk", Cause: err}
	}
	f, err := os.CreateTemp("", "casegraph-import-*.ndjson")
	if err != nil {
		return dataset.Batch{}, remove, kept(err)
	}
	remove = func() { _ = os.Remove(f.Name()) }
	_, err = io.Copy(writerFunc(func(p []byte) (int, error) {
		n, err := f.Write(p)
		if err != nil {
			err = kept(err)
		}
		return n, err
	}), body)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = kept(cerr)
	}
	if err != nil {
		return dataset.Batch{}, remove, err
	}
	b, err = dataset.ReadFile(f.Name())
	return b, remove, err
}

// writerFunc is an io.Writer of a function.
type writerFunc func(p []byte) (int, error)

func (w writerFunc) Write(p []byte) (int, error) { return w(p) }
