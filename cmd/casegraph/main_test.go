package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
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
		{"unknown flag", []string{"serve", "--bogus"}, nil, "unknown flag --bogus"},
		{"bad flag value", []string{"serve", "--max-depth", "deep"}, nil, `invalid value "deep" for flag --max-depth`},
		{"bad environment value", []string{"serve"}, map[string]string{"CASEGRAPH_MAX_DEPTH": "deep"}, `CASEGRAPH_MAX_DEPTH="deep": want an integer`},
		{"bad duration", []string{"serve"}, map[string]string{"CASEGRAPH_REQUEST_TIMEOUT": "soon"}, "want a duration"},
		{"nonsense value", []string{"serve", "--request-timeout", "-1s"}, nil, "request-timeout must be positive"},
		{"every origin", []string{"serve"}, map[string]string{"CASEGRAPH_CORS_ORIGINS": "*"}, `"*" (every origin) is refused`},
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
	for _, cmd := range []string{"serve", "migrate", "seed", "import", "export"} {
		out, _, err := runWith(t, []string{cmd, "--help"}, nil)
		if err != nil {
			t.Errorf("%s --help: %v", cmd, err)
		}
		for _, want := range []string{"Usage: casegraph " + cmd, "\n  --neo4j-uri string\n", "($NEO4J_URI)", "overrides the environment variable"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s --help lacks %q:\n%s", cmd, want, out)
			}
		}
	}
	// Every flag in one style, the README's: two dashes.
	for _, args := range [][]string{{"serve", "--help"}, {"gen", "--help"}, {"query", "run", "--help"}} {
		out, _, _ := runWith(t, args, nil)
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "-") && !strings.HasPrefix(strings.TrimSpace(line), "--") {
				t.Errorf("%v: a flag with one dash: %q", args, line)
			}
		}
	}
	// gen reads no environment variable, and does not say it does.
	out, _, _ := runWith(t, []string{"gen", "--help"}, nil)
	if strings.Contains(out, "environment") || !strings.Contains(out, "  --entities int\n") {
		t.Errorf("gen --help:\n%s", out)
	}
}

func TestMigrateTwice(t *testing.T) {
	cyphertest.Driver(t) // fails, never skips, when Neo4j is not there
	vars := map[string]string{"NEO4J_URI": cyphertest.URI(), "CASEGRAPH_LOG_FORMAT": "json"}
	ms, err := cypher.Migrations()
	if err != nil {
		t.Fatal(err)
	}
	n := len(ms)
	for range 2 { // the test database has its schema: nothing is created
		out, errOut, err := runWith(t, []string{"migrate"}, vars)
		if err != nil {
			t.Fatalf("migrate: %v\n%s", err, errOut)
		}
		// The first line is the schema's; the lines after it report data
		// backfills, which other packages' tests may leave work for.
		want := fmt.Sprintf("schema: 0 of %d constraints and indexes created, %d already present\n", n, n)
		if !strings.HasPrefix(out, want) {
			t.Errorf("migrate output:\n got %q\nwant %q", out, want)
		}
	}
}

// TestMigrateReportsReservedIDs: an id of a reserved form, held by data
// written before the write gate refused them, is reported as a warning,
// and migrate succeeds.
func TestMigrateReportsReservedIDs(t *testing.T) {
	driver := cyphertest.Driver(t)
	ds := cyphertest.Dataset(t)
	squatter := casegraph.OpaqueIDPrefix + ds
	if _, err := neo4j.ExecuteQuery(t.Context(), driver, `CREATE (:Entity:Person {id: $id, name: 'Squatter', dataset: $ds, degree: 0})`,
		map[string]any{"id": squatter, "ds": ds}, neo4j.EagerResultTransformer); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"NEO4J_URI": cyphertest.URI(), "CASEGRAPH_LOG_LEVEL": "error"}
	_, errOut, err := runWith(t, []string{"migrate"}, vars)
	if err != nil {
		t.Fatalf("migrate: %v\n%s", err, errOut)
	}
	if !strings.Contains(errOut, "warning: ") || !strings.Contains(errOut, "reserved for the API's own") {
		t.Errorf("migrate does not report the reserved id %s:\n%s", squatter, errOut)
	}
}

func TestMigrateUnreachable(t *testing.T) {
	vars := map[string]string{"NEO4J_URI": "bolt://127.0.0.1:1", "CASEGRAPH_LOG_LEVEL": "error"}
	_, _, err := runWith(t, []string{"migrate", "--wait", "1s"}, vars)
	if err == nil || !strings.Contains(err.Error(), "did not answer") {
		t.Errorf("err = %v, want Neo4j did not answer", err)
	}
}
