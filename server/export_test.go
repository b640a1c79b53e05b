package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher/cyphertest"
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
