package server_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/klauspost/compress/zstd"

	"github.com/casegraph/casegraph/server/servertest"
)

// rawResponse is a response as it came over the wire (not decompressed).
type rawResponse struct {
	status int
	header http.Header
	body   []byte
}

// fetch sends a request with the given headers through the harness's
// client. With Accept-Encoding set, Go's client leaves the body as sent.
func fetch(t *testing.T, h *servertest.Harness, method, path string, header map[string]string, body string) rawResponse {
	t.Helper()
	req, err := http.NewRequest(method, h.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	if req.Header.Get("Accept-Encoding") == "" {
		req.Header.Set("Accept-Encoding", "identity")
	}
	res, body := roundTripWith(t, h.Client(), req)
	return rawResponse{res.StatusCode, res.Header, []byte(body)}
}

// decoded is a response's body decompressed by its Content-Encoding.
func decoded(t testing.TB, r rawResponse) []byte {
	t.Helper()
	var rd io.Reader
	var err error
	switch enc := r.header.Get("Content-Encoding"); enc {
	case "":
		return r.body
	case "gzip":
		rd, err = gzip.NewReader(bytes.NewReader(r.body))
	case "zstd":
		var z *zstd.Decoder
		z, err = zstd.NewReader(bytes.NewReader(r.body))
		if err == nil {
			defer z.Close()
			rd = z
		}
	default:
		t.Fatalf("unknown Content-Encoding %q", enc)
	}
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(rd)
	if err != nil {
		t.Fatalf("%s body does not decompress: %v", r.header.Get("Content-Encoding"), err)
	}
	return b
}

// typenames is a query whose answer is about 30 bytes a field.
func typenames(n int) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		b.WriteString(" t" + strings.Repeat("x", 10) + string(rune('a'+i%26)) + string(rune('a'+i/26)) + ": __typename")
	}
	return b.String() + " }"
}

// TestCompression: an answer of 1 KB or more goes out compressed in the
// encoding the client accepts, and decompresses to the identity answer;
// a smaller one, a HEAD, and a client that accepts no encoding get it as
// it is; every response varies by Accept-Encoding; /metrics, which
// compresses itself, is compressed once.
func TestCompression(t *testing.T) {
	t.Parallel()
	h := newEdge(t, nil)
	big := "/graphql?query=" + url.QueryEscape(typenames(60))
	small := "/graphql?query=" + url.QueryEscape(`{ __typename }`)
	post := `{"query": ` + strings.ReplaceAll(`"`+typenames(60)+`"`, "\n", " ") + `}`
	identity := fetch(t, h, http.MethodGet, big, nil, "").body
	if len(identity) < 1024 {
		t.Fatalf("the big answer is %d bytes, want 1 KB or more: %s", len(identity), identity)
	}
	assets, err := os.ReadDir(filepath.Join("..", "web", "dist", "assets"))
	if err != nil || len(assets) == 0 {
		t.Fatalf("web/dist/assets: %v", err)
	}
	asset := "/assets/" + assets[0].Name()

	type want struct {
		Status   int
		Encoding string
		Vary     bool
	}
	tests := []struct {
		name, method, path, acceptEncoding, body string
		want                                     want
	}{
		{"gzip", "GET", big, "gzip", "", want{200, "gzip", true}},
		{"zstd", "GET", big, "zstd", "", want{200, "zstd", true}},
		{"both: zstd", "GET", big, "gzip, deflate, br, zstd", "", want{200, "zstd", true}},
		{"gzip preferred by q", "GET", big, "gzip;q=1, zstd;q=0.5", "", want{200, "gzip", true}},
		{"gzip refused", "GET", big, "gzip;q=0", "", want{200, "", true}},
		{"identity", "GET", big, "identity", "", want{200, "", true}},
		{"brotli alone: not offered", "GET", big, "br", "", want{200, "", true}},
		{"small", "GET", small, "gzip", "", want{200, "", true}},
		{"HEAD", "HEAD", big, "gzip", "", want{200, "", true}},
		{"POST", "POST", "/graphql", "gzip", post, want{200, "gzip", true}},
		{"asset", "GET", asset, "gzip", "", want{200, "gzip", true}},
		{"explorer page", "GET", "/", "gzip", "", want{200, "gzip", true}},
		{"GraphiQL page", "GET", "/graphiql", "gzip", "", want{200, "", true}}, // under 1 KB
		{"metrics", "GET", "/metrics", "gzip", "", want{200, "gzip", true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := fetch(t, h, tt.method, tt.path, map[string]string{"Accept-Encoding": tt.acceptEncoding}, tt.body)
			got := want{res.status, res.header.Get("Content-Encoding"), strings.Contains(strings.Join(res.header.Values("Vary"), ","), "Accept-Encoding")}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Fatalf("(-want +got):\n%s", diff)
			}
			body := decoded(t, res)
			switch {
			case tt.path == big && tt.method == "GET":
				if diff := cmp.Diff(string(identity), string(body)); diff != "" {
					t.Errorf("decompressed answer (-identity +got):\n%s", diff)
				}
				if res.header.Get("Content-Encoding") != "" && len(res.body) >= len(identity)/2 {
					t.Errorf("compressed to %d bytes from %d", len(res.body), len(identity))
				}
			case tt.method == "HEAD":
				if len(res.body) != 0 {
					t.Errorf("HEAD has a body of %d bytes", len(res.body))
				}
			case tt.name == "metrics":
				if !bytes.Contains(body, []byte("# HELP")) {
					t.Errorf("/metrics decompressed once is not the text format: %.100q", body)
				}
			case tt.method == "POST":
				if !bytes.Contains(body, []byte(`"data":{`)) {
					t.Errorf("POST answer: %.200s", body)
				}
			}
		})
	}
}
