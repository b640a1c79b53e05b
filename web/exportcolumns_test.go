package web_test

// The columns of the explorer's CSV and GraphML exports, checked against
// what the API reads (TestExplorer's export step, explorer_test.go).

import (
	"encoding/csv"
	"regexp"
	"strings"
	"testing"
)

// checkExportColumns: the CSV and GraphML of a view carry what a
// published table needs besides names (issue 26 item 8): an entity's
// description and aliases (none of a protected person shown redacted),
// and of a relation its sources' URLs and each citation's grade.
func checkExportColumns(t *testing.T, table, graphml, silva string) {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(table)).ReadAll()
	if err != nil || len(rows) < 2 {
		t.Fatalf("CSV does not parse (%v) or has no rows", err)
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	for _, name := range []string{"description", "aliases", "sourceUrls", "grades"} {
		if _, ok := col[name]; !ok {
			t.Fatalf("CSV header %v lacks %s", rows[0], name)
		}
		if !strings.Contains(graphml, `attr.name="`+name+`"`) {
			t.Errorf("GraphML declares no key %s", name)
		}
	}
	grade := regexp.MustCompile(`^[A-F][1-6]( \| [A-F][1-6])*$`)
	var silvaSeen, graded bool
	for _, r := range rows[1:] {
		switch {
		case r[col["record"]] == "entity" && r[col["id"]] == silva:
			silvaSeen = true
			if !strings.Contains(r[col["description"]], "war-crimes prosecutor") || r[col["aliases"]] != "Desmond de Silva" {
				t.Errorf("de Silva's row: description %q, aliases %q", r[col["description"]], r[col["aliases"]])
			}
		case r[col["record"]] == "entity" && r[col["name"]] == "Protected person":
			if r[col["description"]] != "" || r[col["aliases"]] != "" {
				t.Errorf("a protected person's row shows description %q, aliases %q", r[col["description"]], r[col["aliases"]])
			}
		case r[col["record"]] == "relation" && r[col["sources"]] != "":
			if !grade.MatchString(r[col["grades"]]) {
				t.Errorf("relation %s cites %q but its grades are %q", r[col["id"]], r[col["sources"]], r[col["grades"]])
			}
			graded = graded || strings.Contains(r[col["sourceUrls"]], "http")
		}
	}
	if !silvaSeen {
		t.Error("de Silva has no row")
	}
	if !graded {
		t.Error("no relation's row gives a source URL")
	}
}
