package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
)

// writeCheckout writes a checkout file, as make run does, in a new
// checkout folder and returns the folder.
func writeCheckout(t *testing.T, lines ...string) string {
	t.Helper()
	root := t.TempDir()
	text := "# Written by make run\n" + strings.Join(lines, "\n") + "\n"
	if err := os.WriteFile(filepath.Join(root, checkoutFileName), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// runIn runs a command with the checkout file of root beneath vars.
func runInCheckout(t *testing.T, root string, args []string, vars map[string]string) (stdout, stderr string, err error) {
	t.Helper()
	co, err := findCheckout(root, "")
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	err = runIn(context.Background(), args, func(k string) string { return vars[k] }, co, &out, &errOut)
	return out.String(), errOut.String(), err
}

func TestFindCheckout(t *testing.T) {
	root := writeCheckout(t, "NEO4J_URI=bolt://127.0.0.1:7688", "CASEGRAPH_ADDR=0.0.0.0:8081", "CASEGRAPH_LOCAL_KEY=/x/local-admin.key", "SOMETHING_NEWER=1")
	deep := filepath.Join(root, "docs", "deeper")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, wd, exe string }{
		{"at the root", root, ""},
		{"walking up from a folder inside", deep, ""},
		{"beside the checkout's bin/casegraph", t.TempDir(), filepath.Join(root, "bin", "casegraph")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			co, err := findCheckout(tt.wd, tt.exe)
			if err != nil {
				t.Fatal(err)
			}
			if co.path != filepath.Join(root, checkoutFileName) {
				t.Errorf("path = %q, want the checkout's file", co.path)
			}
			for k, want := range map[string]string{
				"NEO4J_URI": "bolt://127.0.0.1:7688", "CASEGRAPH_URL": "http://127.0.0.1:8081",
				"CASEGRAPH_LOCAL_KEY": "/x/local-admin.key", "SOMETHING_NEWER": "", "CASEGRAPH_ADDR": "0.0.0.0:8081",
			} {
				if got := co.value(k); got != want {
					t.Errorf("%s = %q, want %q", k, got, want)
				}
			}
		})
	}
	// A binary elsewhere than a bin/ folder, a folder without the file: none.
	if co, err := findCheckout(t.TempDir(), filepath.Join(root, "casegraph")); err != nil || co.path != "" {
		t.Errorf("no checkout: %+v, %v", co, err)
	}
	bad := writeCheckout(t, "NEO4J_URI")
	if _, err := findCheckout(bad, ""); err == nil || !strings.Contains(err.Error(), checkoutFileName+":2: want NAME=VALUE") {
		t.Errorf("a bad line: %v", err)
	}
	if _, err := locateCheckout(func(string) string { return "maybe" }); err == nil {
		t.Error("CASEGRAPH_CHECKOUT=maybe accepted")
	}
}

// TestCheckoutPrecedence: the checkout's file names the server query
// talks to where neither --url nor CASEGRAPH_URL does, and the database
// where neither --neo4j-uri nor NEO4J_URI does.
func TestCheckoutPrecedence(t *testing.T) {
	servers := map[string]*atomic.Int32{}
	addr := map[string]string{}
	for _, name := range []string{"file", "env", "flag"} {
		hits := new(atomic.Int32)
		servers[name] = hits
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hits.Add(1)
			_, _ = io.WriteString(w, `{"data":{"savedQueries":{"edges":[{"node":{"name":"q","version":1,"title":"Q","tags":[]}}]}}}`)
		}))
		t.Cleanup(srv.Close)
		addr[name] = strings.TrimPrefix(srv.URL, "http://")
	}
	root := writeCheckout(t, "CASEGRAPH_ADDR="+addr["file"], "NEO4J_URI=bolt://127.0.0.1:1")
	for _, tt := range []struct {
		name string
		args []string
		vars map[string]string
	}{
		{"file", []string{"query", "list"}, nil},
		{"env", []string{"query", "list"}, map[string]string{"CASEGRAPH_URL": "http://" + addr["env"]}},
		{"flag", []string{"query", "list", "--url", "http://" + addr["flag"]}, map[string]string{"CASEGRAPH_URL": "http://" + addr["env"]}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := map[string]int32{}
			for k, h := range servers {
				before[k] = h.Load()
			}
			if _, errOut, err := runInCheckout(t, root, tt.args, tt.vars); err != nil {
				t.Fatalf("%v: %v\n%s", tt.args, err, errOut)
			}
			for k, h := range servers {
				if got, want := h.Load()-before[k], map[bool]int32{true: 1}[k == tt.name]; got != want {
					t.Errorf("server %s got %d requests, want %d", k, got, want)
				}
			}
		})
	}

	t.Run("database", func(t *testing.T) {
		cyphertest.Driver(t) // fails, never skips, when Neo4j is not there
		// The file's database (nothing listens) is the one used ...
		_, _, err := runInCheckout(t, root, []string{"key", "list", "--wait", "1s"}, map[string]string{"CASEGRAPH_LOG_LEVEL": "error"})
		if err == nil || !strings.Contains(err.Error(), "did not answer") {
			t.Errorf("key list with the file's database: %v, want Neo4j did not answer", err)
		}
		// ... beneath the environment and the flag.
		vars := map[string]string{"NEO4J_URI": cyphertest.URI(), "CASEGRAPH_LOG_LEVEL": "error"}
		if _, errOut, err := runInCheckout(t, root, []string{"key", "list"}, vars); err != nil {
			t.Errorf("key list with NEO4J_URI: %v\n%s", err, errOut)
		}
		if _, errOut, err := runInCheckout(t, root, []string{"key", "list", "--neo4j-uri", cyphertest.URI()}, map[string]string{"CASEGRAPH_LOG_LEVEL": "error"}); err != nil {
			t.Errorf("key list with --neo4j-uri: %v\n%s", err, errOut)
		}
	})
}

