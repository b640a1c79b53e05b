package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/casegraph/casegraph/cypher/cyphertest"
)

func runWith(t *testing.T, args []string, vars map[string]string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	getenv := func(k string) string { return vars[k] }
	err = run(context.Background(), args, getenv, &out, &errOut)
	return out.String(), errOut.String(), err
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		vars map[string]string
		want string
	}{
		{"unknown command", []string{"frobnicate"}, nil, `unknown command "frobnicate"`},
		{"unknown flag", []string{"serve", "--bogus"}, nil, "flag provided but not defined: -bogus"},
		{"bad flag value", []string{"serve", "--max-depth", "deep"}, nil, `invalid value "deep"`},
		{"bad environment value", []string{"serve"}, map[string]string{"CASEGRAPH_MAX_DEPTH": "deep"}, `CASEGRAPH_MAX_DEPTH="deep": want an integer`},
		{"bad duration", []string{"serve"}, map[string]string{"CASEGRAPH_REQUEST_TIMEOUT": "soon"}, "want a duration"},
		{"nonsense value", []string{"serve", "--request-timeout", "-1s"}, nil, "request-timeout must be positive"},
		{"bad log format", []string{"migrate", "--log-format", "xml"}, nil, `log-format "xml"`},
		{"stray argument", []string{"seed", "extra"}, nil, `unexpected argument "extra"`},
		{"bad URI", []string{"migrate", "--neo4j-uri", "http://x"}, nil, `neo4j-uri "http://x"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := runWith(t, tt.args, tt.vars)
			var uerr usageError
			if !errors.As(err, &uerr) {
				t.Fatalf("err = %v (%T), want a usage error (exit 2)", err, err)
			}
			if !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("err = %q, want one line containing %q", err, tt.want)
			}
		})
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{nil, {"help"}, {"--help"}} {
		out, _, err := runWith(t, args, nil)
		if err != nil || !strings.Contains(out, "serve") || !strings.Contains(out, "migrate") {
			t.Errorf("%v: err %v, output %q", args, err, out)
		}
	}
	for _, cmd := range []string{"serve", "migrate", "seed"} {
		out, _, err := runWith(t, []string{cmd, "--help"}, nil)
		if err != nil {
			t.Errorf("%s --help: %v", cmd, err)
		}
		for _, want := range []string{"Usage: casegraph " + cmd, "-neo4j-uri", "$NEO4J_URI"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s --help lacks %q:\n%s", cmd, want, out)
			}
		}
	}
}

func TestMigrateTwice(t *testing.T) {
	cyphertest.Driver(t) // fails, never skips, when Neo4j is not there
	vars := map[string]string{"NEO4J_URI": cyphertest.URI(), "CASEGRAPH_LOG_FORMAT": "json"}
	for range 2 {
		out, errOut, err := runWith(t, []string{"migrate"}, vars)
		if err != nil {
			t.Fatalf("migrate: %v\n%s", err, errOut)
		}
		if !strings.Contains(out, "applied entity_id") {
			t.Errorf("migrate output: %q", out)
		}
	}
}

func TestMigrateUnreachable(t *testing.T) {
	vars := map[string]string{"NEO4J_URI": "bolt://127.0.0.1:1", "CASEGRAPH_LOG_LEVEL": "error"}
	_, _, err := runWith(t, []string{"migrate", "--wait", "1s"}, vars)
	if err == nil || !strings.Contains(err.Error(), "did not answer") {
		t.Errorf("err = %v, want Neo4j did not answer", err)
	}
}
