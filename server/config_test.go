package server

import (
	"flag"
	"testing"
	"time"
)

func TestConfigPrecedence(t *testing.T) {
	env := map[string]string{
		"NEO4J_URI":                 "neo4j://db:7687",
		"CASEGRAPH_MAX_DEPTH":       "7",
		"CASEGRAPH_REQUEST_TIMEOUT": "3s",
		"CASEGRAPH_INTROSPECTION":   "false",
	}
	cfg := DefaultConfig()
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	if err := cfg.Bind(fs, func(k string) string { return env[k] }); err != nil {
		t.Fatal(err)
	}
	if err := fs.Parse([]string{"--max-depth", "9"}); err != nil {
		t.Fatal(err)
	}
	if cfg.Neo4j.URI != "neo4j://db:7687" {
		t.Errorf("URI = %q, want the environment's", cfg.Neo4j.URI)
	}
	if cfg.MaxDepth != 9 {
		t.Errorf("MaxDepth = %d, want the flag's 9 over the environment's 7", cfg.MaxDepth)
	}
	if cfg.RequestTimeout != 3*time.Second || cfg.Introspection {
		t.Errorf("RequestTimeout %s, Introspection %v: want 3s, false from the environment", cfg.RequestTimeout, cfg.Introspection)
	}
	if cfg.Neo4j.Database != "neo4j" || cfg.Addr != "127.0.0.1:8080" {
		t.Errorf("defaults lost: database %q, addr %q", cfg.Neo4j.Database, cfg.Addr)
	}
	if err := cfg.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestOperationLabelsAreBounded(t *testing.T) {
	s := newLabelSet(3)
	for _, name := range []string{"A", "B", "C"} {
		if got := s.label(name); got != name {
			t.Errorf("label(%q) = %q", name, got)
		}
	}
	for name, want := range map[string]string{"D": "other", "A": "A", "not a name!": "other", "": ""} {
		if got := s.label(name); got != want {
			t.Errorf("label(%q) = %q, want %q", name, got, want)
		}
	}
}
