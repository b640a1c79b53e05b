package server

// Persisted documents: a request names a document the operator registered
// by its id instead of sending its text, as the GraphQL-over-HTTP
// persisted-documents appendix has it (documentId) and as Relay's
// network layer sends it (doc_id), in a POST's body or a GET's query
// string. The documents are a file in relay-compiler's format (a JSON
// object, id -> text), read at start; an id "sha256:<hex>" (or the bare
// hex) also names a registered document by its SHA-256, or one this
// replica holds from automatic persisted queries.
//
// Only the id is read at the edge (after authentication and the rate
// limit, with the body's other checks); the document is looked up inside
// gqlgen, first of its extensions, and runs from there as if its text had
// been sent: the trusted-documents check, the limits, validation and the
// gate all see it.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"

	casegraph "github.com/casegraph/casegraph"
)

// The bounds of a persisted-documents file: relay-compiler writes one
// document per operation, and an app has hundreds, not tens of thousands.
const (
	maxPersistedFileBytes = 32 << 20
	maxPersistedDocuments = 20000
	maxDocumentIDLength   = 256
)

// documentIDSyntax is the appendix's document identifier: a custom one
// (unreserved characters), or a prefixed one (sha256:, or x-...:...).
var documentIDSyntax = regexp.MustCompile(`^(sha256:[0-9a-f]{64}|x-[A-Za-z0-9._~-]+:[A-Za-z0-9._~-]+|[A-Za-z0-9._~-]+)$`)

// sha256ID is an id that names a document by its SHA-256: "sha256:<hex>",
// or the bare hex (which relay-compiler's SHA256 ids are).
var sha256ID = regexp.MustCompile(`^(?:sha256:)?([0-9a-f]{64})$`)

// persistedDocuments resolves document ids. It is gqlgen's first
// extension: a request whose id it knows runs that document.
type persistedDocuments struct {
	byID   map[string]string // the file's, by the ids it gives
	byHash map[string]string // the same, by their SHA-256
	apq    graphql.Cache[string]
}

func newPersistedDocuments(byID map[string]string, apq graphql.Cache[string]) *persistedDocuments {
	p := &persistedDocuments{byID: byID, byHash: make(map[string]string, len(byID)), apq: apq}
	for _, text := range byID {
		p.byHash[casegraph.DocumentHash(text)] = text
	}
	return p
}

// lookup returns the document id names.
func (p *persistedDocuments) lookup(ctx context.Context, id string) (string, bool) {
	if text, ok := p.byID[id]; ok {
		return text, true
	}
	m := sha256ID.FindStringSubmatch(id)
	if m == nil {
		return "", false
	}
	if text, ok := p.byHash[m[1]]; ok {
		return text, true
	}
	if p.apq != nil {
		return p.apq.Get(ctx, m[1])
	}
	return "", false
}

func (*persistedDocuments) ExtensionName() string                   { return "CasegraphPersistedDocuments" }
func (*persistedDocuments) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationParameters puts the document the request's id names in
// its place. An id it does not know is PERSISTED_QUERY_NOT_FOUND, as APQ
// answers a hash it does not know; a query sent with an id is refused
// unless it is that document.
func (p *persistedDocuments) MutateOperationParameters(ctx context.Context, raw *graphql.RawParams) *gqlerror.Error {
	id, sent := ctx.Value(documentIDKey{}).(string)
	if !sent || overWebSocket(ctx) {
		return nil
	}
	text, ok := p.lookup(ctx, id)
	if !ok {
		return codedError(casegraph.CodeBadUserInput, "PERSISTED_QUERY_NOT_FOUND",
			"no document is registered with the id %q (the operator registers them: persisted-documents)", truncate(id, 80))
	}
	if raw.Query != "" && raw.Query != text {
		return codedError(casegraph.CodeBadUserInput, "PERSISTED_DOCUMENT_MISMATCH",
			"the query sent is not the document %q names: send the id or the query, not both", truncate(id, 80))
	}
	raw.Query = text
	return nil
}

// documentIDKey holds the document id a request sent.
type documentIDKey struct{}

// documentIDSent says whether the request named a document by its id.
func documentIDSent(ctx context.Context) bool {
	_, ok := ctx.Value(documentIDKey{}).(string)
	return ok
}

