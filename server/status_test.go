package server_test

// The status of a relation written without one, on every surface that
// writes relations.

import (
	"bytes"
	"fmt"
	"net/http"
	"testing"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/graph/generated"
	"github.com/casegraph/casegraph/server/servertest"
)

// TestRelationWithoutStatusIsDefault: a relation written without a status
// (by link with the field left out or null, by an NDJSON line without one,
// by an FtM interval without one or with one Casegraph does not know)
// reads back as casegraph.DefaultStatus, REPORTED, which is also what the
// schema tells clients LinkInput.status defaults to.
func TestRelationWithoutStatusIsDefault(t *testing.T) {
	t.Parallel()
	if casegraph.DefaultStatus != casegraph.StatusReported {
		t.Fatalf("DefaultStatus is %s: clients were told REPORTED", casegraph.DefaultStatus)
	}
	field := generated.NewExecutableSchema(generated.Config{}).Schema().Types["LinkInput"].Fields.ForName("status")
	if field == nil || field.DefaultValue == nil || field.DefaultValue.Raw != string(casegraph.DefaultStatus) {
		t.Errorf("the schema's default for LinkInput.status is not %s: %+v", casegraph.DefaultStatus, field)
	}

	h := servertest.New(t, servertest.Options{})
	ds := cyphertest.Dataset(t)
	id := func(s string) string { return ds + ":" + s }
	post := func(path, body string) {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, h.URL+"/datasets/"+ds+"/import?"+path, bytes.NewReader([]byte(body)))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+h.Token)
		if res := h.Do(req); res.Status != http.StatusOK {
			t.Fatalf("import %s: %d %s", path, res.Status, res.Raw)
		}
	}
	// The NDJSON file's relation has no status; its source and people are
	// the ends the links below join.
	post("format=ndjson", fmt.Sprintf(`{"type": "source", "id": %[1]q, "title": "T", "dataset": %[2]q}
{"type": "entity", "id": %[3]q, "kind": "Person", "name": "Anna", "dataset": %[2]q, "sourceIds": [%[1]q]}
{"type": "entity", "id": %[4]q, "kind": "Person", "name": "Ivan", "dataset": %[2]q, "sourceIds": [%[1]q]}
{"type": "relation", "id": %[5]q, "relationType": "WORKED_WITH", "from": %[3]q, "to": %[4]q, "dataset": %[2]q, "sourceIds": [%[1]q]}
`, id("s"), ds, id("anna"), id("ivan"), id("ndjson")))
	post("format=ftm&idPrefix="+ds+":", `{"id": "a", "schema": "Person", "properties": {"name": ["Ana"]}}
{"id": "b", "schema": "Person", "properties": {"name": ["Ivo"]}}
{"id": "ftm", "schema": "Associate", "properties": {"person": ["a"], "associate": ["b"]}}
{"id": "ftm-unknown", "schema": "Associate", "properties": {"person": ["a"], "associate": ["b"], "status": ["rumoured"]}}
`)
	for _, tc := range []struct {
		id   string
		null bool // status: null, else the field left out
	}{{"link", false}, {"link-null", true}} {
		in := map[string]any{"id": id(tc.id), "type": "WORKED_WITH", "from": id("anna"), "to": id("ivan"), "sourceIds": []string{id("s")}}
		if tc.null {
			in["status"] = nil
		}
		h.MustPost(`mutation($in: LinkInput!) { link(input: $in) { id } }`, map[string]any{"in": in})
	}

	for _, rel := range []string{"link", "link-null", "ndjson", "ftm", "ftm-unknown"} {
		t.Run(rel, func(t *testing.T) {
			res := h.MustPost(`query($id: ID!) { relation(id: $id) { status } }`, map[string]any{"id": id(rel)})
			got, _ := res.Data["relation"].(map[string]any)
			if got == nil || got["status"] != string(casegraph.DefaultStatus) {
				t.Errorf("relation %s reads back %s, want status %s", rel, res.Raw, casegraph.DefaultStatus)
			}
		})
	}
}
