package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRewriteSlices(t *testing.T) {
	dir := t.TempDir()
	src := "package generated\n\nfunc f() {\n\tret := " + concurrentSlice + "0, false, nil)\n\t_ = ret\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "a.generated.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := rewriteSlices(dir); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "a.generated.go"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(got), concurrentSlice) || !strings.Contains(string(got), sequentialSlice) {
		t.Errorf("not rewritten:\n%s", got)
	}
}

func TestRewriteSlicesRefusesCodeWithoutLists(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.generated.go"), []byte("package generated\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := rewriteSlices(dir); err == nil {
		t.Error("code without a list to rewrite passed")
	}
}

func TestPerObjectFile(t *testing.T) {
	got := string(perObjectFile("generated", map[string][]string{"Person": {"sources", "relations"}, "Entity": {"sources"}}))
	for _, want := range []string{`"Entity": {"sources": true},`, `"Person": {"relations": true, "sources": true},`, "func marshalSlice("} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
}
