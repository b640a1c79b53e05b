package main

import (
	"context"
	"strings"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
)

func TestAuditCommand(t *testing.T) {
	t.Parallel()
	vars := neo4jVars(t)
	ds := cyphertest.Dataset(t)
	store := cyphertest.Store(t, cypher.Options{})
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 30*time.Second)
	defer cancel()
	if _, err := store.UpsertSource(ctx, casegraph.Source{ID: ds + ":src", Title: "A source", Dataset: ds}); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := runWith(t, []string{"audit", "--dataset", ds, "--since", "2020-01-01"}, vars)
	if err != nil {
		t.Fatalf("audit: %v\n%s", err, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "AT ") ||
		!strings.Contains(lines[1], "operator") || !strings.Contains(lines[1], "upsertSource") || !strings.Contains(lines[1], `title: null -> "A source"`) {
		t.Errorf("audit printed:\n%s", out)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"audit", "--since", "yesterday"}, "want an RFC 3339 time or a date"},
		{[]string{"audit", "--limit", "0"}, "limit must be between 1 and 1000"},
		{[]string{"audit", "--dataset", "a b"}, "not a valid id"},
	} {
		if _, _, err := runWith(t, tt.args, vars); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: %v, want an error saying %q", tt.args, err, tt.want)
		}
	}
}
