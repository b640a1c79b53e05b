package server

// Trusted documents: with them on, only saved queries' documents and
// registered hashes run.

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/gqlerror"

	casegraph "github.com/casegraph/casegraph"
)

// SavedDocuments says whether a document (by SHA-256) is a saved query's.
type SavedDocuments interface {
	SavedDocument(ctx context.Context, hash string) (bool, error)
}

// trustedDocuments is the trusted-documents mode: only documents whose
// SHA-256 is registered (a file of hashes, one a line) or belongs to a saved
// query may run; anything else is FORBIDDEN. It runs after the persisted-
// query extension, so a client may send the hash alone once the server
// knows the document.
type trustedDocuments struct {
	registered map[string]bool
	saved      SavedDocuments

	mu    sync.Mutex
	known map[string]time.Time // saved documents seen, and when: a minute's cache
}

// knownFor is how long a saved document stays trusted without asking
// Neo4j again: a deleted saved query stops being trusted within it, on
// every replica.
const knownFor = time.Minute

var hashLine = regexp.MustCompile(`^[0-9a-f]{64}$`)

// loadHashes reads a file of SHA-256 hashes, one a line; blank lines and
// lines starting with # are skipped.
func loadHashes(path string) (map[string]bool, error) {
	out := map[string]bool{}
	if path == "" {
		return out, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("trusted hashes: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !hashLine.MatchString(line) {
			return nil, fmt.Errorf("trusted hashes %s line %d: not a SHA-256 in hex", path, n)
		}
		out[line] = true
	}
	return out, sc.Err()
}

func (*trustedDocuments) ExtensionName() string                   { return "CasegraphTrustedDocuments" }
func (*trustedDocuments) Validate(graphql.ExecutableSchema) error { return nil }

func (t *trustedDocuments) MutateOperationParameters(ctx context.Context, raw *graphql.RawParams) *gqlerror.Error {
	hash := casegraph.DocumentHash(raw.Query)
	if t.registered[hash] {
		return nil
	}
	t.mu.Lock()
	seen, known := t.known[hash]
	t.mu.Unlock()
	if known && time.Since(seen) < knownFor {
		return nil
	}
	if t.saved != nil {
		ok, err := t.saved.SavedDocument(ctx, hash)
		if err != nil {
			return presentError(ctx, err)
		}
		if ok {
			t.mu.Lock()
			if len(t.known) > 10000 {
				t.known = map[string]time.Time{}
			}
			t.known[hash] = time.Now()
			t.mu.Unlock()
			return nil
		}
	}
	return codedError(casegraph.CodeForbidden, "UNTRUSTED_DOCUMENT",
		"this server runs trusted documents only: save the query (saveQuery) or register its SHA-256")
}
