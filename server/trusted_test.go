package server_test

// Automatic persisted queries and trusted documents.

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/casegraph/casegraph/server"
	"github.com/casegraph/casegraph/server/servertest"
)

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// TestPersistedQueries needs no database: relationTypes is the vocabulary.
func TestPersistedQueries(t *testing.T) {
	t.Parallel()
	h := servertest.Edge(t, servertest.Options{})
	const doc = `query Types { relationTypes { type } }`
	ext := map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": sha(doc)}}
	post := func(body map[string]any) servertest.Response {
		return h.PostRaw(mustJSON(t, body))
	}
	if res := post(map[string]any{"extensions": ext}); len(res.Errors) == 0 || res.Errors[0].Message != "PersistedQueryNotFound" {
		t.Errorf("an unknown hash: %s, want PersistedQueryNotFound", res.Raw)
	}
	if res := post(map[string]any{"query": doc, "extensions": ext}); len(res.Errors) > 0 {
		t.Fatalf("registering: %s", res.Raw)
	}
	if res := post(map[string]any{"extensions": ext}); len(res.Errors) > 0 || res.Data["relationTypes"] == nil {
		t.Errorf("by hash alone: %s", res.Raw)
	}
}

func TestTrustedDocuments(t *testing.T) {
	t.Parallel()
	const registered = `query Registered { relationTypes { label } }`
	file := filepath.Join(t.TempDir(), "hashes")
	if err := os.WriteFile(file, []byte("# trusted\n"+sha(registered)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	open := servertest.New(t, servertest.Options{})
	h := servertest.New(t, servertest.Options{Config: func(c *server.Config) {
		c.TrustedDocuments, c.TrustedHashesFile = true, file
	}})
	if res := h.Post(`query Other { relationTypes { type } }`, nil); res.Code() != "FORBIDDEN" {
		t.Errorf("an untrusted document: %s, want FORBIDDEN", res.Raw)
	}
	if res := h.Post(registered, nil); len(res.Errors) > 0 {
		t.Errorf("a registered document: %s", res.Raw)
	}
	// A saved query's document is trusted once saved (saved here through a
	// server in the open mode: saving is itself a document).
	doc := `query Saved { relationTypes { directed } }`
	name := saveQuery(t, open, doc, nil)
	_ = name
	if res := h.Post(doc, nil); len(res.Errors) > 0 {
		t.Errorf("a saved query's document: %s", res.Raw)
	}
}
