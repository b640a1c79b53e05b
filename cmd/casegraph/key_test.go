package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
)

func TestKeyCommands(t *testing.T) {
	t.Parallel()
	vars := neo4jVars(t)
	ds := cyphertest.Dataset(t)
	name := "cli key " + ds
	out, errOut, err := runWith(t, []string{"key", "create", "--name", name, "--role", "editor", "--datasets", ds + ", other", "--cleared"}, vars)
	if err != nil {
		t.Fatalf("create: %v\n%s", err, errOut)
	}
	token := strings.TrimSpace(out)
	id, _, ok := casegraph.ParseKeyToken(token)
	if !ok {
		t.Fatalf("create printed %q, not a key's token", out)
	}
	if want := "created key " + id + " (" + name + ", editor of " + ds + ", other, cleared)"; !strings.Contains(errOut, want) {
		t.Errorf("create said %q, want %q", errOut, want)
	}
	t.Cleanup(func() { runWith(t, []string{"key", "revoke", id}, vars) })

	out, errOut, err = runWith(t, []string{"key", "list"}, vars)
	if err != nil {
		t.Fatalf("list: %v\n%s", err, errOut)
	}
	if !strings.HasPrefix(out, "ID ") || !strings.Contains(out, id+"  "+name) || strings.Contains(out, token) {
		t.Errorf("list does not show the key %s as it should (or shows its token):\n%s", id, out)
	}

	out, errOut, err = runWith(t, []string{"key", "revoke", id}, vars)
	if err != nil || !strings.HasPrefix(out, "revoked key "+id) {
		t.Fatalf("revoke: %q, %v\n%s", out, err, errOut)
	}

	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"key", "create", "--name", "x", "--role", "owner", "--datasets", ds}, `role "owner"`},
		{[]string{"key", "create", "--name", "x", "--role", "reader"}, "grant a reader at least one dataset"},
		{[]string{"key", "revoke", "0000000000000000"}, "no API key"},
		{[]string{"key", "revoke"}, "name the key's id"},
		{[]string{"key", "rotate"}, `unknown subcommand "rotate"`},
	} {
		if _, _, err := runWith(t, tt.args, vars); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: %v, want an error saying %q", tt.args, err, tt.want)
		}
	}
}

func TestDatasetCommands(t *testing.T) {
	t.Parallel()
	vars := neo4jVars(t)
	store := cyphertest.Store(t, cypher.Options{})
	ds, _ := cyphertest.LoadSeed(t, store)
	out, errOut, err := runWith(t, []string{"dataset", "list"}, vars)
	if err != nil || !strings.Contains(out, "NAME") || !regexp.MustCompile(`(?m)^`+regexp.QuoteMeta(ds)+`\s+\d+\s+\d+\s+\d+\s+-$`).MatchString(out) {
		t.Fatalf("list: %v %s\n%s", err, errOut, out)
	}
	if _, _, err := runWith(t, []string{"dataset", "delete"}, vars); err == nil {
		t.Error("delete without a name was accepted")
	}
	out, _, err = runWith(t, []string{"dataset", "delete", ds}, vars)
	if err != nil || !strings.HasPrefix(out, "deleted dataset "+ds+": ") {
		t.Fatalf("delete: %v\n%s", err, out)
	}
	if out, _, _ = runWith(t, []string{"dataset", "list"}, vars); strings.Contains(out, ds) {
		t.Errorf("still listed:\n%s", out)
	}
	if _, _, err := runWith(t, []string{"dataset", "delete", ds}, vars); err == nil || !strings.Contains(err.Error(), "no dataset") {
		t.Errorf("deleting it again: %v", err)
	}
}

// TestKeyCreateOut: with --out, the token goes to the file (its owner's
// alone) and standard error says where, never that it was shown; a file
// that cannot be written leaves no live key behind.
func TestKeyCreateOut(t *testing.T) {
	t.Parallel()
	vars := neo4jVars(t)
	ds := cyphertest.Dataset(t)
	path := filepath.Join(t.TempDir(), "local-admin.key")
	out, errOut, err := runWith(t, []string{"key", "create", "--name", "cli out " + ds, "--role", "reader", "--datasets", ds, "--out", path}, vars)
	if err != nil {
		t.Fatalf("create --out: %v\n%s", err, errOut)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	id, _, ok := casegraph.ParseKeyToken(strings.TrimSpace(string(b)))
	if !ok {
		t.Fatalf("the file holds %q, not a token", b)
	}
	t.Cleanup(func() { runWith(t, []string{"key", "revoke", id}, vars) })
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the file's mode: %v, %v; want 0600", fi.Mode(), err)
	}
	if out != "" || !strings.Contains(errOut, "created key "+id) || !strings.Contains(errOut, "its token is in "+path) || strings.Contains(errOut, "shown") {
		t.Errorf("create --out printed %q and said %q", out, errOut)
	}

	_, _, err = runWith(t, []string{"key", "create", "--name", "cli out " + ds, "--role", "reader", "--datasets", ds, "--out", filepath.Join(t.TempDir(), "no", "such", "folder")}, vars)
	if err == nil || !strings.Contains(err.Error(), "was made and revoked") {
		t.Errorf("create --out into no folder: %v, want the key revoked", err)
	}
}
