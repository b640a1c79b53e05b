package benchdb

import (
	"flag"
	"io"
	"strings"
	"testing"
)

func TestFlags(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	parse := func(args ...string) Flags {
		t.Helper()
		var f Flags
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		f.Register(fs, "neo4j", getenv)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		return f
	}
	if got := parse(); got != (Flags{URI: "bolt://127.0.0.1:7687"}) {
		t.Errorf("no flag, no environment: %+v, want the local Neo4j without a user", got)
	}
	env["NEO4J_URI"], env["NEO4J_USER"], env["NEO4J_PASSWORD"] = "neo4j://db:7687", "bench", "secret"
	if got := parse(); got != (Flags{URI: "neo4j://db:7687", User: "bench", Password: "secret"}) {
		t.Errorf("from the environment: %+v", got)
	}
	if got := parse("-neo4j", "bolt://other:7688", "-neo4j-user", ""); got != (Flags{URI: "bolt://other:7688", Password: "secret"}) {
		t.Errorf("flags over the environment: %+v", got)
	}
	if _, err := (Flags{}).Open(t.Context()); err == nil || !strings.Contains(err.Error(), "NEO4J_URI") {
		t.Errorf("no URI: %v, want an error naming NEO4J_URI", err)
	}
	if _, err := (Flags{URI: "http://127.0.0.1:1"}).Open(t.Context()); err == nil {
		t.Error("an http URI: no error")
	}
}
