package server_test

// Exports over HTTP: streamed to whoever may read the dataset, cut short,
// and in the caller's scope.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server"
	"github.com/casegraph/casegraph/server/servertest"
)

// TestExportOverHTTP: a dataset streams to whoever may read it, as NDJSON
// or FtM; protected people (and their relations) only to the cleared; a
// dataset the caller may not read is not there.
func TestExportOverHTTP(t *testing.T) {
	t.Parallel()
	h := servertest.New(t, servertest.Options{})
	ds, id := cyphertest.LoadSeed(t, h.Store)
	lines := func(token, path string) (int, []map[string]any) {
		t.Helper()
		res := h.GetAs(token, path)
		if res.Status != http.StatusOK {
			return res.Status, nil
		}
		var out []map[string]any
		for _, l := range strings.Split(strings.TrimSpace(res.Raw), "\n") {
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatalf("%s: %v in %q", path, err, l)
			}
			out = append(out, m)
		}
		return res.Status, out
	}
	path := "/datasets/" + ds + "/export"
	_, all := lines(h.Token, path) // the harness's admin is cleared
	if len(all) != 1+30+42 {
		t.Errorf("the admin's export has %d lines, want the seed's 73", len(all))
	}
	reader := h.Key(casegraph.NewAPIKey{Name: "reader", Role: casegraph.RoleReader, Datasets: []string{ds}})
	_, some := lines(reader, path)
	for _, rec := range some {
		if rec["id"] == id("caesar") || rec["from"] == id("caesar") || rec["to"] == id("caesar") {
			t.Errorf("a reader without clearance got %v", rec)
		}
	}
	if len(some) != 1+29+42-5 {
		t.Errorf("the reader's export has %d lines, want 67: all but Caesar and his 5 relations", len(some))
	}
	_, ftm := lines(h.Token, path+"?format=ftm")
	if len(ftm) != 73 || ftm[0]["schema"] != "Document" {
		t.Errorf("FtM: %d entities, the first %v", len(ftm), ftm[0])
	}
	other := h.Key(casegraph.NewAPIKey{Name: "other", Role: casegraph.RoleReader, Datasets: []string{"another-dataset"}})
	for _, tt := range []struct {
		token, path string
		status      int
	}{
		{other, path, http.StatusNotFound},
		{h.Token, "/datasets/no-such-dataset-here/export", http.StatusNotFound},
		{h.Token, path + "?format=xml", http.StatusBadRequest},
		{h.Token, "/datasets/bad%20name/export", http.StatusBadRequest},
	} {
		if res := h.GetAs(tt.token, tt.path); res.Status != tt.status {
			t.Errorf("%s: %d %s, want %d", tt.path, res.Status, res.Raw, tt.status)
		}
	}
}

// failingExport is a store whose exports fail (the database going away)
// after the first entities have gone out.
type failingExport struct {
	server.Store
	after int
}

func (f failingExport) Export(ctx context.Context, datasets []string, out casegraph.ExportSink) error {
	n := 0
	entity := out.Entity
	out.Entity = func(e casegraph.Entity) error {
		if n++; n > f.after {
			return casegraph.Errorf(casegraph.CodeDatabaseUnavailable, "the database went away (a test's)")
		}
		return entity(e)
	}
	return f.Store.Export(ctx, datasets, out)
}

// TestExportCutShort: an export that fails once its first bytes are sent
// is broken off, so the client's read fails instead of ending cleanly on
// a file that is short, and it is counted as a failure with its code.
func TestExportCutShort(t *testing.T) {
	t.Parallel()
	h := servertest.New(t, servertest.Options{Store: func(s server.Store) server.Store { return failingExport{Store: s, after: 2000} }})
	ds := cyphertest.Dataset(t)
	src := casegraph.Source{ID: ds + ":src", Title: "A source", Dataset: ds}
	var entities []casegraph.Entity
	for i := range 3000 {
		entities = append(entities, casegraph.Entity{ID: fmt.Sprintf("%s:e%05d", ds, i), Kind: casegraph.KindPlace,
			Name: fmt.Sprint("Place ", i), Dataset: ds, SourceIDs: []string{src.ID}})
	}
	if _, err := h.Store.WriteBatch(casegraph.AsOperator(context.Background()), []casegraph.Source{src}, entities, nil); err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodGet, h.URL+"/datasets/"+ds+"/export", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+h.Token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d: 2,000 entities are more than a buffer, so the export must have started", res.StatusCode)
	}
	n, err := io.Copy(io.Discard, res.Body)
	if err == nil {
		t.Errorf("the body of a cut export ended cleanly after %d bytes: a client would take a short file for a whole one", n)
	}
	// The server accounts for it as it breaks it off, a moment after the
	// client sees the end.
	want := []string{`casegraph_http_requests_total{code="500",operation="",route="/datasets/export"} 1`,
		`casegraph_errors_total{code="DATABASE_UNAVAILABLE",route="/datasets/export"} 1`}
	var metrics string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if metrics = h.Get("/metrics").Raw; strings.Contains(metrics, want[0]) && strings.Contains(metrics, want[1]) {
			return
		}
	}
	t.Errorf("/metrics does not count the cut export; want %q:\n%s", want, grepLines(metrics, "/datasets/export"))
}

