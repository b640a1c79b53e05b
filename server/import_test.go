package server_test

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server"
	"github.com/casegraph/casegraph/server/servertest"
)

// TestImportOverHTTP: an editor of a dataset imports an FtM file into it
// (each line it could not take noted), and the audit log records it; a
// reader may not; a file whose ids belong to another dataset, or an NDJSON
// record of another dataset, is refused and writes nothing; a file over
// the limit gets 413.
func TestImportOverHTTP(t *testing.T) {
	t.Parallel()
	h := servertest.New(t, servertest.Options{Config: func(c *server.Config) { c.MaxImportBytes = 4096 }})
	seedDS, _ := cyphertest.LoadSeed(t, h.Store)
	ds := cyphertest.Dataset(t)
	fixture, err := os.ReadFile("../dataset/testdata/ftm-fixture.json")
	if err != nil {
		t.Fatal(err)
	}
	post := func(token, path string, body []byte) servertest.Response {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, h.URL+path, bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+token)
		return h.Do(req)
	}
	editor := h.Key(casegraph.NewAPIKey{Name: "editor", Role: casegraph.RoleEditor, Datasets: []string{ds}})
	reader := h.Key(casegraph.NewAPIKey{Name: "reader", Role: casegraph.RoleReader, Datasets: []string{ds}})
	path := "/datasets/" + ds + "/import?format=ftm&idPrefix=" + ds + ":"

	if res := post(reader, path, fixture); res.Status != http.StatusForbidden {
		t.Errorf("a reader: %d %s", res.Status, res.Raw)
	}
	res := post(editor, path, fixture)
	if res.Status != http.StatusOK || !strings.Contains(res.Raw, `"entities":8`) || !strings.Contains(res.Raw, `line 6: skipped: Vessel v-boat`) {
		t.Fatalf("the editor's import: %d %s", res.Status, res.Raw)
	}
	changes := h.MustPost(`query($ds: String) { changes(filter: {dataset: $ds}) { edges { node { operation principal } } } }`, map[string]any{"ds": ds})
	if !strings.Contains(changes.Raw, `"operation":"import"`) {
		t.Errorf("no audit record: %s", changes.Raw)
	}

	// The seed's ids belong to the seed's dataset: no import takes them.
	seedCopy := strings.ReplaceAll(string(fixture), `"p-anna"`, `"`+seedDS+`:caesar"`)
	before := cyphertest.Snapshot(t, h.Store, seedDS)
	if res := post(h.Token, "/datasets/"+ds+"/import?format=ftm", []byte(seedCopy)); res.Status != http.StatusConflict || !strings.Contains(res.Raw, seedDS+":caesar") {
		t.Errorf("ids of another dataset: %d %s", res.Status, res.Raw)
	}
	other := `{"type": "source", "id": "` + ds + `:s2", "title": "T", "dataset": "` + seedDS + `"}` + "\n"
	if res := post(h.Token, "/datasets/"+ds+"/import", []byte(other)); res.Status != http.StatusBadRequest || !strings.Contains(res.Raw, "line 1: a source of dataset") {
		t.Errorf("a record of another dataset: %d %s", res.Status, res.Raw)
	}
	if after := cyphertest.Snapshot(t, h.Store, seedDS); strings.Join(after, "\n") != strings.Join(before, "\n") {
		t.Error("a refused import changed the seed's dataset")
	}
	big := bytes.Repeat([]byte("\n"), 5000)
	if res := post(h.Token, path, big); res.Status != http.StatusRequestEntityTooLarge {
		t.Errorf("over the limit: %d %s", res.Status, res.Raw)
	}
	if res := post(h.Token, "/datasets/"+ds+"/import?format=xml", fixture); res.Status != http.StatusBadRequest {
		t.Errorf("format=xml: %d %s", res.Status, res.Raw)
	}
}

// TestTransfersAreBounded: with one import at a time allowed, a second
// import while the first is still sending its file is BUSY at once (429,
// TOO_MANY_TRANSFERS), and once the first has ended the next one runs.
func TestTransfersAreBounded(t *testing.T) {
	t.Parallel()
	h := servertest.New(t, servertest.Options{Config: func(c *server.Config) { c.MaxTransfers = 1 }})
	ds := cyphertest.Dataset(t)
	path := h.URL + "/datasets/" + ds + "/import?format=ndjson"
	post := func(body io.Reader) (*http.Response, error) {
		req, err := http.NewRequest(http.MethodPost, path, body)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+h.Token)
		return http.DefaultClient.Do(req)
	}
	file, sending := io.Pipe()
	first := make(chan int)
	go func() {
		res, err := post(file)
		if err != nil {
			t.Error(err)
			first <- 0
			return
		}
		res.Body.Close()
		first <- res.StatusCode
	}()
	if _, err := sending.Write([]byte(`{"type":"source","id":"` + ds + `:s","title":"S","dataset":"` + ds + `"}` + "\n")); err != nil {
		t.Fatal(err) // the server reads the first: the import holds its slot
	}
	// The first handler takes its slot a moment after its request left:
	// until then a second import runs (an empty file), and is sent again.
	var status int
	var body []byte
	for deadline := time.Now().Add(10 * time.Second); status != http.StatusTooManyRequests && time.Now().Before(deadline); {
		res, err := post(strings.NewReader(""))
		if err != nil {
			t.Fatal(err)
		}
		body, _ = io.ReadAll(res.Body)
		res.Body.Close()
		status = res.StatusCode
	}
	if status != http.StatusTooManyRequests || !strings.Contains(string(body), server.ReasonTooManyTransfers) {
		t.Errorf("a second import while the first runs: %d %s, want 429 %s", status, body, server.ReasonTooManyTransfers)
	}
	sending.Close()
	if status := <-first; status != http.StatusOK {
		t.Errorf("the first import: %d", status)
	}
	res, err := post(strings.NewReader(`{"type":"source","id":"` + ds + `:t","title":"T","dataset":"` + ds + `"}` + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("an import after the first ended: %d", res.StatusCode)
	}
}
