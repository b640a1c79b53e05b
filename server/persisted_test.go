package server_test

// Persisted documents (documentId, Relay's doc_id) from a registered file,
// at the edge: none of these requests reaches a database.

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/casegraph/casegraph/server"
	"github.com/casegraph/casegraph/server/servertest"
)

const (
	graphQLResponseJSON = "application/graphql-response+json"
	persistedTypes      = "query PersistedTypes {\n  relationTypes {\n    type\n  }\n}\n"
	persistedMutation   = "mutation PersistedDelete {\n  deleteEntity(id: \"x\") {\n    id\n  }\n}\n"
	persistedSchema     = "query PersistedSchema {\n  __schema {\n    queryType {\n      name\n    }\n  }\n}\n"
	persistedDeferred   = "query PersistedDeferred {\n  ... @defer {\n    relationTypes {\n      type\n    }\n  }\n}\n"
	// Refused by its arguments, before it reads anything.
	persistedWatch = "subscription PersistedWatch {\n  watchPath(from: \"a\", to: \"b\", after: \"-1\") {\n    kind\n  }\n}\n"
)

// persistedFile writes a file of documents as relay-compiler's
// persistConfig does (id -> text, the id the SHA-256 of the text), with
// one custom id besides.
func persistedFile(t *testing.T) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "persisted.json")
	docs := map[string]string{sha(persistedTypes): persistedTypes, sha(persistedMutation): persistedMutation,
		sha(persistedSchema): persistedSchema, sha(persistedWatch): persistedWatch, sha(persistedDeferred): persistedDeferred, "x-app:types": persistedTypes}
	if err := os.WriteFile(file, mustJSON(t, docs), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

func persistedEdge(t *testing.T, config func(*server.Config)) *servertest.Harness {
	file := persistedFile(t)
	return servertest.Edge(t, servertest.Options{Config: func(c *server.Config) {
		c.PersistedDocumentsFile = file
		if config != nil {
			config(c)
		}
	}})
}

func TestPersistedDocuments(t *testing.T) {
	t.Parallel()
	h := persistedEdge(t, nil)
	types := func(res servertest.Response) bool {
		list, _ := res.Data["relationTypes"].([]any)
		return res.Status == http.StatusOK && len(res.Errors) == 0 && len(list) > 0
	}
	for _, tc := range []struct{ name, body string }{
		{"documentId", `{"documentId": "` + sha(persistedTypes) + `"}`},
		{"Relay's doc_id, with variables", `{"doc_id": "` + sha(persistedTypes) + `", "variables": {}}`},
		{"a sha256: id", `{"documentId": "sha256:` + sha(persistedTypes) + `"}`},
		{"a custom id", `{"documentId": "x-app:types"}`},
		{"both keys, the same id", `{"documentId": "x-app:types", "doc_id": "x-app:types"}`},
		{"the id and its very document", `{"documentId": "x-app:types", "query": ` + string(mustJSON(t, persistedTypes)) + `}`},
		{"a null query", `{"documentId": "x-app:types", "query": null}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if res := h.PostRaw([]byte(tc.body)); !types(res) {
				t.Errorf("%d %s, want the relation types", res.Status, res.Raw)
			}
		})
	}
	// graphql-sse's distinct connections: a POST with Accept:
	// text/event-stream alone, whose events answer a query or a
	// subscription named by id.
	post := func(t *testing.T, accept, body, want string) string {
		req, err := http.NewRequest(http.MethodPost, h.URL+"/graphql", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", accept)
		res := h.Do(req)
		if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, want) {
			t.Fatalf("Content-Type %q, want %s: %s", ct, want, res.Raw)
		}
		return res.Raw
	}
	sse := func(t *testing.T, body string) string { return post(t, "text/event-stream", body, "text/event-stream") }
	t.Run("a query over SSE", func(t *testing.T) {
		if got := sse(t, `{"documentId": "x-app:types"}`); !strings.Contains(got, `data: {"data":{"relationTypes":[{"type":`) {
			t.Errorf("got %s, want the relation types in an event", got)
		}
	})
	t.Run("a subscription over SSE", func(t *testing.T) {
		if got := sse(t, `{"documentId": "`+sha(persistedWatch)+`"}`); !strings.Contains(got, `"BAD_USER_INPUT"`) || strings.Contains(got, "PERSISTED") {
			t.Errorf("got %s, want the subscription's own refusal of its cursor", got)
		}
	})
	// urql's Accept: the JSON types, then the stream. The kind of the
	// operation the id names chooses.
	const both = "application/graphql-response+json, application/json, text/event-stream"
	t.Run("a query, accepting JSON and a stream", func(t *testing.T) {
		post(t, both, `{"doc_id": "x-app:types"}`, graphQLResponseJSON)
	})
	t.Run("a subscription, accepting JSON and a stream", func(t *testing.T) {
		post(t, both, `{"doc_id": "`+sha(persistedWatch)+`"}`, "text/event-stream")
	})
	t.Run("@defer, accepting JSON and multipart", func(t *testing.T) {
		got := post(t, "application/json, multipart/mixed", `{"documentId": "`+sha(persistedDeferred)+`"}`, "multipart/mixed")
		if !strings.Contains(got, `"relationTypes"`) {
			t.Errorf("got %s, want the deferred part", got)
		}
	})
	t.Run("GET", func(t *testing.T) {
		for _, key := range []string{"documentId", "doc_id"} {
			if res := h.Get("/graphql?" + key + "=" + sha(persistedTypes)); !types(res) {
				t.Errorf("%s: %d %s, want the relation types", key, res.Status, res.Raw)
			}
		}
	})
}

func TestPersistedDocumentRefusals(t *testing.T) {
	t.Parallel()
	h := persistedEdge(t, func(c *server.Config) { c.Introspection = false })
	unknown := strings.Repeat("0", 64)
	for _, tc := range []struct {
		name, body   string
		status       int
		code, reason string
	}{
		{"an unknown id", `{"documentId": "` + unknown + `"}`, 200, "BAD_USER_INPUT", "PERSISTED_QUERY_NOT_FOUND"},
		{"an unknown doc_id", `{"doc_id": "sha256:` + unknown + `"}`, 200, "BAD_USER_INPUT", "PERSISTED_QUERY_NOT_FOUND"},
		{"an unknown custom id", `{"documentId": "relay-42"}`, 200, "BAD_USER_INPUT", "PERSISTED_QUERY_NOT_FOUND"},
		{"a query that is not the id's document", `{"documentId": "x-app:types", "query": "{ __typename }"}`, 200, "BAD_USER_INPUT", "PERSISTED_DOCUMENT_MISMATCH"},
		{"two ids", `{"documentId": "x-app:types", "doc_id": "` + sha(persistedTypes) + `"}`, 400, "BAD_USER_INPUT", "INVALID_REQUEST"},
		{"an id twice, differing", `{"documentId": "x-app:types", "documentId": "other"}`, 400, "BAD_USER_INPUT", "INVALID_REQUEST"},
		{"an id that is not a string", `{"documentId": 42}`, 400, "BAD_USER_INPUT", "INVALID_REQUEST"},
		{"an id that is not an id", `{"documentId": "../../etc/passwd"}`, 400, "BAD_USER_INPUT", "INVALID_REQUEST"},
		{"an id too long", `{"documentId": "` + strings.Repeat("a", 300) + `"}`, 400, "BAD_USER_INPUT", "INVALID_REQUEST"},
		// The guard sees the document as if its text had been sent.
		{"introspection, with it off", `{"documentId": "` + sha(persistedSchema) + `"}`, 200, "FORBIDDEN", "INTROSPECTION_DISABLED"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := h.PostRaw([]byte(tc.body))
			if res.Status != tc.status || res.Code() != tc.code || res.Reason() != tc.reason || res.Data != nil {
				t.Errorf("%d %s, want %d %s %s and no data", res.Status, res.Raw, tc.status, tc.code, tc.reason)
			}
		})
	}
	t.Run("an unknown id under application/graphql-response+json", func(t *testing.T) {
		req, err := http.NewRequest(http.MethodPost, h.URL+"/graphql", strings.NewReader(`{"documentId": "`+unknown+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/graphql-response+json")
		if res := h.Do(req); res.Status != http.StatusBadRequest || res.Reason() != "PERSISTED_QUERY_NOT_FOUND" {
			t.Errorf("%d %s, want 400 PERSISTED_QUERY_NOT_FOUND", res.Status, res.Raw)
		}
	})
	t.Run("a mutation over GET", func(t *testing.T) {
		res := h.Get("/graphql?documentId=" + sha(persistedMutation))
		if res.Status != http.StatusMethodNotAllowed || res.Reason() != "METHOD_NOT_ALLOWED" {
			t.Errorf("%d %s, want 405 METHOD_NOT_ALLOWED", res.Status, res.Raw)
		}
	})
	t.Run("GET, an unknown id", func(t *testing.T) {
		if res := h.Get("/graphql?documentId=" + unknown); res.Reason() != "PERSISTED_QUERY_NOT_FOUND" {
			t.Errorf("%d %s, want PERSISTED_QUERY_NOT_FOUND", res.Status, res.Raw)
		}
	})
	t.Run("GET, two ids", func(t *testing.T) {
		q := url.Values{"documentId": {"x-app:types"}, "doc_id": {unknown}}
		if res := h.Get("/graphql?" + q.Encode()); res.Status != http.StatusBadRequest || res.Reason() != "INVALID_REQUEST" {
			t.Errorf("%d %s, want 400 INVALID_REQUEST", res.Status, res.Raw)
		}
	})
	if calls := h.Refusing.Calls(); len(calls) > 0 {
		t.Errorf("the store was called: %v", calls)
	}
}

// TestPersistedDocumentsAtTheEdge: a request by id meets the edge's
// checks as any other, before its id is looked up.
func TestPersistedDocumentsAtTheEdge(t *testing.T) {
	t.Parallel()
	h := persistedEdge(t, func(c *server.Config) { c.Anonymous = nil })
	if res := h.PostRaw([]byte(`{"documentId": "x-app:types"}`)); res.Status != http.StatusUnauthorized || res.Code() != "UNAUTHENTICATED" {
		t.Errorf("without credentials: %d %s, want 401 UNAUTHENTICATED", res.Status, res.Raw)
	}
	if res := h.Get("/graphql?documentId=x-app:types"); res.Status != http.StatusUnauthorized {
		t.Errorf("GET without credentials: %d %s, want 401", res.Status, res.Raw)
	}
}

// TestPersistedDocumentsTrusted: in the trusted-documents mode a
// registered document is trusted, by its id or its text; others are not.
func TestPersistedDocumentsTrusted(t *testing.T) {
	t.Parallel()
	file := persistedFile(t)
	h := servertest.Edge(t, servertest.Options{
		Config: func(c *server.Config) { c.PersistedDocumentsFile, c.TrustedDocuments = file, true },
		Store:  func(s server.Store) server.Store { return noSavedQueries{s} },
	})
	if res := h.PostRaw([]byte(`{"documentId": "x-app:types"}`)); len(res.Errors) > 0 {
		t.Errorf("by id: %s", res.Raw)
	}
	if res := h.Post(persistedTypes, nil); len(res.Errors) > 0 {
		t.Errorf("by its text: %s", res.Raw)
	}
	if res := h.Post(`{ relationTypes { type } }`, nil); res.Code() != "FORBIDDEN" {
		t.Errorf("another document: %s, want FORBIDDEN", res.Raw)
	}
}

// noSavedQueries is a store that holds no saved query.
type noSavedQueries struct{ server.Store }

func (noSavedQueries) SavedDocument(context.Context, string) (bool, error) { return false, nil }

// TestPersistedDocumentsFromAPQ: a document this replica holds from
// automatic persisted queries runs by its sha256: id too.
func TestPersistedDocumentsFromAPQ(t *testing.T) {
	t.Parallel()
	h := servertest.Edge(t, servertest.Options{})
	const doc = `query FromAPQ { relationTypes { label } }`
	ext := map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": sha(doc)}}
	if res := h.PostRaw([]byte(`{"documentId": "sha256:` + sha(doc) + `"}`)); res.Reason() != "PERSISTED_QUERY_NOT_FOUND" {
		t.Errorf("before APQ knows it: %s, want PERSISTED_QUERY_NOT_FOUND", res.Raw)
	}
	if res := h.PostRaw(mustJSON(t, map[string]any{"query": doc, "extensions": ext})); len(res.Errors) > 0 {
		t.Fatalf("registering: %s", res.Raw)
	}
	if res := h.PostRaw([]byte(`{"documentId": "sha256:` + sha(doc) + `"}`)); len(res.Errors) > 0 || res.Data["relationTypes"] == nil {
		t.Errorf("by id: %s", res.Raw)
	}
}

// TestPersistedDocumentsFile: a file that is not one of documents stops
// the server at start, saying where and why.
func TestPersistedDocumentsFile(t *testing.T) {
	t.Parallel()
	const doc = `{ relationTypes { type } }`
	for _, tc := range []struct{ name, file, want string }{
		{"not JSON", `{"a": `, "not valid JSON"},
		{"a list", `["{ __typename }"]`, "not a JSON object"},
		{"a document that is not a string", `{"a": {"text": "{ __typename }"}}`, `the document of "a" is not a string`},
		{"an id twice", `{"a": "{ __typename }", "a": "{ __typename }"}`, `the id "a" is there twice`},
		{"an id that is not an id", `{"a b": "{ __typename }"}`, `"a b" is not a document id`},
		{"a sha256: id of another document", `{"sha256:` + sha("other") + `": ` + string(mustJSON(t, doc)) + `}`, "is not the SHA-256 of its document"},
		{"a document that does not parse", `{"a": "{ relationTypes { "}`, `the document of "a" does not parse`},
		{"a document of no operation", `{"a": "fragment F on Query { __typename }"}`, `the document of "a" holds no operation`},
		{"an empty document", `{"a": ""}`, `the document of "a"`},
		{"two values", `{} {}`, "more than one JSON value"},
		{"too many documents", func() string {
			var b strings.Builder
			b.WriteString("{")
			for i := range 20001 {
				if i > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, `"d%06d": "{ __typename }"`, i)
			}
			return b.String() + "}"
		}(), "more than 20000 documents"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "persisted.json")
			if err := os.WriteFile(file, []byte(tc.file), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg := server.DefaultConfig()
			cfg.PersistedDocumentsFile = file
			_, err := server.New(cfg, zerolog.Nop(), servertest.NewRefusing(t), nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), file) {
				t.Errorf("got %v, want an error naming the file and %q", err, tc.want)
			}
		})
	}
	t.Run("too large", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "persisted.json")
		if err := os.WriteFile(file, []byte(`{"a": "{ __typename }`+strings.Repeat(" ", 32<<20)+`"}`), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg := server.DefaultConfig()
		cfg.PersistedDocumentsFile = file
		if _, err := server.New(cfg, zerolog.Nop(), servertest.NewRefusing(t), nil); err == nil || !strings.Contains(err.Error(), "larger than") {
			t.Errorf("got %v, want larger than", err)
		}
	})
	t.Run("missing", func(t *testing.T) {
		cfg := server.DefaultConfig()
		cfg.PersistedDocumentsFile = filepath.Join(t.TempDir(), "none.json")
		if _, err := server.New(cfg, zerolog.Nop(), servertest.NewRefusing(t), nil); err == nil || !strings.Contains(err.Error(), "persisted documents") {
			t.Errorf("got %v, want an error about persisted documents", err)
		}
	})
}
