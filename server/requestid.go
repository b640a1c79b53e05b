package server

// Request ids: the X-Request-Id a client sends, when it is well formed, or
// a new one.

import (
	"net/http"

	"github.com/rs/xid"
)

// requestIDHeader carries a request's id, both ways: a client (or a proxy
// before it) may name its request, and every answer names the id its log
// lines carry.
const requestIDHeader = "X-Request-Id"

// maxRequestID is the longest request id taken from a client.
const maxRequestID = 64

// requestID returns the client's X-Request-Id when it is well-formed (1 to
// 64 letters, digits, '.', '_' or '-': safe in a log line, a header and a
// metric exemplar), and otherwise a new one (an xid: 20 characters,
// sortable by time).
func requestID(r *http.Request) string {
	if id := r.Header.Get(requestIDHeader); wellFormedID(id) {
		return id
	}
	return xid.New().String()
}

func wellFormedID(id string) bool {
	if len(id) == 0 || len(id) > maxRequestID {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}