// TestWriteToAnotherDatabase: a command that writes, given a database
// other than the checkout's, says so and writes nothing unless --yes
// confirms it; then it says so and writes.
func TestWriteToAnotherDatabase(t *testing.T) {
	cyphertest.Driver(t)
	root := writeCheckout(t, "NEO4J_URI=bolt://127.0.0.1:7999", "CASEGRAPH_ADDR=127.0.0.1:8999")
	vars := map[string]string{"NEO4J_URI": cyphertest.URI(), "CASEGRAPH_LOG_LEVEL": "error"}
	name := "other-database-" + cyphertest.Dataset(t)
	keys := func() int {
		store := cyphertest.Store(t, cypher.Options{})
		ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 30*time.Second)
		defer cancel()
		all, err := store.APIKeys(ctx)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, k := range all {
			if k.Name == name {
				n++
			}
		}
		return n
	}
	create := []string{"key", "create", "--name", name, "--role", "reader", "--datasets", "x"}

	out, _, err := runInCheckout(t, root, create, vars)
	for _, want := range []string{"key create writes to " + cyphertest.URI() + " ($NEO4J_URI)", "names bolt://127.0.0.1:7999", "pass --yes"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("refusal: %v, want it to say %q", err, want)
		}
	}
	if _, ok := err.(usageError); ok || out != "" || keys() != 0 {
		t.Errorf("refused with %T, printed %q, %d keys made: want exit 1, nothing written", err, out, keys())
	}
	_, _, err = runInCheckout(t, root, []string{"key", "create", "--neo4j-uri", cyphertest.URI(), "--name", name, "--role", "reader"}, map[string]string{"CASEGRAPH_LOG_LEVEL": "error"})
	if err == nil || !strings.Contains(err.Error(), "(--neo4j-uri)") {
		t.Errorf("refusal of a flag's database: %v, want it named as --neo4j-uri", err)
	}
	// Reading another database is not refused.
	if _, errOut, err := runInCheckout(t, root, []string{"key", "list"}, vars); err != nil || errOut != "" {
		t.Errorf("key list: %v\n%s", err, errOut)
	}

	out, errOut, err := runInCheckout(t, root, append(create, "--yes"), vars)
	if err != nil {
		t.Fatalf("with --yes: %v\n%s", err, errOut)
	}
	if !strings.Contains(errOut, "warning: key create writes to "+cyphertest.URI()) || keys() != 1 {
		t.Errorf("with --yes: stderr %q, %d keys: want the warning and the key", errOut, keys())
	}
	revoke := func(token string) {
		if parts := strings.Split(strings.TrimSpace(token), "_"); len(parts) == 3 {
			if _, _, err := runWith(t, []string{"key", "revoke", parts[1]}, vars); err != nil {
				t.Error(err)
			}
		}
	}
	revoke(out)

	// The checkout's own database: no word of it.
	own := writeCheckout(t, "NEO4J_URI="+cyphertest.URI())
	out, errOut, err = runInCheckout(t, own, create, vars)
	if err != nil || strings.Contains(errOut, "not this checkout's") || keys() != 2 {
		t.Errorf("key create on the checkout's database: %v, %d keys\n%s", err, keys(), errOut)
	}
	revoke(out)
}
