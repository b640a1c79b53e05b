package server

import (
	"testing"
)

// urql's, Apollo Client's and graphql-request's default Accept headers.
const (
	urqlAccept           = "application/graphql-response+json, application/graphql+json, application/json, text/event-stream, multipart/mixed"
	urqlSubscribeAccept  = "text/event-stream, multipart/mixed"
	apolloAccept         = "application/graphql-response+json,application/json;q=0.9"
	apolloDeferAccept    = "multipart/mixed;deferSpec=20220824,application/json;q=0.9"
	graphqlRequestAccept = "application/graphql-response+json, application/json"
)

// TestChooseMedia: the media type a POST (and a GET) is answered in, for
// each kind of operation, from what the clients send and from the
// corners of RFC 9110's Accept: q-values, wildcards, parameters, order.
func TestChooseMedia(t *testing.T) {
	t.Parallel()
	const (
		js  = "application/json"
		gql = graphQLResponseJSON
		sse = "text/event-stream"
		mp  = "multipart/mixed"
	)
	tests := []struct {
		name   string
		accept []string // nil: no header
		// want for a plain operation, a deferred one, a subscription (a
		// kind accepted in nothing gets a plain one's: the guard refuses
		// it with 406), and a GET
		plain, deferred, subscription string
		get                           string
	}{
		{"no Accept", nil, js, js, js, js},
		{"*/*", []string{"*/*"}, js, js, js, js},
		{"a lone *", []string{"*"}, js, js, js, js},
		{"application/*", []string{"application/*"}, js, js, js, js},
		{"a browser's", []string{"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}, js, js, js, js},
		{"urql", []string{urqlAccept}, gql, mp, sse, gql},
		{"urql's subscriptions", []string{urqlSubscribeAccept}, sse, mp, sse, ""},
		{"Apollo Client", []string{apolloAccept}, gql, gql, gql, gql},
		{"Apollo Client with @defer", []string{apolloDeferAccept}, mp, mp, mp, js},
		{"graphql-request", []string{graphqlRequestAccept}, gql, gql, gql, gql},
		{"graphql-sse", []string{sse}, sse, sse, sse, ""},
		{"q before order", []string{"application/json;q=0.5, application/graphql-response+json"}, gql, gql, gql, gql},
		{"order on a tie", []string{"application/json, application/graphql-response+json"}, js, js, js, js},
		{"SSE preferred by q", []string{"application/json;q=0.1, text/event-stream"}, sse, sse, sse, js},
		{"a wildcard does not take a stream", []string{"text/*"}, "", "", "", ""},
		{"q=0 refuses", []string{"application/json;q=0, */*"}, gql, gql, gql, gql},
		{"the most specific range decides", []string{"application/*;q=0.2, application/json"}, js, js, js, js},
		{"charset utf-8", []string{"application/json; charset=utf-8"}, js, js, js, js},
		{"another charset", []string{"application/json; charset=iso-8859-1"}, "", "", "", ""},
		{"another deferSpec", []string{"multipart/mixed; deferSpec=20230621"}, "", "", "", ""},
		{"quoted comma", []string{`multipart/mixed; x="a,b", application/json;q=0.5`}, mp, mp, mp, js},
		{"two headers", []string{"text/html", "application/graphql-response+json"}, gql, gql, gql, gql},
		{"bad ranges skipped", []string{"nonsense, application/json;q=2, */json, application/graphql-response+json"}, gql, gql, gql, gql},
		{"nothing acceptable", []string{"text/html"}, "", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ranges := parseAccept(tt.accept)
			for _, c := range []struct {
				kind opKind
				want string
			}{{plainOp, tt.plain}, {deferredOp, tt.deferred}, {subscriptionOp, tt.subscription}} {
				if got := choosePOST(ranges, func() opKind { return c.kind }); got != c.want {
					t.Errorf("POST of kind %d: got %q, want %q", c.kind, got, c.want)
				}
			}
			var get string
			if o, ok := choose(ranges, offersOfGET); ok {
				get = o.media
			}
			if get != tt.get {
				t.Errorf("GET: got %q, want %q", get, tt.get)
			}
		})
	}
}

// TestChooseMediaReadsTheBodyOnlyWhenItMatters: a client whose Accept
// gets every operation the same type has its body left unread.
func TestChooseMediaReadsTheBodyOnlyWhenItMatters(t *testing.T) {
	t.Parallel()
	for accept, want := range map[string]bool{
		"":                   false,
		apolloAccept:         false,
		graphqlRequestAccept: false,
		"text/event-stream":  false,
		apolloDeferAccept:    false,
		urqlAccept:           true,
		urqlSubscribeAccept:  true,
	} {
		var values []string
		if accept != "" {
			values = []string{accept}
		}
		peeked := false
		choosePOST(parseAccept(values), func() opKind { peeked = true; return plainOp })
		if peeked != want {
			t.Errorf("Accept %q: read the body %v, want %v", accept, peeked, want)
		}
	}
}

// TestParseAccept: q-values and parameters as read.
func TestParseAccept(t *testing.T) {
	t.Parallel()
	got := parseAccept([]string{`Multipart/Mixed; deferSpec=20220824; q=0.5, */*;q=0`})
	if len(got) != 2 || got[0].typ != "multipart" || got[0].sub != "mixed" || got[0].q != 0.5 ||
		got[0].params["deferspec"] != "20220824" || len(got[0].params) != 1 || got[1].typ != "*" || got[1].q != 0 {
		t.Errorf("got %+v", got)
	}
}
