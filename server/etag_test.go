package server_test

// ETags of GET answers: /graphql and saved queries.

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server/servertest"
)

// cacheHeaders are the headers of a response that revalidation concerns.
type cacheHeaders struct {
	Status       int
	CacheControl string
	HasETag      bool
	Body         bool
}

func cacheHeadersOf(r rawResponse) cacheHeaders {
	return cacheHeaders{r.status, r.header.Get("Cache-Control"), r.header.Get("ETag") != "", len(r.body) > 0}
}

// revalidates checks the round trip of a clean GET answer: it carries a
// strong ETag and Cache-Control: private, no-cache, and the same request
// with If-None-Match of that tag (as sent, weak, in a list, or of the
// compressed form) gets 304 with no body, the tag it sent and the same
// headers; another tag gets the answer again.
func revalidates(t *testing.T, h *servertest.Harness, path string) {
	t.Helper()
	first := fetch(t, h, http.MethodGet, path, nil, "")
	if diff := cmp.Diff(cacheHeaders{200, "private, no-cache", true, true}, cacheHeadersOf(first)); diff != "" {
		t.Fatalf("%s: (-want +got):\n%s\n%s\n%v", path, diff, first.body, first.header)
	}
	tag := first.header.Get("ETag")
	if !strings.HasPrefix(tag, `"`) || !strings.HasSuffix(tag, `"`) {
		t.Fatalf("ETag %s is not a strong tag", tag)
	}
	zipped := fetch(t, h, http.MethodGet, path, map[string]string{"Accept-Encoding": "gzip"}, "")
	gzTag := zipped.header.Get("ETag")
	if zipped.header.Get("Content-Encoding") == "gzip" && gzTag != strings.TrimSuffix(tag, `"`)+`-gzip"` {
		t.Errorf("gzip ETag %s, want %s with -gzip", gzTag, tag)
	}
	for _, tt := range []struct {
		name, ifNoneMatch string
		want              cacheHeaders
		wantTag           string
	}{
		{"same tag", tag, cacheHeaders{304, "private, no-cache", true, false}, tag},
		{"weak", "W/" + tag, cacheHeaders{304, "private, no-cache", true, false}, tag},
		{"in a list", `"other", ` + tag, cacheHeaders{304, "private, no-cache", true, false}, tag},
		{"the gzip form's", gzTag, cacheHeaders{304, "private, no-cache", true, false}, gzTag},
		{"any", "*", cacheHeaders{304, "private, no-cache", true, false}, tag},
		{"another tag", `"other"`, cacheHeaders{200, "private, no-cache", true, true}, tag},
	} {
		res := fetch(t, h, http.MethodGet, path, map[string]string{"If-None-Match": tt.ifNoneMatch}, "")
		got := cacheHeadersOf(res)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s, If-None-Match %s: (-want +got):\n%s", path, tt.name, diff)
		}
		if res.header.Get("ETag") != tt.wantTag {
			t.Errorf("%s, If-None-Match %s: ETag %s, want %s", path, tt.name, res.header.Get("ETag"), tt.wantTag)
		}
	}
}

// TestETagOnGraphQLGET: GET answers of /graphql revalidate; an answer with
// errors, a refusal and a POST carry no ETag, and a POST no Cache-Control
// of this kind.
func TestETagOnGraphQLGET(t *testing.T) {
	t.Parallel()
	h := newEdge(t, nil)
	revalidates(t, h, "/graphql?query="+url.QueryEscape(`{ __typename }`))
	revalidates(t, h, "/graphql?query="+url.QueryEscape(typenames(60))) // compressed

	h.Refusing.Allow("ReadEntities")
	for _, tt := range []struct {
		name, method, path, body string
		want                     cacheHeaders
	}{
		{"validation failure", "GET", "/graphql?query=" + url.QueryEscape(`{ nope }`), "", cacheHeaders{200, "private, no-cache", false, true}},
		{"errors from the data", "GET", "/graphql?query=" + url.QueryEscape(`{ entity(id: "x") { id } }`), "", cacheHeaders{200, "private, no-cache", false, true}},
		{"mutation over GET", "GET", "/graphql?query=" + url.QueryEscape(`mutation { __typename }`), "", cacheHeaders{405, "private, no-cache", false, true}},
		{"POST", "POST", "/graphql", `{"query": "{ __typename }"}`, cacheHeaders{200, "", false, true}},
	} {
		res := fetch(t, h, tt.method, tt.path, map[string]string{"If-None-Match": "*"}, tt.body)
		if diff := cmp.Diff(tt.want, cacheHeadersOf(res)); diff != "" {
			t.Errorf("%s: (-want +got):\n%s\n%s", tt.name, diff, res.body)
		}
	}
}

// TestETagOnSavedQueries: GET /queries/{name} answers revalidate, as JSON
// and as CSV (with tags of their own); a POST and a refusal keep the
// no-store of the saved-query route.
func TestETagOnSavedQueries(t *testing.T) {
	t.Parallel()
	h := servertest.New(t, servertest.Options{})
	_, id := cyphertest.LoadSeed(t, h.Store)
	name := saveQuery(t, h, `query Q($id: ID!) { entity(id: $id) { name aliases } }`, map[string]any{"id": id("caesar")})
	revalidates(t, h, "/queries/"+name)
	revalidates(t, h, "/queries/"+name+"?format=csv")
	json := fetch(t, h, http.MethodGet, "/queries/"+name, nil, "")
	csv := fetch(t, h, http.MethodGet, "/queries/"+name+"?format=csv", nil, "")
	if json.header.Get("ETag") == csv.header.Get("ETag") {
		t.Errorf("JSON and CSV share the ETag %s", json.header.Get("ETag"))
	}
	post := fetch(t, h, http.MethodPost, "/queries/"+name, map[string]string{"If-None-Match": "*"}, `{}`)
	if diff := cmp.Diff(cacheHeaders{200, "no-store", false, true}, cacheHeadersOf(post)); diff != "" {
		t.Errorf("POST: (-want +got):\n%s", diff)
	}
	missing := fetch(t, h, http.MethodGet, "/queries/"+name+"-missing", map[string]string{"If-None-Match": "*"}, "")
	if diff := cmp.Diff(cacheHeaders{404, "no-store", false, true}, cacheHeadersOf(missing)); diff != "" {
		t.Errorf("missing: (-want +got):\n%s", diff)
	}
}
