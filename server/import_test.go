package server_test

// Imports over HTTP: an FtM file in with its audit record, transfers
// bounded, and the checks of the write gate.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
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
	// Every error of every bad line in one answer, each its own error
	// with its line, field, code, accepted values and suggestion; the
	// summary counts what was read and refused; nothing is written.
	bad := strings.Join([]string{
		`{"type": "source", "id": "` + ds + `:s3", "title": "T", "dataset": "` + ds + `"}`,
		`{"type": "entity", "id": "` + ds + `:e1", "kind": "Persn", "name": "", "dataset": "` + ds + `", "sourceIds": ["` + ds + `:s3"]}`,
		`{"type": "entity", "id": "` + ds + `:e2", "kind": "organization", "name": "O", "category": "armed_group", "dataset": "` + ds + `", "sourceIds": ["` + ds + `:s3"]}`,
		`{"type": "relation", "id": "` + ds + `:r1", "relationType": "EMPLOYED", "from": "` + ds + `:e2", "to": "` + ds + `:e1", "status": "rumoured", "dataset": "` + ds + `", "sourceIds": ["` + ds + `:s3"]}`,
	}, "\n")
	dsBefore := cyphertest.Snapshot(t, h.Store, ds)
	res = post(h.Token, "/datasets/"+ds+"/import", []byte(bad))
	var refused struct {
		Errors []struct {
			Message    string
			Extensions struct {
				Code, Field, Suggestion string
				Line                    int
				Accepted                []string
			}
		}
		Extensions struct{ Summary struct{ Text string } }
	}
	if err := json.Unmarshal([]byte(res.Raw), &refused); err != nil || res.Status != http.StatusBadRequest {
		t.Fatalf("bad lines: %d %s (%v)", res.Status, res.Raw, err)
	}
	var got []string
	for _, e := range refused.Errors {
		x := e.Extensions
		got = append(got, fmt.Sprintf("%d %s %s %s %d", x.Line, x.Field, x.Code, x.Suggestion, len(x.Accepted)))
	}
	want := []string{"2 kind BAD_USER_INPUT PERSON 5", "2 name BAD_USER_INPUT  0",
		fmt.Sprintf("4 relationType BAD_USER_INPUT EMPLOYED_BY %d", len(casegraph.RelationTypes())), "4 status BAD_USER_INPUT  4"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("bad lines' errors:\n%s\nwant:\n%s\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), res.Raw)
	}
	if len(refused.Errors) > 0 && !strings.HasPrefix(refused.Errors[0].Message, `line 2: unknown entity kind "Persn"; did you mean "PERSON"?`) {
		t.Errorf("first error: %q", refused.Errors[0].Message)
	}
	if want := "read 4 lines: 1 source, 1 entity, 0 relations; refused 2 lines with 4 errors; nothing was imported"; refused.Extensions.Summary.Text != want {
		t.Errorf("summary %q, want %q", refused.Extensions.Summary.Text, want)
	}
	if after := cyphertest.Snapshot(t, h.Store, ds); strings.Join(after, "\n") != strings.Join(dsBefore, "\n") {
		t.Error("a refused import wrote")
	}
	big := bytes.Repeat([]byte("\n"), 5000)
	if res := post(h.Token, path, big); res.Status != http.StatusRequestEntityTooLarge {
		t.Errorf("over the limit: %d %s", res.Status, res.Raw)
	}
	if res := post(h.Token, "/datasets/"+ds+"/import", big); res.Status != http.StatusRequestEntityTooLarge {
		t.Errorf("NDJSON over the limit (kept in a file as it comes): %d %s", res.Status, res.Raw)
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

// TestImportThroughTheGate: an import over HTTP passes the checks every
// mutation passes, with the caller's rights, and answers each mistake
// with its code (4xx, never 500): an uncleared editor's line over the
// protected defector (the seed's caesar) without "protected" does not lift
// his protection (his id is taken for it, as another dataset's would be);
// it may not create a protected person, nor link to him by his real or
// his opaque id, nor to an entity of a dataset it cannot read (NOT_FOUND,
// as link answers); a relation id another relation holds, of any type, is
// taken; reserved ids (FtM's idPrefix too) are nobody's. None of it
// changes anything, and a cleared editor's same line keeps him protected.
func TestImportThroughTheGate(t *testing.T) {
	t.Parallel()
	h := servertest.New(t, servertest.Options{})
	seedDS, id := cyphertest.LoadSeed(t, h.Store)
	other := cyphertest.Dataset(t)
	ctx := casegraph.AsOperator(t.Context())
	if _, err := h.Store.WriteBatch(ctx, []casegraph.Source{{ID: other + ":src", Title: "B", Dataset: other}},
		[]casegraph.Entity{{ID: other + ":org", Kind: casegraph.KindOrganization, Name: "In B", Dataset: other, SourceIDs: []string{other + ":src"}}}, nil); err != nil {
		t.Fatal(err)
	}
	editor := h.Key(casegraph.NewAPIKey{Name: "editor", Role: casegraph.RoleEditor, Datasets: []string{seedDS}})
	cleared := h.Key(casegraph.NewAPIKey{Name: "cleared editor", Role: casegraph.RoleEditor, Datasets: []string{seedDS}, Cleared: true})
	reader := h.Key(casegraph.NewAPIKey{Name: "reader", Role: casegraph.RoleReader, Datasets: []string{seedDS}})
	res := h.PostAs(editor, `query($id: ID!) { entity(id: $id) { relations(types: [EMPLOYED_BY]) { edges { node { from { id } } } } } }`,
		map[string]any{"id": id("syrian-military-police")})
	opaque := regexp.MustCompile(`protected-[0-9a-f]{16}`).FindString(res.Raw)
	if opaque == "" {
		t.Fatalf("the editor sees no opaque id: %s", res.Raw)
	}
	src := id("caesar-report-article")
	entity := func(eid, extra string) string {
		return `{"type":"entity","id":"` + eid + `","kind":"Person","name":"Caesar"` + extra + `,"dataset":"` + seedDS + `","sourceIds":["` + src + `"]}`
	}
	relation := func(rid, typ, from, to string) string {
		return `{"type":"relation","id":"` + rid + `","relationType":"` + typ + `","from":"` + from + `","to":"` + to + `","dataset":"` + seedDS + `","sourceIds":["` + src + `"]}`
	}
	ndjson := "/datasets/" + seedDS + "/import"
	ftm := func(prefix string) string { return "/datasets/" + seedDS + "/import?format=ftm&idPrefix=" + prefix }
	ftmPerson := `{"id":"p-new","schema":"Person","properties":{"name":["Someone"]}}`
	tests := []struct {
		name, token, path, body string
		status                  int
		code                    casegraph.Code
	}{
		{"the line over caesar, protected left out", editor, ndjson, entity(id("caesar"), ""), http.StatusConflict, casegraph.CodeConflict},
		{"the line over caesar, unprotected", editor, ndjson, entity(id("caesar"), `,"protected":false`), http.StatusConflict, casegraph.CodeConflict},
		{"a new protected person", editor, ndjson, entity(seedDS+":new", `,"protected":true`), http.StatusForbidden, casegraph.CodeForbidden},
		{"a relation to caesar by real id", editor, ndjson, relation(seedDS+":r-new", "MEMBER_OF", id("caesar"), id("syrian-military-police")), http.StatusNotFound, casegraph.CodeNotFound},
		{"a relation to caesar by opaque id", editor, ndjson, relation(seedDS+":r-new", "MEMBER_OF", opaque, id("syrian-military-police")), http.StatusNotFound, casegraph.CodeNotFound},
		{"a relation to another dataset", editor, ndjson, relation(seedDS+":r-new", "MEMBER_OF", id("geoffrey-nice"), other+":org"), http.StatusNotFound, casegraph.CodeNotFound},
		{"a relation id of another type", editor, ndjson, relation(id("rel-001-desmond-de-silva-authored-caesar-report"), "RELATED_TO", id("desmond-de-silva"), id("caesar-report")), http.StatusConflict, casegraph.CodeConflict},
		{"caesar's relation's id", editor, ndjson, relation(id("rel-009-caesar-employed-by-syrian-military-police"), "MEMBER_OF", id("geoffrey-nice"), id("syrian-military-police")), http.StatusConflict, casegraph.CodeConflict},
		{"a reserved id", cleared, ndjson, entity("protected-0123456789abcdef", ""), http.StatusBadRequest, casegraph.CodeBadUserInput},
		{"caesar's opaque id", editor, ndjson, entity(opaque, ""), http.StatusBadRequest, casegraph.CodeBadUserInput},
		{"an FtM idPrefix of the reserved form", cleared, ftm("protected-"), ftmPerson, http.StatusBadRequest, casegraph.CodeBadUserInput},
		{"a source that does not exist", editor, ndjson, strings.ReplaceAll(entity(seedDS+":new", ""), src, seedDS+":nope"), http.StatusBadRequest, casegraph.CodeBadUserInput},
		{"a reader", reader, ndjson, entity(seedDS+":new", ""), http.StatusForbidden, casegraph.CodeForbidden},
	}
	post := func(token, path, body string) servertest.Response {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, h.URL+path, strings.NewReader(body+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+token)
		return h.Do(req)
	}
	before := append(cyphertest.Snapshot(t, h.Store, seedDS), cyphertest.Snapshot(t, h.Store, other)...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := post(tt.token, tt.path, tt.body)
			if res.Status != tt.status || res.Code() != string(tt.code) {
				t.Errorf("got %d %s, want %d %s: %s", res.Status, res.Code(), tt.status, tt.code, res.Raw)
			}
			if tt.token != cleared && strings.Contains(res.Raw, "photographer") {
				t.Errorf("the answer holds what only cleared callers read: %s", res.Raw)
			}
		})
	}
	if after := append(cyphertest.Snapshot(t, h.Store, seedDS), cyphertest.Snapshot(t, h.Store, other)...); strings.Join(before, "\n") != strings.Join(after, "\n") {
		t.Error("a refused import changed the graph")
	}
	protected := func() any {
		res := h.MustPost(`query($id: ID!) { entity(id: $id) { protected name } }`, map[string]any{"id": id("caesar")})
		return res.Data["entity"].(map[string]any)["protected"]
	}
	if got := protected(); got != true {
		t.Fatalf("caesar after the refused imports: protected = %v", got)
	}
	if res := post(cleared, ndjson, entity(id("caesar"), "")); res.Status != http.StatusOK {
		t.Fatalf("the cleared editor's line over caesar: %d %s", res.Status, res.Raw)
	}
	if got := protected(); got != true {
		t.Errorf("caesar after a cleared editor's line that leaves protection out: protected = %v, want true", got)
	}
}

