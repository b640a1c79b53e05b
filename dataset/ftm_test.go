package dataset_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/dataset"
)

// ftmPython is the Python with the followthemoney package that `make
// ftm-deps` installs (CASEGRAPH_FTM_PYTHON to use another). Without it the
// test fails: FtM output nobody checked proves nothing.
func ftmPython(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("CASEGRAPH_FTM_PYTHON"); p != "" {
		return p
	}
	_, file, _, _ := runtime.Caller(0)
	p := filepath.Join(filepath.Dir(file), "..", ".venv-ftm", "bin", "python")
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("no followthemoney to check FtM with: run make ftm-deps (or set CASEGRAPH_FTM_PYTHON): %v", err)
	}
	return p
}

// TestFtMExportValidates exports a copy of the seed as FtM and has the
// followthemoney package check every entity: schema, properties, values.
// The copy's ids hold ':' (the test dataset's prefix), which FtM ids may
// not: they are encoded, and every reference follows.
func TestFtMExportValidates(t *testing.T) {
	store := cyphertest.Store(t, cypher.Options{Logger: zerolog.Nop()})
	ds, id := cyphertest.LoadSeed(t, store)
	var out bytes.Buffer
	w := dataset.NewFtMWriter(&out)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := store.Export(ctx, []string{ds}, cypher.Exporter{Source: w.Source, Entity: w.Entity, Relation: w.Relation}); err != nil {
		t.Fatal(err)
	}
	seed, err := dataset.Read(dataset.Seed())
	if err != nil {
		t.Fatal(err)
	}
	if w.Report.Entities != len(seed.Entities) || w.Report.Relations != len(seed.Relations) || w.Report.Sources != len(seed.Sources) {
		t.Errorf("report %+v, want the seed's %d entities, %d relations, %d sources", w.Report, len(seed.Entities), len(seed.Relations), len(seed.Sources))
	}

	cmd := exec.Command(ftmPython(t), filepath.Join("testdata", "ftm_check.py"))
	cmd.Stdin = bytes.NewReader(out.Bytes())
	checked, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("followthemoney refuses the export: %v\n%s", err, checked)
	}
	t.Logf("followthemoney checked: %s", bytes.TrimSpace(checked))

	// Every entity and relation is there under its FtM id, and the links
	// point at entities of the export.
	byID := map[string]dataset.FtMEntity{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var e dataset.FtMEntity
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatal(err)
		}
		byID[e.ID] = e
	}
	caesar, ok := byID[dataset.FtMID(id("caesar"))]
	if !ok || caesar.Schema != "Person" || caesar.Properties["name"][0] != "Caesar" {
		t.Errorf("Caesar: %+v", caesar)
	}
	authored := byID[dataset.FtMID(id("rel-001-desmond-de-silva-authored-caesar-report"))]
	if authored.Schema != "Documentation" || authored.Properties["entity"][0] != dataset.FtMID(id("desmond-de-silva")) ||
		authored.Properties["document"][0] != dataset.FtMID(id("caesar-report")) || authored.Properties["status"][0] != "reported" {
		t.Errorf("de Silva authored the report: %+v", authored)
	}
	for _, e := range byID {
		for _, prop := range []string{"entity", "document", "subject", "object", "member", "organization", "employee", "employer",
			"agent", "client", "director", "payer", "beneficiary", "person", "associate", "proof"} {
			for _, ref := range e.Properties[prop] {
				if _, ok := byID[ref]; !ok {
					t.Errorf("%s %s.%s points at %s, which the export lacks", e.ID, e.Schema, prop, ref)
				}
			}
		}
	}
}

func TestFtMID(t *testing.T) {
	for id, want := range map[string]string{
		"caesar":           "caesar",
		"rel-001.a":        "rel-001.a",
		"test-x:caesar":    "cg-x" + "746573742d783a636165736172",
		"under_score":      "cg-x" + "756e6465725f73636f7265",
		"cg-looks-encoded": "cg-x" + "63672d6c6f6f6b732d656e636f646564",
		"-dash-first":      "cg-x" + "2d646173682d6669727374",
	} {
		if got := dataset.FtMID(id); got != want {
			t.Errorf("FtMID(%q) = %q, want %q", id, got, want)
		}
	}
}
