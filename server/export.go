package server

// GET /datasets/{name}/export: a dataset streamed as NDJSON or FtM,
// holding what the caller may read.

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/rs/zerolog"
	"github.com/vektah/gqlparser/v2/gqlerror"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/dataset"
)

// Exports is what the export route asks of the store.
type Exports interface {
	// Export streams datasets' sources, entities and relations, in id
	// order, in one read transaction.
	Export(ctx context.Context, datasets []string, out casegraph.ExportSink) error
	// MissingDatasets names those of datasets nothing belongs to.
	MissingDatasets(ctx context.Context, datasets []string) ([]string, error)
}

// exportDataset serves GET /datasets/{name}/export?format=ndjson|ftm: the
// dataset streamed as it is read, as Casegraph's data file (the default)
// or as FollowTheMoney entities, to a caller who may read it. It holds
// what the caller may read, as the store's statements find it through the
// gate (Store.Export): no relation to an entity of a dataset it may not
// read, and no protected person without clearance (left out, with his
// relations). A dataset the caller may not read, like one with nothing in
// it, is NOT_FOUND.
func (s *Server) exportDataset(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	name := r.PathValue("name")
	format := r.URL.Query().Get("format")
	if format == "" {
		format = "ndjson"
	}
	fail := func(err error) { writeCodedError(w, ctx, err) }
	if format != "ndjson" && format != "ftm" {
		fail(casegraph.Errorf(casegraph.CodeBadUserInput, "format must be ndjson or ftm, not %q", format))
		return
	}
	if err := casegraph.ValidateID("name", name); err != nil {
		fail(err)
		return
	}
	// Whether it holds anything the caller may read, without counting
	// what it holds (Datasets would).
	missing, err := s.store.MissingDatasets(ctx, []string{name})
	if err != nil {
		fail(err)
		return
	}
	if len(missing) > 0 {
		fail(casegraph.Errorf(casegraph.CodeNotFound, "no dataset %q", name))
		return
	}
	release, err := s.takeTransfer(r, s.transfers.exports, "export")
	if err != nil {
		fail(err)
		return
	}
	defer release()

	// A reader that stops taking bytes is cut off after TransferStall,
	// rather than holding the slot and the read transaction until the
	// deadline.
	until, _ := ctx.Deadline()
	stall := newStallWriter(w, s.cfg.TransferStall, until.Add(5*time.Second))
	out := &startedWriter{w: stall}
	bw := bufio.NewWriterSize(out, 1<<16)
	var sink casegraph.ExportSink
	if format == "ftm" {
		ftm := dataset.NewFtMWriter(bw)
		sink = casegraph.ExportSink{Source: ftm.Source, Entity: ftm.Entity, Relation: ftm.Relation}
	} else {
		sink = dataset.NewEncoder(bw).Sink()
	}
	w.Header().Set("Content-Type", "application/x-ndjson; charset=utf-8")
	ext := map[string]string{"ndjson": "ndjson", "ftm": "ftm.json"}[format]
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s.%s"`, name, ext))
	w.Header().Set("Cache-Control", "private, no-store")
	if err := s.store.Export(ctx, []string{name}, sink); err != nil {
		if !out.started {
			// Nothing is sent yet: the caller gets the error as such.
			w.Header().Del("Content-Disposition")
			fail(err)
			return
		}
		if stall.stalled {
			err = casegraph.Errorf(casegraph.CodeTimeout, "the reader took no bytes for %s (or went away): the export is cut off", s.cfg.TransferStall)
		}
		// The status is sent: the response is broken off (the chunked
		// body is never ended, an HTTP/2 stream is reset), so that no
		// client takes a file that ends short for a whole one (curl exits
		// 18, Go's reader returns io.ErrUnexpectedEOF), and the log says
		// why.
		countErrors(ctx, gqlerror.List{presentError(ctx, err)})
		logErr(zerolog.Ctx(ctx).Error(), err).Str("dataset", name).Msg("export cut short: the response is broken off")
		panic(http.ErrAbortHandler)
	}
	_ = bw.Flush()
}

// startedWriter says whether anything was written to w.
type startedWriter struct {
	w       io.Writer
	started bool
}

func (s *startedWriter) Write(p []byte) (int, error) {
	s.started = true
	return s.w.Write(p)
}