// withDocumentID returns r with the document id its JSON body names, if
// any, or answers 400 (INVALID_REQUEST) and returns false when the id is
// not a string, or the body names two. Keys match as the transport's do,
// in any case, every occurrence counted.
func withDocumentID(w http.ResponseWriter, r *http.Request, body []byte) (*http.Request, bool) {
	var ids struct {
		DocumentID jsonValues `json:"documentId"`
		DocID      jsonValues `json:"doc_id"`
	}
	if json.Unmarshal(body, &ids) != nil { // requestShape has refused what is not an object
		return r, true
	}
	var values []string
	for _, v := range append(ids.DocumentID, ids.DocID...) {
		if bytes.Equal(v, []byte("null")) {
			continue
		}
		var s string
		if json.Unmarshal(v, &s) != nil {
			writeReasonedError(w, http.StatusBadRequest, "INVALID_REQUEST", "documentId (or doc_id) must be a string")
			return r, false
		}
		values = append(values, s)
	}
	return documentIDOf(w, r, values)
}

// documentIDInURL is withDocumentID for a GET's query string.
func documentIDInURL(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		r, ok := documentIDOf(w, r, append(q["documentId"], q["doc_id"]...))
		if ok {
			next.ServeHTTP(w, r)
		}
	})
}

// documentIDOf returns r with the id of values (each occurrence of the
// id's keys), or refuses ids that disagree or do not have the
// appendix's syntax.
func documentIDOf(w http.ResponseWriter, r *http.Request, values []string) (*http.Request, bool) {
	if len(values) == 0 {
		return r, true
	}
	id := values[0]
	for _, v := range values[1:] {
		if v != id {
			writeReasonedError(w, http.StatusBadRequest, "INVALID_REQUEST", "documentId and doc_id name different documents: send one id")
			return r, false
		}
	}
	if len(id) > maxDocumentIDLength || !documentIDSyntax.MatchString(id) {
		writeReasonedError(w, http.StatusBadRequest, "INVALID_REQUEST", fmt.Sprintf(
			"documentId must be a document id of at most %d letters, digits and -._~ (or sha256:<hex>)", maxDocumentIDLength))
		return r, false
	}
	return r.WithContext(context.WithValue(r.Context(), documentIDKey{}, id)), true
}

// jsonValues keeps each value decoded into it, every occurrence of a
// repeated key included.
type jsonValues []json.RawMessage

// UnmarshalJSON appends the value.
func (v *jsonValues) UnmarshalJSON(b []byte) error {
	*v = append(*v, append(json.RawMessage(nil), b...))
	return nil
}

// loadPersistedDocuments reads a file of persisted documents in
// relay-compiler's format: one JSON object of ids to document texts.
// Each id has the appendix's syntax (a sha256: id is its document's
// SHA-256), each document parses within maxTokens; the file holds at
// most maxPersistedDocuments in maxPersistedFileBytes. Anything else
// refuses the file, with where and why.
func loadPersistedDocuments(path string, maxTokens int) (map[string]string, error) {
	out := map[string]string{}
	if path == "" {
		return out, nil
	}
	fail := func(format string, args ...any) error {
		return fmt.Errorf("persisted documents %s: %s", path, fmt.Sprintf(format, args...))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("persisted documents: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxPersistedFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("persisted documents: %w", err)
	}
	if len(data) > maxPersistedFileBytes {
		return nil, fail("larger than %d bytes", maxPersistedFileBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fail("not a JSON object of ids to documents, as relay-compiler's persistConfig writes")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fail("not valid JSON (%v)", err)
		}
		id, ok := tok.(string) // an object's key is a string
		if !ok {
			return nil, fail("not valid JSON (a key that is not a string)")
		}
		var text string
		if err := dec.Decode(&text); err != nil {
			var notString *json.UnmarshalTypeError
			if errors.As(err, &notString) {
				return nil, fail("the document of %q is not a string", truncate(id, 80))
			}
			return nil, fail("not valid JSON (%v)", err)
		}
		switch _, dup := out[id]; {
		case dup:
			return nil, fail("the id %q is there twice", truncate(id, 80))
		case len(id) > maxDocumentIDLength || !documentIDSyntax.MatchString(id):
			return nil, fail("%q is not a document id (at most %d letters, digits and -._~, or sha256:<hex>)", truncate(id, 80), maxDocumentIDLength)
		case len(id) == len("sha256:")+64 && id[:7] == "sha256:" && id[7:] != casegraph.DocumentHash(text):
			return nil, fail("the id %q is not the SHA-256 of its document", truncate(id, 80))
		case len(out) == maxPersistedDocuments:
			return nil, fail("more than %d documents", maxPersistedDocuments)
		}
		doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: text}, maxTokens)
		if err != nil {
			return nil, fail("the document of %q does not parse: %s", truncate(id, 80), truncate(err.Error(), 200))
		}
		if len(doc.Operations) == 0 {
			return nil, fail("the document of %q holds no operation", truncate(id, 80))
		}
		out[id] = text
	}
	if _, err := dec.Token(); err != nil {
		return nil, fail("not valid JSON (%v)", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fail("more than one JSON value")
	}
	return out, nil
}
