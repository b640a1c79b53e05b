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
	t.Parallel()
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

// TestQueryRunHonestExits: an id that names nothing is an error (exit 1,
// the message on stderr), in every format, never an empty table that
// looks like an answer; an empty answer is said to be empty, and is no
// error.
func TestQueryRunHonestExits(t *testing.T) {
	t.Parallel()
	h := servertest.New(t, servertest.Options{})
	_, id := cyphertest.LoadSeed(t, h.Store)
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	authors, timeline := "cli-authors-"+hex.EncodeToString(b), "cli-timeline-"+hex.EncodeToString(b)
	for name, doc := range map[string]string{
		authors:  `query($id: ID!) { entity(id: $id) { relations(types: [AUTHORED], direction: INCOMING) { edges { node { from { name } role } } } } }`,
		timeline: `query($id: ID!) { timeline(id: $id) { start relation { type } } }`,
	} {
		h.MustPost(`mutation($in: SaveQueryInput!) { saveQuery(input: $in) { version } }`, map[string]any{"in": map[string]any{
			"name": name, "title": name, "document": doc, "tags": []string{"cli-test"},
		}})
		t.Cleanup(func() {
			h.Post(`mutation($n: String!) { deleteSavedQuery(name: $n) { versions } }`, map[string]any{"n": name})
		})
	}
	vars := map[string]string{"CASEGRAPH_URL": h.URL, "CASEGRAPH_TOKEN": h.Token}
	misspelt := id("caesar-reprot")
	for _, format := range []string{"csv", "tsv", "table", "json"} {
		for _, tt := range []struct{ query, want string }{
			{authors, "entity: no entity with the id given"}, // entity(id) answers null
			{timeline, "no entity with id"},                  // timeline(id) answers NOT_FOUND
		} {
			_, errOut, err := runWith(t, []string{"query", "run", tt.query, "--var", "id=" + misspelt, "--format", format}, vars)
			if _, usage := err.(usageError); err == nil || usage || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "NOT_FOUND") {
				t.Errorf("%s as %s with a misspelt id: err %v, want exit 1 saying %q (NOT_FOUND)", tt.query, format, err, tt.want)
			}
			if strings.Contains(errOut, "empty") {
				t.Errorf("%s as %s: a missing id said to be an empty answer: %q", tt.query, format, errOut)
			}
		}
	}
	// An entity that authored nothing: an empty answer, said so, exit 0.
	for _, format := range []string{"csv", "table"} {
		out, errOut, err := runWith(t, []string{"query", "run", authors, "--var", "id=" + id("desmond-de-silva"), "--format", format}, vars)
		if err != nil || !strings.Contains(errOut, "the answer is empty (no rows)") || strings.Count(strings.TrimSpace(out), "\n") != 0 {
			t.Errorf("an empty answer as %s: err %v, stderr %q, stdout %q: want exit 0, the header alone, and 'empty' on stderr", format, err, errOut, out)
		}
	}
	// An answer with rows says nothing on stderr.
	if _, errOut, err := runWith(t, []string{"query", "run", authors, "--var", "id=" + id("caesar-report")}, vars); err != nil || errOut != "" {
		t.Errorf("an answer: %v, stderr %q", err, errOut)
	}
	if _, _, err := runWith(t, []string{"query", "show", "no-such-cli-query"}, vars); err == nil || !strings.Contains(err.Error(), "NOT_FOUND") {
		t.Errorf("show of an unknown query: %v", err)
	}
	if _, errOut, err := runWith(t, []string{"query", "list", "--tag", "no-such-cli-tag"}, vars); err != nil || !strings.Contains(errOut, `no saved query has the tag "no-such-cli-tag"`) {
		t.Errorf("list of no query: %v, stderr %q", err, errOut)
	}
}
