package server

// Revalidation of GET answers: Cache-Control, a strong ETag for a clean
// answer, and 304 for a request that already has it.

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"mime"
	"net/http"
	"strings"
)

// etagGzipSuffix is what compressed (compress.go) adds to the ETag of a
// compressed response, with "gzip" replaced by "zstd" for zstd.
const etagGzipSuffix = "-gzip"

// revalidate serves the GET (and HEAD) answers of /graphql and
// /queries/{name} with Cache-Control: private, no-cache (an answer
// depends on the caller's credentials: no shared cache may keep it, and
// the caller's must ask again each time) and, when the answer is a clean
// one (200, no error in it), a strong ETag, the hash of its body; a
// request whose If-None-Match holds that tag (or the tag of its gzip or
// zstd form) gets 304 without a body. Other GET responses keep the
// Cache-Control their handler set (no-store for a saved query's refusal),
// or get private, no-cache. The operation still runs: the ETag saves
// the bytes on the wire, not the work. A POST is never cached, and
// neither is an error or a partial answer (its errors may be passing).
func revalidate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			next.ServeHTTP(w, r)
			return
		}
		buf := &bufferedResponse{header: w.Header()}
		next.ServeHTTP(buf, r)
		status := buf.status
		if status == 0 {
			status = http.StatusOK
		}
		if status != http.StatusOK || !cleanAnswer(w.Header(), buf.body.Bytes()) {
			// A refusal may say no-store (writeJSON does).
			if w.Header().Get("Cache-Control") == "" {
				w.Header().Set("Cache-Control", "private, no-cache")
			}
			w.WriteHeader(status)
			_, _ = w.Write(buf.body.Bytes())
			return
		}
		w.Header().Set("Cache-Control", "private, no-cache")
		tag := strongETag(buf.body.Bytes())
		if matched, ok := ifNoneMatch(r.Header.Get("If-None-Match"), tag); ok {
			h := w.Header()
			for _, k := range []string{"Content-Type", "Content-Length", "Content-Disposition"} {
				h.Del(k)
			}
			// The tag the client holds: the compressed form's when it
			// sent that one.
			h.Set("ETag", matched)
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", tag)
		w.WriteHeader(status)
		_, _ = w.Write(buf.body.Bytes())
	})
}

// strongETag is a quoted, URL-safe base64 SHA-256 of body, cut to 128 bits.
func strongETag(body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + base64.RawURLEncoding.EncodeToString(sum[:16]) + `"`
}

// ifNoneMatch reports whether the If-None-Match header value holds tag, as
// it is or as the compressed forms' tags, compared weakly (RFC 9110
// 13.1.2: a W/ prefix does not matter), or is "*"; it returns the entry
// that matched.
func ifNoneMatch(header, tag string) (string, bool) {
	if header == "" {
		return "", false
	}
	bare := strings.TrimSuffix(tag, `"`)
	for entry := range strings.SplitSeq(header, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "*" {
			return tag, true
		}
		opaque := strings.TrimPrefix(entry, "W/")
		switch opaque {
		case tag, bare + etagGzipSuffix + `"`, bare + "-zstd" + `"`:
			return opaque, true
		}
	}
	return "", false
}

// cleanAnswer reports whether a 200 body is an answer without errors: a
// CSV without the X-Casegraph-Errors header, or JSON without "errors".
func cleanAnswer(h http.Header, body []byte) bool {
	if h.Get("X-Casegraph-Errors") != "" {
		return false
	}
	media, _, _ := mime.ParseMediaType(h.Get("Content-Type"))
	if media != "application/json" && media != graphQLResponseJSON {
		return true
	}
	var res struct {
		Errors json.RawMessage `json:"errors"`
	}
	return json.Unmarshal(body, &res) == nil && (len(res.Errors) == 0 || string(res.Errors) == "null")
}

// bufferedResponse keeps a handler's status and body; its headers are the
// real response's.
type bufferedResponse struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferedResponse) Header() http.Header { return b.header }

func (b *bufferedResponse) WriteHeader(status int) {
	if b.status == 0 {
		b.status = status
	}
}

func (b *bufferedResponse) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.body.Write(p)
}
