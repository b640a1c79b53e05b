package main

import (
	"flag"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestConfigPrecedence(t *testing.T) {
	env := map[string]string{
		"NEO4J_URI":                 "neo4j://db:7687",
		"CASEGRAPH_MAX_DEPTH":       "7",
		"CASEGRAPH_REQUEST_TIMEOUT": "3s",
		"CASEGRAPH_INTROSPECTION":   "false",
		"CASEGRAPH_PATH_TIMEOUT":    "4s",
	}
	cfg := defaultServeConfig()
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	if err := cfg.bind(fs, func(k string) string { return env[k] }); err != nil {
		t.Fatal(err)
	}
	if err := fs.Parse([]string{"--max-depth", "9"}); err != nil {
		t.Fatal(err)
	}
	if cfg.Neo4j.URI != "neo4j://db:7687" {
		t.Errorf("URI = %q, want the environment's", cfg.Neo4j.URI)
	}
	if cfg.Server.MaxDepth != 9 {
		t.Errorf("MaxDepth = %d, want the flag's 9 over the environment's 7", cfg.Server.MaxDepth)
	}
	if cfg.Server.RequestTimeout != 3*time.Second || cfg.Server.Introspection || cfg.PathTimeout != 4*time.Second {
		t.Errorf("RequestTimeout %s, Introspection %v, PathTimeout %s: want 3s, false, 4s from the environment",
			cfg.Server.RequestTimeout, cfg.Server.Introspection, cfg.PathTimeout)
	}
	if cfg.Neo4j.Database != "neo4j" || cfg.Server.Addr != "127.0.0.1:8080" || cfg.Log.Level != "info" {
		t.Errorf("defaults lost: database %q, addr %q, log level %q", cfg.Neo4j.Database, cfg.Server.Addr, cfg.Log.Level)
	}
	if err := cfg.validate(); err != nil {
		t.Errorf("validate: %v", err)
	}
}

func TestParseAnonymous(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		ok   bool
	}{
		{"none", nil, true},
		{" none ", nil, true},
		{"caesar-report", []string{"caesar-report"}, true},
		{"a, b", []string{"a", "b"}, true},
		{"*", []string{"*"}, true},
		{"", nil, false},
		{"a,,b", nil, false},
		{"a b", nil, false},
		{"None", nil, true},
	}
	for _, tt := range tests {
		got, err := parseAnonymous(tt.in)
		if (err == nil) != tt.ok || !slices.Equal(got, tt.want) {
			t.Errorf("parseAnonymous(%q) = %q, %v; want %q (ok %v)", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func TestCORSAndMetricsSettings(t *testing.T) {
	env := map[string]string{
		"CASEGRAPH_CORS_ORIGINS": " https://a.example.org, ,http://localhost:5173 ",
		"CASEGRAPH_METRICS_ADDR": "127.0.0.1:9090",
	}
	cfg := defaultServeConfig()
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	if err := cfg.bind(fs, func(k string) string { return env[k] }); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"https://a.example.org", "http://localhost:5173"}, cfg.Server.CORSOrigins); diff != "" {
		t.Errorf("origins from the environment (-want +got):\n%s", diff)
	}
	if err := fs.Parse([]string{"--cors-origins", "https://b.example.org"}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"https://b.example.org"}, cfg.Server.CORSOrigins); diff != "" {
		t.Errorf("the flag replaces the environment's origins (-want +got):\n%s", diff)
	}
	if cfg.Server.MetricsAddr != "127.0.0.1:9090" {
		t.Errorf("MetricsAddr = %q, want the environment's", cfg.Server.MetricsAddr)
	}
	if err := cfg.validate(); err != nil {
		t.Errorf("validate: %v", err)
	}
	if def := defaultServeConfig(); def.Server.CORSOrigins != nil || def.Server.MetricsAddr != "" {
		t.Errorf("defaults: origins %v, metrics addr %q; want none (same-origin only, /metrics on addr)", def.Server.CORSOrigins, def.Server.MetricsAddr)
	}
}
