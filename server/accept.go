package server

import (
	"mime"
	"strconv"
	"strings"
)

// This file reads an Accept header (RFC 9110, section 12.5.1) and picks,
// from the media types the server can send, the one the client ranks
// best. It is pure: negotiate.go says what the server can send for an
// operation.

// mediaRange is one media range of an Accept header.
type mediaRange struct {
	typ, sub string            // lower case; "*" for a wildcard
	params   map[string]string // lower-case names, q left out
	q        float64
}

// parseAccept reads the values of a request's Accept headers into their
// media ranges, in the client's order. A range that does not parse (or
// has a q that is not a number from 0 to 1) is left out, as if not sent;
// no header at all is "*/*". The lone "*" that some clients send is read
// as "*/*".
func parseAccept(values []string) []mediaRange {
	if len(values) == 0 {
		return []mediaRange{{typ: "*", sub: "*", q: 1}}
	}
	var out []mediaRange
	for _, v := range values {
		for _, part := range splitQuoted(v) {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			if part == "*" || strings.HasPrefix(part, "*;") {
				part = "*/*" + part[1:]
			}
			media, params, err := mime.ParseMediaType(part)
			if err != nil {
				continue
			}
			typ, sub, ok := strings.Cut(media, "/")
			if !ok || (typ == "*" && sub != "*") {
				continue
			}
			r := mediaRange{typ: typ, sub: sub, params: params, q: 1}
			if s, ok := params["q"]; ok {
				q, err := strconv.ParseFloat(s, 64)
				if err != nil || q < 0 || q > 1 {
					continue
				}
				r.q = q
				delete(params, "q")
			}
			out = append(out, r)
		}
	}
	return out
}

// splitQuoted splits a header value at its commas, except those inside a
// quoted parameter value.
func splitQuoted(s string) []string {
	var out []string
	start, quoted := 0, false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if quoted {
				i++
			}
		case '"':
			quoted = !quoted
		case ',':
			if !quoted {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// offer is a media type the server can send.
type offer struct {
	media  string            // type/subtype, lower case
	params map[string]string // what the server sends with it, lower-case names
	// named: the client must name the type itself; a wildcard ("*/*",
	// "text/*") does not take it. Streams are this: a client that asks
	// for anything is ready for one answer, not for events or parts.
	named bool
}

// charset "utf-8" is all this server sends; a range asking for another
// charset does not match.
const utf8Charset = "utf-8"

// matches says whether r takes o, and how specifically: 0 for no match,
// 1 for "*/*", 2 for "type/*", 3 for "type/subtype", plus one for each of
// r's parameters that o has too. A parameter of r that o has with another
// value (a charset other than UTF-8 included) means no match; one that o
// does not know is ignored (Apollo Client sends deferSpec, some send
// version parameters no server reads).
func (r mediaRange) matches(o offer) int {
	typ, sub, _ := strings.Cut(o.media, "/")
	var n int
	switch {
	case r.typ == typ && r.sub == sub:
		n = 3
	case o.named:
		return 0
	case r.typ == typ && r.sub == "*":
		n = 2
	case r.typ == "*":
		n = 1
	default:
		return 0
	}
	for k, v := range r.params {
		if k == "charset" {
			if !strings.EqualFold(v, utf8Charset) {
				return 0
			}
			continue
		}
		if have, ok := o.params[k]; ok {
			if !strings.EqualFold(have, v) {
				return 0
			}
			n++
		}
	}
	return n
}

// quality is the q the client gives o, and the place in its header of the
// range that gave it (-1 where none matches): the most specific range
// that matches decides, the first of equally specific ones.
func quality(ranges []mediaRange, o offer) (q float64, at int) {
	best, at := 0, -1
	for i, r := range ranges {
		if n := r.matches(o); n > best {
			best, at, q = n, i, r.q
		}
	}
	return q, at
}

// choose picks the offer the client ranks best: the highest q, then the
// one its header names first, then the first in offers (the server's
// order of preference, which decides between the types a wildcard takes).
// ok is false when the client accepts none (each q 0 or no range).
func choose(ranges []mediaRange, offers []offer) (best offer, ok bool) {
	bestQ, bestAt := 0.0, 0
	for _, o := range offers {
		q, at := quality(ranges, o)
		if q <= 0 {
			continue
		}
		if !ok || q > bestQ || (q == bestQ && at < bestAt) {
			best, bestQ, bestAt, ok = o, q, at, true
		}
	}
	return best, ok
}
