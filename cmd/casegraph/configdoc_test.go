package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var updateDocs = flag.Bool("update", false, "rewrite "+configDocPath+" from the flag binder (make docs)")

// TestConfigurationDoc: docs/configuration.md is what the binder renders,
// so the settings are described once, in their usage text.
func TestConfigurationDoc(t *testing.T) {
	var got bytes.Buffer
	if err := writeConfigMarkdown(&got); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "..", configDocPath)
	if *updateDocs {
		if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v: run make docs", err)
	}
	if diff := cmp.Diff(string(want), got.String()); diff != "" {
		t.Errorf("%s is not what the flag binder renders: run make docs and commit it (-want +got):\n%s", configDocPath, diff)
	}
}

// TestEverySettingRecorded: every flag of serve goes through the binder,
// so none is missing from docs/configuration.md.
func TestEverySettingRecorded(t *testing.T) {
	cfg := defaultServeConfig()
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	var bound []setting
	b := binder{fs: fs, getenv: func(string) string { return "" }, bound: &bound}
	cfg.register(&b)
	recorded := map[string]bool{}
	for _, s := range bound {
		if s.group.title == "" {
			t.Errorf("--%s is registered before any group", s.flag)
		}
		recorded[s.flag] = true
	}
	fs.VisitAll(func(f *flag.Flag) {
		if !recorded[f.Name] {
			t.Errorf("--%s is not registered through the binder, so docs/configuration.md leaves it out", f.Name)
		}
	})
}