// TestExportAcrossDatasets: an export holds only what its caller may read.
// A relation of A whose other end is an entity of B is left out of A's
// export for a caller who may not read B (an anonymous one too), and a
// relation of B to an entity of A out of B's export for a caller who may
// not read A: neither names the other dataset's entity, its role or its
// quote. A caller who may read both gets both.
func TestExportAcrossDatasets(t *testing.T) {
	t.Parallel()
	a, b := cyphertest.Dataset(t), cyphertest.Dataset(t)
	h := servertest.New(t, servertest.Options{Config: func(c *server.Config) { c.Anonymous = []string{a} }})
	w := newGraphWriter(t, h)
	inA, inB := w.entity(a, "Alpha Person"), w.entity(b, "Bravo Broker Qz9")
	linkAs := func(ds, from, to, marker string) {
		h.MustPost(`mutation($in: LinkInput!) { link(input: $in) { id } }`, map[string]any{"in": map[string]any{
			"type": "RELATED_TO", "from": from, "to": to, "dataset": ds, "sourceIds": []string{w.sourceOf(ds)},
			"role": "role-" + marker, "quote": "quote-" + marker}})
	}
	linkAs(a, inA, inB, "a-to-b-qz9") // A's relation to B's entity
	linkAs(b, inB, inA, "b-to-a-qz9") // B's relation to A's entity
	readerA := h.Key(casegraph.NewAPIKey{Name: "reader A", Role: casegraph.RoleReader, Datasets: []string{a}})
	readerB := h.Key(casegraph.NewAPIKey{Name: "reader B", Role: casegraph.RoleReader, Datasets: []string{b}})
	for _, tt := range []struct {
		who, token, ds string
		secrets        []string // of the dataset the caller may not read
	}{
		{"anonymous", "", a, []string{inB, "Bravo Broker Qz9", "a-to-b-qz9"}},
		{"reader A", readerA, a, []string{inB, "Bravo Broker Qz9", "a-to-b-qz9"}},
		{"reader B", readerB, b, []string{inA, "Alpha Person", "b-to-a-qz9"}},
	} {
		for _, format := range []string{"ndjson", "ftm"} {
			t.Run(tt.who+"/"+format, func(t *testing.T) {
				res := h.GetAs(tt.token, "/datasets/"+tt.ds+"/export?format="+format)
				if res.Status != http.StatusOK {
					t.Fatalf("%d %s", res.Status, res.Raw)
				}
				var leaked []string
				for _, s := range tt.secrets {
					if strings.Contains(res.Raw, s) {
						leaked = append(leaked, s)
					}
				}
				if len(leaked) > 0 {
					t.Errorf("the export of %s names %q, which %s may not read:\n%s", tt.ds, leaked, tt.who, res.Raw)
				}
				if n := strings.Count(strings.TrimSpace(res.Raw), "\n") + 1; n != 2 {
					t.Errorf("%d lines, want 2 (the source and the entity of %s):\n%s", n, tt.ds, res.Raw)
				}
			})
		}
	}
	// The harness's admin reads both: each export holds its relation.
	for _, ds := range []string{a, b} {
		if res := h.Get("/datasets/" + ds + "/export"); !strings.Contains(res.Raw, inA) || !strings.Contains(res.Raw, inB) {
			t.Errorf("the admin's export of %s lacks the relation across datasets:\n%s", ds, res.Raw)
		}
	}
}
