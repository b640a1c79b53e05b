package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// generatedCode is a generated file with one call of every rewrite but
// the one whose text is without.
func generatedCode(without string) string {
	var b strings.Builder
	b.WriteString("package generated\n\nfunc f() {\n")
	for _, r := range rewrites {
		if r.from == without {
			continue
		}
		// A call, completed to a statement where its text stops mid-call.
		call := r.from
		if strings.HasSuffix(call, ", ") {
			call = "_ = " + call + "0, false, nil)"
		}
		b.WriteString("\t" + call + "\n")
	}
	b.WriteString("}\n")
	return b.String()
}

func TestRewriteCalls(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.generated.go"), []byte(generatedCode("")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := rewriteCalls(dir); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "a.generated.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rewrites {
		if strings.Contains(string(got), r.from) || !strings.Contains(string(got), r.to) {
			t.Errorf("%q not rewritten:\n%s", r.from, got)
		}
	}
}

// TestRewriteCallsRefusesCodeWithoutACall: code without a call of one of
// the rewrites (a gqlgen that writes it another way) fails the generator.
func TestRewriteCallsRefusesCodeWithoutACall(t *testing.T) {
	for _, r := range rewrites {
		missing := r.from
		t.Run(missing, func(t *testing.T) {
			dir := t.TempDir()
			src := generatedCode(missing)
			if err := os.WriteFile(filepath.Join(dir, "a.generated.go"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := rewriteCalls(dir); err == nil || !strings.Contains(err.Error(), missing) {
				t.Errorf("code without %q: %v, want an error naming it", missing, err)
			}
		})
	}
}

func TestPerObjectFile(t *testing.T) {
	got := string(perObjectFile("generated", map[string][]string{"Person": {"sources", "relations"}, "Entity": {"sources"}}))
	for _, want := range []string{`"Entity": {"sources": true},`, `"Person": {"relations": true, "sources": true},`, "func marshalSlice(", "func newDeferredGroup("} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
}
