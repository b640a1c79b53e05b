package main

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server/servertest"
)

func TestQueryCommands(t *testing.T) {
	h := servertest.New(t, servertest.Options{})
	_, id := cyphertest.LoadSeed(t, h.Store)
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	name := "cli-test-" + hex.EncodeToString(b)
	h.MustPost(`mutation($in: SaveQueryInput!) { saveQuery(input: $in) { version } }`, map[string]any{"in": map[string]any{
		"name": name, "title": "Authors", "tags": []string{"cli-test"},
		"document":         `query($id: ID!) { entity(id: $id) { relations(types: [AUTHORED], direction: INCOMING) { edges { node { from { name } role } } } } }`,
		"defaultVariables": map[string]any{"id": id("caesar-report")},
	}})
	t.Cleanup(func() {
		h.Post(`mutation($n: String!) { deleteSavedQuery(name: $n) { versions } }`, map[string]any{"n": name})
	})
	vars := map[string]string{"CASEGRAPH_URL": h.URL, "CASEGRAPH_TOKEN": h.Token}

	out, _, err := runWith(t, []string{"query", "list", "--tag", "cli-test"}, vars)
	if err != nil || !strings.Contains(out, name) || !strings.Contains(out, "Authors") {
		t.Errorf("list: %v\n%s", err, out)
	}
	out, _, err = runWith(t, []string{"query", "show", name}, vars)
	if err != nil || !strings.Contains(out, "version 1: Authors") || !strings.Contains(out, "relations(types: [AUTHORED]") {
		t.Errorf("show: %v\n%s", err, out)
	}
	out, _, err = runWith(t, []string{"query", "run", name}, vars)
	if err != nil || !strings.Contains(out, "node.from.name") || !strings.Contains(out, "Sir Geoffrey Nice") {
		t.Errorf("run as a table: %v\n%s", err, out)
	}
	out, _, err = runWith(t, []string{"query", "run", "--format", "csv", "--var", "id=" + id("caesar-photographs"), name}, vars)
	if err != nil || !strings.HasPrefix(out, "entity.relations.edges#,node.from.name,node.role\n1,Caesar,photographer") {
		t.Errorf("run as CSV with a variable: %v\n%q", err, out)
	}
	out, _, err = runWith(t, []string{"query", "run", "--format", "tsv", "--var", "id=" + id("caesar-photographs"), name}, vars)
	if err != nil || !strings.HasPrefix(out, "entity.relations.edges#\tnode.from.name\tnode.role\n1\tCaesar\tphotographer") {
		t.Errorf("run as TSV: %v\n%q", err, out)
	}
	out, _, err = runWith(t, []string{"query", "run", name, "--format", "json"}, vars)
	if err != nil || !strings.Contains(out, `"data"`) {
		t.Errorf("run as JSON: %v\n%s", err, out)
	}
	if _, _, err := runWith(t, []string{"query", "run", "no-such-cli-query"}, vars); err == nil || !strings.Contains(err.Error(), "no saved query") {
		t.Errorf("an unknown query: %v", err)
	}
	if _, _, err := runWith(t, []string{"query", "run", name, "--var", "noequals"}, vars); err == nil {
		t.Error("a --var without = was accepted")
	}
	if _, _, err := runWith(t, []string{"query", "list"}, map[string]string{"CASEGRAPH_URL": "http://127.0.0.1:1"}); err == nil {
		t.Error("no server, no error")
	}
}
