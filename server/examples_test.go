package server_test

import (
	"encoding/csv"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/dataset"
	"github.com/casegraph/casegraph/server/servertest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestExampleQueriesAsCSV runs every example saved query over the seed as
// CSV and checks it cell by cell against its golden file in
// testdata/examples (go test ./server -run ExampleQueries -update rewrites
// them): the table's shape is part of the API.
func TestExampleQueriesAsCSV(t *testing.T) {
	t.Parallel()
	h := servertest.New(t, servertest.Options{})
	ds, id := cyphertest.LoadSeed(t, h.Store)
	examples, err := dataset.SeedSavedQueries()
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range examples {
		t.Run(ex.Name, func(t *testing.T) {
			// Every default of the examples is an id of the seed.
			var defaults map[string]string
			if err := json.Unmarshal(ex.DefaultVariables, &defaults); err != nil {
				t.Fatal(err)
			}
			vars := map[string]any{}
			for k, v := range defaults {
				vars[k] = id(v)
			}
			name := saveQuery(t, h, ex.Document, vars)
			res, body := get(t, h, "/queries/"+name+"?format=csv")
			if res.StatusCode != 200 {
				t.Fatalf("%d %s", res.StatusCode, body)
			}
			body = strings.ReplaceAll(body, ds+":", "")
			golden := filepath.Join("testdata", "examples", ex.Name+".csv")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test ./server -run ExampleQueries -update writes it)", err)
			}
			got := readTable(t, body)
			if diff := cmp.Diff(readTable(t, string(want)), got); diff != "" {
				t.Errorf("cells (-want +got):\n%s", diff)
			}
		})
	}
}

// readTable reads CSV and checks that every row has the header's cells.
func readTable(t *testing.T, s string) [][]string {
	t.Helper()
	r := csv.NewReader(strings.NewReader(s))
	r.FieldsPerRecord = 0 // every row as long as the header
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatalf("not a table: %v\n%s", err, s)
	}
	return rows
}
