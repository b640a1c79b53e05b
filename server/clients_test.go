package server_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/vektah/gqlparser/v2/formatter"

	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/graph/generated"
	"github.com/casegraph/casegraph/server"
)

// TestClientMatrix runs the GraphQL clients frontend developers use, each
// in its default configuration (clients/, a Node project of its own that
// make clients-deps installs): urql, Apollo Client, Relay (fragments
// compiled by relay-compiler), graphql-request, graphql-ws and
// graphql-sse, each running a query, a mutation, an error (its code in
// extensions.code), a subscription where the client does them and a
// persisted query where it supports one, against the server over Neo4j
// with datasets of the test's own. A missing Node or package fails it:
// CI has them.
func TestClientMatrix(t *testing.T) {
	t.Parallel()
	cyphertest.Driver(t) // first: make test-unit skips here
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not installed: the client matrix runs the clients in Node (see README: prerequisites)")
	}
	dir, err := filepath.Abs(filepath.Join("..", "clients"))
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"@urql/core", "@apollo/client", "relay-runtime", "relay-compiler", "graphql-request", "graphql-ws", "graphql-sse"} {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", pkg, "package.json")); err != nil {
			t.Fatalf("%s is missing from clients/node_modules: run make clients-deps", pkg)
		}
	}
	persisted := compileRelay(t, dir)
	// Relay's persisted documents registered, as an operator would.
	h := newHarness(t, options{Config: func(c *server.Config) { c.PersistedDocumentsFile = persisted }})
	ds, writes := cyphertest.Dataset(t), cyphertest.Dataset(t)
	source := func(ds string) string {
		return h.MustPost(`mutation($ds: String!) { upsertSource(input: {title: "client matrix", dataset: $ds}) { id } }`,
			map[string]any{"ds": ds}).Data["upsertSource"].(map[string]any)["id"].(string)
	}
	src := source(ds)
	for _, name := range []string{"A", "B", "C"} {
		h.MustPost(`mutation($ds: String!, $n: String!, $s: ID!) { upsertEntity(input: {kind: PERSON, name: $n, dataset: $ds, sourceIds: [$s]}) { id } }`,
			map[string]any{"ds": ds, "n": name, "s": src})
	}

	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "matrix.mjs")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"CASEGRAPH_URL="+h.URL+"/graphql",
		"CASEGRAPH_TOKEN="+h.Token,
		"CASEGRAPH_DATASET="+ds,
		"CASEGRAPH_WRITE_DATASET="+writes,
		"CASEGRAPH_SOURCE="+source(writes),
	)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the client matrix failed: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}

// compileRelay compiles the Relay client's documents (clients/relay, and
// clients/relay-persisted, whose operations are persisted) with
// relay-compiler, over the schema as the server serves it, printed whole
// (relay-compiler leaves out the text of operations on the fields of an
// "extend type", which the schema files are made of). It returns the file
// of persisted documents (id -> text) the compiler wrote. All are
// git-ignored: the artifacts never go stale.
func compileRelay(t *testing.T, dir string) (persisted string) {
	t.Helper()
	artifacts := []string{filepath.Join("relay", "__generated__"), filepath.Join("relay-persisted", "__generated__")}
	for _, d := range append([]string{".relay"}, artifacts...) {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Create(filepath.Join(dir, ".relay", "schema.graphql"))
	if err != nil {
		t.Fatal(err)
	}
	formatter.NewFormatter(f).FormatSchema(generated.NewExecutableSchema(generated.Config{}).Schema())
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	// The artifacts are CommonJS, requiring each other without an
	// extension, in a project of ES modules.
	for _, d := range artifacts {
		if err := os.WriteFile(filepath.Join(dir, d, "package.json"), []byte(`{"type": "commonjs"}`+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The compiler adds to the file, which must exist: start it empty, so
	// that it holds this compile's documents alone.
	persisted = filepath.Join(dir, ".relay", "persisted.json")
	if err := os.WriteFile(persisted, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// --repersist: the compiler persists only what changed since its
	// last run, and the file starts empty.
	for _, args := range [][]string{{"relay.config.json"}, {"relay-persisted.config.json", "--repersist"}} {
		cmd := exec.Command(filepath.Join(dir, "node_modules", ".bin", "relay-compiler"), args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("relay-compiler %s: %v\n%s", args[0], err, out)
		}
	}
	return persisted
}