// TestImportSpooled: an NDJSON import's body is kept in a temporary file
// while it is imported (its rows read again from there), and the file is
// gone afterwards, whether the import took the body or refused it;
// callers who may not write the dataset are refused before anything is
// kept; a server that cannot keep the body answers INTERNAL, and says
// nothing of its disk.
func TestImportSpooled(t *testing.T) {
	h := servertest.New(t, servertest.Options{})
	ds := cyphertest.Dataset(t)
	postAs := func(token, body string) servertest.Response {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, h.URL+"/datasets/"+ds+"/import", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+token)
		return h.Do(req)
	}
	post := func(body string) servertest.Response { return postAs(h.Token, body) }
	good := strings.Join([]string{
		`{"type": "source", "id": "` + ds + `:s", "title": "T", "dataset": "` + ds + `"}`,
		`{"type": "entity", "id": "` + ds + `:a", "kind": "Person", "name": "A", "dataset": "` + ds + `", "sourceIds": ["` + ds + `:s"]}`,
		`{"type": "entity", "id": "` + ds + `:b", "kind": "Place", "name": "B", "dataset": "` + ds + `", "sourceIds": ["` + ds + `:s"]}`,
		`{"type": "relation", "id": "` + ds + `:r", "relationType": "LOCATED_IN", "from": "` + ds + `:a", "to": "` + ds + `:b", "dataset": "` + ds + `", "sourceIds": ["` + ds + `:s"]}`,
	}, "\n")
	spool := t.TempDir()
	t.Setenv("TMPDIR", spool)
	empty := func(when string) {
		t.Helper()
		if left, err := os.ReadDir(spool); err != nil || len(left) != 0 {
			t.Errorf("%s: %d files left in TMPDIR (%v)", when, len(left), err)
		}
	}
	// Who may not write the dataset is refused before anything is kept: an
	// anonymous caller, an editor of another dataset (uncleared). Where
	// nothing can be kept, a body kept first would answer INTERNAL.
	t.Setenv("TMPDIR", spool+"/missing")
	res, err := http.Post(h.URL+"/datasets/"+ds+"/import", "application/x-ndjson", strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized && res.StatusCode != http.StatusForbidden {
		t.Errorf("an anonymous import: %d", res.StatusCode)
	}
	other := h.Key(casegraph.NewAPIKey{Name: "other", Role: casegraph.RoleEditor, Datasets: []string{ds + "-other"}})
	if res := postAs(other, good); res.Status != http.StatusForbidden {
		t.Errorf("an editor of another dataset: %d %s", res.Status, res.Raw)
	}
	t.Setenv("TMPDIR", spool)
	if got := cyphertest.Snapshot(t, h.Store, ds); len(got) != 0 {
		t.Errorf("refused callers wrote %d records", len(got))
	}
	if res := post(good); res.Status != http.StatusOK || !strings.Contains(res.Raw, `"entities":2`) || !strings.Contains(res.Raw, `"relations":1`) {
		t.Fatalf("an import: %d %s", res.Status, res.Raw)
	}
	empty("after an import")
	bad := strings.Replace(good, `"to": "`+ds+`:b"`, `"to": "`+ds+`:ghost"`, 1)
	if res := post(bad); res.Status != http.StatusNotFound || !strings.Contains(res.Raw, `"line":4`) {
		t.Errorf("a refused import: %d %s", res.Status, res.Raw)
	}
	empty("after a refused import")

	t.Setenv("TMPDIR", spool+"/missing")
	if res := post(good); res.Status != http.StatusInternalServerError || !strings.Contains(res.Raw, "could not be kept on the server's disk") || strings.Contains(res.Raw, spool) {
		t.Errorf("no disk to keep the body on: %d %s", res.Status, res.Raw)
	}
}
