package server

// Response compression (gzip and zstd) of bodies over about a kilobyte.

import (
	"net/http"

	"github.com/klauspost/compress/gzhttp"
)

// minCompressSize is the smallest response body that is compressed: below
// about a kilobyte the saving is a few hundred bytes at most, less than
// what compressing costs the server and the client.
const minCompressSize = 1024

// compressed wraps the whole service: a response of at least
// minCompressSize bytes goes out compressed with zstd or gzip, whichever
// the client's Accept-Encoding prefers (zstd on a tie: smaller, and faster
// to make), with Vary: Accept-Encoding on every response. It leaves alone a
// body that is already compressed (a Content-Encoding set by the handler,
// as /metrics sets its own, or a compressed media type), a HEAD, and a
// range (206). Streaming responses still flush. A compressed response's
// ETag gets a suffix (-gzip, -zstd): a strong validator names one sequence
// of bytes, and revalidate (etag.go) takes a tag with either suffix as the
// same answer.
// Brotli is not offered: zstd, which current browsers accept, comes with
// the same middleware and compresses JSON about as well, faster; brotli
// would be one more dependency (a pure-Go encoder) for little gain.
func compressed(next http.Handler) (http.Handler, error) {
	wrap, err := gzhttp.NewWrapper(gzhttp.MinSize(minCompressSize), gzhttp.SuffixETag(etagGzipSuffix))
	if err != nil {
		return nil, err
	}
	zipped := wrap(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if isStream(r) {
			// A WebSocket is hijacked, and events must go out as they
			// come: neither goes through a compressor.
			next.ServeHTTP(w, r)
			return
		}
		zipped.ServeHTTP(w, r)
	}), nil
}
